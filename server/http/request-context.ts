/**
 * Per-request state shared by every entry point (pages, wc-ajax, admin-ajax,
 * REST): the session (loaded lazily, created only when something needs it), the
 * nonce helpers and the cookies to set. Route handlers never read cookies directly.
 */
import type { Request, Response, NextFunction } from "express";
import { randomBytes } from "node:crypto";
import type { Db } from "../../core/db/client.ts";
import * as sessions from "../../core/db/repositories/sessions.ts";
import type { Notice, SessionRecord } from "../../core/db/repositories/sessions.ts";
import type { CookieOptions, ShopSession } from "../../core/commerce/session.ts";
import type { Storefront } from "../../core/commerce/storefront.server.ts";
import { CUSTOMER_SESSION_SECONDS, GUEST_SESSION_SECONDS, decodeSessionCookie, encodeSessionCookie, newSessionId } from "../../core/security/session-token.ts";
import { ANONYMOUS_NONCE_ACTIONS, makeNonce, verifyNonce, type NonceSubject } from "../../core/security/nonce.ts";
import { mergeGuestCart } from "../../core/commerce/cart.ts";

export const BROWSER_KEY_COOKIE = "shop_nonce_key";

/**
 * Whom the nonces of a page the page cache keeps are made for: every visitor without a session, like WordPress's
 * logged-out nonces. Such a page sets no cookie (docs/decisions/0028-page-cache.md).
 */
const ANONYMOUS_SUBJECT: NonceSubject = { customerId: 0, browserKey: "none" };

export type { CookieOptions };

export class RequestContext implements ShopSession {
  private loading: Promise<SessionRecord | null> | null = null;
  private record: SessionRecord | null = null;
  private loaded = false;
  private dirty = false;
  /**
   * Set for the page the page cache renders for everyone (`forEveryone`): nonces are the anonymous ones and no
   * per-browser key cookie is set (a page that sets a cookie anyway is not kept).
   */
  anonymous = false;
  private readonly cookiesToSet = new Map<string, string>();

  constructor(
    readonly db: Db,
    private readonly secret: string,
    private readonly sessionCookie: string,
    private readonly secure: boolean,
    readonly cookies: Record<string, string>,
    readonly now: () => Date,
    /** The actions whose anonymous nonce a guest may send (ANONYMOUS_NONCE_ACTIONS and the discount script's). */
    private readonly anonymousActions: ReadonlySet<string> = ANONYMOUS_NONCE_ACTIONS,
  ) {}

  /**
   * The context the page cache renders a page for everyone with (docs/decisions/0028, 0042): no cookie at all, so no
   * session, cart, notice or view choice is read whoever asked, and the anonymous nonces.
   */
  forEveryone(): RequestContext {
    const everyone = new RequestContext(this.db, this.secret, this.sessionCookie, this.secure, {}, this.now, this.anonymousActions);
    everyone.anonymous = true;
    return everyone;
  }

  // ---------- cookies ----------
  setCookie(name: string, value: string, opts: CookieOptions): void {
    const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", `SameSite=${opts.sameSite ?? "Lax"}`];
    if (opts.httpOnly) parts.push("HttpOnly");
    if (this.secure) parts.push("Secure");
    if (opts.maxAgeSeconds !== undefined) {
      if (opts.maxAgeSeconds <= 0) parts.push("Max-Age=0", "Expires=Thu, 01 Jan 1970 00:00:00 GMT");
      else parts.push(`Max-Age=${opts.maxAgeSeconds}`);
    }
    this.cookiesToSet.set(name, parts.join("; "));
    if (opts.maxAgeSeconds !== undefined && opts.maxAgeSeconds <= 0) delete this.cookies[name];
    else this.cookies[name] = value;
  }

  setCookieHeaders(): string[] {
    return [...this.cookiesToSet.values()];
  }

  // ---------- session ----------
  /** Loaded once per request; parallel loaders share the same load. */
  async session(): Promise<SessionRecord | null> {
    this.loading ??= (async () => {
      const nowSec = Math.floor(this.now().getTime() / 1000);
      const decoded = decodeSessionCookie(this.secret, this.cookies[this.sessionCookie], nowSec);
      this.record = decoded ? await sessions.findSession(this.db, decoded.id, this.now()) : null;
      if (this.record && decoded && nowSec > decoded.expiringSec) this.renew(this.record);
      this.loaded = true;
      return this.record;
    })();
    await this.loading;
    return this.record;
  }

  /** The session, created (and its cookie set) if this browser has none yet. */
  async ensureSession(): Promise<SessionRecord> {
    const existing = await this.session();
    if (existing) return existing;
    const record: SessionRecord = {
      id: newSessionId(),
      customerId: null,
      data: {},
      expiresAt: new Date(this.now().getTime() + GUEST_SESSION_SECONDS * 1000),
    };
    await sessions.createSession(this.db, record);
    this.record = record;
    this.writeSessionCookie(record);
    return record;
  }

  private renew(record: SessionRecord): void {
    const seconds = record.customerId ? CUSTOMER_SESSION_SECONDS : GUEST_SESSION_SECONDS;
    record.expiresAt = new Date(this.now().getTime() + seconds * 1000);
    this.dirty = true;
    this.writeSessionCookie(record);
  }

  private writeSessionCookie(record: SessionRecord): void {
    const exp = Math.floor(record.expiresAt.getTime() / 1000);
    const maxAge = exp - Math.floor(this.now().getTime() / 1000);
    this.setCookie(this.sessionCookie, encodeSessionCookie(this.secret, record.id, exp), { httpOnly: true, maxAgeSeconds: maxAge });
  }

  customerId(): number {
    return this.record?.customerId ?? 0;
  }

  async updateSessionData(change: (data: SessionRecord["data"]) => void): Promise<void> {
    const record = await this.ensureSession();
    change(record.data);
    this.dirty = true;
  }

  /** Signs in: a new session id (no fixation), a longer lifetime, new nonces. */
  async signIn(customerId: number): Promise<void> {
    const record = await this.ensureSession();
    const newId = newSessionId();
    await sessions.rotateSessionId(this.db, record.id, newId);
    record.id = newId;
    record.customerId = customerId;
    this.renew(record);
    // The guest cart (which followed the id rotation) joins the customer's cart.
    await mergeGuestCart(this.db, newId, customerId);
  }

  async signOut(): Promise<void> {
    const record = await this.session();
    if (record) await sessions.deleteSession(this.db, record.id);
    this.record = null;
    this.dirty = false;
    this.setCookie(this.sessionCookie, "", { httpOnly: true, maxAgeSeconds: 0 });
  }

  async queueNotice(notice: Notice): Promise<void> {
    await this.updateSessionData((d) => {
      d.notices = [...(d.notices ?? []), notice].slice(-10);
    });
  }

  async takeNotices(): Promise<Notice[]> {
    const record = await this.session();
    const notices = record?.data.notices ?? [];
    if (notices.length) await this.updateSessionData((d) => delete d.notices);
    return notices;
  }

  /** Writes a changed session back; called once, before the response goes out. */
  async flush(): Promise<void> {
    if (this.dirty && this.record) {
      await sessions.saveSession(this.db, this.record);
      this.dirty = false;
    }
  }

  // ---------- nonces ----------
  private validKey(): string | null {
    const key = this.cookies[BROWSER_KEY_COOKIE];
    return key && /^[0-9a-f]{32}$/.test(key) ? key : null;
  }

  private createKey(): string {
    const key = randomBytes(16).toString("hex");
    this.setCookie(BROWSER_KEY_COOKIE, key, { httpOnly: true, maxAgeSeconds: 365 * 86400 });
    return key;
  }

  /**
   * The browser's key, made now (with its cookie on this response) if it has none: a visitor who has seen only cached
   * pages has none yet (docs/decisions/0028), and is then counted as a browser of its own, not as its whole address.
   */
  browserKey(): string {
    return this.validKey() ?? this.createKey();
  }

  /** Who a nonce is for; a page the page cache keeps is made for the anonymous subject and sets no key cookie. */
  private nonceSubject(create: boolean): NonceSubject {
    if (this.anonymous) return ANONYMOUS_SUBJECT;
    const key = this.validKey() ?? (create ? this.createKey() : "none");
    return { customerId: this.customerId(), browserKey: key };
  }

  /** Call after session() has been awaited, so a signed-in customer gets their own nonces. */
  nonce(action: string): string {
    return makeNonce(this.secret, action, this.nonceSubject(true), this.now().getTime());
  }

  /**
   * A guest's nonce, or for the actions a cached page carries (ANONYMOUS_NONCE_ACTIONS), the anonymous one: the page
   * was cached before this browser had a key. Never for a signed-in customer, and only once the session is known to
   * be a guest's (loaded, or no session cookie at all).
   */
  verifyNonce(action: string, value: unknown): boolean {
    const nowMs = this.now().getTime();
    if (verifyNonce(this.secret, action, this.nonceSubject(false), value, nowMs)) return true;
    const guest = this.loaded ? !this.record?.customerId : !this.cookies[this.sessionCookie];
    return guest && this.anonymousActions.has(action) && verifyNonce(this.secret, action, ANONYMOUS_SUBJECT, value, nowMs);
  }
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in out) continue;
    try {
      out[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      out[name] = part.slice(eq + 1).trim();
    }
  }
  return out;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express types its request through this global namespace
  namespace Express {
    interface Request {
      shop: RequestContext;
      /** The use cases bound to this request's shopper (server/app.ts builds it once per request). */
      storefront: Storefront;
    }
  }
}

export function requestContextMiddleware(opts: {
  db: Db;
  secret: string;
  sessionCookie: string;
  now?: () => Date;
  anonymousNonceActions?: ReadonlySet<string>;
}) {
  return (req: Request, res: Response, next: NextFunction) => {
    const secure = req.secure || req.headers["x-forwarded-proto"] === "https";
    req.shop = new RequestContext(
      opts.db,
      opts.secret,
      opts.sessionCookie,
      secure,
      parseCookies(req.headers.cookie),
      opts.now ?? (() => new Date()),
      opts.anonymousNonceActions,
    );
    // Cookies and the session are written just before the head goes out, whoever sends the response.
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<typeof writeHead>) {
      const cookies = req.shop.setCookieHeaders();
      if (cookies.length && !this.headersSent) {
        const existing = this.getHeader("Set-Cookie");
        const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
        this.setHeader("Set-Cookie", [...list, ...cookies]);
      }
      return writeHead.apply(this, args);
    } as typeof writeHead;
    next();
  };
}
