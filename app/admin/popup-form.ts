/**
 * The popup editor's form (docs/contract/admin.md 'Popup'): every setting `shop/v1/popups` stores
 * (core/domain/popups/settings.ts, docs/contract/storefront.md §3 'Popup settings') as form fields, the REST body
 * built from them, the storefront's page data for the live preview, and which field a refusal's path names. The
 * server's schema stays the only validator: what the owner typed is sent as typed (a number field that is not a
 * number goes as text), so the refusal names the field.
 */
import type { PagePopup, PopupSettings } from "../../core/domain/popups/settings.ts";

/** `shop/v1/popups/{id}` (docs/contract/wire.md §2.10). */
export type RestPopup = PopupSettings & { id: number; modified_gmt: string };

/** `shop/v1/popups/stats`. */
export interface PopupStatsRow {
  id: number;
  impressions: number;
  closes: number;
  do_not_show_again: number;
  conversions: number;
  conversion_rate: number;
  revenue: number;
}

export interface PageRuleForm {
  type: "include" | "exclude";
  name: PopupSettings["conditions"]["pages"][number]["name"];
  /** A category's or product's id as text; "" = every one. */
  id: string;
}

export interface PopupForm {
  title: string;
  enabled: boolean;
  // Content
  heading: string;
  /** Paragraphs, separated by an empty line. */
  text: string;
  image_on: boolean;
  image_src: string;
  image_alt: string;
  cta_on: boolean;
  cta_label: string;
  cta_href: string;
  signup_on: boolean;
  signup_label: string;
  signup_button: string;
  dismiss_on: boolean;
  dismiss_label: string;
  dismiss_do_not_show_again: boolean;
  // Triggers
  page_load_on: boolean;
  page_load_delay: string;
  scrolling_on: boolean;
  scrolling_direction: "down" | "up";
  scrolling_offset: string;
  scrolling_to_on: boolean;
  scrolling_to_selector: string;
  click_on: boolean;
  click_times: string;
  inactivity_on: boolean;
  inactivity_time: string;
  exit_intent_on: boolean;
  adblock_on: boolean;
  adblock_delay: string;
  open_selector: string;
  // Targeting: pages and cart (the server decides), visitor (the browser decides)
  pages: PageRuleForm[];
  cart_on: boolean;
  subtotal_above: string;
  subtotal_below: string;
  contains_products: number[];
  contains_categories: number[];
  logged_in_on: boolean;
  logged_in_users: "all" | "custom";
  logged_in_roles: string[];
  devices_on: boolean;
  devices: string[];
  browsers_on: boolean;
  browsers_users: "all" | "custom";
  browsers_options: string[];
  sources_on: boolean;
  sources: string[];
  url_on: boolean;
  url_action: "show" | "hide" | "regex";
  url_url: string;
  // Frequency
  page_views_on: boolean;
  page_views: string;
  sessions_on: boolean;
  sessions: string;
  times_on: boolean;
  times_times: string;
  times_period: string;
  times_count: string;
  // Schedule
  schedule_start: string;
  schedule_end: string;
  // Display
  width: string;
  close_button_position: "inside" | "outside";
  close_button_delay: string;
  close_automatically: string;
  entrance_animation: string;
  exit_animation: string;
  entrance_animation_duration: string;
  avoid_multiple_popups: boolean;
  prevent_close_on_background_click: boolean;
  prevent_close_on_esc_key: boolean;
  prevent_scroll: boolean;
  a11y_navigation: boolean;
}

const str = (n: number | undefined, fallback = "") => (n === undefined ? fallback : String(n));
const money = (cents: number | undefined) => (cents === undefined ? "" : String(cents / 100));

/** The form for a stored popup; `null`: a new popup, with the schema's defaults and a page-load trigger. */
export function formOf(p: PopupSettings | null): PopupForm {
  const c = p?.content;
  const t = p?.triggers ?? {};
  const m = p?.timing ?? {};
  const d = p?.display;
  const cart = p?.conditions.cart;
  return {
    title: p?.title ?? "",
    enabled: p?.enabled ?? true,
    heading: c?.heading ?? "",
    text: (c?.text ?? []).join("\n\n"),
    image_on: Boolean(c?.image),
    image_src: c?.image?.src ?? "",
    image_alt: c?.image?.alt ?? "",
    cta_on: Boolean(c?.cta),
    cta_label: c?.cta?.label ?? "",
    cta_href: c?.cta?.href ?? "",
    signup_on: Boolean(c?.signup),
    signup_label: c?.signup?.label ?? "Email address",
    signup_button: c?.signup?.button ?? "Sign up",
    dismiss_on: Boolean(c?.dismiss),
    dismiss_label: c?.dismiss?.label ?? "No thanks",
    dismiss_do_not_show_again: c?.dismiss?.do_not_show_again ?? true,
    page_load_on: p ? Boolean(t.page_load) : true,
    page_load_delay: str(t.page_load?.delay, "0"),
    scrolling_on: Boolean(t.scrolling),
    scrolling_direction: t.scrolling?.direction ?? "down",
    scrolling_offset: str(t.scrolling?.offset, "50"),
    scrolling_to_on: Boolean(t.scrolling_to),
    scrolling_to_selector: t.scrolling_to?.selector ?? "",
    click_on: Boolean(t.click),
    click_times: str(t.click?.times, "1"),
    inactivity_on: Boolean(t.inactivity),
    inactivity_time: str(t.inactivity?.time, "30"),
    exit_intent_on: Boolean(t.exit_intent),
    adblock_on: Boolean(t.adblock_detection),
    adblock_delay: str(t.adblock_detection?.delay, "0"),
    open_selector: d?.open_selector ?? "",
    pages: (p?.conditions.pages ?? []).map((r) => ({ type: r.type, name: r.name, id: str(r.id) })),
    cart_on: Boolean(cart),
    subtotal_above: money(cart?.subtotal_above),
    subtotal_below: money(cart?.subtotal_below),
    contains_products: cart?.contains_products ?? [],
    contains_categories: cart?.contains_categories ?? [],
    logged_in_on: Boolean(m.logged_in),
    logged_in_users: m.logged_in?.users ?? "all",
    logged_in_roles: m.logged_in?.roles ?? [],
    devices_on: Boolean(m.devices),
    devices: m.devices?.devices ?? ["desktop", "tablet", "mobile"],
    browsers_on: Boolean(m.browsers),
    browsers_users: m.browsers?.browsers ?? "all",
    browsers_options: m.browsers?.browsers_options ?? [],
    sources_on: Boolean(m.sources),
    sources: m.sources?.sources ?? ["internal", "external", "search"],
    url_on: Boolean(m.url),
    url_action: m.url?.action ?? "show",
    url_url: m.url?.url ?? "",
    page_views_on: Boolean(m.page_views),
    page_views: str(m.page_views?.views, "1"),
    sessions_on: Boolean(m.sessions),
    sessions: str(m.sessions?.sessions, "1"),
    times_on: Boolean(m.times),
    times_times: str(m.times?.times, "1"),
    times_period: m.times?.period ?? "",
    times_count: m.times?.count ?? "",
    schedule_start: m.schedule?.start_date ?? "",
    schedule_end: m.schedule?.end_date ?? "",
    width: str(d?.width, "560"),
    close_button_position: d?.close_button_position ?? "inside",
    close_button_delay: str(d?.close_button_delay, "0"),
    close_automatically: str(d?.close_automatically, "0"),
    entrance_animation: d?.entrance_animation ?? "fadeIn",
    exit_animation: d?.exit_animation ?? "fadeOut",
    entrance_animation_duration: str(d?.entrance_animation_duration, "0.3"),
    avoid_multiple_popups: d?.avoid_multiple_popups ?? false,
    prevent_close_on_background_click: d?.prevent_close_on_background_click ?? false,
    prevent_close_on_esc_key: d?.prevent_close_on_esc_key ?? false,
    prevent_scroll: d?.prevent_scroll ?? false,
    a11y_navigation: d?.a11y_navigation ?? true,
  };
}

/** A number field: a number when it reads as one, else the text itself (refused by the server at that field); "" = absent. */
const num = (v: string): number | string | undefined => (v.trim() === "" ? undefined : Number.isFinite(Number(v)) ? Number(v) : v);
const cents = (v: string): number | string | undefined => {
  const n = num(v);
  return typeof n === "number" ? Math.round(n * 100) : n;
};
const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((s) => s.trim())
    .filter(Boolean);
/** Drops absent keys, so the body names only what the owner set. */
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** The REST body (`PUT shop/v1/popups/{id}` replaces every setting). */
export function settingsOf(f: PopupForm): Record<string, unknown> {
  return {
    title: f.title,
    enabled: f.enabled,
    content: defined({
      heading: f.heading,
      text: paragraphs(f.text),
      image: f.image_on ? { src: f.image_src, alt: f.image_alt } : undefined,
      cta: f.cta_on ? { label: f.cta_label, href: f.cta_href } : undefined,
      signup: f.signup_on ? { label: f.signup_label, button: f.signup_button } : undefined,
      dismiss: f.dismiss_on ? { label: f.dismiss_label, do_not_show_again: f.dismiss_do_not_show_again } : undefined,
    }),
    display: {
      open_selector: f.open_selector,
      avoid_multiple_popups: f.avoid_multiple_popups,
      close_button_delay: num(f.close_button_delay) ?? 0,
      close_automatically: num(f.close_automatically) ?? 0,
      prevent_close_on_background_click: f.prevent_close_on_background_click,
      prevent_close_on_esc_key: f.prevent_close_on_esc_key,
      prevent_scroll: f.prevent_scroll,
      entrance_animation: f.entrance_animation,
      exit_animation: f.exit_animation,
      entrance_animation_duration: num(f.entrance_animation_duration) ?? 0,
      close_button_position: f.close_button_position,
      a11y_navigation: f.a11y_navigation,
      width: num(f.width),
    },
    triggers: defined({
      page_load: f.page_load_on ? defined({ delay: num(f.page_load_delay) ?? 0 }) : undefined,
      scrolling: f.scrolling_on ? defined({ direction: f.scrolling_direction, offset: num(f.scrolling_offset) }) : undefined,
      scrolling_to: f.scrolling_to_on ? { selector: f.scrolling_to_selector } : undefined,
      click: f.click_on ? defined({ times: num(f.click_times) }) : undefined,
      inactivity: f.inactivity_on ? defined({ time: num(f.inactivity_time) }) : undefined,
      exit_intent: f.exit_intent_on ? {} : undefined,
      adblock_detection: f.adblock_on ? defined({ delay: num(f.adblock_delay) ?? 0 }) : undefined,
    }),
    timing: defined({
      page_views: f.page_views_on ? defined({ views: num(f.page_views) }) : undefined,
      sessions: f.sessions_on ? defined({ sessions: num(f.sessions) }) : undefined,
      url: f.url_on ? { action: f.url_action, url: f.url_url } : undefined,
      sources: f.sources_on ? { sources: f.sources } : undefined,
      logged_in: f.logged_in_on ? { users: f.logged_in_users, roles: f.logged_in_users === "custom" ? f.logged_in_roles : [] } : undefined,
      devices: f.devices_on ? { devices: f.devices } : undefined,
      times: f.times_on ? defined({ times: num(f.times_times), period: f.times_period, count: f.times_count }) : undefined,
      browsers: f.browsers_on ? { browsers: f.browsers_users, browsers_options: f.browsers_users === "custom" ? f.browsers_options : [] } : undefined,
      schedule: f.schedule_start || f.schedule_end ? defined({ start_date: f.schedule_start || undefined, end_date: f.schedule_end || undefined }) : undefined,
    }),
    conditions: defined({
      pages: f.pages.map((r) => defined({ type: r.type, name: r.name, id: num(r.id) })),
      cart: f.cart_on
        ? defined({
            subtotal_above: cents(f.subtotal_above),
            subtotal_below: cents(f.subtotal_below),
            contains_products: f.contains_products,
            contains_categories: f.contains_categories,
          })
        : undefined,
    }),
  };
}

const previewNumber = (v: string, fallback: number, min: number, max: number) => {
  const n = Number(v);
  return v.trim() !== "" && Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
};

/** What the storefront's page data would carry of this popup, for the preview; what is not valid yet is shown as best it can. */
export function previewOf(f: PopupForm, id: number): PagePopup {
  const s = settingsOf(f) as unknown as { content: PagePopup["content"] };
  return {
    id,
    title: f.title,
    content: { ...s.content, heading: f.heading.trim() ? f.heading : "(heading)" },
    display: {
      open_selector: "",
      avoid_multiple_popups: false,
      close_button_delay: 0,
      close_automatically: 0,
      prevent_close_on_background_click: true,
      prevent_close_on_esc_key: true,
      prevent_scroll: false,
      entrance_animation: "none",
      exit_animation: "none",
      entrance_animation_duration: 0,
      close_button_position: f.close_button_position,
      // The preview never takes the focus from the form.
      a11y_navigation: false,
      width: previewNumber(f.width, 560, 200, 1200),
    },
    triggers: {},
    timing: {},
  };
}

/** Each REST path's form field (a refusal's `data.params` key); list items map to their list's field. */
const FIELD_OF_PATH: Record<string, keyof PopupForm> = {
  "content.heading": "heading",
  "content.text": "text",
  "content.image.src": "image_src",
  "content.image.alt": "image_alt",
  "content.cta.label": "cta_label",
  "content.cta.href": "cta_href",
  "content.signup.label": "signup_label",
  "content.signup.button": "signup_button",
  "content.dismiss.label": "dismiss_label",
  "triggers.page_load.delay": "page_load_delay",
  "triggers.scrolling.offset": "scrolling_offset",
  "triggers.scrolling_to.selector": "scrolling_to_selector",
  "triggers.click.times": "click_times",
  "triggers.inactivity.time": "inactivity_time",
  "triggers.adblock_detection.delay": "adblock_delay",
  "display.open_selector": "open_selector",
  "display.width": "width",
  "display.close_button_delay": "close_button_delay",
  "display.close_automatically": "close_automatically",
  "display.entrance_animation_duration": "entrance_animation_duration",
  "timing.page_views.views": "page_views",
  "timing.sessions.sessions": "sessions",
  "timing.times.times": "times_times",
  "timing.url.url": "url_url",
  "timing.sources.sources": "sources",
  "timing.devices.devices": "devices",
  "timing.schedule.start_date": "schedule_start",
  "timing.schedule.end_date": "schedule_end",
  "conditions.cart.subtotal_above": "subtotal_above",
  "conditions.cart.subtotal_below": "subtotal_below",
  "conditions.cart.contains_products": "contains_products",
  "conditions.cart.contains_categories": "contains_categories",
  "conditions.pages": "pages",
};

/** The form field a refusal names: `conditions.pages.2.id` → `pages.2.id` (a rule's own field), `content.text.3` → `text`. */
export function fieldOfPath(path: string): string {
  const rule = /^conditions\.pages\.(\d+)\.(id|name|type)$/.exec(path);
  if (rule) return `pages.${rule[1]}.${rule[2]}`;
  const bare = path.replace(/\.\d+$/, "");
  return FIELD_OF_PATH[path] ?? FIELD_OF_PATH[bare] ?? (bare === "title" ? "title" : bare);
}

/** The refusal's message in the form's words: "triggers.page_load.delay must be 0 or more" → "must be 0 or more". */
export const fieldMessage = (path: string, message: string) => {
  const text = message.startsWith(path) ? message.slice(path.length).trim() : message;
  return text.charAt(0).toUpperCase() + text.slice(1) + ".";
};
