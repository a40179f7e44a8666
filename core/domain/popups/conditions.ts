/**
 * The popup's conditions as pure functions (docs/contract/storefront.md §3 'Popup settings', §5 'Listings and popups',
 * §6 'Popups', §9 'Popups'). The timing conditions that depend on the browser (referrer, width, counts kept in its
 * storage) run there; logged_in (roles are never printed), the pages, the cart and the schedule run on the server, so
 * a popup that cannot apply is never sent. The schedule runs on both sides (a page may stay open past the end).
 */
import type { CartCondition, PageRule, PopupSettings, PopupTiming } from "./settings.ts";

type Timing<K extends keyof PopupTiming> = NonNullable<PopupTiming[K]>;

/** Shown from the n-th page view on (the count includes this page). */
export const pageViewsPass = (s: Timing<"page_views">, pageViews: number) => pageViews >= s.views;

/** Shown from the n-th browser session on. */
export const sessionsPass = (s: Timing<"sessions">, sessions: number) => sessions >= s.sessions;

/**
 * The page's referrer contains the text (show), does not contain it (hide), or matches the pattern (regex). An invalid
 * pattern fails closed: the popup is not shown (§5 'Listings and popups').
 */
export function urlPass(s: Timing<"url">, referrer: string): boolean {
  if (s.action !== "regex") return (s.action === "hide") !== referrer.includes(s.url);
  let pattern: RegExp;
  try {
    pattern = new RegExp(s.url);
  } catch {
    return false;
  }
  return pattern.test(referrer);
}

/** §9 'Popups': the five search engines of the 'search' source. */
export const SEARCH_ENGINES = ["google", "yahoo", "bing", "yandex", "baidu"] as const;
const SEARCH_HOST = new RegExp(`^(?:${SEARCH_ENGINES.join("|")})\\.`);

/** Internal (this shop), external (any other site) or search; all three selected means always (§9 'Popups'). */
export function sourcesPass(s: Timing<"sources">, referrer: string, host: string): boolean {
  const wanted = new Set(s.sources);
  if (wanted.size === 3) return true;
  const from = referrer.replace(/^https?:\/\/(?:www\.)?/i, "").toLowerCase();
  if (from === "") return false; // typed in or bookmarked: no source at all
  const self = host.replace(/^www\./i, "").toLowerCase();
  if (from === self || from.startsWith(`${self}/`) || from.startsWith(`${self}?`)) return wanted.has("internal");
  if (wanted.has("external")) return true;
  return wanted.has("search") && SEARCH_HOST.test(from);
}

/**
 * §6 'Popups': hidden from a signed-in user when the setting is 'all' users, or when the user has one of the listed
 * roles; guests always pass. Evaluated on the server: the roles are never printed into the page.
 */
export function loggedInPass(s: Timing<"logged_in">, user: { role: string } | null): boolean {
  if (!user) return true;
  if (s.users === "all") return false;
  return !(s.roles as readonly string[]).includes(user.role);
}

/** The device by viewport width: mobile up to 767 px, tablet up to 1024 px (docs/contract/storefront.md §9 'Layout'). */
export function deviceOf(width: number): "desktop" | "tablet" | "mobile" {
  return width <= 767 ? "mobile" : width <= 1024 ? "tablet" : "desktop";
}

export const devicesPass = (s: Timing<"devices">, viewportWidth: number) => s.devices.includes(deviceOf(viewportWidth));

/** Fewer impressions than allowed in the current period (the count comes from storage.ts). */
export const timesPass = (s: Timing<"times">, impressions: number) => impressions < s.times;

/** Whether the impression is counted when the popup opens (else when it closes): §4 'Popups'. */
export const countsOnOpen = (s: Timing<"times"> | undefined) => s?.count === "open";

/** The browser family from a user agent (order matters: Edge and Opera also say Chrome, Chrome also says Safari). */
export function browserOf(userAgent: string): string {
  if (/\bEdg(?:e|A|iOS)?\//.test(userAgent)) return "edge";
  if (/\bOPR\/|\bOpera\b/.test(userAgent)) return "opera";
  if (/\bMSIE |\bTrident\//.test(userAgent)) return "ie";
  if (/\bFirefox\/|\bFxiOS\//.test(userAgent)) return "firefox";
  if (/\bChrome\/|\bCriOS\/|\bChromium\//.test(userAgent)) return "chrome";
  if (/\bSafari\//.test(userAgent)) return "safari";
  return "other";
}

export const browsersPass = (s: Timing<"browsers">, userAgent: string) =>
  s.browsers === "all" || (s.browsers_options as readonly string[]).includes(browserOf(userAgent));

/** Milliseconds the zone is ahead of UTC at the instant `t`. */
function zoneOffset(t: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(t));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second")) - Math.floor(t / 1000) * 1000;
}

/** The instant of a wall-clock time `YYYY-MM-DDTHH:mm` in `timeZone` (an IANA name such as "Europe/Amsterdam"). */
export function zonedTime(local: string, timeZone: string): number {
  const asUtc = Date.parse(`${local}:00Z`);
  const first = asUtc - zoneOffset(asUtc, timeZone);
  const second = asUtc - zoneOffset(first, timeZone);
  return second;
}

/** Between start (inclusive) and end (exclusive), both in the shop's timezone; an unknown timezone fails closed. */
export function schedulePass(s: Timing<"schedule">, now: Date, timeZone: string): boolean {
  try {
    if (s.start_date && now.getTime() < zonedTime(s.start_date, timeZone)) return false;
    if (s.end_date && now.getTime() >= zonedTime(s.end_date, timeZone)) return false;
    return true;
  } catch {
    return false;
  }
}

/** What the browser knows when a trigger fires. */
export interface BrowserFacts {
  pageViews: number;
  sessions: number;
  referrer: string;
  host: string;
  viewportWidth: number;
  userAgent: string;
  now: Date;
  timeZone: string;
  /** This popup's impressions in its current period (storage.ts). */
  impressions: number;
}

/** The timing conditions the browser checks; the first that fails, or null when all pass (logged_in is the server's). */
export function failedBrowserTiming(t: PopupTiming, f: BrowserFacts): keyof PopupTiming | null {
  if (t.page_views && !pageViewsPass(t.page_views, f.pageViews)) return "page_views";
  if (t.sessions && !sessionsPass(t.sessions, f.sessions)) return "sessions";
  if (t.url && !urlPass(t.url, f.referrer)) return "url";
  if (t.sources && !sourcesPass(t.sources, f.referrer, f.host)) return "sources";
  if (t.devices && !devicesPass(t.devices, f.viewportWidth)) return "devices";
  if (t.times && !timesPass(t.times, f.impressions)) return "times";
  if (t.browsers && !browsersPass(t.browsers, f.userAgent)) return "browsers";
  if (t.schedule && !schedulePass(t.schedule, f.now, f.timeZone)) return "schedule";
  return null;
}

/** The page a request renders, as the display conditions see it. */
export interface PageFacts {
  kind: "shop" | "category" | "product" | "cart" | "checkout" | "other";
  /** The category's or product's id. */
  id?: number;
}

function ruleMatches(r: PageRule, page: PageFacts): boolean {
  if (r.name === "general") return true;
  if (r.name !== page.kind) return false;
  return r.id === undefined || r.id === page.id;
}

/** Which pages: no include rule = the entire site; an exclude rule always wins. */
export function pagesPass(rules: readonly PageRule[], page: PageFacts): boolean {
  if (rules.some((r) => r.type === "exclude" && ruleMatches(r, page))) return false;
  const includes = rules.filter((r) => r.type === "include");
  return includes.length === 0 || includes.some((r) => ruleMatches(r, page));
}

/** The cart as the conditions see it: subtotal in cents (before discounts), the products and their categories. */
export interface CartFacts {
  subtotal: number;
  productIds: readonly number[];
  categoryIds: readonly number[];
}

/** Every condition that is set must hold: subtotal strictly above / below, contains any listed product / category. */
export function cartPass(c: CartCondition, cart: CartFacts): boolean {
  if (c.subtotal_above !== undefined && !(cart.subtotal > c.subtotal_above)) return false;
  if (c.subtotal_below !== undefined && !(cart.subtotal < c.subtotal_below)) return false;
  if (c.contains_products.length && !c.contains_products.some((id) => cart.productIds.includes(id))) return false;
  if (c.contains_categories.length && !c.contains_categories.some((id) => cart.categoryIds.includes(id))) return false;
  return true;
}

export interface ServerFacts {
  user: { role: string } | null;
  page: PageFacts;
  /** Null when the popup has no cart condition and the cart was not read. */
  cart: CartFacts | null;
  now: Date;
  timeZone: string;
}

/** Whether a popup may be sent with this page: enabled, logged_in, schedule, pages and cart. */
export function serverConditionsPass(p: PopupSettings, f: ServerFacts): boolean {
  if (!p.enabled) return false;
  if (p.timing.logged_in && !loggedInPass(p.timing.logged_in, f.user)) return false;
  if (p.timing.schedule && !schedulePass(p.timing.schedule, f.now, f.timeZone)) return false;
  if (!pagesPass(p.conditions.pages, f.page)) return false;
  if (p.conditions.cart && !(f.cart && cartPass(p.conditions.cart, f.cart))) return false;
  return true;
}
