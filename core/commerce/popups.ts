/**
 * Popups' use cases (docs/contract/storefront.md §3 'Popup settings', §4 'Popups'): which popups a page carries (the
 * conditions the server owns: enabled, logged_in, schedule, pages, cart), saving settings, and the events the
 * browser reports with the conversion rule (docs/decisions/0018-popups.md).
 */
import type { Db } from "../db/client.ts";
import * as repo from "../db/repositories/popups.ts";
import { findCustomerRole } from "../db/repositories/customers.ts";
import { serverConditionsPass, type CartFacts, type PageFacts } from "../domain/popups/conditions.ts";
import { parsePopupSettings, type PagePopup } from "../domain/popups/settings.ts";
import type { PricedCart } from "../domain/cart/types.ts";

/** The page kind (and its product or category) from the address. */
export async function pageFacts(db: Db, path: string): Promise<PageFacts> {
  if (path === "/cart/") return { kind: "cart" };
  if (path === "/checkout/") return { kind: "checkout" };
  if (/^\/shop\/(?:page\/\d+\/)?$/.test(path)) return { kind: "shop" };
  const product = /^\/product\/([^/]+)\/$/.exec(path);
  if (product) {
    const id = await repo.productIdBySlug(db, safeDecode(product[1]!));
    return id === null ? { kind: "other" } : { kind: "product", id };
  }
  const category = /^\/product-category\/([^/]+)\/(?:page\/\d+\/)?$/.exec(path);
  if (category) {
    const id = await repo.categoryIdBySlug(db, safeDecode(category[1]!));
    return id === null ? { kind: "other" } : { kind: "category", id };
  }
  return { kind: "other" };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export interface PopupPageRequest {
  path: string;
  customerId: number;
  cart: PricedCart;
  now: Date;
  timeZone: string;
}

/** The cart as popup conditions see it: its subtotal before discounts, its products and their categories. */
export async function cartFactsOf(db: Db, cart: PricedCart): Promise<CartFacts> {
  const productIds = [...new Set(cart.lines.map((l) => l.productId))];
  return { subtotal: cart.result.totals.subtotal, productIds, categoryIds: await repo.categoriesOfProducts(db, productIds) };
}

/** The popups that may apply on this page, for this shopper and cart; a broken row is skipped, never sent. */
export async function popupsForPage(db: Db, req: PopupPageRequest): Promise<PagePopup[]> {
  const all = (await repo.listPopups(db)).filter((p) => p.settings.enabled);
  if (all.length === 0) return [];
  const page = await pageFacts(db, req.path);
  const user = req.customerId ? { role: (await findCustomerRole(db, req.customerId)) ?? "customer" } : null;
  const cart = all.some((p) => p.settings.conditions.cart) ? await cartFactsOf(db, req.cart) : null;
  return all
    .filter((p) => serverConditionsPass(p.settings, { user, page, cart, now: req.now, timeZone: req.timeZone }))
    .map(({ id, settings: { title, content, display, triggers, timing } }) => {
      const { logged_in: _roles, ...browserTiming } = timing;
      return { id, title, content, display, triggers, timing: browserTiming };
    });
}

export type SaveResult = { ok: true; id: number } | { ok: false; status: 400 | 404 | 412; field?: string; message: string };

/** A popup's version (docs/contract/wire.md §2.10 'Two editors'): its modification time in milliseconds, as coupons'. */
export const popupVersion = (updatedAt: Date) => String(updatedAt.getTime());

/**
 * Creates (id null) or replaces a popup's settings; refused settings change nothing. With `expectedVersion` (the
 * client's If-Match), an update of a popup saved since that version is refused (412) under the row's lock.
 */
export async function savePopup(db: Db, id: number | null, input: unknown, expectedVersion?: string): Promise<SaveResult> {
  const parsed = parsePopupSettings(input);
  if (!parsed.ok) return { ok: false, status: 400, field: parsed.field, message: parsed.message };
  if (id === null) return { ok: true, id: await repo.insertPopup(db, parsed.value) };
  return db.transaction(async (tx): Promise<SaveResult> => {
    const locked = await repo.lockPopup(tx, id);
    if (!locked) return { ok: false, status: 404, message: "Invalid popup ID." };
    if (expectedVersion !== undefined && expectedVersion !== popupVersion(locked.updatedAt)) {
      return { ok: false, status: 412, message: "This popup was changed since you opened it. Reload it to see the changes, then make yours again." };
    }
    await repo.updatePopup(tx, id, parsed.value);
    return { ok: true, id };
  });
}

/** Events per client per hour: a page shows few popups; more is a script gone wrong or abuse. */
export const POPUP_EVENTS_PER_CLIENT_PER_HOUR = 120;
/** Events per client address per hour, whatever key cookie it sends (a rotated cookie gets no fresh limit); higher
 * than the per-client one because several browsers may share an address. */
export const POPUP_EVENTS_PER_ADDRESS_PER_HOUR = 600;
/** A conversion counts an impression this long before the order at most (the browser checks its own session too). */
export const CONVERSION_WINDOW_MS = 24 * 3600_000;

export type EventOutcome = { ok: true; recorded: boolean } | { ok: false; status: 404 | 429 | 400; code: string; message: string };

export async function recordEvent(
  db: Db,
  e: {
    popupId: number;
    kind: repo.PopupEventKind;
    clientKey: string;
    /** The request's client address (Express's req.ip under the shop's "trust proxy"). */
    clientAddress: string;
    now: Date;
    /** For a conversion: the order, and whether this session may see it (placed it, or its customer). */
    order?: { id: number; key: string; visible(order: { id: number; customerId: number | null }): boolean };
  },
): Promise<EventOutcome> {
  if (!(await repo.findPopup(db, e.popupId))) return { ok: false, status: 404, code: "rest_popup_invalid_id", message: "Invalid popup ID." };
  const since = new Date(e.now.getTime() - 3600_000);
  if (
    (await repo.countClientEvents(db, e.clientKey, since)) >= POPUP_EVENTS_PER_CLIENT_PER_HOUR ||
    (await repo.countAddressEvents(db, e.clientAddress, since)) >= POPUP_EVENTS_PER_ADDRESS_PER_HOUR
  ) {
    return { ok: false, status: 429, code: "rest_popup_events_limited", message: "Too many popup events. Please try again later." };
  }
  if (e.kind === "conversion") {
    const order = e.order && (await repo.orderForConversion(db, e.order.id));
    if (!e.order || !order || order.orderKey !== e.order.key || !e.order.visible(order)) {
      return { ok: false, status: 400, code: "rest_popup_invalid_order", message: "The order is not one this session placed." };
    }
    const seen = await repo.impressionBetween(db, {
      popupId: e.popupId,
      clientKey: e.clientKey,
      after: new Date(order.createdAt.getTime() - CONVERSION_WINDOW_MS),
      before: order.createdAt,
    });
    if (!seen) return { ok: true, recorded: false };
    return {
      ok: true,
      recorded: await repo.recordPopupEvent(db, {
        popupId: e.popupId,
        kind: "conversion",
        clientKey: e.clientKey,
        clientAddress: e.clientAddress,
        orderId: order.id,
        at: e.now,
      }),
    };
  }
  return {
    ok: true,
    recorded: await repo.recordPopupEvent(db, { popupId: e.popupId, kind: e.kind, clientKey: e.clientKey, clientAddress: e.clientAddress, at: e.now }),
  };
}

export interface PopupStats {
  id: number;
  title: string;
  enabled: boolean;
  impressions: number;
  closes: number;
  do_not_show_again: number;
  conversions: number;
  /** conversions / impressions, 0 without impressions (rounded to 4 places). */
  conversion_rate: number;
  /** The converted orders' totals in the shop's currency, major units (like the funnel report's revenue). */
  revenue: number;
}

export async function popupStatsReport(db: Db): Promise<PopupStats[]> {
  const [popups, stats] = await Promise.all([repo.listPopups(db), repo.popupStats(db)]);
  const byId = new Map(popups.map((p) => [p.id, p]));
  return stats
    .filter((s) => byId.has(s.id))
    .map((s) => {
      const p = byId.get(s.id)!;
      return {
        id: s.id,
        title: p.settings.title,
        enabled: p.settings.enabled,
        impressions: s.impressions,
        closes: s.closes,
        do_not_show_again: s.doNotShowAgain,
        conversions: s.conversions,
        conversion_rate: s.impressions ? Math.round((s.conversions / s.impressions) * 10_000) / 10_000 : 0,
        revenue: s.revenue / 100,
      };
    });
}

export { listPopups, findPopup, deletePopup, type StoredPopup } from "../db/repositories/popups.ts";
