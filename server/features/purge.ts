/**
 * The scheduled purge: expired sessions, old auth events (the limits' memory), abandoned guest carts and delivered
 * tracking events (their payload names a browser: address, user agent, a hashed e-mail) are deleted
 * once they are older than PURGE_RETENTION_DAYS (default 30): a session that expired that long ago (its guest cart
 * with it), an auth event recorded that long ago, and a guest cart untouched that long whose session is gone or
 * expired. A cart with a live session is kept, however old. It runs shortly after start and then every hour; every
 * process of a shop may run it: the deletes are idempotent and skip rows another process is deleting.
 */
import type { Db } from "../../core/db/client.ts";
import { deleteEventsBefore } from "../../core/db/repositories/auth-events.ts";
import { deleteAbandonedGuestCarts } from "../../core/db/repositories/purge.ts";
import { deleteExpiredSessions } from "../../core/db/repositories/sessions.ts";
import { deleteDoneTrackingEventsBefore } from "../../core/db/repositories/tracking.ts";
import type { Feature } from "./feature.ts";
import type { Logger } from "../log.ts";

export const PURGE_DEFAULTS = { firstRunMs: 60_000, everyMs: 3_600_000, batchSize: 1000 };
const DAY_MS = 86_400_000;

export interface PurgeResult {
  sessions: number;
  authEvents: number;
  guestCarts: number;
  trackingEvents: number;
}

/** Deletes in batches until a batch comes back short, so a large backlog never holds one long statement. */
async function drain(step: () => Promise<number>, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await step();
    total += n;
    if (n < batch) return total;
  }
}

/** One purge run: everything older than `retentionMs` at `now`. */
export async function purgeOnce(db: Db, now: Date, retentionMs: number, batch = PURGE_DEFAULTS.batchSize): Promise<PurgeResult> {
  const before = new Date(now.getTime() - retentionMs);
  // Carts first: a cart whose session expired recently but which was itself abandoned long ago goes now; the
  // sessions' delete then takes the carts of sessions expired before the retention (ON DELETE CASCADE).
  const guestCarts = await drain(() => deleteAbandonedGuestCarts(db, before, now, batch), batch);
  const sessions = await drain(() => deleteExpiredSessions(db, before, batch), batch);
  const authEvents = await drain(() => deleteEventsBefore(db, before, batch), batch);
  const trackingEvents = await drain(() => deleteDoneTrackingEventsBefore(db, before, batch), batch);
  return { sessions, authEvents, guestCarts, trackingEvents };
}

/** Runs the purge after `firstRunMs`, then every `everyMs` (never overlapping); the returned function stops it. */
export function schedulePurge(opts: {
  db: Db;
  logger: Logger;
  now: () => Date;
  retentionMs: number;
  firstRunMs?: number;
  everyMs?: number;
}): () => Promise<void> {
  const { firstRunMs = PURGE_DEFAULTS.firstRunMs, everyMs = PURGE_DEFAULTS.everyMs } = opts;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const run = async () => {
    try {
      const done = await purgeOnce(opts.db, opts.now(), opts.retentionMs);
      if (done.sessions || done.authEvents || done.guestCarts || done.trackingEvents) opts.logger.info("purge run", { ...done });
    } catch (error) {
      opts.logger.warn("purge failed", { error: (error as Error).message });
    }
  };
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      running = run().finally(() => {
        running = null;
        schedule(everyMs);
      });
    }, ms);
    timer.unref();
  };
  schedule(firstRunMs);
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    // The database closes after this: a run in progress finishes first.
    await running;
  };
}

export const purgeFeature: Feature = {
  name: "purge",
  async start({ services, env }) {
    return schedulePurge({ db: services.db, logger: services.logger, now: services.now, retentionMs: env.PURGE_RETENTION_DAYS * DAY_MS });
  },
};
