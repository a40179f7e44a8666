// Pure encode/decode of the JSON protocol's newline-delimited frames. No I/O, so it is unit-tested alone.
import { CommandEnvelope, type HubError, type Publication } from "./protocol.ts";

export type DecodeResult = { ok: true; commands: CommandEnvelope[] } | { ok: false; reason: string };

/**
 * Split a text frame into commands. One bad line makes the whole frame bad: the client never sends
 * garbage, so anything unparsable is a broken or hostile peer and the connection is closed (3501).
 */
export function decodeFrame(frame: string): DecodeResult {
  const commands: CommandEnvelope[] = [];
  for (const line of frame.split("\n")) {
    if (line.trim() === "") continue; // the client never sends blank lines, but they are harmless
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { ok: false, reason: "invalid JSON" };
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { ok: false, reason: "command is not an object" };
    }
    const parsed = CommandEnvelope.safeParse(value);
    if (!parsed.success) return { ok: false, reason: "invalid command envelope" };
    commands.push(parsed.data);
  }
  if (commands.length === 0) return { ok: false, reason: "empty frame" };
  return { ok: true, commands };
}

export function encodeReply(id: number, method: string, result: unknown): string {
  return JSON.stringify({ id, [method]: result ?? {} });
}

export function encodeError(id: number, err: Pick<HubError, "code" | "message" | "temporary">): string {
  const error: { code: number; message: string; temporary?: boolean } = { code: err.code, message: err.message };
  if (err.temporary) error.temporary = true;
  return JSON.stringify({ id, error });
}

/** The server ping: an object with neither `id` nor `push`. */
export const PING = "{}";

/** `pub` object of a publication; `data` is spliced in as raw JSON (it was encoded once at publish time). */
export function encodePub(pub: Pick<Publication, "data" | "offset">): string {
  return `{"data":${pub.data},"offset":${pub.offset}}`;
}

/** Publication push. Built once per publication and channel, then written to every subscriber. */
export function encodePublicationPush(channel: string, pub: Pick<Publication, "data" | "offset">): string {
  return `{"push":{"channel":${JSON.stringify(channel)},"pub":${encodePub(pub)}}}`;
}

export interface SubscribeResult {
  recoverable?: boolean;
  positioned?: boolean;
  offset?: number;
  epoch?: string;
  recovered?: boolean;
  was_recovering?: boolean;
  publications?: Publication[];
}

/** Subscribe reply, hand-built so recovered publications are spliced in without re-serialising. */
export function encodeSubscribeReply(id: number, r: SubscribeResult): string {
  const parts: string[] = [];
  if (r.recoverable) parts.push(`"recoverable":true`);
  if (r.positioned) parts.push(`"positioned":true`);
  if (r.epoch !== undefined) parts.push(`"epoch":${JSON.stringify(r.epoch)}`);
  if (r.offset !== undefined) parts.push(`"offset":${r.offset}`);
  if (r.was_recovering) parts.push(`"was_recovering":true`);
  if (r.recovered) parts.push(`"recovered":true`);
  if (r.publications && r.publications.length > 0) {
    parts.push(`"publications":[${r.publications.map(encodePub).join(",")}]`);
  }
  return `{"id":${id},"subscribe":{${parts.join(",")}}}`;
}

/**
 * One unmasked, final WebSocket text frame (RFC 6455 §5.2) around `text`, as the server sends it. The hub
 * builds it once per fan-out batch and writes the same Buffer to every subscriber's socket, so no subscriber
 * costs a string-to-UTF-8 copy or a header of its own (decision 0029).
 */
export function encodeTextFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81; // FIN + opcode 1 (text); no RSV bits: permessage-deflate is never negotiated
  if (length < 126) {
    frame[1] = length;
  } else if (length < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  frame.write(text, header, "utf8");
  return frame;
}
