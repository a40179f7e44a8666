/**
 * Tracking's tables (migration 0015): the server-side event outbox (`tracking_outbox`, drained by
 * core/tracking/delivery.ts under leases, like the mail outbox) and the first-party funnel (`funnel_events`,
 * `funnel_salts`) with its report. Only SQL lives here.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";

// ---------------------------------------------------------------------------------------------------------------
// Outbox
// ---------------------------------------------------------------------------------------------------------------

export interface NewTrackingEvent {
  destination: string;
  dedupeKey: string;
  eventName: string;
  eventId: string;
  orderId: number | null;
  payload: Record<string, unknown>;
}

/** Queues events; one whose dedupe key is already queued (or sent) is skipped. Returns how many were new. */
export async function enqueueTrackingEvents(db: Queryable, events: readonly NewTrackingEvent[]): Promise<number> {
  if (!events.length) return 0;
  const rows = await sql(db)
    .insertInto("tracking_outbox")
    .values(
      events.map((e) => ({
        destination: e.destination,
        dedupe_key: e.dedupeKey,
        event_name: e.eventName,
        event_id: e.eventId,
        order_id: e.orderId,
        payload: JSON.stringify(e.payload),
      })),
    )
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .returning("id")
    .execute();
  return rows.length;
}

export interface ClaimedTrackingEvent {
  id: number;
  destination: string;
  eventName: string;
  payload: Record<string, unknown>;
  attempts: number;
}

/** Claims up to `limit` due rows of these destinations nobody holds (UPDATE … SKIP LOCKED … RETURNING, a lease). */
export async function claimDueTrackingEvents(
  db: Queryable,
  opts: { now: Date; leaseEnd: Date; limit: number; destinations: readonly string[] },
): Promise<ClaimedTrackingEvent[]> {
  if (!opts.destinations.length) return [];
  const rows = await sql(db)
    .updateTable("tracking_outbox")
    .set({ claimed_until: opts.leaseEnd })
    .where("id", "in", (eb) =>
      eb
        .selectFrom("tracking_outbox")
        .select("id")
        .where("sent_at", "is", null)
        .where("failed_at", "is", null)
        .where("destination", "in", [...opts.destinations])
        .where("next_attempt_at", "<=", opts.now)
        .where((w) => w.or([w("claimed_until", "is", null), w("claimed_until", "<=", opts.now)]))
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(opts.limit)
        .forUpdate()
        .skipLocked(),
    )
    .returning(["id", "destination", "event_name", "payload", "attempts"])
    .execute();
  return rows
    .map((r) => ({
      id: Number(r.id),
      destination: r.destination,
      eventName: r.event_name,
      payload: (typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
      attempts: r.attempts,
    }))
    .sort((a, b) => a.id - b.id);
}

export type TrackingOutcome =
  { sentAt: Date } | { attempts: number; lastError: string; failedAt: Date } | { attempts: number; lastError: string; nextAttemptAt: Date };

/** Stores a delivery's outcome while the lease `leaseEnd` still holds the unsent row. False when nothing was written. */
export async function finishClaimedTrackingEvent(db: Queryable, id: number, leaseEnd: Date, outcome: TrackingOutcome): Promise<boolean> {
  const set =
    "sentAt" in outcome
      ? { sent_at: outcome.sentAt }
      : "failedAt" in outcome
        ? { attempts: outcome.attempts, last_error: outcome.lastError, failed_at: outcome.failedAt }
        : { attempts: outcome.attempts, last_error: outcome.lastError, next_attempt_at: outcome.nextAttemptAt };
  const updated = await sql(db)
    .updateTable("tracking_outbox")
    .set({ ...set, claimed_until: null })
    .where("id", "=", id)
    .where("claimed_until", "=", leaseEnd)
    .where("sent_at", "is", null)
    .returning("id")
    .execute();
  return updated.length > 0;
}

/** Hands rows back untried where the lease `leaseEnd` still holds them. */
export async function releaseClaimedTrackingEvents(db: Queryable, ids: readonly number[], leaseEnd: Date): Promise<void> {
  if (!ids.length) return;
  await sql(db)
    .updateTable("tracking_outbox")
    .set({ claimed_until: null })
    .where("id", "=", raw<number>`ANY(${[...ids]}::bigint[])`)
    .where("claimed_until", "=", leaseEnd)
    .execute();
}

// ---------------------------------------------------------------------------------------------------------------
// First-party funnel
// ---------------------------------------------------------------------------------------------------------------

export type FunnelStep = "view" | "add_to_cart" | "checkout" | "purchase";

export interface FunnelEventRow {
  at: Date;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  step: FunnelStep;
  visitor: string;
  source: string;
  medium: string;
  campaign: string;
  /** A purchase's order: its total (minor units) and currency are read from `orders` by the INSERT itself. */
  orderId: number | null;
}

/** One multi-row INSERT for a batch; a second purchase row for one order is skipped. */
export async function insertFunnelEvents(db: Queryable, rows: readonly FunnelEventRow[]): Promise<void> {
  if (!rows.length) return;
  await sql(db)
    .insertInto("funnel_events")
    .values(
      rows.map((r) => ({
        at: r.at,
        day: r.day,
        step: r.step,
        visitor: r.visitor,
        source: r.source,
        medium: r.medium,
        campaign: r.campaign,
        order_id: r.orderId,
        revenue: r.step === "purchase" && r.orderId !== null ? raw<number>`coalesce((SELECT total FROM orders WHERE id = ${r.orderId}), 0)` : 0,
        currency: r.step === "purchase" && r.orderId !== null ? raw<string | null>`(SELECT currency FROM orders WHERE id = ${r.orderId})` : null,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

const dateOf = (day: string) => raw<Date>`${day}::date`;

/** The day's salt (made by whichever process asks first); salts before `keepFrom` are deleted. */
export async function funnelSalt(db: Queryable, day: string, candidate: string, keepFrom: string): Promise<string> {
  const b = sql(db);
  await b
    .insertInto("funnel_salts")
    .values({ day, salt: candidate })
    .onConflict((oc) => oc.column("day").doNothing())
    .execute();
  await b.deleteFrom("funnel_salts").where("day", "<", dateOf(keepFrom)).execute();
  const row = await b.selectFrom("funnel_salts").select("salt").where("day", "=", dateOf(day)).executeTakeFirstOrThrow();
  return row.salt;
}

export interface FunnelFilter {
  after: string;
  before: string;
  source?: string;
  medium?: string;
  campaign?: string;
}

function filtered(db: Queryable, f: FunnelFilter) {
  return sql(db)
    .selectFrom("funnel_events")
    .where("day", ">=", dateOf(f.after))
    .where("day", "<=", dateOf(f.before))
    .$if(f.source !== undefined, (q) => q.where("source", "=", f.source!))
    .$if(f.medium !== undefined, (q) => q.where("medium", "=", f.medium!))
    .$if(f.campaign !== undefined, (q) => q.where("campaign", "=", f.campaign!));
}

const int = (expr: string) => raw<number>`(${raw.raw(expr)})::int`;

export interface FunnelCounts {
  visitors: number;
  views: number;
  addToCart: number;
  checkout: number;
  purchases: number;
  buyers: number;
  revenue: number;
}

const COUNT_COLUMNS = {
  visitors: "count(DISTINCT visitor)",
  views: "count(*) FILTER (WHERE step = 'view')",
  addToCart: "count(*) FILTER (WHERE step = 'add_to_cart')",
  checkout: "count(*) FILTER (WHERE step = 'checkout')",
  purchases: "count(*) FILTER (WHERE step = 'purchase')",
  buyers: "count(DISTINCT visitor) FILTER (WHERE step = 'purchase')",
  revenue: "coalesce(sum(revenue) FILTER (WHERE step = 'purchase'), 0)",
} as const;

const countSelections = () => Object.entries(COUNT_COLUMNS).map(([k, expr]) => int(expr).as(k));

/** Totals over the filter. */
export async function funnelTotals(db: Queryable, f: FunnelFilter): Promise<FunnelCounts> {
  const row = await filtered(db, f).select(countSelections()).executeTakeFirstOrThrow();
  return row as unknown as FunnelCounts;
}

/** Visitors who reached each step having done every earlier one (on that day: a visitor's hash is per day). */
export async function funnelSteps(db: Queryable, f: FunnelFilter): Promise<{ view: number; add_to_cart: number; checkout: number; purchase: number }> {
  const perVisitor = filtered(db, f)
    .select([
      "visitor",
      raw<boolean>`bool_or(step = 'view')`.as("v"),
      raw<boolean>`bool_or(step = 'add_to_cart')`.as("a"),
      raw<boolean>`bool_or(step = 'checkout')`.as("c"),
      raw<boolean>`bool_or(step = 'purchase')`.as("p"),
    ])
    .groupBy("visitor");
  const row = await sql(db)
    .selectFrom(perVisitor.as("t"))
    .select([
      int("count(*) FILTER (WHERE v)").as("view"),
      int("count(*) FILTER (WHERE v AND a)").as("add_to_cart"),
      int("count(*) FILTER (WHERE v AND a AND c)").as("checkout"),
      int("count(*) FILTER (WHERE v AND a AND c AND p)").as("purchase"),
    ])
    .executeTakeFirstOrThrow();
  return row;
}

/** Counts per source / medium / campaign, most visitors first. */
export async function funnelBySource(
  db: Queryable,
  f: FunnelFilter,
  limit: number,
): Promise<(FunnelCounts & { source: string; medium: string; campaign: string })[]> {
  const rows = await filtered(db, f)
    .select(["source", "medium", "campaign", ...countSelections()])
    .groupBy(["source", "medium", "campaign"])
    .orderBy(int(COUNT_COLUMNS.visitors), "desc")
    .orderBy("source")
    .orderBy("medium")
    .orderBy("campaign")
    .limit(limit)
    .execute();
  return rows as unknown as (FunnelCounts & { source: string; medium: string; campaign: string })[];
}

/** Counts per UTC day (days without events are left out). */
export async function funnelByDay(db: Queryable, f: FunnelFilter): Promise<(FunnelCounts & { date: string })[]> {
  const rows = await filtered(db, f)
    .select([raw<string>`to_char(day, 'YYYY-MM-DD')`.as("date"), ...countSelections()])
    .groupBy("day")
    .orderBy("day")
    .execute();
  return rows as unknown as (FunnelCounts & { date: string })[];
}

/**
 * The scheduled purge (server/features/purge.ts): delivered or given-up events created before `before`, up to
 * `batch` per call. A Purchase's row stays: its dedupe key is what keeps an order's Purchase to one delivery.
 */
export async function deleteDoneTrackingEventsBefore(db: Queryable, before: Date, batch = 1000): Promise<number> {
  const rows = await sql(db)
    .deleteFrom("tracking_outbox")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("tracking_outbox as t")
        .select("t.id")
        .where("t.created_at", "<", before)
        .where("t.order_id", "is", null)
        .where((w) => w.or([w("t.sent_at", "is not", null), w("t.failed_at", "is not", null)]))
        .limit(batch)
        .forUpdate()
        .skipLocked(),
    )
    .returning("id")
    .execute();
  return rows.length;
}
