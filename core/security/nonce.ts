/**
 * WordPress-style nonces: an HMAC of (action, who, time window). A nonce is valid
 * in the window it was made and the one before, so 12 to 24 hours. "Who" is the
 * customer id plus a random per-browser key, so a nonce from one browser is
 * useless in another, and signing in changes every nonce.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The nonce action of every REST call (X-WP-Nonce), as WordPress names it. */
export const REST_NONCE_ACTION = "wp_rest";

export const NONCE_WINDOW_MS = 12 * 60 * 60 * 1000;

/**
 * The actions whose nonces a page the page cache keeps carries for every visitor without a session (the page globals
 * of app/lib/browser-globals.server.ts): a guest may send the anonymous nonce of these even after getting a
 * per-browser key, like WordPress's logged-out nonces (docs/decisions/0028-page-cache.md). The discount script's
 * action is the site setting `discounts.nonceAction`, which server/app.ts adds.
 */
export const ANONYMOUS_NONCE_ACTIONS: ReadonlySet<string> = new Set(["check-user-exist", "woocommerce-login", REST_NONCE_ACTION]);

export interface NonceSubject {
  customerId: number; // 0 for guests
  browserKey: string;
}

export function makeNonce(secret: string, action: string, who: NonceSubject, nowMs: number, windowOffset = 0): string {
  const tick = Math.floor(nowMs / NONCE_WINDOW_MS) - windowOffset;
  return createHmac("sha256", secret).update(`${action}|${who.customerId}|${who.browserKey}|${tick}`).digest("hex").slice(-10);
}

export function verifyNonce(secret: string, action: string, who: NonceSubject, nonce: unknown, nowMs: number): boolean {
  if (typeof nonce !== "string" || !/^[0-9a-f]{10}$/.test(nonce)) return false;
  for (const offset of [0, 1]) {
    const expected = makeNonce(secret, action, who, nowMs, offset);
    if (timingSafeEqual(Buffer.from(expected), Buffer.from(nonce))) return true;
  }
  return false;
}
