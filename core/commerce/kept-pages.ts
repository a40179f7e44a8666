/**
 * Whether a shopper with a cart may be given a page the page cache keeps for everyone (docs/decisions/0042-cart-shoppers-cached.md):
 * such a page's cart parts are placeholders filled in the browser from the cart fragments, so it is their page too
 * when nothing else of theirs would show on it.
 */
import type { Db } from "../db/client.ts";
import { findSession } from "../db/repositories/sessions.ts";
import { listPopups } from "../db/repositories/popups.ts";
import { decodeSessionCookie } from "../security/session-token.ts";
import { sessionFitsKeptPage } from "./session-keys.ts";

/**
 * The session the cookie names is a guest's holding nothing but what no kept page shows (session-keys.ts), or there
 * is none (an expired or forged cookie: the page would be rendered without a session anyway).
 */
export async function shopperFitsKeptPage(db: Db, secret: string, sessionCookie: string | undefined, now: Date): Promise<boolean> {
  const decoded = decodeSessionCookie(secret, sessionCookie, Math.floor(now.getTime() / 1000));
  if (!decoded) return true;
  const session = await findSession(db, decoded.id, now);
  return !session || sessionFitsKeptPage(session);
}

/**
 * Whether an enabled popup has a cart condition. The server chooses a page's popups, and a kept page's were chosen
 * for an empty cart: while such a popup is enabled, a shopper with a cart gets their own page (the simpler of the two
 * correct answers; choosing those popups in the browser would need the cart's facts there).
 */
export async function hasCartConditionedPopup(db: Db): Promise<boolean> {
  return (await listPopups(db)).some((p) => p.settings.enabled && p.settings.conditions.cart !== undefined);
}
