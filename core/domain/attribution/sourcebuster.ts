/**
 * Traffic-source attribution as WooCommerce's fork of sourcebuster (v1.2.0) does it (docs/contract/wire.md §4): the
 * classification of a page load (utm → organic → referral → typein → keep, docs/contract/wire.md §4.3) and the cookie format (§4.2).
 * Pure: the browser module (app/components/checkout/attribution.client.ts) passes the page, the clock and the
 * cookies in and writes the cookies that come out.
 */

/** WooCommerce's parameters for sbjs.init (OrderAttributionController): 0.00001 months = session cookies. */
export const WC_SBJS_PARAMS = { lifetimeMonths: 0.00001, sessionLengthMinutes: 30, base64: false, timezoneOffsetHours: 0 } as const;

export const NONE = "(none)";
/** sourcebuster's value for a case it cannot name (docs/contract/storefront.md §4 'Traffic classification'). */
export const OOPS = "(Houston, we have a problem)";
export const MIGRATIONS_VALUE = "1418474375998=1";

export const COOKIE_NAMES = {
  current: "sbjs_current",
  current_add: "sbjs_current_add",
  first: "sbjs_first",
  first_add: "sbjs_first_add",
  session: "sbjs_session",
  udata: "sbjs_udata",
  migrations: "sbjs_migrations",
  promo: "sbjs_promo",
} as const;

export type Source = { typ: string; src: string; mdm: string; cmp: string; cnt: string; trm: string; id: string; plt: string; fmt: string; tct: string };
export type SourceAdd = { fd: string; ep: string; rf: string };
export interface SbjsData {
  current: Source;
  current_add: SourceAdd;
  first: Source;
  first_add: SourceAdd;
  session: { pgs: string; cpg: string };
  udata: { vst: string; uip: string; uag: string };
}

export interface SbjsOptions {
  lifetimeMonths: number;
  sessionLengthMinutes: number;
  base64: boolean;
  timezoneOffsetHours: number;
  /** Custom query parameters (sourcebuster's campaign_param / term_param / content_param). */
  campaignParam?: string;
  termParam?: string;
  contentParam?: string;
  /** Custom referral sources, checked before the built-in aliases (options.ts validates them). */
  referrals?: readonly { host: string; medium: string; display: string }[];
  /** Custom search engines, checked before the built-in ones. */
  organics?: readonly { host: string; param: string; display: string }[];
  /** When set, a random code in [min, max] is kept in sbjs_promo (written once). */
  promocode?: { min: number; max: number } | null;
}

export interface PageLoad {
  url: string;
  referrer: string;
  now: Date;
  userAgent: string;
  /** Raw cookie values by name, as in document.cookie (still encoded). */
  cookies: Record<string, string>;
  /** [0, 1), for the promo code; Math.random by default. */
  random?: () => number;
}

export interface CookieWrite {
  name: string;
  value: string;
  /** null: a browser-session cookie (no Expires). */
  expires: Date | null;
  /** null: no Domain attribute (a host-only cookie: IP addresses and single-label hosts such as localhost). */
  domain: string | null;
}

// ---------------------------------------------------------------------------------------------------------------
// Cookie values (docs/contract/wire.md §4.2)
// ---------------------------------------------------------------------------------------------------------------

const DELIMITER = "|||";

/** encodeURIComponent plus the escapes of ! ~ * ' ( ) that sourcebuster adds. */
export function encodeData(s: string): string {
  return encodeURIComponent(s).replace(/[!~*'()]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

function decodeData(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const BASE64 = /^[A-Za-z0-9+/]+$/;

function toBase64(s: string): string {
  // The encoded string is ASCII, so btoa-style encoding of its bytes is exact.
  let bin = "";
  for (const byte of new TextEncoder().encode(s)) bin += String.fromCharCode(byte);
  return btoa(bin).replace(/=+$/, "");
}

function fromBase64(s: string): string | null {
  try {
    const bin = atob(s + "=".repeat((4 - (s.length % 4)) % 4));
    return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** One cookie value from key/value pairs: `k=v|||k=v`, encoded, optionally base64 without padding. */
export function encodeCookieValue(pairs: Record<string, string>, base64: boolean): string {
  const encoded = encodeData(
    Object.entries(pairs)
      .map(([k, v]) => `${k}=${v}`)
      .join(DELIMITER),
  );
  return base64 ? toBase64(encoded) : encoded;
}

/** Reads a cookie value written by encodeCookieValue (base64 detected automatically). */
export function decodeCookieValue(raw: string): Record<string, string> {
  let value = raw;
  if (BASE64.test(raw)) value = fromBase64(raw) ?? raw;
  const out: Record<string, string> = {};
  for (const pair of decodeData(value).split(DELIMITER)) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    out[pair.slice(0, at)] = decodeData(pair.slice(at + 1));
  }
  return out;
}

/** document.cookie → name → raw value. */
export function parseCookieHeader(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    if (name && !(name in out)) out[name] = part.slice(at + 1).trim();
  }
  return out;
}

/** A document.cookie assignment for one write. */
export function cookieString(c: CookieWrite): string {
  return `${c.name}=${c.value}${c.expires ? `; expires=${c.expires.toUTCString()}` : ""}${c.domain ? `; domain=${c.domain}` : ""}; path=/`;
}

// ---------------------------------------------------------------------------------------------------------------
// Classification (docs/contract/wire.md §4.3)
// ---------------------------------------------------------------------------------------------------------------

const stripWww = (host: string) => host.replace(/^www\./, "");

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Query parameters taken raw (no '+' → space); a bare name without '=' does not count. */
function rawQuery(url: string): Map<string, string> {
  const out = new Map<string, string>();
  const q = url.split("#")[0]!.split("?").slice(1).join("?");
  for (const part of q.split("&")) {
    const at = part.indexOf("=");
    if (at <= 0) continue;
    const name = part.slice(0, at);
    if (!out.has(name)) out.set(name, part.slice(at + 1));
  }
  return out;
}

const UTM_PARAMS = [
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_content",
  "utm_term",
  "utm_id",
  "utm_source_platform",
  "utm_creative_format",
  "utm_marketing_tactic",
  "gclid",
  "yclid",
];

const ENGINES: { host: string; param: string; name?: string }[] = [
  { host: "bing.com", param: "q" },
  { host: "yahoo.com", param: "p" },
  { host: "about.com", param: "q" },
  { host: "aol.com", param: "q" },
  { host: "ask.com", param: "q" },
  { host: "globososo.com", param: "q", name: "globo" },
  { host: "go.mail.ru", param: "q" },
  { host: "rambler.ru", param: "query" },
  { host: "tut.by", param: "query" },
];

const REFERRAL_ALIASES: Record<string, string> = { "t.co": "twitter.com", "plus.url.google.com": "plus.google.com" };

const source = (typ: string, over: Partial<Source> = {}): Source => ({
  typ,
  src: NONE,
  mdm: NONE,
  cmp: NONE,
  cnt: NONE,
  trm: NONE,
  id: NONE,
  plt: NONE,
  fmt: NONE,
  tct: NONE,
  ...over,
});

/** The site's cookie domain: the host without 'www.'; sourcebuster also treats its subdomains as internal. */
export function siteDomain(url: string): string {
  return stripWww(parseUrl(url)?.hostname ?? "");
}

function isInternal(refHost: string, domain: string): boolean {
  const h = stripWww(refHost);
  return h === domain || h.endsWith("." + domain);
}

/** sourcebuster's host rule for configured entries: the host itself or any subdomain of it, case-insensitive. */
const hostMatches = (host: string, entry: string) => {
  const h = host.toLowerCase();
  return h === entry || h.endsWith("." + entry);
};

function organicEngine(ref: URL, options: SbjsOptions): string | null {
  const host = ref.hostname;
  const query = rawQuery(ref.href);
  if (/(^|\.)yandex\.[a-z.]+$/.test(host) && query.has("text")) return "yandex";
  if (/^(www\.)?google\.[a-z.]+$/.test(host)) return "google";
  for (const e of options.organics ?? []) if (hostMatches(host, e.host) && query.has(e.param)) return e.display;
  for (const e of ENGINES) {
    if ((host === e.host || host.endsWith("." + e.host)) && query.has(e.param)) return e.name ?? e.host.split(".")[0]!;
  }
  return null;
}

function utmSource(url: string, referrer: URL | null, options: SbjsOptions): Source | null {
  const q = rawQuery(url);
  const custom = [options.campaignParam, options.termParam, options.contentParam].filter((p): p is string => !!p);
  if (![...UTM_PARAMS, ...custom].some((p) => q.has(p))) return null;
  const click = q.has("gclid") ? "google" : q.has("yclid") ? "yandex" : null;
  const get = (p: string | undefined) => (p ? q.get(p) : undefined);
  const yandexText = referrer && /(^|\.)yandex\.[a-z.]+$/.test(referrer.hostname) ? rawQuery(referrer.href).get("text") : undefined;
  return source("utm", {
    src: q.get("utm_source") ?? click ?? NONE,
    mdm: q.get("utm_medium") ?? (click ? "cpc" : NONE),
    cmp: q.get("utm_campaign") ?? get(options.campaignParam) ?? (click ? `${click}_cpc` : NONE),
    cnt: q.get("utm_content") ?? get(options.contentParam) ?? NONE,
    trm: q.get("utm_term") ?? get(options.termParam) ?? yandexText ?? NONE,
    id: q.get("utm_id") ?? NONE,
    plt: q.get("utm_source_platform") ?? NONE,
    fmt: q.get("utm_creative_format") ?? NONE,
    tct: q.get("utm_marketing_tactic") ?? NONE,
  });
}

/** 'YYYY-MM-DD HH:MM:SS' at the given offset from UTC. */
export function formatDate(now: Date, offsetHours: number): string {
  const d = new Date(now.getTime() + offsetHours * 3_600_000);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

/** The decision for one page load: which source, if any, replaces sbjs_current (docs/contract/wire.md §4.3 steps 1–4), else null (keep). */
export function classify(
  page: Pick<PageLoad, "url" | "referrer">,
  has: { session: boolean; first: boolean; current: boolean },
  options: SbjsOptions,
): Source | null {
  const referrer = page.referrer ? parseUrl(page.referrer) : null;
  const domain = siteDomain(page.url);
  const utm = utmSource(page.url, referrer, options);
  if (utm) return utm;
  const external = !!referrer && !isInternal(referrer.hostname, domain);
  if (external) {
    const engine = organicEngine(referrer!, options);
    if (engine) return source("organic", { src: engine, mdm: "organic" });
    if (!has.session) {
      const host = referrer!.hostname;
      const custom = options.referrals?.find((r) => hostMatches(host, r.host));
      if (custom) return source("referral", { src: custom.display, mdm: custom.medium, cnt: referrer!.pathname });
      return source("referral", { src: REFERRAL_ALIASES[host] ?? stripWww(host), mdm: "referral", cnt: referrer!.pathname });
    }
  }
  if (!has.first && !has.current) return source("typein", { src: "(direct)" });
  return null;
}

/** A kept record that cannot be read (a cookie cut or edited by hand) names its unknown parts OOPS. */
const asSource = (o: Record<string, string>): Source => source(o.typ ?? OOPS, { src: OOPS, mdm: OOPS, ...(o as Partial<Source>) });
const asAdd = (o: Record<string, string>): SourceAdd => ({ fd: o.fd ?? NONE, ep: o.ep ?? NONE, rf: o.rf ?? NONE });

/**
 * One page load: the new cookie values and what sbjs.get would answer. Cookies are written in full every time,
 * as sourcebuster does (the session cookie's expiry is renewed; the others are session cookies).
 */
export function sbjsInit(page: PageLoad, options: SbjsOptions = WC_SBJS_PARAMS): { data: SbjsData; writes: CookieWrite[] } {
  const read = (name: string) => (page.cookies[name] !== undefined ? decodeCookieValue(page.cookies[name]!) : null);
  const prev = {
    current: read(COOKIE_NAMES.current),
    current_add: read(COOKIE_NAMES.current_add),
    first: read(COOKIE_NAMES.first),
    first_add: read(COOKIE_NAMES.first_add),
    session: read(COOKIE_NAMES.session),
    udata: read(COOKIE_NAMES.udata),
  };
  const decided = classify(page, { session: !!prev.session, first: !!prev.first, current: !!prev.current }, options);
  const add: SourceAdd = { fd: formatDate(page.now, options.timezoneOffsetHours), ep: page.url, rf: page.referrer || NONE };
  const current = decided ?? asSource(prev.current ?? {});
  const currentAdd = decided ? add : asAdd(prev.current_add ?? {});
  const first = prev.first ? asSource(prev.first) : current;
  const firstAdd = prev.first ? asAdd(prev.first_add ?? {}) : currentAdd;
  const visits = Number.parseInt(prev.udata?.vst ?? "", 10);
  const vst = !prev.udata || !Number.isFinite(visits) ? 1 : prev.session ? visits : visits + 1;
  const pages = Number.parseInt(prev.session?.pgs ?? "", 10);
  const pgs = prev.session && Number.isFinite(pages) ? pages + 1 : 1;
  const data: SbjsData = {
    current,
    current_add: currentAdd,
    first,
    first_add: firstAdd,
    session: { pgs: String(pgs), cpg: page.url },
    udata: { vst: String(vst), uip: NONE, uag: page.userAgent },
  };

  const domain = cookieDomain(siteDomain(page.url));
  // sourcebuster: parseInt(lifetime months × 30 × 24 × 60) minutes; 0 means a browser-session cookie.
  const lifetimeMinutes = Math.trunc(options.lifetimeMonths * 30 * 24 * 60);
  const lifetime = lifetimeMinutes > 0 ? new Date(page.now.getTime() + lifetimeMinutes * 60_000) : null;
  const enc = (pairs: Record<string, string>) => encodeCookieValue(pairs, options.base64);
  const writes: CookieWrite[] = [
    { name: COOKIE_NAMES.current, value: enc({ ...current }), expires: lifetime, domain },
    { name: COOKIE_NAMES.current_add, value: enc({ ...currentAdd }), expires: lifetime, domain },
    { name: COOKIE_NAMES.first, value: enc({ ...first }), expires: lifetime, domain },
    { name: COOKIE_NAMES.first_add, value: enc({ ...firstAdd }), expires: lifetime, domain },
    { name: COOKIE_NAMES.udata, value: enc({ ...data.udata }), expires: lifetime, domain },
    { name: COOKIE_NAMES.session, value: enc({ ...data.session }), expires: new Date(page.now.getTime() + options.sessionLengthMinutes * 60_000), domain },
  ];
  if (page.cookies[COOKIE_NAMES.migrations] === undefined)
    writes.push({ name: COOKIE_NAMES.migrations, value: encodeData(MIGRATIONS_VALUE), expires: lifetime, domain });
  const promo = options.promocode;
  if (promo && page.cookies[COOKIE_NAMES.promo] === undefined) {
    const code = promo.min + Math.floor((page.random ?? Math.random)() * (promo.max - promo.min + 1));
    writes.push({ name: COOKIE_NAMES.promo, value: enc({ code: String(code) }), expires: lifetime, domain });
  }
  return { data, writes };
}

/**
 * The document.cookie assignments that delete `names` however they were written: host-only, on the site's domain
 * (sourcebuster's `.example.com`) and on the full host (WooCommerce's own deletion, docs/contract/wire.md §4.4).
 */
export function expireCookieStrings(names: readonly string[], url: string): string[] {
  const full = parseUrl(url)?.hostname ?? "";
  const domains = [...new Set([null, cookieDomain(siteDomain(url)), cookieDomain(full)])];
  return names.flatMap((name) => domains.map((d) => `${name}=; max-age=-999; path=/${d ? `; domain=${d}` : ""}`));
}

/** `.example.com` for every subdomain; none for IP addresses and single-label hosts, which browsers refuse. */
export function cookieDomain(domain: string): string | null {
  if (!domain || !domain.includes(".") || /^[\d.]+$/.test(domain) || domain.includes(":")) return null;
  return "." + domain;
}

// ---------------------------------------------------------------------------------------------------------------
// WooCommerce's field map (docs/contract/wire.md §4.5): 16 hidden inputs wc_order_attribution_<field>
// ---------------------------------------------------------------------------------------------------------------

export const WC_FIELD_MAP = {
  source_type: "current.typ",
  referrer: "current_add.rf",
  utm_campaign: "current.cmp",
  utm_source: "current.src",
  utm_medium: "current.mdm",
  utm_content: "current.cnt",
  utm_id: "current.id",
  utm_term: "current.trm",
  utm_source_platform: "current.plt",
  utm_creative_format: "current.fmt",
  utm_marketing_tactic: "current.tct",
  session_entry: "current_add.ep",
  session_start_time: "current_add.fd",
  session_pages: "session.pgs",
  session_count: "udata.vst",
  user_agent: "udata.uag",
} as const;

export const WC_ATTRIBUTION_PREFIX = "wc_order_attribution_";

/** The hidden inputs' values; null data (tracking not allowed) gives '' everywhere. */
export function attributionInputs(data: SbjsData | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, path] of Object.entries(WC_FIELD_MAP)) {
    const [group, key] = path.split(".") as [keyof SbjsData, string];
    const value = data ? (data[group] as Record<string, string> | undefined)?.[key] : undefined;
    out[WC_ATTRIBUTION_PREFIX + field] = value ?? "";
  }
  return out;
}
