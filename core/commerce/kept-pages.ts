/**
 * Whether a shopper with a cart may be given a page the page cache keeps for everyone (docs/decisions/0042-cart-shoppers-cached.md):
 * such a page's cart parts are placeholders filled in the browser from the cart fragments, so it is their page too
 * when nothing else of theirs would show on it.
 */
import type { Db } from "../db/client.ts";
import { listPopups } from "../db/repositories/popups.ts";
import { cartPass } from "../domain/popups/conditions.ts";
import type { CartCondition } from "../domain/popups/settings.ts";
import type { PricedCart } from "../domain/cart/types.ts";
import { cartFactsOf } from "./popups.ts";
import type { ShopSession } from "./session.ts";
import { sessionFitsKeptPage } from "./session-keys.ts";

/** The cart conditions of the enabled popups (a kept page's popups were chosen for an empty cart). */
export async function enabledPopupCartConditions(db: Db): Promise<CartCondition[]> {
  return (await listPopups(db)).flatMap((p) => (p.settings.enabled && p.settings.conditions.cart ? [p.settings.conditions.cart] : []));
}

const NO_CART = { subtotal: 0, productIds: [], categoryIds: [] };

/**
 * The shopper's session is a guest's holding only what no kept page shows (session-keys.ts), or there is none (an
 * expired or forged cookie: the page would be rendered without one), and their cart decides every enabled popup's
 * cart condition as the empty cart a kept page was chosen with does (so the kept page carries exactly their popups).
 */
export async function shopperFitsKeptPage(
  db: Db,
  shop: ShopSession,
  cart: () => Promise<PricedCart>,
  popupCartConditions: readonly CartCondition[],
): Promise<boolean> {
  const session = await shop.session();
  if (!session) return true;
  if (!sessionFitsKeptPage(session)) return false;
  if (popupCartConditions.length === 0) return true;
  const facts = await cartFactsOf(db, await cart());
  return popupCartConditions.every((c) => cartPass(c, facts) === cartPass(c, NO_CART));
}
