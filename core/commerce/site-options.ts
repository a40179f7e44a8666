/**
 * The site's WordPress options that staff change through `wp/v2/settings` (docs/contract/rest/content.md
 * 'Settings'): the site's title and tagline, e-mail, time zone, date formats, posts per blog page, comment defaults.
 * Stored as one row of the `settings` table over the site configuration's defaults, and read by the storefront on
 * each request, so a change shows at once in every process without a restart.
 */
import { z } from "zod";
import type { Queryable } from "../db/client.ts";
import { readSetting, putSetting } from "../db/repositories/settings.ts";
import type { SiteConfig } from "../config/site-config.ts";
import { plainText } from "../domain/text/kses.ts";

const KEY = "site_options";

const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

/** Form bodies send numbers and booleans as text. */
const int = () => z.preprocess((v) => (typeof v === "string" && /^-?\d{1,9}$/.test(v.trim()) ? Number(v) : v), z.number().int());
const bool = () => z.preprocess((v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" ? false : v), z.boolean());

/** What a write may carry, each checked as WordPress's settings schema does (types, enums, formats). */
export const siteOptionsSchema = z
  .object({
    // Plain text, as WordPress's sanitize_text_field leaves them (no markup, no control characters).
    title: z.string().max(200).transform(plainText),
    description: z.string().max(500).transform(plainText),
    email: z.email().max(254),
    timezone: z.string().max(64).refine(isTimeZone, "is not a known time zone"),
    date_format: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .regex(/^\P{Cc}*$/u, "must not contain control characters"),
    time_format: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .regex(/^\P{Cc}*$/u, "must not contain control characters"),
    start_of_week: int().pipe(z.number().min(0).max(6)),
    language: z.enum(["en_US", ""]).transform(() => "en_US"),
    use_smilies: bool(),
    default_category: int().pipe(z.number().min(1)),
    default_post_format: z.enum(["0", "aside", "chat", "gallery", "link", "image", "quote", "status", "video", "audio"]),
    posts_per_page: int().pipe(z.number().min(1).max(100)),
    show_on_front: z.enum(["posts", "page"]),
    page_on_front: int().pipe(z.number().min(0)),
    page_for_posts: int().pipe(z.number().min(0)),
    default_ping_status: z.enum(["open", "closed"]),
    default_comment_status: z.enum(["open", "closed"]),
    site_logo: int().pipe(z.number().min(0)).nullable(),
    site_icon: int().pipe(z.number().min(0)),
  })
  .partial()
  .strict();

export type SiteOptionsChange = z.output<typeof siteOptionsSchema>;

export interface SiteOptions {
  title: string;
  description: string;
  email: string;
  timezone: string;
  date_format: string;
  time_format: string;
  start_of_week: number;
  language: string;
  use_smilies: boolean;
  /** 0 until set: the default category (Uncategorized). */
  default_category: number;
  default_post_format: string;
  posts_per_page: number;
  show_on_front: string;
  page_on_front: number;
  page_for_posts: number;
  default_ping_status: string;
  default_comment_status: string;
  site_logo: number | null;
  site_icon: number;
}

/** The options before anyone changed one: the site configuration's values (SHOP_SETTINGS) and WordPress's defaults. */
function defaults(config: SiteConfig): SiteOptions {
  return {
    title: config.siteName,
    description: config.tagline,
    email: "",
    timezone: config.popups.timezone,
    date_format: "F j, Y",
    time_format: "g:i a",
    start_of_week: 1,
    language: "en_US",
    use_smilies: true,
    default_category: 0,
    default_post_format: "0",
    // The journal's page size (docs/contract/storefront.md §2: /blog/ shows 6 posts a page).
    posts_per_page: 6,
    show_on_front: "posts",
    page_on_front: 0,
    page_for_posts: 0,
    default_ping_status: "closed",
    default_comment_status: "open",
    site_logo: null,
    site_icon: 0,
  };
}

/** The current options: the stored changes over the defaults (a stored value that no longer passes is ignored). */
export async function readSiteOptions(db: Queryable, config: SiteConfig): Promise<SiteOptions> {
  const stored = await readSetting(db, KEY);
  const base = defaults(config);
  if (!stored || typeof stored !== "object") return base;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(stored)) {
    const field = siteOptionsSchema.shape[key as keyof typeof siteOptionsSchema.shape];
    if (field && field.safeParse(value).success) out[key] = value;
  }
  return out as unknown as SiteOptions;
}

/** Stores `change` over what is stored; answers the options before and after. */
export async function writeSiteOptions(db: Queryable, config: SiteConfig, change: SiteOptionsChange): Promise<{ before: SiteOptions; after: SiteOptions }> {
  const before = await readSiteOptions(db, config);
  const stored = await readSetting(db, KEY);
  await putSetting(db, KEY, { ...(stored && typeof stored === "object" ? stored : {}), ...change });
  return { before, after: await readSiteOptions(db, config) };
}
