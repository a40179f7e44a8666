/**
 * The shopper's session as the use cases see it: loaded lazily, created only when something needs it, with
 * the nonce helpers and the cookies of the response. The server implements it per request
 * (server/http/request-context.ts); the use cases and the route modules only know this interface.
 */
import type { SessionRecord } from "../db/repositories/sessions.ts";
import type { Notice } from "../domain/notice.ts";

export type { SessionRecord };
export type { Notice };

export interface CookieOptions {
  httpOnly: boolean;
  maxAgeSeconds?: number; // undefined: a browser-session cookie; <= 0: delete
  sameSite?: "Lax" | "Strict";
}

export interface ShopSession {
  /** The request's cookies (a cookie set during the request reads back its new value). */
  readonly cookies: Record<string, string>;
  setCookie(name: string, value: string, opts: CookieOptions): void;
  /** Loaded once per request; parallel loaders share the same load. */
  session(): Promise<SessionRecord | null>;
  /** The session, created (and its cookie set) if this browser has none yet. */
  ensureSession(): Promise<SessionRecord>;
  /** The signed-in customer's id, 0 for a guest (after session() has been awaited). */
  customerId(): number;
  updateSessionData(change: (data: SessionRecord["data"]) => void): Promise<void>;
  signIn(customerId: number): Promise<void>;
  signOut(): Promise<void>;
  queueNotice(notice: Notice): Promise<void>;
  takeNotices(): Promise<Notice[]>;
  nonce(action: string): string;
  verifyNonce(action: string, value: unknown): boolean;
}
