/**
 * The Store API's Cart-Token (docs/contract/wire.md §8 'Cart-Token'): a signed JWT (HS256) naming the shopper's
 * session, so a client without cookies keeps its cart by sending the token back. Signed with a key derived from the
 * shop secret (not the secret itself), so a token is never a valid session cookie MAC and vice versa.
 */
import { createHmac } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";

const ISSUER = "store-api";

const keyOf = (secret: string) => createHmac("sha256", secret).update("wc_store_api cart token").digest();

/** A token for the session `sessionId`, valid until `expiresAtSec` (the session's own end). */
export function issueCartToken(secret: string, sessionId: string, expiresAtSec: number): Promise<string> {
  return new SignJWT({ user_id: sessionId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(ISSUER)
    .setExpirationTime(expiresAtSec)
    .sign(keyOf(secret));
}

/** The session id a token names, or null when it is malformed, forged or expired. */
export async function readCartToken(secret: string, token: string | undefined, nowSec: number): Promise<{ sessionId: string; expiresAtSec: number } | null> {
  if (!token || token.length > 1000) return null;
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), { issuer: ISSUER, algorithms: ["HS256"], currentDate: new Date(nowSec * 1000) });
    const id = payload.user_id;
    if (typeof id !== "string" || !/^[0-9a-f]{32}$/.test(id) || typeof payload.exp !== "number") return null;
    return { sessionId: id, expiresAtSec: payload.exp };
  } catch {
    return null;
  }
}
