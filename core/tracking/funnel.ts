/**
 * The owner's first-party funnel (docs/contract/storefront.md §9 'Tracking (analytics)'): the steps the shop itself
 * sees — a product or shop page, an add to cart, the checkout page, a placed order — counted without a cookie and
 * without naming anyone, whatever the visitor chose about tracking. A visitor is a hash of address + user agent
 * under a random salt of the UTC day (Plausible's method; decision 0015), computed at flush time; the address
 * and user agent only stay in memory until then.
 *
 * Cheap by construction: `record` only pushes to an in-process buffer (never awaited by a request); the buffer is
 * written with one multi-row INSERT every second or every 100 events, and once more on shutdown.
 */
import { createHash, randomBytes } from "node:crypto";
import { isbot } from "isbot";
import type { Queryable } from "../db/client.ts";
import { funnelSalt, insertFunnelEvents, type FunnelEventRow, type FunnelStep } from "../db/repositories/tracking.ts";
import { funnelAttribution, type FunnelAttribution } from "../domain/tracking/server-events.ts";
import { COOKIE_NAMES } from "../domain/attribution/sourcebuster.ts";

export type { FunnelStep };

export interface FunnelHit {
  step: FunnelStep;
  address: string;
  userAgent: string;
  attribution: FunnelAttribution;
  /** A purchase's order: counted once per order; its stored total and currency are the revenue (read at insert). */
  order?: { id: number };
}

/** What a request handler or a use case sees: a place to drop a hit. Never throws, never waits. */
export interface FunnelRecorder {
  record(hit: FunnelHit): void;
}

/** Who is asking, as the funnel needs it (the request's client address and user agent). */
export interface Visitor {
  address: string;
  userAgent: string;
}

/** A hit for `step` from this visitor, attributed by its sourcebuster cookie (or the order's stored attribution). */
export function funnelHit(
  step: FunnelStep,
  visitor: Visitor,
  cookies: Record<string, string>,
  extra: { order?: FunnelHit["order"]; orderMeta?: Record<string, string> | null } = {},
): FunnelHit {
  return { step, ...visitor, attribution: funnelAttribution(cookies[COOKIE_NAMES.current], extra.orderMeta ?? null), order: extra.order };
}

export const FUNNEL_DEFAULTS = {
  flushEveryMs: 1000,
  batchSize: 100,
  /** Hits kept while the database is unreachable; the oldest go first beyond it. */
  maxBuffered: 10_000,
} as const;

interface Pending {
  hit: FunnelHit;
  at: Date;
}

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

export class FunnelBuffer implements FunnelRecorder {
  private pending: Pending[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private flushing: Promise<void> | null = null;
  private closed = false;
  private readonly salts = new Map<string, string>();

  constructor(
    private readonly db: Queryable,
    private readonly opts: {
      now?: () => Date;
      log?: { warn(msg: string, fields?: Record<string, unknown>): void };
      flushEveryMs?: number;
      batchSize?: number;
    } = {},
  ) {}

  record(hit: FunnelHit): void {
    // Crawlers, link previews, monitors and scripts are not visitors (isbot's list, as the page renderer uses).
    if (this.closed || isbot(hit.userAgent)) return;
    this.pending.push({ hit, at: (this.opts.now ?? (() => new Date()))() });
    if (this.pending.length > FUNNEL_DEFAULTS.maxBuffered) this.pending.splice(0, this.pending.length - FUNNEL_DEFAULTS.maxBuffered);
    if (this.pending.length >= (this.opts.batchSize ?? FUNNEL_DEFAULTS.batchSize)) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.flush();
      }, this.opts.flushEveryMs ?? FUNNEL_DEFAULTS.flushEveryMs);
      this.timer.unref?.();
    }
  }

  /** Writes what is buffered (one INSERT); waits for a flush already running first. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (!this.pending.length) return;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.write(batch)
      .catch((error: unknown) => {
        // Kept for the next flush: a database blip loses no counts (bounded by maxBuffered).
        this.pending = [...batch, ...this.pending].slice(-FUNNEL_DEFAULTS.maxBuffered);
        this.opts.log?.warn("funnel events not stored yet", { count: batch.length, error: (error as Error).message });
      })
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
  }

  /** Stops taking hits and writes the rest (shutdown). */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.closed = true;
    await this.flush();
  }

  private async salt(day: string): Promise<string> {
    let salt = this.salts.get(day);
    if (!salt) {
      const yesterday = utcDay(new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000));
      salt = await funnelSalt(this.db, day, randomBytes(16).toString("hex"), yesterday);
      this.salts.set(day, salt);
      for (const d of this.salts.keys()) if (d < yesterday) this.salts.delete(d);
    }
    return salt;
  }

  private async write(batch: Pending[]): Promise<void> {
    const rows: FunnelEventRow[] = [];
    for (const { hit, at } of batch) {
      const day = utcDay(at);
      const visitor = createHash("sha256")
        .update(`${await this.salt(day)}|${hit.address}|${hit.userAgent}`)
        .digest("hex")
        .slice(0, 32);
      rows.push({
        at,
        day,
        step: hit.step,
        visitor,
        ...hit.attribution,
        orderId: hit.order?.id ?? null,
      });
    }
    await insertFunnelEvents(this.db, rows);
  }
}
