/**
 * Whether a shopper with a cart may be given a page the page cache keeps for everyone (docs/decisions/0042-cart-shoppers-cached.md,
 * 0045-shopper-decision-memo.md): such a page's cart parts are placeholders filled in the browser from the cart
 * fragments, so it is their page too when nothing else of theirs would show on it.
 */
import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { listPopups } from "../db/repositories/popups.ts";
import { sessionWithGuestCartLines, type CartItemRecord } from "../db/repositories/cart.ts";
import { cartPass, type CartFacts } from "../domain/popups/conditions.ts";
import type { CartCondition } from "../domain/popups/settings.ts";
import type { PricedCart } from "../domain/cart/types.ts";
import { cartFactsOf } from "./popups.ts";
import { sessionFitsKeptPage } from "./session-keys.ts";

/** The cart conditions of the enabled popups (a kept page's popups were chosen for an empty cart). */
export async function enabledPopupCartConditions(db: Db): Promise<CartCondition[]> {
  return (await listPopups(db)).flatMap((p) => (p.settings.enabled && p.settings.conditions.cart ? [p.settings.conditions.cart] : []));
}

const NO_CART: CartFacts = { subtotal: 0, productIds: [], categoryIds: [] };

/** Whether a cart with these facts decides every one of the conditions as the empty cart a kept page was chosen with. */
export function decidesAsEmptyCart(conditions: readonly CartCondition[], facts: CartFacts): boolean {
  return conditions.every((c) => cartPass(c, facts) === cartPass(c, NO_CART));
}

/**
 * The lines of a cart, as one short key (SHA-1, base64url; '' for no line): equal for two carts exactly when they
 * hold the same lines in the same order. The facts a popup's cart condition reads (`cartFactsOf`: the subtotal of the
 * lines' prices, their products, those products' categories) are made of the lines and of the catalogue only — not
 * the session's destination, the coupons, the shipping or the tax — so two carts with this key share their facts
 * while the catalogue is unchanged. A new input to those facts must join this key.
 */
export function cartLinesKey(lines: readonly CartItemRecord[]): string {
  if (lines.length === 0) return "";
  const h = createHash("sha1");
  for (const l of lines) h.update(JSON.stringify([l.key, l.productId, l.variationId, l.variation, l.itemData, l.quantity]));
  return h.digest("base64url");
}

/**
 * Decisions already taken, by `cartLinesKey` (the page cache keeps them until anything a page shows changes:
 * server/cache/page-cache.ts): whether a cart with those lines decides the enabled popups' cart conditions as an empty
 * cart does.
 */
export interface CartDecisions {
  get(linesKey: string): boolean | undefined;
  set(linesKey: string, fits: boolean): void;
}

/**
 * Decisions by a cart's lines (`cartLinesKey`), at most `max`: the least recently used goes first. Counts what it
 * answered and what it was told in `stats`.
 */
export class CartDecisionMemo implements CartDecisions {
  private readonly decided = new Map<string, boolean>();

  constructor(
    private readonly max: number,
    private readonly stats?: { shopperCartsDecided: number; shopperCartsRemembered: number },
  ) {}

  get size(): number {
    return this.decided.size;
  }

  get(linesKey: string): boolean | undefined {
    const fits = this.decided.get(linesKey);
    if (fits === undefined) return undefined;
    this.decided.delete(linesKey);
    this.decided.set(linesKey, fits);
    if (this.stats) this.stats.shopperCartsRemembered++;
    return fits;
  }

  set(linesKey: string, fits: boolean): void {
    if (this.stats) this.stats.shopperCartsDecided++;
    this.decided.delete(linesKey);
    this.decided.set(linesKey, fits);
    if (this.decided.size > this.max) this.decided.delete(this.decided.keys().next().value!);
  }
}

/**
 * The shopper's session (by id from their signed cookie; null: none, expired or forged, so the page would be rendered
 * without one) is a guest's holding only what no kept page shows (session-keys.ts), and their cart decides every
 * enabled popup's cart condition as the empty cart a kept page was chosen with does (so the kept page carries exactly
 * their popups).
 *
 * One query per call reads the session and its cart's lines (shared by every process: a change made anywhere is seen
 * at once). The cart is priced only when no decision is known for its lines; the decision is then kept under the key
 * of the lines that were priced (read with the pricing, so a cart changed between the two reads cannot file one
 * cart's decision under another's lines).
 */
export async function shopperFitsKeptPage(
  db: Db,
  sessionId: string | null,
  now: Date,
  popupCartConditions: readonly CartCondition[],
  decisions: CartDecisions,
  pricedCart: () => Promise<PricedCart>,
): Promise<boolean> {
  if (!sessionId) return true;
  const found = await sessionWithGuestCartLines(db, sessionId, now);
  if (!found) return true;
  if (!sessionFitsKeptPage(found)) return false;
  if (popupCartConditions.length === 0 || found.lines.length === 0) return true;
  const known = decisions.get(cartLinesKey(found.lines));
  if (known !== undefined) return known;
  const cart = await pricedCart();
  const fits = decidesAsEmptyCart(popupCartConditions, await cartFactsOf(db, cart));
  // A line whose product is gone or unpublished is not priced: such a cart's own key never matches, it is priced each time.
  if (cart.lines.length) decisions.set(cartLinesKey(cart.lines), fits);
  return fits;
}
