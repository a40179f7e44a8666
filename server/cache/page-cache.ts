/**
 * The anonymous page cache (docs/decisions/0028-page-cache.md, docs/contract/storefront.md §10 'Page cache'). A GET of
 * the home page, a listing, a category, a product, the blog or a post by a visitor without a session is answered with
 * one set of bytes for everyone: no Set-Cookie, the anonymous nonces, a CSP of script hashes instead of a nonce, an
 * ETag (304), and Cache-Control with s-maxage and stale-while-revalidate for a CDN or nginx in front. The pages are
 * kept here too, size-bounded (least recently used first out), gzip and brotli made once.
 *
 * A shopper with a cart gets the same page (docs/decisions/0042-cart-shoppers-cached.md) when their session holds
 * nothing else a page shows and their cart decides the enabled popups' cart conditions as an empty cart does: its
 * cart parts are placeholders the browser fills from the cart fragments. That costs one read of their session and
 * cart lines per page; the popups' decision is remembered by those lines (docs/decisions/0045-shopper-decision-memo.md).
 *
 * A page is dropped when a write changes what it shows (its tags, from the tag bus: core/db/write-tags.ts), at the
 * next scheduled change (a discount rule's or a popup's schedule: core/commerce/next-scheduled-change.ts), at the end
 * of the nonce window its nonces were made in, and after `maxAgeSeconds` at the latest.
 */
import { createHash } from "node:crypto";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, Response, NextFunction } from "express";
import { isbot } from "isbot";
import { CACHE_TAGS, type CacheTag } from "../../core/db/write-tags.ts";
import { NONCE_WINDOW_MS } from "../../core/security/nonce.ts";
import { CONSENT_COOKIE } from "../../core/domain/tracking/consent.ts";
import type { RenderedPage } from "../http/pages.ts";
import { BROWSER_KEY_COOKIE, parseCookies } from "../http/request-context.ts";
import type { TagBus } from "./tag-bus.ts";
import type { CartCondition } from "../../core/domain/popups/settings.ts";
import { CartDecisionMemo, type CartDecisions } from "../../core/commerce/kept-pages.ts";

export interface PageCacheOptions {
  /**
   * Told of every page `serveRaw` answers with its bytes (status 200), which skips the app's middleware: the
   * first-party funnel counts shop, category and product views here (server/features/tracking.ts).
   */
  onRawHit?: (req: IncomingMessage) => void;
  /** The bytes of all kept pages (their three encodings together). */
  maxBytes: number;
  /** The longest a page is kept here without a change (seconds). */
  maxAgeSeconds: number;
  /** What a shared cache in front is told (Cache-Control s-maxage and stale-while-revalidate, seconds). */
  sharedMaxAgeSeconds: number;
  staleWhileRevalidateSeconds: number;
  /** The Content-Security-Policy for the given inline-script tokens; null: no CSP (development). */
  policy: ((scripts: string) => string) | null;
  /** The next instant (ms) a schedule changes the storefront by itself, or null. */
  nextScheduledChange: (nowMs: number) => Promise<number | null>;
  now: () => number;
  /**
   * A shopper with a cart: the names of their cookies (the session's, `woocommerce_items_in_cart`,
   * `woocommerce_cart_hash`). A visitor with these (and inert ones) gets the kept page when `shopperFits` says their
   * session holds nothing else a page shows; without these options such a visitor's page is rendered for them.
   */
  shopperCookies?: ReadonlySet<string>;
  /**
   * Whether the session these cookies name is a guest's holding nothing but what no kept page shows, and whose cart
   * decides each of `popupCartConditions` as an empty cart does (core/commerce/kept-pages.ts). `decisions`: those
   * already taken for a cart's lines, kept here as long as the conditions are (docs/decisions/0045-shopper-decision-memo.md).
   */
  shopperFits?: (cookies: Record<string, string>, popupCartConditions: readonly CartCondition[], decisions: CartDecisions) => Promise<boolean>;
  /**
   * The cart conditions of the enabled popups: a kept page's popups were chosen for an empty cart. Read once per
   * invalidation (popups are written through the tag bus) or minute.
   */
  popupCartConditions?: () => Promise<readonly CartCondition[]>;
}

/** Renders the page for everyone: swaps the request's shopper for one without cookies; returns the undo. */
export type ForEveryone = (req: Request) => () => void;

/** The addresses kept: home, the shop and its pages, a category and its pages, a product, the blog and its pages, a post. */
const CACHEABLE_PATH =
  /^\/(?:|shop\/(?:page\/[1-9]\d{0,5}\/)?|product-category\/[^/]+\/(?:page\/[1-9]\d{0,5}\/)?|product\/[^/]+\/|blog\/(?:page\/[1-9]\d{0,5}\/)?|blog\/[^/]+\/)$/;

/** Query parameters that act (add to the cart, remember a view in a cookie, an endpoint): such a GET is never kept. */
const ACTING_PARAMS = new Set([
  "add-to-cart",
  "wc-ajax",
  "view",
  "removed_item",
  "undo_item",
  "remove_item",
  "_wpnonce",
  "rest_route",
  "preview",
  "p",
  "page_id",
  "download_file",
]);

/**
 * Cookies that change nothing the server renders for a visitor without a session: sourcebuster's and the analytics
 * tags' (read by scripts), the consent choice (applied in the browser), WordPress's test cookie, and the per-browser
 * nonce key (a guest may send a cached page's anonymous nonces: server/http/request-context.ts). Any other cookie (a
 * session, the cart's, the listing view, a dismissed store notice) means the page is this visitor's own: not from the
 * cache. A signed-in customer or staff member has a session cookie.
 */
const INERT_COOKIE = new RegExp(`^(?:sbjs_\\w+|_ga\\w*|_gid|_gcl_\\w+|_fbp|_fbc|wordpress_test_cookie|${CONSENT_COOKIE}|${BROWSER_KEY_COOKIE})$`);

/**
 * The tags of a page: every page has the header's menu, categories and featured products, and the footer's links to
 * the content pages (a page's slug or status changed must not leave a cached product page linking to the old one).
 */
function tagsOf(): ReadonlySet<CacheTag> {
  return ALL_TAGS;
}
const ALL_TAGS: ReadonlySet<CacheTag> = new Set<CacheTag>(CACHE_TAGS);

/**
 * Who sent these cookies: "everyone" (inert ones only), "shopper" (a shopper's cookies among them: the kept page once
 * their session is checked), or null (a cookie that may change the page: theirs is rendered for them).
 */
function cookieKind(header: string | undefined, shopperCookies: ReadonlySet<string> | undefined): "everyone" | "shopper" | null {
  if (!header) return "everyone";
  let kind: "everyone" | "shopper" = "everyone";
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (!name || INERT_COOKIE.test(name)) continue;
    if (shopperCookies?.has(name)) kind = "shopper";
    else return null;
  }
  return kind;
}

const bots = new Map<string, boolean>();
/** isbot, remembered per user agent (a few hundred distinct ones a day). */
function isBot(agent: string): boolean {
  let bot = bots.get(agent);
  if (bot === undefined) {
    if (bots.size > 1000) bots.clear();
    bots.set(agent, (bot = isbot(agent)));
  }
  return bot;
}

/**
 * The cache key of a request the cache may answer, else null: read off the raw request, as hits are answered before
 * Express. The scheme is the one the request claims (X-Forwarded-Proto, else the socket's); a page is kept under it
 * only when Express, which knows which proxies to trust, agrees (PageCache.render), so a false claim reads a page
 * rendered for that scheme and never stores one.
 */
export function pageCacheKey(req: IncomingMessage, shopperCookies?: ReadonlySet<string>): { key: string; shopper: boolean } | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  if (!CACHEABLE_PATH.test(path)) return null;
  if (q >= 0) for (const name of new URLSearchParams(url.slice(q + 1)).keys()) if (ACTING_PARAMS.has(name)) return null;
  const kind = cookieKind(req.headers.cookie, shopperCookies);
  if (kind === null) return null;
  const agent = req.headers["user-agent"];
  // Crawlers get the whole document at once, others a streamed one (app/entry.server.tsx): two renderings.
  return { key: `${agent && isBot(agent) ? "bot" : "web"} ${claimedScheme(req)}://${req.headers.host ?? ""}${url}`, shopper: kind === "shopper" };
}

function claimedScheme(req: IncomingMessage): string {
  const forwarded = req.headers["x-forwarded-proto"];
  if (typeof forwarded === "string") return forwarded.split(",")[0]!.trim().toLowerCase();
  return (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
}

interface Variant {
  body: Buffer;
  headers: Record<string, string | number>;
  /** `headers` with this second's Cache-Control and `X-Cache: HIT`, remade once a second (a hit allocates nothing). */
  hit: Record<string, string | number> | null;
}

interface Entry {
  key: string;
  tags: ReadonlySet<CacheTag>;
  etag: string;
  storedAt: number;
  expiresAt: number;
  size: number;
  identity: Variant;
  gzip: Variant;
  br: Variant;
  notModified: Record<string, string>;
  /** The second `hit` headers were made for. */
  hitSecond: number;
}

/** `'sha256-…'` for each distinct inline script of the page (one with a src needs none: script-src 'self'). */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(m[1]!)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(m[2]!, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/** Headers of the rendered page that are not the visitor's or the encoding's. */
const DROPPED = new Set([
  "set-cookie",
  "content-length",
  "content-encoding",
  "etag",
  "cache-control",
  "vary",
  "x-request-id",
  "content-security-policy",
  "date",
]);

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Raised by every invalidation: a page rendered across one is not kept (it may have read the old rows). */
  private epoch = 0;
  private readonly filling = new Map<string, Promise<Entry | null>>();
  /** Responses render() answered itself with a page not to keep (compression may still be writing them). */
  private readonly answered = new WeakSet<Response>();
  private schedule: { at: number | null; computedAt: number; epoch: number } | null = null;
  private popupsRead: {
    conditions: Promise<readonly CartCondition[] | null>;
    /** Shoppers' carts decided against these conditions: valid as long as they are (docs/decisions/0045-shopper-decision-memo.md). */
    decisions: CartDecisionMemo;
    computedAt: number;
    epoch: number;
  } | null = null;
  /**
   * `shopperHits`: hits (of `hits`) given to a shopper with a cart; `shopperOwn`: such shoppers given their own page;
   * `shopperCartsDecided`: carts priced to decide a shopper's popups; `shopperCartsRemembered`: decisions taken from
   * the memo instead.
   */
  readonly stats = { hits: 0, misses: 0, stored: 0, invalidations: 0, shopperHits: 0, shopperOwn: 0, shopperCartsDecided: 0, shopperCartsRemembered: 0 };

  constructor(private readonly opts: PageCacheOptions) {}

  /** Drops every page showing one of `tags`. */
  invalidate(tags: ReadonlySet<CacheTag>): void {
    this.epoch++;
    this.stats.invalidations++;
    this.schedule = null;
    for (const [key, entry] of this.entries) {
      for (const tag of entry.tags)
        if (tags.has(tag)) {
          this.remove(key, entry);
          break;
        }
    }
  }

  listenTo(bus: TagBus): () => void {
    return bus.subscribe((tags) => this.invalidate(tags));
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.size;
  }

  private lookup(key: string): Entry | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.opts.now()) {
      this.remove(key, entry);
      return null;
    }
    // Least recently used goes first: a hit moves the page to the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /**
   * Before Express (server/main.ts): a kept page is answered here, with no router, compression, request log or
   * session; true when answered.
   */
  serveRaw(req: IncomingMessage, res: ServerResponse, elsewhere: () => void): boolean {
    const found = pageCacheKey(req, this.opts.shopperCookies);
    if (found === null) return false;
    const { key, shopper } = found;
    const entry = this.lookup(key);
    if (!entry) return false;
    if (!shopper) {
      this.hit(entry, req, res);
      return true;
    }
    // A shopper with a cart: the page once their session is read (a write meanwhile may have dropped it), else theirs.
    this.shopperFits(req).then(
      (fits) => {
        const kept = fits ? this.lookup(key) : null;
        if (!kept) return elsewhere();
        this.stats.shopperHits++;
        this.hit(kept, req, res);
      },
      () => elsewhere(),
    );
    return true;
  }

  private hit(entry: Entry, req: IncomingMessage, res: ServerResponse): void {
    this.stats.hits++;
    this.send(entry, req, res, "HIT");
    if (res.statusCode === 200) this.opts.onRawHit?.(req);
  }

  /** Whether a shopper with a cart may be given the page kept for everyone (the module's comment). */
  private async shopperFits(req: IncomingMessage): Promise<boolean> {
    const { shopperFits } = this.opts;
    if (!shopperFits) return false;
    const { conditions: read, decisions } = this.popupCartConditions();
    const conditions = await read;
    // Unreadable popups: every shopper gets their own page.
    const fits = conditions !== null && (await shopperFits(parseCookies(req.headers.cookie), conditions, decisions));
    if (!fits) this.stats.shopperOwn++;
    return fits;
  }

  /**
   * The enabled popups' cart conditions (null: unreadable), read again after any invalidation or a minute, with the
   * decisions taken against them. A decision is a cart's priced facts (its lines' prices, products and categories)
   * against these conditions: every write a kept page shows (a price, a product, a category, a popup) is an
   * invalidation here, so the decisions go with the conditions. A decision filed by a pricing that started before an
   * invalidation lands in the memo it started with, which is no longer read.
   */
  private popupCartConditions(): { conditions: Promise<readonly CartCondition[] | null>; decisions: CartDecisions } {
    const read = this.opts.popupCartConditions;
    const now = this.opts.now();
    const p = this.popupsRead;
    if (p && p.epoch === this.epoch && now - p.computedAt < 60_000) return p;
    const conditions = read ? read().catch(() => null) : Promise.resolve([]);
    const decisions = new CartDecisionMemo(SHOPPER_DECISIONS_KEPT, this.stats);
    this.popupsRead = { conditions, decisions, computedAt: now, epoch: this.epoch };
    return this.popupsRead;
  }

  /** Before the page handler: a page to keep is rendered whole, kept, and answered like a hit. */
  fill(render: (req: Request, res: Response) => Promise<RenderedPage>, forEveryone: ForEveryone) {
    return async (req: Request, res: Response, next: NextFunction) => {
      // HEAD is answered from a kept page only (serveRaw): its rendering has no body to keep.
      const found = req.method === "GET" ? pageCacheKey(req, this.opts.shopperCookies) : null;
      if (found === null) return next();
      const { key, shopper } = found;
      try {
        if (shopper && !(await this.shopperFits(req))) return next();
        const kept = this.lookup(key);
        if (kept) {
          this.stats.hits++;
          if (shopper) this.stats.shopperHits++;
          return this.send(kept, req, res, "HIT");
        }
        let pending = this.filling.get(key);
        const first = !pending;
        if (!pending) {
          pending = this.render(key, req, res, render, forEveryone, shopper);
          this.filling.set(key, pending);
          void pending.finally(() => this.filling.delete(key)).catch(() => undefined);
        }
        const entry = await pending;
        if (entry) {
          if (first) this.stats.misses++;
          else this.stats.hits++;
          if (shopper && !first) this.stats.shopperHits++;
          return this.send(entry, req, res, first ? "MISS" : "HIT");
        }
        if (first && this.answered.has(res)) return; // answered by render() itself
        // The page turned out not to be shareable (it set a cookie): this request renders its own.
        next();
      } catch (error) {
        next(error);
      }
    };
  }

  /**
   * Renders for everyone; keeps and returns the page, or (not shareable) answers this request itself with what it got
   * and returns null — unless the request is a shopper's: their own page is then rendered for them (null, unanswered).
   */
  private async render(
    key: string,
    req: Request,
    res: Response,
    render: (req: Request, res: Response) => Promise<RenderedPage>,
    forEveryone: ForEveryone,
    shopper: boolean,
  ): Promise<Entry | null> {
    const epoch = this.epoch;
    const startedAt = this.opts.now();
    const undo = forEveryone(req);
    const [page, scheduled] = await Promise.all([render(req, res), this.nextChange(startedAt)]);
    const shareable =
      page.status === 200 && req.shop.setCookieHeaders().length === 0 && !page.headers.some(([k, v]) => k === "cache-control" && /no-store|private/.test(v));
    if (!shareable && shopper) {
      undo();
      return null;
    }
    if (!shareable) {
      res.status(page.status);
      for (const [k, v] of page.headers) if (k !== "content-length") res.append(k, v);
      if (!res.hasHeader("Cache-Control")) res.setHeader("Cache-Control", "private, no-cache");
      this.answered.add(res);
      res.end(page.body);
      return null;
    }
    const entry = this.entryOf(key, req, res, page, startedAt, scheduled);
    // A write landed meanwhile (the page may show the old rows), it expires at once, or the scheme the request claimed
    // is not the one Express trusts (the page has the other's addresses): answer this once, keep nothing.
    if (epoch === this.epoch && entry.expiresAt > startedAt && key.includes(` ${req.protocol}://`)) this.store(entry);
    return entry;
  }

  private entryOf(key: string, req: Request, res: Response, page: RenderedPage, now: number, scheduled: number | null): Entry {
    const { opts } = this;
    const expiresAt = Math.min(now + opts.maxAgeSeconds * 1000, (Math.floor(now / NONCE_WINDOW_MS) + 1) * NONCE_WINDOW_MS, scheduled ?? Infinity);
    const etag = `W/"${createHash("sha1").update(page.body).digest("base64url")}"`;
    const base: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(res.getHeaders())) if (!DROPPED.has(k) && v !== undefined) base[k] = Array.isArray(v) ? v.join(", ") : v;
    for (const [k, v] of page.headers) if (!DROPPED.has(k)) base[k] = v;
    if (opts.policy) base["content-security-policy"] = opts.policy(inlineScriptHashes(page.body.toString("utf8")).join(" "));
    base.etag = etag;
    base.vary = "Accept-Encoding, Cookie";
    const variant = (body: Buffer, encoding: string | null): Variant => ({
      body,
      headers: { ...base, ...(encoding ? { "content-encoding": encoding } : {}), "content-length": body.length },
      hit: null,
    });
    const gzip = gzipSync(page.body, { level: 6 });
    const br = brotliCompressSync(page.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: page.body.length } });
    return {
      key,
      tags: tagsOf(),
      etag,
      storedAt: now,
      expiresAt,
      size: page.body.length + gzip.length + br.length + 2048,
      identity: variant(page.body, null),
      gzip: variant(gzip, "gzip"),
      br: variant(br, "br"),
      // A 304 updates the headers the browser stored with the page (RFC 9111 §4.3.4): it must carry the page's own
      // policy, or a policy made for this request (another nonce) would block the stored page's scripts.
      notModified: {
        etag,
        vary: base.vary,
        ...(base["content-security-policy"] ? { "content-security-policy": String(base["content-security-policy"]) } : {}),
      },
      hitSecond: -1,
    };
  }

  private store(entry: Entry): void {
    if (entry.size > this.opts.maxBytes / 4) return;
    const old = this.entries.get(entry.key);
    if (old) this.remove(entry.key, old);
    this.entries.set(entry.key, entry);
    this.bytes += entry.size;
    this.stats.stored++;
    for (const [key, e] of this.entries) {
      if (this.bytes <= this.opts.maxBytes) break;
      this.remove(key, e);
    }
  }

  /** The next scheduled change, read once and again after any invalidation or once passed. */
  private async nextChange(now: number): Promise<number | null> {
    const s = this.schedule;
    if (s && s.epoch === this.epoch && (s.at === null || s.at > now) && now - s.computedAt < 60_000) return s.at;
    const epoch = this.epoch;
    // Unreadable schedules (a rule that no longer parses): the page is answered but kept by no one.
    const at = await this.opts.nextScheduledChange(now).catch(() => now);
    if (epoch === this.epoch) this.schedule = { at, computedAt: now, epoch };
    return at;
  }

  /** Cache-Control for a shared cache: never past the page's own expiry (a scheduled change, the nonce window). */
  private cacheControl(entry: Entry, now: number): string {
    const left = Math.max(0, Math.floor((entry.expiresAt - now) / 1000));
    const sMax = Math.min(this.opts.sharedMaxAgeSeconds, left);
    const swr = Math.min(this.opts.staleWhileRevalidateSeconds, left - sMax);
    return `public, max-age=0, s-maxage=${sMax}${swr > 0 ? `, stale-while-revalidate=${swr}` : ""}`;
  }

  private send(entry: Entry, req: IncomingMessage, res: ServerResponse, outcome: "HIT" | "MISS"): void {
    const now = this.opts.now();
    const inm = req.headers["if-none-match"];
    if (inm && matches(inm, entry.etag)) {
      if (!entry.notModified["content-security-policy"]) res.removeHeader("content-security-policy");
      res.writeHead(304, { ...entry.notModified, "cache-control": this.cacheControl(entry, now), "x-cache": outcome });
      return void res.end();
    }
    const accepted = req.headers["accept-encoding"] ?? "";
    const v = /\bbr\b/.test(accepted) ? entry.br : /\bgzip\b/.test(accepted) ? entry.gzip : entry.identity;
    let headers: Record<string, string | number>;
    if (outcome === "MISS") headers = { ...v.headers, "cache-control": this.cacheControl(entry, now), "x-cache": "MISS" };
    else {
      const second = Math.floor(now / 1000);
      if (entry.hitSecond !== second) {
        const cacheControl = this.cacheControl(entry, now);
        for (const x of [entry.identity, entry.gzip, entry.br]) x.hit = { ...x.headers, "cache-control": cacheControl, "x-cache": "HIT" };
        entry.hitSecond = second;
      }
      headers = v.hit!;
    }
    res.writeHead(200, headers);
    res.end(req.method === "HEAD" ? undefined : v.body);
  }
}

/** The most cart decisions kept (a key of 27 characters and a boolean each: about a megabyte at most). */
const SHOPPER_DECISIONS_KEPT = 10_000;

/** If-None-Match: a list of (weak or strong) tags, or `*`; compared weakly, as for a GET. */
function matches(header: string, etag: string): boolean {
  const bare = etag.slice(2);
  for (const t of header.split(",")) {
    const tag = t.trim();
    if (tag === "*" || tag === etag || tag === bare || tag === `W/${bare}`) return true;
  }
  return false;
}
