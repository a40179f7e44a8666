// The hub against the real, unmodified centrifuge 5.8 client and raw sockets.
import { afterEach, describe, expect, it } from "vitest";
import type { Centrifuge, ClientEvents } from "centrifuge";
import { createMemoryBroker, HubError, type Broker } from "../../server/realtime/index.ts";
import { newClient, RawClient, Recorder, startServer, tappedWebSocket, waitUntil, type TestServer } from "./helpers.ts";

const CLIENT_EVENTS = ["connecting", "connected", "disconnected", "error"] as const;
const SUB_EVENTS = ["subscribing", "subscribed", "unsubscribed", "publication", "error"] as const;

let server: TestServer | undefined;
const clients: Centrifuge[] = [];
const raws: RawClient[] = [];

afterEach(async () => {
  clients.splice(0).forEach((c) => c.disconnect());
  await Promise.all(raws.splice(0).map((r) => r.close()));
  await server?.close();
  server = undefined;
});

function track(c: Centrifuge): { client: Centrifuge; rec: Recorder<ClientEvents> } {
  clients.push(c);
  return { client: c, rec: new Recorder(c, CLIENT_EVENTS) };
}

function raw(url: string): RawClient {
  const r = new RawClient(url);
  raws.push(r);
  return r;
}

async function connectedSubscriber(channel = "football", frames?: string[]) {
  const { client, rec } = track(newClient(server!.url, frames ? { websocket: tappedWebSocket(frames) } : {}));
  const sub = client.newSubscription(channel);
  const subRec = new Recorder(sub, SUB_EVENTS);
  sub.subscribe();
  client.connect();
  const connected = await rec.next("connected");
  const subscribed = await subRec.next("subscribed");
  return { client, rec, sub, subRec, connected, subscribed };
}

describe("realtime hub with the real centrifuge client", () => {
  it("connects and reports a client id", async () => {
    server = await startServer();
    const { client, rec } = track(newClient(server.url));
    client.connect();
    const ctx = await rec.next("connected");
    expect(typeof ctx.client).toBe("string");
    expect(ctx.client.length).toBeGreaterThan(0);
    expect(client.state).toBe("connected");
    expect(server.hub.connectionCount()).toBe(1);
  });

  it("batches the optimistic connect+subscribe frame and answers both in one frame", async () => {
    server = await startServer();
    const frames: string[] = [];
    const { subscribed } = await connectedSubscriber("football", frames);
    expect(subscribed.channel).toBe("football");
    expect(subscribed.recoverable).toBe(true);
    const first = frames[0]!.split("\n").map((l) => JSON.parse(l));
    expect(first).toHaveLength(2);
    expect(first[0]).toMatchObject({ id: 1, connect: { ping: 25, pong: true } });
    expect(first[0].connect.expires).toBeUndefined();
    expect(first[1]).toMatchObject({ id: 2, subscribe: { recoverable: true, offset: 0 } });
  });

  it("delivers publications in order with offsets", async () => {
    server = await startServer();
    const { subRec } = await connectedSubscriber();
    const a = await server.hub.publish("football", { slug: "ajax-psv", home: { score: 1 } });
    const b = await server.hub.publish("football", { slug: "ajax-psv", home: { score: 2 } });
    expect(b.offset).toBe(a.offset + 1);
    expect(a.epoch).toBe(b.epoch);
    const p1 = await subRec.next("publication");
    const p2 = await subRec.next("publication");
    expect(p1).toMatchObject({ channel: "football", data: { slug: "ajax-psv", home: { score: 1 } }, offset: 1 });
    expect(p2).toMatchObject({ data: { home: { score: 2 } }, offset: 2 });
  });

  it("rejects a channel outside the configuration with 102 and keeps the connection", async () => {
    server = await startServer();
    const { client, rec } = track(newClient(server.url));
    const bad = client.newSubscription("basketball");
    const badRec = new Recorder(bad, SUB_EVENTS);
    bad.subscribe();
    client.connect();
    const unsub = await badRec.next("unsubscribed");
    expect(unsub.code).toBe(102);
    expect(bad.state).toBe("unsubscribed");
    expect(client.state).toBe("connected");
    expect(rec.all("disconnected")).toHaveLength(0);
    await expect(server.hub.publish("basketball", {})).rejects.toMatchObject({ code: 102 });
  });

  it("unsubscribes; on resubscribe the client recovers what it missed meanwhile", async () => {
    server = await startServer();
    const frames: string[] = [];
    const { sub, subRec } = await connectedSubscriber("football", frames);
    sub.unsubscribe();
    await subRec.next("unsubscribed");
    // the client's unsubscribed event is local; publish only once the server has processed it
    await waitUntil(() => frames.some((f) => f.includes('"unsubscribe":{}')));
    await server.hub.publish("football", { n: 1 });
    // centrifuge-js keeps its stream position across unsubscribe() and asks to recover from it
    sub.subscribe();
    const resub = await subRec.next("subscribed");
    expect(resub).toMatchObject({ wasRecovering: true, recovered: true, hasRecoveredPublications: true });
    await server.hub.publish("football", { n: 2 });
    expect((await subRec.next("publication")).data).toEqual({ n: 1 });
    expect((await subRec.next("publication")).data).toEqual({ n: 2 });
    expect(subRec.all("publication")).toHaveLength(2);
    // the server really dropped the subscription: n:1 came inside the subscribe reply, not as a push
    const pushes = frames.flatMap((f) => f.split("\n")).filter((l) => l.includes('"push"'));
    expect(pushes.map((l) => JSON.parse(l).push.pub.offset)).toEqual([2]);
  });

  it("answers RPCs, 104 for an unknown method, HubError codes, and 100 for a crash", async () => {
    const logged: unknown[] = [];
    server = await startServer({ logger: { info: () => {}, warn: () => {}, error: (...a) => void logged.push(a) } });
    server.hub.registerRpc("sport:football", (data, ctx) => ({ data: [{ slug: "a" }], echo: data, clientId: ctx.clientId }));
    server.hub.registerRpc("sport:denied", () => {
      throw new HubError(103, "permission denied");
    });
    server.hub.registerRpc("sport:crash", () => {
      throw new Error("boom");
    });
    const { client, rec } = track(newClient(server.url));
    client.connect();
    const { client: clientId } = await rec.next("connected");
    const res = await client.rpc("sport:football", { lang: "en", period: "live" });
    expect(res.data).toEqual({ data: [{ slug: "a" }], echo: { lang: "en", period: "live" }, clientId });
    await expect(client.rpc("sport:nope", {})).rejects.toMatchObject({ code: 104, message: "method not found" });
    await expect(client.rpc("sport:denied", {})).rejects.toMatchObject({ code: 103, message: "permission denied" });
    await expect(client.rpc("sport:crash", {})).rejects.toMatchObject({ code: 100, temporary: true });
    expect(logged).toHaveLength(1);
    expect(client.state).toBe("connected");
    // send() is fire-and-forget and ignored; the connection keeps working afterwards
    await client.send({ any: "thing" });
    await expect(client.rpc("sport:football", null)).resolves.toMatchObject({ data: { echo: null } });
  });

  it("pings, the real client pongs and stays connected", async () => {
    server = await startServer({ pingIntervalSeconds: 1, pongTimeoutSeconds: 0.5 });
    const frames: string[] = [];
    const { client, rec } = track(newClient(server.url, { websocket: tappedWebSocket(frames) }));
    client.connect();
    await rec.next("connected");
    await waitUntil(() => frames.filter((f) => f === "{}").length >= 3); // the SDK has no ping event
    expect(client.state).toBe("connected");
    expect(rec.all("connecting")).toHaveLength(1); // only the initial one
    expect(rec.all("disconnected")).toHaveLength(0);
  });

  it("drops a client that never answers pings with 3012 'no pong'", async () => {
    server = await startServer({ pingIntervalSeconds: 1, pongTimeoutSeconds: 0.5 });
    const r = raw(server.url);
    await r.opened;
    r.send(JSON.stringify({ connect: { name: "js" }, id: 1 }));
    const closed = await r.closed;
    expect(closed).toEqual({ code: 3012, reason: "no pong" });
    expect(r.frames).toContain("{}"); // it was pinged first
  });

  it("a raw client can batch connect+subscribe; replies come before the publication", async () => {
    server = await startServer();
    const r = raw(server.url);
    await r.opened;
    r.send('{"connect":{"name":"js"},"id":1}\n{"subscribe":{"channel":"football","flag":1,"unknown_field":true},"id":2}');
    const [first] = await r.frameCount(1);
    const lines = first!.split("\n").map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0].id).toBe(1);
    expect(lines[0].connect.client).toEqual(expect.any(String));
    expect(lines[1]).toEqual({ id: 2, subscribe: expect.objectContaining({ recoverable: true, offset: 0 }) });
    await server.hub.publish("football", { x: 1 });
    await r.frameCount(2);
    expect(JSON.parse(r.frames[1]!)).toEqual({ push: { channel: "football", pub: { data: { x: 1 }, offset: 1 } } });
  });

  it("publications of one event-loop turn reach every subscriber as one frame, in order, across fan-out chunks", async () => {
    server = await startServer({ fanoutChunk: 2 }); // 6 subscribers: the fan-out yields the loop twice per batch
    const rs = Array.from({ length: 5 }, () => raw(server!.url));
    for (const r of rs) {
      await r.opened;
      r.send('{"connect":{},"id":1}\n{"subscribe":{"channel":"football"},"id":2}');
      await r.frameCount(1);
    }
    const real = await connectedSubscriber();
    await Promise.all([1, 2, 3].map((n) => server!.hub.publish("football", { n })));
    for (const r of rs) await r.frameCount(2); // published in a later turn, the next one is a frame of its own
    await server.hub.publish("football", { n: 4 });
    for (const r of rs) {
      await r.frameCount(3);
      expect(r.frames.slice(1).map((f) => f.split("\n").map((l) => JSON.parse(l).push.pub.offset))).toEqual([[1, 2, 3], [4]]);
    }
    const got = [];
    for (let i = 0; i < 4; i++) got.push(await real.subRec.next("publication"));
    expect(got.map((p) => [p.offset, p.data.n])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
  });

  it("holds publications made while a subscribe is in flight until after its reply", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const inner = createMemoryBroker();
    let historyCalled!: () => void;
    const historyReached = new Promise<void>((r) => (historyCalled = r));
    const slow: Broker = {
      ...inner,
      async history(channel, opts) {
        const snapshot = await inner.history(channel, opts);
        historyCalled();
        await gate; // publications land between the history read and the reply
        return snapshot;
      },
    };
    server = await startServer({ broker: slow });
    const r = raw(server.url);
    await r.opened;
    r.send('{"connect":{},"id":1}\n{"subscribe":{"channel":"football"},"id":2}');
    await historyReached;
    await server.hub.publish("football", { n: 1 });
    await server.hub.publish("football", { n: 2 });
    release();
    const deadline = Date.now() + 5000;
    while (r.messages().length < 4 && Date.now() < deadline) await r.frameCount(r.frames.length + 1, 5000);
    const msgs = r.messages();
    expect(msgs.map((m) => m.id ?? `pub${m.push?.pub?.offset}`)).toEqual([1, 2, "pub1", "pub2"]);
    expect(msgs[1]?.subscribe?.offset).toBe(0);
    await inner.close();
  });

  it("recover with flag 2 (reject unrecovered) and an unknown position gets 112; plain recover gets recovered:false", async () => {
    server = await startServer();
    await server.hub.publish("football", { n: 1 });
    const r = raw(server.url);
    await r.opened;
    r.send(
      '{"connect":{},"id":1}\n{"subscribe":{"channel":"football","recover":true,"offset":5,"epoch":"nope","flag":3},"id":2}\n' +
        '{"subscribe":{"channel":"footballDetail","recover":true,"offset":5,"epoch":"nope"},"id":3}\n' +
        '{"subscribe":{"channel":"football","recover":true,"offset":0,"flag":3},"id":4}',
    );
    await waitUntil(() => r.messages().length >= 4);
    const [, rejected, unrecovered, recovered] = r.messages();
    expect(rejected).toEqual({ id: 2, error: { code: 112, message: "unrecoverable position" } });
    expect(unrecovered?.subscribe).toMatchObject({ was_recovering: true, offset: 0, recoverable: true });
    expect(unrecovered?.subscribe?.recovered).toBeUndefined();
    // the failed subscribe left nothing behind: the same channel subscribes (and recovers) fine
    expect(recovered?.subscribe).toMatchObject({ was_recovering: true, recovered: true, offset: 0, publications: [{ data: { n: 1 }, offset: 1 }] });
  });

  it("a slow RPC does not hold up later commands of the same connection", async () => {
    server = await startServer();
    let finish!: (v: unknown) => void;
    server.hub.registerRpc("slow", () => new Promise((r) => (finish = r)));
    const { client, sub, subRec } = await connectedSubscriber();
    const slow = client.rpc("slow", {});
    sub.unsubscribe();
    sub.subscribe();
    expect(await subRec.next("subscribed", (c) => c.wasRecovering)).toBeDefined();
    finish({ late: true });
    await expect(slow).resolves.toEqual({ data: { late: true } });
  });

  it("closes with 1009 on a frame over 64 KB: the client ends disconnected (code 3), no reconnect", async () => {
    server = await startServer();
    server.hub.registerRpc("echo", (d) => d);
    const { client, rec } = track(newClient(server.url));
    client.connect();
    await rec.next("connected");
    const rpc = client.rpc("echo", { blob: "x".repeat(70 * 1024) });
    const disc = await rec.next("disconnected");
    await expect(rpc).rejects.toBeDefined();
    expect(disc.code).toBe(3);
    expect(disc.reason).toBe("message size limit exceeded");
    expect(client.state).toBe("disconnected");
    expect(rec.all("connecting")).toHaveLength(1);
  });

  it("a 3500-range disconnect is terminal for the client", async () => {
    server = await startServer();
    const { client, rec, connected } = await connectedSubscriber();
    expect(server.hub.disconnectClient(connected.client, 3503, "force disconnect")).toBe(true);
    const disc = await rec.next("disconnected");
    expect(disc).toMatchObject({ code: 3503, reason: "force disconnect" });
    expect(client.state).toBe("disconnected");
    expect(rec.all("connecting")).toHaveLength(1);
  });

  it("a 3000-range disconnect makes the client reconnect and resubscribe", async () => {
    server = await startServer();
    const { rec, subRec, connected } = await connectedSubscriber();
    server.hub.disconnectAll(3011, "force reconnect");
    const connecting = await rec.next("connecting", (c) => c.code === 3011);
    expect(connecting.reason).toBe("force reconnect");
    const again = await rec.next("connected");
    expect(again.client).not.toBe(connected.client);
    const resub = await subRec.next("subscribed");
    expect(resub.wasRecovering).toBe(true);
    expect(resub.recovered).toBe(true);
    await server.hub.publish("football", { after: true });
    expect((await subRec.next("publication")).data).toEqual({ after: true });
  });

  it("garbage closes only the offending connection (3501) while another client keeps receiving", async () => {
    server = await startServer();
    const { subRec } = await connectedSubscriber();
    const junk = raw(server.url);
    const binary = raw(server.url);
    const early = raw(server.url);
    const twice = raw(server.url);
    await Promise.all([junk.opened, binary.opened, early.opened, twice.opened]);
    junk.send("{not json");
    binary.send(Buffer.from([1, 2, 3]));
    early.send('{"subscribe":{"channel":"football"},"id":1}'); // command before connect
    twice.send('{"connect":{},"id":1}\n{"connect":{},"id":2}');
    for (const r of [junk, binary, early, twice]) {
      expect(await r.closed).toEqual({ code: 3501, reason: "bad request" });
    }
    await server.hub.publish("football", { still: "alive" });
    expect((await subRec.next("publication")).data).toEqual({ still: "alive" });
  });

  it("answers an invalid command body with 107 and keeps the connection", async () => {
    server = await startServer();
    const r = raw(server.url);
    await r.opened;
    r.send(
      '{"connect":{},"id":1}\n{"subscribe":{"channel":5},"id":2}\n{"subscribe":{"channel":"football"},"id":3}\n{"subscribe":{"channel":"football"},"id":4}\n{"publish":{"channel":"football","data":{}},"id":5}\n{"history":{"channel":"football"},"id":6}',
    );
    await r.frameCount(1);
    const msgs = r.messages();
    expect(msgs[1]).toEqual({ id: 2, error: { code: 107, message: "bad request" } });
    expect(msgs[2]?.id).toBe(3);
    expect(msgs[2]?.subscribe).toBeDefined();
    expect(msgs[3]).toEqual({ id: 4, error: { code: 105, message: "already subscribed" } });
    expect(msgs[4]).toEqual({ id: 5, error: { code: 103, message: "permission denied" } });
    expect(msgs[5]).toEqual({ id: 6, error: { code: 108, message: "not available" } });
    expect(r.closeCode).toBeUndefined();
  });

  it("close() sends 3001 shutdown (client reconnects) and refuses new upgrades", async () => {
    server = await startServer();
    const { client, rec } = await connectedSubscriber();
    const closing = server.hub.close();
    const connecting = await rec.next("connecting", (c) => c.code === 3001);
    expect(connecting.reason).toBe("shutdown");
    await closing;
    expect(server.hub.connectionCount()).toBe(0);
    const late = raw(server.url);
    await expect(late.opened).rejects.toThrow(/503/);
    client.disconnect();
  });
});
