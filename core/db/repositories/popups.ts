/**
 * `popups` and `popup_events` (migration 0016). Settings are stored only after core/domain/popups/settings.ts
 * accepted them, and read back through it (a row that no longer passes is skipped, never sent to a page).
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import { parsePopupSettings, type PopupSettings } from "../../domain/popups/settings.ts";

export interface StoredPopup {
  id: number;
  settings: PopupSettings;
  updatedAt: Date;
}

export type PopupEventKind = "impression" | "close" | "do_not_show_again" | "conversion";

function toPopup(row: { id: number; settings: unknown; updated_at: Date | string }): StoredPopup | null {
  const parsed = parsePopupSettings(row.settings);
  return parsed.ok ? { id: row.id, settings: parsed.value, updatedAt: new Date(row.updated_at) } : null;
}

/** Every popup whose settings are valid, by id. */
export async function listPopups(db: Queryable): Promise<StoredPopup[]> {
  const rows = await sql(db).selectFrom("popups").select(["id", "settings", "updated_at"]).orderBy("id").execute();
  return rows.map(toPopup).filter((p): p is StoredPopup => p !== null);
}

export async function findPopup(db: Queryable, id: number): Promise<StoredPopup | null> {
  const row = await sql(db).selectFrom("popups").select(["id", "settings", "updated_at"]).where("id", "=", id).executeTakeFirst();
  return row ? toPopup(row) : null;
}

/** Stores validated settings (the caller ran parsePopupSettings). */
export async function insertPopup(db: Queryable, settings: PopupSettings): Promise<number> {
  const row = await sql(db)
    .insertInto("popups")
    .values({ settings: JSON.stringify(settings) })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Locks a popup's row for a versioned update (If-Match, docs/contract/wire.md §2.10); its modification time, or null. */
export async function lockPopup(tx: Queryable, id: number): Promise<{ updatedAt: Date } | null> {
  const row = await sql(tx).selectFrom("popups").select("updated_at").where("id", "=", id).forUpdate().executeTakeFirst();
  return row ? { updatedAt: new Date(row.updated_at) } : null;
}

export async function updatePopup(db: Queryable, id: number, settings: PopupSettings): Promise<boolean> {
  const row = await sql(db)
    .updateTable("popups")
    .set({ settings: JSON.stringify(settings), updated_at: raw`now()` })
    .where("id", "=", id)
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

export async function deletePopup(db: Queryable, id: number): Promise<boolean> {
  const row = await sql(db).deleteFrom("popups").where("id", "=", id).returning("id").executeTakeFirst();
  return row !== undefined;
}

/** Records one event; false when a conversion for this popup and order is already there (or the popup is gone). */
export async function recordPopupEvent(
  db: Queryable,
  e: { popupId: number; kind: PopupEventKind; clientKey: string; clientAddress?: string | null; orderId?: number | null; at: Date },
): Promise<boolean> {
  const exists = await sql(db).selectFrom("popups").select("id").where("id", "=", e.popupId).executeTakeFirst();
  if (!exists) return false;
  const row = await sql(db)
    .insertInto("popup_events")
    .values({
      popup_id: e.popupId,
      kind: e.kind,
      client_key: e.clientKey,
      client_address: e.clientAddress ?? null,
      order_id: e.orderId ?? null,
      created_at: e.at,
    })
    .onConflict((oc) => oc.columns(["popup_id", "order_id"]).where("kind", "=", raw.lit("conversion")).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/** Events one client posted since `since` (the per-client limit). */
export async function countClientEvents(db: Queryable, clientKey: string, since: Date): Promise<number> {
  const row = await sql(db)
    .selectFrom("popup_events")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("client_key", "=", clientKey)
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Events posted from one address since `since` (the per-address limit: the key cookie can be rotated). */
export async function countAddressEvents(db: Queryable, address: string, since: Date): Promise<number> {
  const row = await sql(db)
    .selectFrom("popup_events")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("client_address", "=", address)
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether this client saw the popup between `after` and `before` (a conversion needs an earlier impression). */
export async function impressionBetween(db: Queryable, q: { popupId: number; clientKey: string; after: Date; before: Date }): Promise<boolean> {
  const row = await sql(db)
    .selectFrom("popup_events")
    .select("id")
    .where("popup_id", "=", q.popupId)
    .where("client_key", "=", q.clientKey)
    .where("kind", "=", raw.lit("impression"))
    .where("created_at", ">=", q.after)
    .where("created_at", "<=", q.before)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The order's creation time and owner, for a conversion's checks. */
export async function orderForConversion(
  db: Queryable,
  id: number,
): Promise<{ id: number; customerId: number | null; createdAt: Date; orderKey: string } | null> {
  const row = await sql(db).selectFrom("orders").select(["id", "customer_id", "created_at", "order_key"]).where("id", "=", id).executeTakeFirst();
  return row ? { id: row.id, customerId: row.customer_id, createdAt: new Date(row.created_at), orderKey: row.order_key } : null;
}

export interface PopupStatsRow {
  id: number;
  impressions: number;
  closes: number;
  doNotShowAgain: number;
  conversions: number;
  /** The converted orders' totals, in minor units. */
  revenue: number;
}

/** Counts per popup (every popup, zeros included). */
export async function popupStats(db: Queryable): Promise<PopupStatsRow[]> {
  const count = (kind: PopupEventKind) => raw<string>`count(e.id) FILTER (WHERE e.kind = ${raw.lit(kind)})`;
  const rows = await sql(db)
    .selectFrom("popups as p")
    .leftJoin("popup_events as e", "e.popup_id", "p.id")
    // Only conversions carry an order (one each): the join adds no rows.
    .leftJoin("orders as o", "o.id", "e.order_id")
    .select([
      "p.id",
      count("impression").as("impressions"),
      count("close").as("closes"),
      count("do_not_show_again").as("dnsa"),
      count("conversion").as("conversions"),
      raw<string>`coalesce(sum(o.total) FILTER (WHERE e.kind = 'conversion'), 0)`.as("revenue"),
    ])
    .groupBy("p.id")
    .orderBy("p.id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    impressions: Number(r.impressions),
    closes: Number(r.closes),
    doNotShowAgain: Number(r.dnsa),
    conversions: Number(r.conversions),
    revenue: Number(r.revenue),
  }));
}

/** The page's product or category id by slug (display conditions by id). */
export async function productIdBySlug(db: Queryable, slug: string): Promise<number | null> {
  const row = await sql(db).selectFrom("products").select("id").where("slug", "=", slug).executeTakeFirst();
  return row?.id ?? null;
}

export async function categoryIdBySlug(db: Queryable, slug: string): Promise<number | null> {
  const row = await sql(db).selectFrom("terms").select("id").where("slug", "=", slug).where("taxonomy", "=", raw.lit("product_cat")).executeTakeFirst();
  return row?.id ?? null;
}

/** The product categories of these products (the cart condition 'contains a category'). */
export async function categoriesOfProducts(db: Queryable, productIds: readonly number[]): Promise<number[]> {
  if (productIds.length === 0) return [];
  const rows = await sql(db)
    .selectFrom("product_terms as pt")
    .innerJoin("terms as t", "t.id", "pt.term_id")
    .select("t.id")
    .distinct()
    .where("pt.product_id", "in", [...productIds])
    .where("t.taxonomy", "=", raw.lit("product_cat"))
    .execute();
  return rows.map((r) => r.id);
}
