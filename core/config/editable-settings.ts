/**
 * The site settings the owner edits while the shop runs (docs/contract/rest/shop-v1.md 'Settings'): the store notice,
 * the coming-soon banner, order attribution, consent, the checkout's layout and texts, accounts at checkout and the
 * card gateway's options. Each section of `SiteConfig` has one zod schema here, and
 * every source of a value passes it: the spec's defaults and `SHOP_SETTINGS` at start-up (settings-overrides.ts),
 * a REST write before it is stored, and the stored value again when the storefront reads it. Precedence, per field:
 * the value saved over REST (the `settings` table) > `SHOP_SETTINGS` > the default in site-config.ts.
 */
import { z } from "zod";
import type { SiteConfig } from "./site-config.ts";
import { unknownDisabledCookies } from "../domain/tracking/consent.ts";
import { CARD_TYPE_NAMES } from "../domain/payments/card-types.ts";
import { validSenderName } from "../domain/mail/email-kinds.ts";
import { isDeliverableAddress } from "../mail/address.ts";
import { COUNTRIES, isValidPostcode, normalizeState } from "../domain/checkout/address.ts";

const line = (max: number) => z.string().max(max);
/** A query-parameter name (or none). */
const paramName = z.string().regex(/^[A-Za-z0-9_.-]{0,64}$/, "letters, digits, '_', '.' or '-' only");
const host = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.-]+$/, "a host name like example.com");

export const storeNoticeSettingsSchema = z.strictObject({
  enabled: z.boolean(),
  /** Part of the dismissal cookie's name (`store_notice{noticeId}`): a new id shows the notice again to those who hid it. */
  noticeId: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, "1–40 letters, digits, '_' or '-'"),
  text: line(2000),
});

export const comingSoonSettingsSchema = z.strictObject({
  enabled: z.boolean(),
  text: line(500),
});

export const attributionSettingsSchema = z.strictObject({
  lifetimeMonths: z.number().positive().max(1200),
  sessionMinutes: z.number().int().min(1).max(10_080),
  base64: z.boolean(),
  allowTracking: z.boolean(),
  timezoneOffsetHours: z.number().min(-12).max(14),
  campaignParam: paramName,
  termParam: paramName,
  contentParam: paramName,
  referrals: z.array(z.strictObject({ host, medium: line(100).optional(), display: line(100).optional() })).max(100),
  organics: z.array(z.strictObject({ host, param: paramName.min(1), display: line(100).optional() })).max(100),
  promocode: z
    .strictObject({ enabled: z.boolean(), min: z.number().int().min(0).max(2_147_483_647), max: z.number().int().min(0).max(2_147_483_647) })
    .refine((p) => p.min <= p.max, { message: "min must not be above max", path: ["min"] }),
});

export const consentSettingsSchema = z.strictObject({
  required: z.boolean(),
  disabledCookies: z
    .array(z.string().max(40))
    .max(20)
    .refine((d) => unknownDisabledCookies(d).length === 0, "unknown cookie group"),
});

/** The checkout page: its layout and its texts (WooCommerce's and Astra's checkout options). */
export const checkoutSettingsSchema = z.strictObject({
  layout: z.enum(["multi-step", "modern", "one-page"]),
  placeOrderText: z.string().trim().min(1).max(100),
  checkoutError: z.string().trim().min(1).max(500),
  orderReviewToggleTexts: z.strictObject({ toggle_show_text: z.string().trim().min(1).max(100), toggle_hide_text: z.string().trim().min(1).max(100) }),
});

/** Accounts at checkout: guest checkout and creating an account while ordering (WooCommerce's 'Accounts & Privacy'). */
const accountFields = z.strictObject({
  guestCheckout: z.boolean(),
  isRegistrationRequired: z.boolean(),
  isCompletePackage: z.boolean(),
  userValidationSuccessMsg: z.string().trim().min(1).max(500),
  userValidationErrorMsg: z.string().trim().min(1).max(500),
});
export const accountSettingsSchema = accountFields
  // A shop where an account is required cannot also take guests: WooCommerce's two options say the same thing twice.
  .refine((a) => !(a.guestCheckout && a.isRegistrationRequired), {
    message: "guest checkout cannot be on while an account is required",
    path: ["guestCheckout"],
  });

/** The card gateway's options (docs/contract/storefront.md §3 'Payment gateway settings'), checked by the server at checkout. */
export const paymentSettingsSchema = z.strictObject({
  cscRequired: z.boolean(),
  cscRequiredForTokens: z.boolean(),
  enabledCardTypes: z
    .array(z.enum(CARD_TYPE_NAMES, { error: (issue) => `${JSON.stringify(issue.input)} is not a card type (${CARD_TYPE_NAMES.join(", ")})` }))
    .min(1, "at least one card type must be accepted")
    .max(CARD_TYPE_NAMES.length)
    .refine((t) => new Set(t).size === t.length, "a card type is listed twice"),
});

/**
 * Settings › E-mails (decision 0032): the sender's name and address (empty: the environment's MAIL_FROM) and the
 * e-mails the owner may turn off (core/domain/mail/email-kinds.ts; the password reset cannot be).
 */
export const emailSettingsSchema = z.strictObject({
  fromName: z.string().trim().max(100).refine(validSenderName, "a name without quotes, angle brackets, backslashes or line breaks"),
  fromAddress: z
    .string()
    .trim()
    .max(254)
    .refine((a) => a === "" || isDeliverableAddress(a), "an e-mail address like shop@example.com"),
  orderReceived: z.boolean(),
  orderFailed: z.boolean(),
  orderRefunded: z.boolean(),
  orderNote: z.boolean(),
  contactMessage: z.boolean(),
});
const countryCode = z.string().refine((c) => Object.hasOwn(COUNTRIES, c), `not a country this shop knows (${Object.keys(COUNTRIES).join(", ")})`);
const countryList = z
  .array(countryCode)
  .max(Object.keys(COUNTRIES).length)
  .refine((l) => new Set(l).size === l.length, "a country is listed twice");

/**
 * Settings › General: the store's address and where it sells and ships (WooCommerce's 'Store Address' and 'General
 * options'). A `specific` list must name a country; the state is a subdivision code where the country has a list.
 */
const generalFields = z.strictObject({
  address: z.string().trim().max(200),
  address2: z.string().trim().max(200),
  city: z.string().trim().max(100),
  postcode: z.string().trim().max(20),
  country: countryCode,
  state: z.string().trim().max(50),
  sellTo: z.enum(["all", "specific", "all_except"]),
  sellToCountries: countryList,
  shipTo: z.enum(["all", "specific", "all_except", "same_as_selling"]),
  shipToCountries: countryList,
});
export const generalSettingsSchema = generalFields
  .superRefine((g, ctx) => {
    if (g.state !== "" && normalizeState(g.country, g.state) === null)
      ctx.addIssue({ code: "custom", path: ["state"], message: `is not a state of ${COUNTRIES[g.country]?.name ?? g.country}` });
    if (g.postcode !== "" && Object.hasOwn(COUNTRIES, g.country) && !isValidPostcode(g.country, g.postcode))
      ctx.addIssue({ code: "custom", path: ["postcode"], message: `is not a valid postcode for ${COUNTRIES[g.country]?.name ?? g.country}` });
    if (g.sellTo === "specific" && g.sellToCountries.length === 0)
      ctx.addIssue({ code: "custom", path: ["sellToCountries"], message: "choose at least one country to sell to" });
    if (g.shipTo === "specific" && g.shipToCountries.length === 0)
      ctx.addIssue({ code: "custom", path: ["shipToCountries"], message: "choose at least one country to ship to" });
  })
  .transform((g) => ({ ...g, state: g.state === "" ? "" : (normalizeState(g.country, g.state) ?? g.state) }));

/** Settings › Tax: the switch, whose address picks the rates, and whether shipping is taxed (the rates are `wc/v3/taxes`). */
export const taxSettingsSchema = z.strictObject({
  enabled: z.boolean(),
  basedOn: z.enum(["shipping", "billing", "base"]),
  shippingTaxable: z.boolean(),
});

/** The sections, by their REST name (`shop/v1/settings/{name}`), with the key of `SiteConfig` each one is. */
export const EDITABLE_SETTINGS = {
  "store-notice": { key: "storeNotice", schema: storeNoticeSettingsSchema },
  "coming-soon": { key: "comingSoonBanner", schema: comingSoonSettingsSchema },
  attribution: { key: "attribution", schema: attributionSettingsSchema },
  consent: { key: "consent", schema: consentSettingsSchema },
  checkout: { key: "checkout", schema: checkoutSettingsSchema },
  // `fields`: the section's fields without its cross-field rule (a partial write is checked field by field first).
  accounts: { key: "account", schema: accountSettingsSchema, fields: accountFields },
  payments: { key: "payments", schema: paymentSettingsSchema },
  emails: { key: "emails", schema: emailSettingsSchema },
  general: { key: "store", schema: generalSettingsSchema, fields: generalFields },
  tax: { key: "tax", schema: taxSettingsSchema },
} as const satisfies Record<string, { key: keyof SiteConfig; schema: z.ZodType; fields?: z.ZodObject }>;

/** A section's fields, each optional: what a write may send (checked again whole, with the values in effect). */
export function sectionFields(name: EditableSection): z.ZodObject {
  const entry = EDITABLE_SETTINGS[name];
  return ("fields" in entry ? entry.fields : (entry.schema as z.ZodObject)).partial();
}

export type EditableSection = keyof typeof EDITABLE_SETTINGS;
export const EDITABLE_SECTIONS = Object.keys(EDITABLE_SETTINGS) as EditableSection[];

// Compile-time: each schema's output is the section's own type, so the storefront reads exactly what was validated.
type Fits<K extends EditableSection> =
  z.output<(typeof EDITABLE_SETTINGS)[K]["schema"]> extends SiteConfig[(typeof EDITABLE_SETTINGS)[K]["key"]] ? true : never;
const _SCHEMAS_FIT_CONFIG: [
  Fits<"store-notice">,
  Fits<"coming-soon">,
  Fits<"attribution">,
  Fits<"consent">,
  Fits<"checkout">,
  Fits<"accounts">,
  Fits<"payments">,
  Fits<"emails">,
  Fits<"general">,
  Fits<"tax">,
] = [true, true, true, true, true, true, true, true, true, true];

/** Problems of the editable sections of a configuration, one line each naming the setting (empty = none). */
export function editableSettingsErrors(config: SiteConfig): string[] {
  const errors: string[] = [];
  for (const { key, schema } of Object.values(EDITABLE_SETTINGS)) {
    const parsed = schema.safeParse(config[key]);
    if (!parsed.success) for (const issue of parsed.error.issues) errors.push(`${[key, ...issue.path].join(".")} ${issue.message}`);
  }
  return errors;
}

/**
 * The configuration with the saved sections laid over it, field by field. `saved` maps a section's REST name to the
 * fields stored for it; a stored section that no longer passes its schema over the base (a schema that became
 * stricter) is left out, so a bad row can never break a page: the base's values stand.
 */
export function withSavedSettings(base: SiteConfig, saved: Partial<Record<EditableSection, unknown>>): SiteConfig {
  let config = base;
  for (const name of EDITABLE_SECTIONS) {
    const fields = saved[name];
    if (!fields || typeof fields !== "object" || Array.isArray(fields)) continue;
    const { key, schema } = EDITABLE_SETTINGS[name];
    const parsed = schema.safeParse({ ...base[key], ...fields });
    if (parsed.success) config = { ...config, [key]: parsed.data };
  }
  return config;
}
