/**
 * The session cookie, in WooCommerce's shape `<id>|<expiration>|<expiring>|<hmac>`
 * (docs/contract/wire.md §1.5): the id is random, the HMAC stops forgery, and the two
 * times let the server renew a session that is close to its end.
 */
import { createHmac, randomBytes, timingSafeEqual, createHash } from "node:crypto";

export const GUEST_SESSION_SECONDS = 48 * 3600;
export const CUSTOMER_SESSION_SECONDS = 7 * 24 * 3600;
export const RENEW_BEFORE_SECONDS = 24 * 3600;

export function newSessionId(): string {
  return randomBytes(16).toString("hex");
}

export function sessionCookieName(siteUrl: string): string {
  return `wp_woocommerce_session_${createHash("md5").update(siteUrl).digest("hex")}`;
}

function sign(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(payload).digest("hex");
}

export function encodeSessionCookie(secret: string, id: string, expiresAtSec: number): string {
  const expiring = Math.max(0, expiresAtSec - RENEW_BEFORE_SECONDS);
  const payload = `${id}|${expiresAtSec}|${expiring}`;
  return `${payload}|${sign(secret, payload)}`;
}

export interface DecodedSession {
  id: string;
  expiresAtSec: number;
  expiringSec: number;
}

export function decodeSessionCookie(secret: string, value: string | undefined, nowSec: number): DecodedSession | null {
  if (!value || value.length > 200) return null;
  const parts = value.split("|");
  if (parts.length !== 4) return null;
  const [id, exp, expiring, mac] = parts as [string, string, string, string];
  if (!/^[0-9a-f]{32}$/.test(id) || !/^\d{1,12}$/.test(exp) || !/^\d{1,12}$/.test(expiring) || !/^[0-9a-f]{64}$/.test(mac)) return null;
  const expected = sign(secret, `${id}|${exp}|${expiring}`);
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(mac))) return null;
  const expiresAtSec = Number(exp);
  if (expiresAtSec <= nowSec) return null;
  return { id, expiresAtSec, expiringSec: Number(expiring) };
}
