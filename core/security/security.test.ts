import { describe, expect, it } from "vitest";
import { makeNonce, verifyNonce, NONCE_WINDOW_MS } from "./nonce.ts";
import { decodeSessionCookie, encodeSessionCookie, newSessionId } from "./session-token.ts";

const secret = "s".repeat(40);
const who = { customerId: 0, browserKey: "abc" };

describe("nonces", () => {
  it("verify in the same and the previous window only", () => {
    const now = 10 * NONCE_WINDOW_MS + 5;
    const nonce = makeNonce(secret, "apply-coupon", who, now);
    expect(verifyNonce(secret, "apply-coupon", who, nonce, now)).toBe(true);
    expect(verifyNonce(secret, "apply-coupon", who, nonce, now + NONCE_WINDOW_MS)).toBe(true);
    expect(verifyNonce(secret, "apply-coupon", who, nonce, now + 2 * NONCE_WINDOW_MS)).toBe(false);
  });
  it("are bound to the action, the customer and the browser", () => {
    const now = Date.UTC(2026, 0, 1);
    const nonce = makeNonce(secret, "a", who, now);
    expect(verifyNonce(secret, "b", who, nonce, now)).toBe(false);
    expect(verifyNonce(secret, "a", { ...who, customerId: 7 }, nonce, now)).toBe(false);
    expect(verifyNonce(secret, "a", { ...who, browserKey: "other" }, nonce, now)).toBe(false);
    expect(verifyNonce(secret, "a", who, "not-a-nonce", now)).toBe(false);
    expect(verifyNonce(secret, "a", who, undefined, now)).toBe(false);
  });
});

describe("session cookie", () => {
  it("round-trips and rejects tampering and expiry", () => {
    const id = newSessionId();
    const value = encodeSessionCookie(secret, id, 200_000);
    expect(decodeSessionCookie(secret, value, 1000)).toEqual({ id, expiresAtSec: 200_000, expiringSec: 200_000 - 86400 });
    expect(decodeSessionCookie(secret, value, 200_000)).toBeNull();
    expect(decodeSessionCookie(secret, value.replace(id, newSessionId()), 1000)).toBeNull();
    expect(decodeSessionCookie("x".repeat(40), value, 1000)).toBeNull();
    expect(decodeSessionCookie(secret, "garbage", 1000)).toBeNull();
  });
});
