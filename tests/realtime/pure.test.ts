// Pure parts of the hub: frame codec and the recovery decision.
import { describe, expect, it } from "vitest";
import type { Writable } from "node:stream";
import * as ws from "ws";
import { decodeFrame, encodeError, encodePublicationPush, encodeSubscribeReply, encodeTextFrame } from "../../server/realtime/codec.ts";
import { commandMethod, type Publication } from "../../server/realtime/protocol.ts";
import { decideRecovery, withinTtl } from "../../server/realtime/recovery.ts";

// ws's own frame parser (a named export of ws's ES module, ws/lib/receiver.js), which @types/ws does not declare.
const { Receiver } = ws as unknown as { Receiver: new (options: { isServer: boolean }) => Writable };

const pub = (offset: number, time = 0): Publication => ({ offset, epoch: "e1", data: `{"n":${offset}}`, time });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => pub(from + i));

describe("codec", () => {
  it("splits newline-batched commands in order, skipping blank lines and dropping unknown fields", () => {
    const r = decodeFrame('{"connect":{"name":"js"},"id":1}\n\n{"subscribe":{"channel":"football","flag":1},"id":2,"future":1}');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.commands.map(commandMethod)).toEqual(["connect", "subscribe"]);
    expect(r.commands[1]).toEqual({ id: 2, subscribe: { channel: "football", flag: 1 } });
  });

  it("rejects bad JSON, non-objects, bad ids and empty frames", () => {
    for (const f of ["{", "[1]", "42", '"x"', "null", '{"id":"1"}', '{"id":-1}', "", "\n"]) {
      expect(decodeFrame(f).ok, f).toBe(false);
    }
  });

  it("knows the pong and unknown commands", () => {
    expect(commandMethod({})).toBeNull();
    expect(commandMethod({ id: 3 })).toBe("unknown");
    expect(commandMethod({ id: 3, rpc: {} })).toBe("rpc");
  });

  it("encodes replies and pushes as the client expects", () => {
    expect(JSON.parse(encodePublicationPush("football", pub(7)))).toEqual({
      push: { channel: "football", pub: { data: { n: 7 }, offset: 7 } },
    });
    expect(JSON.parse(encodeError(4, { code: 104, message: "method not found", temporary: false }))).toEqual({
      id: 4,
      error: { code: 104, message: "method not found" },
    });
    expect(
      JSON.parse(encodeSubscribeReply(2, { recoverable: true, epoch: "e1", offset: 3, was_recovering: true, recovered: true, publications: range(4, 5) })),
    ).toEqual({
      id: 2,
      subscribe: {
        recoverable: true,
        epoch: "e1",
        offset: 3,
        was_recovering: true,
        recovered: true,
        publications: [
          { data: { n: 4 }, offset: 4 },
          { data: { n: 5 }, offset: 5 },
        ],
      },
    });
    expect(JSON.parse(encodeSubscribeReply(2, {}))).toEqual({ id: 2, subscribe: {} });
  });
});

describe("encodeTextFrame", () => {
  it("frames text the way a WebSocket client reads it, for each length encoding", () => {
    const texts = ["", "é", "x".repeat(125), "ü".repeat(63), "y".repeat(126), "z".repeat(65535), "w".repeat(65536), `${"a\n".repeat(40_000)}ß`];
    const received: string[] = [];
    const receiver = new Receiver({ isServer: false }); // ws's own parser, as a client: server frames are unmasked
    receiver.on("message", (data: Buffer, isBinary: boolean) => received.push(isBinary ? "<binary>" : data.toString("utf8")));
    for (const text of texts) receiver.write(encodeTextFrame(text));
    expect(received).toEqual(texts);
    expect(encodeTextFrame("hi")).toEqual(Buffer.from([0x81, 2, 0x68, 0x69]));
  });
});

describe("decideRecovery", () => {
  const top = { offset: 10, epoch: "e1" };
  it("replays exactly the missed publications", () => {
    const r = decideRecovery({ offset: 7, epoch: "e1" }, { top, publications: range(8, 10) });
    expect(r).toEqual({ recovered: true, publications: range(8, 10), from: 7 });
  });
  it("is recovered with nothing to replay at the top, and accepts an empty epoch", () => {
    expect(decideRecovery({ offset: 10, epoch: "e1" }, { top, publications: [] })).toMatchObject({ recovered: true, publications: [] });
    expect(decideRecovery({ offset: 10, epoch: "" }, { top, publications: [] })).toMatchObject({ recovered: true });
  });
  it("refuses a trimmed history, a hole, a different epoch or a future position", () => {
    expect(decideRecovery({ offset: 5, epoch: "e1" }, { top, publications: range(8, 10) }).recovered).toBe(false);
    expect(decideRecovery({ offset: 7, epoch: "e1" }, { top, publications: [pub(8), pub(10)] }).recovered).toBe(false);
    expect(decideRecovery({ offset: 7, epoch: "e1" }, { top, publications: range(8, 9) }).recovered).toBe(false);
    expect(decideRecovery({ offset: 7, epoch: "old" }, { top, publications: range(8, 10) }).recovered).toBe(false);
    expect(decideRecovery({ offset: 11, epoch: "e1" }, { top, publications: [] }).recovered).toBe(false);
  });
  it("withinTtl keeps the suffix younger than the TTL", () => {
    const pubs = [pub(1, 1000), pub(2, 5000), pub(3, 9000)];
    expect(withinTtl(pubs, 5, 10_000).map((p) => p.offset)).toEqual([2, 3]);
    expect(withinTtl(pubs, 0, 10_000)).toHaveLength(3);
    expect(withinTtl(pubs, 0.5, 10_000)).toHaveLength(0);
  });
});
