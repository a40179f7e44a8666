// Centrifugo client protocol v2, JSON flavour, as the `centrifuge` v5 npm client speaks it.
// See docs/contract/wire.md §3. Only what an anonymous, server-published stream needs is modelled;
// everything else a client may send is parsed leniently (unknown fields are dropped, never an error).
import { z } from "zod";

/** Error codes carried in reply `error.code` (centrifugal/centrifuge errors.go). */
export const ErrorCode = {
  internal: 100,
  unauthorized: 101,
  unknownChannel: 102,
  permissionDenied: 103,
  methodNotFound: 104,
  alreadySubscribed: 105,
  limitExceeded: 106,
  badRequest: 107,
  notAvailable: 108,
  tokenExpired: 109,
  expired: 110,
  tooManyRequests: 111,
  unrecoverablePosition: 112,
} as const;

/**
 * WebSocket close codes the server uses (centrifugal/centrifuge disconnect.go). The client reconnects for
 * 3000–3499 and gives up for 3500–3999, so the range is the contract, not just the number.
 */
export const DisconnectCode = {
  connectionClosed: { code: 3000, reason: "connection closed" },
  shutdown: { code: 3001, reason: "shutdown" },
  internalServerError: { code: 3004, reason: "internal server error" },
  slow: { code: 3008, reason: "slow" },
  writeError: { code: 3009, reason: "write error" },
  insufficientState: { code: 3010, reason: "insufficient state" },
  forceReconnect: { code: 3011, reason: "force reconnect" },
  noPong: { code: 3012, reason: "no pong" },
  badRequest: { code: 3501, reason: "bad request" },
  stale: { code: 3502, reason: "stale" },
  forceNoReconnect: { code: 3503, reason: "force disconnect" },
  messageSizeLimit: { code: 1009, reason: "message size limit exceeded" },
} as const;

/** An error a handler can throw to produce a protocol error reply `{code, message, temporary?}`. */
export class HubError extends Error {
  readonly code: number;
  readonly temporary: boolean;
  constructor(code: number, message: string, temporary = false) {
    super(message);
    this.name = "HubError";
    this.code = code;
    this.temporary = temporary;
  }
}

export const errors = {
  internal: () => new HubError(ErrorCode.internal, "internal server error", true),
  unknownChannel: () => new HubError(ErrorCode.unknownChannel, "unknown channel"),
  permissionDenied: () => new HubError(ErrorCode.permissionDenied, "permission denied"),
  methodNotFound: () => new HubError(ErrorCode.methodNotFound, "method not found"),
  alreadySubscribed: () => new HubError(ErrorCode.alreadySubscribed, "already subscribed"),
  badRequest: () => new HubError(ErrorCode.badRequest, "bad request"),
  notAvailable: () => new HubError(ErrorCode.notAvailable, "not available"),
  unrecoverablePosition: () => new HubError(ErrorCode.unrecoverablePosition, "unrecoverable position"),
};

/** Subscribe `flag` bits (centrifuge-js 5.8). We never assign channel ids, so only bit 2 matters. */
export const SubscribeFlag = { channelCompaction: 1, rejectUnrecovered: 2 } as const;

// Offsets are uint64 on the wire; JSON numbers are fine up to 2^53, far beyond any channel we run.
const offset = z.number().int().nonnegative();

// zod's default object mode strips unknown keys, which is exactly "unknown fields are ignored".
const ConnectRequest = z.object({
  token: z.string().optional(),
  data: z.unknown().optional(),
  name: z.string().optional(),
  version: z.string().optional(),
});

const SubscribeRequest = z.object({
  channel: z.string().min(1).max(255),
  recover: z.boolean().optional(),
  offset: offset.optional(),
  epoch: z.string().max(64).optional(),
  flag: z.number().int().nonnegative().optional(),
});

const UnsubscribeRequest = z.object({ channel: z.string().min(1).max(255) });

const RpcRequest = z.object({ method: z.string().max(255).default(""), data: z.unknown().optional() });

const AnyObject = z.object({});

/**
 * A command as it arrives. The envelope is validated first; the method's own body is validated when the
 * command is processed, so a bad body costs one error reply instead of the whole connection.
 */
export const CommandEnvelope = z.object({
  id: z.number().int().nonnegative().optional(),
  connect: z.unknown().optional(),
  subscribe: z.unknown().optional(),
  unsubscribe: z.unknown().optional(),
  publish: z.unknown().optional(),
  presence: z.unknown().optional(),
  presence_stats: z.unknown().optional(),
  history: z.unknown().optional(),
  ping: z.unknown().optional(),
  send: z.unknown().optional(),
  rpc: z.unknown().optional(),
  refresh: z.unknown().optional(),
  sub_refresh: z.unknown().optional(),
});
export type CommandEnvelope = z.infer<typeof CommandEnvelope>;

export const RequestSchemas = {
  connect: ConnectRequest,
  subscribe: SubscribeRequest,
  unsubscribe: UnsubscribeRequest,
  rpc: RpcRequest,
  any: AnyObject,
} as const;

export type ConnectRequest = z.infer<typeof ConnectRequest>;
export type SubscribeRequest = z.infer<typeof SubscribeRequest>;
export type UnsubscribeRequest = z.infer<typeof UnsubscribeRequest>;
export type RpcRequest = z.infer<typeof RpcRequest>;

/** The methods a command may carry, in the order we look for them (a command carries exactly one). */
export const METHODS = [
  "connect",
  "subscribe",
  "unsubscribe",
  "rpc",
  "send",
  "publish",
  "presence",
  "presence_stats",
  "history",
  "ping",
  "refresh",
  "sub_refresh",
] as const;
export type Method = (typeof METHODS)[number];

/** Which method a command carries; `null` for the empty command `{}` (the client's pong). */
export function commandMethod(cmd: CommandEnvelope): Method | "unknown" | null {
  for (const m of METHODS) if (cmd[m] !== undefined) return m;
  return cmd.id === undefined || cmd.id === 0 ? null : "unknown";
}

/** Position in a channel's stream: what recovery is about. */
export interface StreamPosition {
  offset: number;
  epoch: string;
}

/**
 * A publication as the hub and brokers carry it. `data` stays the JSON text it was encoded to once at
 * publish time, so fan-out to thousands of clients never re-serialises it.
 */
export interface Publication {
  offset: number;
  epoch: string;
  /** JSON text of the payload. */
  data: string;
  /** Milliseconds since the epoch when the broker stored it (for history TTL). */
  time: number;
}
