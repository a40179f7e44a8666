/**
 * Delivers `tracking_outbox` to the configured destinations (docs/contract/wire.md §6.2), the mail outbox's way
 * (core/mail/outbox-sender.ts): rows claimed under a lease with SKIP LOCKED, each POSTed once per run, a failure
 * counted and retried with exponential back-off, a refusal (4xx other than 408/429) or too many attempts given up
 * and kept. A destination that is down (no answer, 5xx, 408, 429) ends its part of the run and hands its other rows
 * back untried, so an outage costs one attempt per run, not one per event, and never touches another destination.
 * Runs in the background (server/features/tracking.ts); a page never waits on it.
 *
 * A row is written sent only after the destination's 2xx, so a restart loses nothing; a crash between the 2xx and
 * the UPDATE sends that row again after its lease, with the same event id (both styles deduplicate on it).
 */
import type { Queryable } from "../db/client.ts";
import { databaseNow } from "../db/repositories/email-outbox.ts";
import {
  claimDueTrackingEvents,
  finishClaimedTrackingEvent,
  releaseClaimedTrackingEvents,
  type ClaimedTrackingEvent,
  type TrackingOutcome,
} from "../db/repositories/tracking.ts";
import { backoffMs } from "../mail/outbox-sender.ts";
import type { Destination } from "./intake.ts";

export interface DeliveryLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export interface DeliveryOptions {
  db: Queryable;
  destinations: readonly Destination[];
  /** Default: the database's clock at the start of the run, moving on with this process's. */
  now?: () => Date;
  log?: DeliveryLog;
  batchSize?: number;
  leaseMs?: number;
  /** One POST's time limit. */
  timeoutMs?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
}

export const DELIVERY_DEFAULTS = {
  batchSize: 50,
  leaseMs: 2 * 60_000,
  timeoutMs: 5_000,
  maxAttempts: 20,
  baseDelayMs: 30_000,
  maxDelayMs: 3_600_000,
} as const;

export interface DeliveryResult {
  claimed: number;
  sent: number;
  deferred: number;
  failed: number;
  released: number;
  /** Destinations that failed this run (the caller logs the change of state, not every run). */
  down: { destination: string; reason: string }[];
}

/** The request one row makes: the configured URL, the secret where each style carries it, the stored JSON body. */
export function deliveryRequest(d: Destination, payload: Record<string, unknown>): { url: string; init: RequestInit } {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  let url = d.url;
  if (d.name === "capi") {
    if (d.secret) headers.Authorization = `Bearer ${d.secret}`;
  } else if (d.secret) {
    const u = new URL(d.url);
    u.searchParams.set("api_secret", d.secret);
    url = u.toString();
  }
  return { url, init: { method: "POST", headers, body: JSON.stringify(payload) } };
}

type Attempt = { ok: true } | { ok: false; permanent: boolean; down: boolean; reason: string };

async function post(d: Destination, row: ClaimedTrackingEvent, timeoutMs: number): Promise<Attempt> {
  const { url, init } = deliveryRequest(d, row.payload);
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
    await res.body?.cancel();
    if (res.ok) return { ok: true };
    const retryable = res.status >= 500 || res.status === 408 || res.status === 429;
    return { ok: false, permanent: !retryable, down: retryable, reason: `HTTP ${res.status}` };
  } catch (error) {
    const e = error as { name?: string; cause?: { code?: string }; message?: string };
    const reason = e.name === "TimeoutError" ? "timed out" : (e.cause?.code ?? e.message ?? "request failed");
    return { ok: false, permanent: false, down: true, reason: String(reason).slice(0, 200) };
  }
}

/** One run: claims due rows of the configured destinations and tries each once. Safe from several processes. */
export async function deliverDueEvents(opts: DeliveryOptions): Promise<DeliveryResult> {
  const o = { ...DELIVERY_DEFAULTS, ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)) } as Required<DeliveryOptions>;
  const result: DeliveryResult = { claimed: 0, sent: 0, deferred: 0, failed: 0, released: 0, down: [] };
  if (opts.signal?.aborted || !opts.destinations.length) return result;
  const now = opts.now ?? (await databaseClock(opts.db));
  const claimedAt = now();
  const leaseEnd = new Date(claimedAt.getTime() + o.leaseMs);
  const byName = new Map(opts.destinations.map((d) => [d.name as string, d]));
  const rows = await claimDueTrackingEvents(opts.db, { now: claimedAt, leaseEnd, limit: o.batchSize, destinations: [...byName.keys()] });
  result.claimed = rows.length;

  const finish = async (row: ClaimedTrackingEvent, outcome: TrackingOutcome) => {
    if (!(await finishClaimedTrackingEvent(opts.db, row.id, leaseEnd, outcome)))
      opts.log?.warn("tracking lease lost before the result was stored", { outboxId: row.id, destination: row.destination });
  };

  // Destinations in parallel, each one's rows in order: a slow or dead one never holds the other up.
  await Promise.all(
    [...byName.values()].map(async (d) => {
      const mine = rows.filter((r) => r.destination === d.name);
      for (let i = 0; i < mine.length; i++) {
        const row = mine[i]!;
        if (opts.signal?.aborted || now().getTime() + o.timeoutMs > leaseEnd.getTime()) {
          await releaseClaimedTrackingEvents(
            opts.db,
            mine.slice(i).map((r) => r.id),
            leaseEnd,
          );
          result.released += mine.length - i;
          return;
        }
        const attempt = await post(d, row, o.timeoutMs);
        if (attempt.ok) {
          await finish(row, { sentAt: now() });
          result.sent++;
          continue;
        }
        const attempts = row.attempts + 1;
        if (attempt.permanent || attempts >= o.maxAttempts) {
          await finish(row, { attempts, lastError: attempt.reason, failedAt: now() });
          result.failed++;
          opts.log?.warn(attempt.permanent ? "tracking event refused by its destination" : "tracking event given up after too many attempts", {
            outboxId: row.id,
            destination: d.name,
            event: row.eventName,
            attempts,
            reason: attempt.reason,
          });
        } else {
          const next = new Date(now().getTime() + backoffMs(attempts, o.baseDelayMs, o.maxDelayMs));
          await finish(row, { attempts, lastError: attempt.reason, nextAttemptAt: next });
          result.deferred++;
        }
        if (attempt.down) {
          const rest = mine.slice(i + 1).map((r) => r.id);
          await releaseClaimedTrackingEvents(opts.db, rest, leaseEnd);
          result.released += rest.length;
          result.down.push({ destination: d.name, reason: attempt.reason });
          return;
        }
      }
    }),
  );
  return result;
}

async function databaseClock(db: Queryable): Promise<() => Date> {
  const base = (await databaseNow(db)).getTime() + 1;
  const started = performance.now();
  return () => new Date(base + Math.round(performance.now() - started));
}
