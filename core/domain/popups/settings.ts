/**
 * A popup as the owner configures it (docs/contract/storefront.md §3 'Popup settings'): one schema for the seed, the
 * REST API and the database's rows, so a popup that is stored has passed it. Unknown keys, wrong types, an invalid
 * regex, a negative delay or an impossible schedule are refused with a message that names the field.
 */
import { z } from "zod";

export const ENTRANCE_ANIMATIONS = ["none", "fadeIn", "zoomIn", "slideInUp", "slideInDown"] as const;
export const EXIT_ANIMATIONS = ["none", "fadeOut", "zoomOut", "slideOutDown", "slideOutUp"] as const;
export const DEVICES = ["desktop", "tablet", "mobile"] as const;
export const SOURCES = ["internal", "external", "search"] as const;
export const BROWSERS = ["chrome", "edge", "firefox", "safari", "opera", "ie"] as const;
export const IMPRESSION_PERIODS = ["", "day", "week", "month", "session"] as const;
export const PAGE_KINDS = ["general", "shop", "category", "product", "cart", "checkout"] as const;
export const ROLES = ["customer", "shop_manager", "administrator"] as const;

const seconds = (max: number) => z.number().min(0, "must be 0 or more").max(max, `must be at most ${max}`);
const positiveInt = (max: number) => z.number().int("must be a whole number").min(1, "must be 1 or more").max(max, `must be at most ${max}`);
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
/** A CSS selector for the browser's querySelector: no markup, bounded. Syntax is checked where it runs (a bad one matches nothing). */
const selector = text(200).refine((s) => !/[<>{}]/.test(s), "must be a CSS selector");
/** `YYYY-MM-DDTHH:mm` in the shop's timezone (an HTML datetime-local value). */
const localDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, "must be a date and time as YYYY-MM-DDTHH:mm")
  .refine((s) => !Number.isNaN(Date.parse(`${s}:00Z`)) && new Date(`${s}:00Z`).toISOString().startsWith(s), "must be a real date and time");
/** Where a link may go: a path on this shop, an http(s) address, or a link action (docs/contract/storefront.md §2). */
const href = text(500).refine((s) => /^(\/(?!\/)|https?:\/\/|#)/.test(s), "must be a path, an http(s) address or a #link action");

const display = z.strictObject({
  open_selector: selector.default(""),
  avoid_multiple_popups: z.boolean().default(false),
  close_button_delay: seconds(600).default(0),
  /** Seconds after opening; 0 = stays open. */
  close_automatically: seconds(3600).default(0),
  prevent_close_on_background_click: z.boolean().default(false),
  prevent_close_on_esc_key: z.boolean().default(false),
  prevent_scroll: z.boolean().default(false),
  entrance_animation: z.enum(ENTRANCE_ANIMATIONS).default("fadeIn"),
  exit_animation: z.enum(EXIT_ANIMATIONS).default("fadeOut"),
  /** Seconds. */
  entrance_animation_duration: seconds(5).default(0.3),
  close_button_position: z.enum(["outside", "inside"]).default("inside"),
  a11y_navigation: z.boolean().default(true),
  width: z.number().int("must be a whole number").min(200, "must be 200 or more").max(1200, "must be at most 1200").default(560),
});

const triggers = z.strictObject({
  page_load: z.strictObject({ delay: seconds(3600) }).optional(),
  scrolling: z
    .strictObject({
      direction: z.enum(["down", "up"]).default("down"),
      offset: z.number().min(1, "must be 1 or more").max(100, "must be at most 100").default(50),
    })
    .optional(),
  scrolling_to: z.strictObject({ selector: selector.refine((s) => s.trim() !== "", "must not be empty") }).optional(),
  click: z.strictObject({ times: positiveInt(100) }).optional(),
  inactivity: z.strictObject({ time: z.number().gt(0, "must be more than 0").max(3600, "must be at most 3600") }).optional(),
  exit_intent: z.strictObject({}).optional(),
  adblock_detection: z.strictObject({ delay: seconds(3600).default(0) }).optional(),
});

const timing = z.strictObject({
  page_views: z.strictObject({ views: positiveInt(100_000) }).optional(),
  sessions: z.strictObject({ sessions: positiveInt(100_000) }).optional(),
  /** Compared with the page's referrer: contains (show), does not contain (hide), or matches (regex). */
  url: z.strictObject({ action: z.enum(["show", "hide", "regex"]), url: text(300).refine((s) => s !== "", "must not be empty") }).optional(),
  sources: z.strictObject({ sources: z.array(z.enum(SOURCES)).min(1, "must name at least one source") }).optional(),
  logged_in: z.strictObject({ users: z.enum(["all", "custom"]), roles: z.array(z.enum(ROLES)).default([]) }).optional(),
  devices: z.strictObject({ devices: z.array(z.enum(DEVICES)).min(1, "must name at least one device") }).optional(),
  /** At most `times` impressions per period; counted on open, or on close when `count` is '' or 'close' (§4 'Popups'). */
  times: z
    .strictObject({ times: positiveInt(1000), period: z.enum(IMPRESSION_PERIODS).default(""), count: z.enum(["", "open", "close"]).default("") })
    .optional(),
  browsers: z.strictObject({ browsers: z.enum(["all", "custom"]), browsers_options: z.array(z.enum(BROWSERS)).default([]) }).optional(),
  /** In the shop's timezone (site configuration popups.timezone). */
  schedule: z.strictObject({ start_date: localDateTime.optional(), end_date: localDateTime.optional() }).optional(),
});

const pageRule = z.strictObject({
  type: z.enum(["include", "exclude"]),
  name: z.enum(PAGE_KINDS),
  /** A category's or product's id; absent = every one. */
  id: positiveInt(2_147_483_647).optional(),
});

const cents = z.number().int("must be a whole number of cents").min(0, "must be 0 or more").max(100_000_000, "must be at most 100000000");
const cart = z.strictObject({
  subtotal_above: cents.optional(),
  subtotal_below: cents.optional(),
  contains_products: z.array(positiveInt(2_147_483_647)).max(100, "must list at most 100").default([]),
  contains_categories: z.array(positiveInt(2_147_483_647)).max(100, "must list at most 100").default([]),
});

const content = z.strictObject({
  heading: text(200).refine((s) => s.trim() !== "", "must not be empty"),
  text: z.array(text(1000)).max(10, "must have at most 10 paragraphs").default([]),
  image: z.strictObject({ src: href, alt: text(200) }).optional(),
  cta: z.strictObject({ label: text(100).refine((s) => s.trim() !== "", "must not be empty"), href }).optional(),
  /** A newsletter sign-up form posting to /newsletter/ (docs/contract/storefront.md §2 'Newsletter sign-up'). */
  signup: z
    .strictObject({
      label: text(100)
        .refine((s) => s.trim() !== "", "must not be empty")
        .default("Email address"),
      button: text(100)
        .refine((s) => s.trim() !== "", "must not be empty")
        .default("Sign up"),
    })
    .optional(),
  /** A 'No thanks' link: closes and, when set, is '#popup:close' with do_not_show_again. */
  dismiss: z.strictObject({ label: text(100).refine((s) => s.trim() !== "", "must not be empty"), do_not_show_again: z.boolean().default(true) }).optional(),
});

export const popupSettingsSchema = z
  .strictObject({
    title: text(200).refine((s) => s.trim() !== "", "must not be empty"),
    enabled: z.boolean().default(true),
    content,
    display: display.default(display.parse({})),
    triggers: triggers.default({}),
    timing: timing.default({}),
    conditions: z.strictObject({ pages: z.array(pageRule).max(50, "must have at most 50 rules").default([]), cart: cart.optional() }).default({ pages: [] }),
  })
  .superRefine((p, ctx) => {
    const url = p.timing.url;
    if (url?.action === "regex") {
      try {
        new RegExp(url.url);
      } catch {
        ctx.addIssue({ code: "custom", path: ["timing", "url", "url"], message: "must be a valid regular expression" });
      }
    }
    const s = p.timing.schedule;
    if (s?.start_date && s.end_date && s.end_date <= s.start_date)
      ctx.addIssue({ code: "custom", path: ["timing", "schedule", "end_date"], message: "must be after start_date" });
    const c = p.conditions.cart;
    if (c?.subtotal_above !== undefined && c.subtotal_below !== undefined && c.subtotal_below <= c.subtotal_above) {
      ctx.addIssue({ code: "custom", path: ["conditions", "cart", "subtotal_below"], message: "must be more than subtotal_above" });
    }
    for (const [i, r] of p.conditions.pages.entries()) {
      if (r.id !== undefined && r.name !== "category" && r.name !== "product") {
        ctx.addIssue({ code: "custom", path: ["conditions", "pages", i, "id"], message: "is only for category and product rules" });
      }
    }
  });

export type PopupSettings = z.output<typeof popupSettingsSchema>;
export type PopupSettingsInput = z.input<typeof popupSettingsSchema>;
export type PopupTiming = PopupSettings["timing"];
export type PopupTriggers = PopupSettings["triggers"];
export type PopupDisplay = PopupSettings["display"];
export type PageRule = PopupSettings["conditions"]["pages"][number];
export type CartCondition = NonNullable<PopupSettings["conditions"]["cart"]>;

/** What a page carries of a popup: no page or cart conditions and no roles (§6 'Popups': roles are never shown). */
export interface PagePopup {
  id: number;
  title: string;
  content: PopupSettings["content"];
  display: PopupDisplay;
  triggers: PopupTriggers;
  timing: Omit<PopupTiming, "logged_in">;
}

/** The popups' part of a page's data. */
export interface PopupPageData {
  popups: PagePopup[];
  timeZone: string;
  focusDelayMs: number;
}

export type SettingsResult = { ok: true; value: PopupSettings } | { ok: false; field: string; message: string };

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) v = v && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

/** Validates a popup's settings; the refusal names the first wrong field, e.g. "triggers.page_load.delay must be 0 or more". */
export function parsePopupSettings(input: unknown): SettingsResult {
  const parsed = popupSettingsSchema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0]!;
  let path = issue.path.map(String).join(".");
  let message = issue.message;
  if (issue.code === "unrecognized_keys") {
    path = [...issue.path.map(String), issue.keys[0]!].join(".");
    message = "is not a popup setting";
  } else if (issue.code === "invalid_type") {
    const kind = ({ int: "whole number", object: "JSON object", array: "list" } as Record<string, string>)[issue.expected] ?? issue.expected;
    message = valueAt(input, issue.path) === undefined ? "is required" : `must be a ${kind}`;
  } else if (issue.code === "invalid_value") {
    message = `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  const field = path || "(settings)";
  return { ok: false, field, message: `${field} ${message}` };
}
