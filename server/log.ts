/**
 * JSON-lines logs through pino, and the request log (pino-http) with a request id.
 *
 * Never pass request bodies here: the checkout's carry card data. As a second line of defence, any field whose
 * name looks like a secret (passwords, card numbers and codes, tokens, cookies, nonces) is replaced by
 * "[Redacted]" at any depth, in every line, before it is written.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pino, type Logger as Pino } from "pino";
import { pinoHttp } from "pino-http";
import cluster from "node:cluster";
import { registerSingleton } from "../core/singletons.ts";
import { countQueries, type QueryTally } from "../core/db/query-count.ts";

export type Level = "debug" | "info" | "warn" | "error" | "silent";

/** The logger every module receives (services.logger): a message, then flat fields. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export const REDACTED = "[Redacted]";

/**
 * Field names that never reach a log line, matched anywhere in a name: `password`, `pwd`, `pass1`,
 * `wc-sandbox-card-number`, `card_number`, `number` (a card form's), `csc`, `cvv`/`cvc`, `expiry`, `exp_month`,
 * `token`, `secret`, `cookie`, `set-cookie`, `authorization`, `nonce`, `x-wp-nonce`, `key` (reset keys), `iban`,
 * `account_number`, `routing_number` (e-check).
 */
const SECRET_NAME =
  /pass(word|wd)?(\d|$|[-_])|pwd|card[-_]?(number|num|no)|^number$|(^|[-_])(csc|cvv|cvc|cvv2)($|[-_])|(^|[-_])expiry($|[-_])|exp[-_]?(month|year)|token|secret|cookie|authori[sz]ation|nonce|(^|[-_])key$|iban|account[-_]?number|routing[-_]?number/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Copies `value` with secret-named fields replaced and Errors turned into plain objects (depth-limited). */
function clean(value: unknown, depth = 0): unknown {
  if (value instanceof Error) return { type: value.name, message: value.message, stack: value.stack?.split("\n").slice(0, 6).join("\n") };
  if (value === null || typeof value !== "object" || depth > 6) return value;
  if (Array.isArray(value)) return value.map((v) => clean(v, depth + 1));
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value; // requests, responses, Dates: their serializers decide
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isSecretName(k) ? REDACTED : clean(v, depth + 1);
  return out;
}

/** A URL with the values of secret-named query parameters replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      let name = eq < 0 ? pair : pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        /* keep it raw */
      }
      return eq >= 0 && isSecretName(name) ? `${pair.slice(0, eq)}=${encodeURIComponent(REDACTED)}` : pair;
    })
    .join("&");
  return `${url.slice(0, q)}?${query}`;
}

/** The request id of the request being handled (AsyncLocalStorage), added to every line logged while it runs. */
const requestScope = new AsyncLocalStorage<string>();

const pinos = new WeakMap<Logger, Pino>();
registerSingleton("loggers");

/**
 * `write` receives one JSON line without its newline (tests capture lines this way); by default stdout.
 * Lines: `{"level":"info","t":"2026-…Z","msg":"…",…fields}`, plus `reqId` inside a request.
 */
export function createLogger(level: Level = "info", write?: (line: string) => void): Logger {
  const destination = write
    ? { write: (chunk: string) => write(chunk.endsWith("\n") ? chunk.slice(0, -1) : chunk) }
    : pino.destination({ dest: 1, sync: true });
  const base = pino(
    {
      level,
      // A worker of several (WEB_CONCURRENCY, server/cluster.ts) says which process wrote each line.
      base: cluster.isWorker ? { pid: process.pid } : undefined,
      messageKey: "msg",
      timestamp: () => `,"t":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }), log: (fields) => clean(fields) as Record<string, unknown> },
      mixin: () => {
        const reqId = requestScope.getStore();
        return reqId ? { reqId } : {};
      },
      // Headers the request serializer keeps are redacted by name as well (clean() above covers them too).
      redact: { paths: ["req.headers.cookie", "req.headers.authorization", 'req.headers["x-wp-nonce"]', 'res.headers["set-cookie"]'], censor: REDACTED },
    },
    destination,
  );
  const at = (lvl: Exclude<Level, "silent">) => (msg: string, fields?: Record<string, unknown>) => {
    if (fields) base[lvl](fields, msg);
    else base[lvl](msg);
  };
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  pinos.set(logger, base);
  return logger;
}

/** A logger that writes nothing (for services built without one). */
const silentPino = pino({ level: "silent" });

const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

type TrustFn = (address: string, hop: number) => boolean;

/**
 * Express middleware: one `request completed` line per request (info; warn for 5xx, whose error the error handler
 * logs) with method, path, query (secret values redacted), status and time, and a request id that every line logged
 * while the request runs carries as `reqId`. The id is the incoming `X-Request-Id` when the peer is a proxy Express
 * trusts (`trust proxy`) and the value is a plain token, a new UUID otherwise; the response returns it in
 * `X-Request-Id`. Headers are not logged, so cookies, authorization and nonces never are.
 * The line also carries `dbQueries`, the database statements the request ran (core/db/query-count.ts), and at debug
 * level `dbStatements`, their texts (without parameters, which may be personal data).
 */
export function requestLogger(logger: Logger) {
  const base = pinos.get(logger) ?? silentPino;
  const tallies = new WeakMap<IncomingMessage, QueryTally>();
  const withQueries = (req: IncomingMessage, fields: Record<string, unknown>) => {
    const tally = tallies.get(req);
    if (!tally) return fields;
    return { ...fields, dbQueries: tally.count, ...(tally.statements ? { dbStatements: tally.statements } : {}) };
  };
  const middleware = pinoHttp({
    logger: base,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const incoming = req.headers["x-request-id"];
      const trust = (req as { app?: { get(name: string): unknown } }).app?.get("trust proxy fn") as TrustFn | undefined;
      const trusted = typeof incoming === "string" && REQUEST_ID.test(incoming) && trust?.(req.socket.remoteAddress ?? "", 0);
      const id = trusted ? incoming : randomUUID();
      res.setHeader("X-Request-Id", id);
      return id;
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "warn" : "info"),
    customSuccessMessage: () => "request completed",
    customSuccessObject: (req, _res, fields: Record<string, unknown>) => withQueries(req, fields),
    customErrorObject: (req, _res, _error, fields: Record<string, unknown>) => withQueries(req, fields),
    customErrorMessage: () => "request failed",
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
  });
  return (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) =>
    middleware(req, res, () => {
      const tally: QueryTally = { count: 0, ...(base.isLevelEnabled("debug") ? { statements: [] } : {}) };
      tallies.set(req, tally);
      countQueries(tally, () => requestScope.run(String(req.id), next));
    });
}
