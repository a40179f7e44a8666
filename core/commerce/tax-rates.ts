/**
 * Tax rates edited by staff (`wc/v3/taxes`, Settings › Tax; docs/contract/rest/taxes.md): WooCommerce's fields checked
 * here and written in one transaction with the caller's `onSaved` step (the audit line); the pricing cache is cleared
 * after the commit, so the next cart is priced with the change (core/db/repositories/discounts.ts).
 */
import { z } from "zod";
import type { Db, Queryable } from "../db/client.ts";
import { invalidatePricingSetupCache } from "../db/repositories/discounts.ts";
import * as repo from "../db/repositories/tax-rates.ts";
import type { TaxRateFields, TaxRateRecord } from "../db/repositories/tax-rates.ts";
import { COUNTRIES, normalizeState } from "../domain/checkout/address.ts";
import { parseRate } from "../domain/pricing/tax.ts";
import { zoneRegionSchema } from "../domain/pricing/zones.ts";

export type { TaxRateRecord } from "../db/repositories/tax-rates.ts";

const flag = z.preprocess((v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" ? false : v), z.boolean());
const whole = (min: number, max: number) =>
  z.preprocess((v) => (typeof v === "string" && /^-?\d{1,9}$/.test(v.trim()) ? Number(v) : v), z.number().int().min(min).max(max));
const postcode = z
  .string()
  .trim()
  .refine(
    (p) => zoneRegionSchema.safeParse({ type: "postcode", code: p }).success,
    "each postcode is a postcode, a prefix ending in * (SW1*) or a range (90210...90299)",
  );

/** A write's fields as WooCommerce's taxes endpoint takes them; each optional (a create fills WooCommerce's defaults). */
export const taxRateInput = z.strictObject({
  country: z
    .string()
    .trim()
    .transform((c) => c.toUpperCase())
    .refine((c) => c === "" || Object.hasOwn(COUNTRIES, c), "is not a country code this shop knows (or empty for any country)")
    .optional(),
  state: z.string().trim().max(50).optional(),
  postcode: z.string().max(2000).optional(),
  postcodes: z.array(postcode).max(500).optional(),
  city: z.literal("", { message: "cities are not supported: leave it empty" }).optional(),
  cities: z.array(z.string()).max(0, "cities are not supported: leave it empty").optional(),
  rate: z
    .union([z.string(), z.number()])
    .transform((v, ctx) => {
      const parsed = parseRate(v);
      if (parsed === null) {
        ctx.addIssue({ code: "custom", message: "must be a percentage from 0 to 1000 with at most four decimals, like 20 or 7.25" });
        return z.NEVER;
      }
      return parsed;
    })
    .optional(),
  name: z.string().trim().max(200).optional(),
  priority: whole(0, 1000).optional(),
  compound: flag.optional(),
  shipping: flag.optional(),
  order: whole(0, 1_000_000).optional(),
  class: z.literal("standard", { message: "only the standard rates exist (tax classes are not built)" }).optional(),
});
export const TAX_RATE_FIELDS = Object.keys(taxRateInput.shape);

const DEFAULTS: TaxRateFields = { country: "", state: "", postcodes: [], rate: 0, name: "", priority: 1, compound: false, shipping: true, order: 0 };

type Input = z.output<typeof taxRateInput>;

/** The fields a write ends with: the rate's (or the defaults), overlaid with what was sent; the state checked against the country. */
function merged(before: TaxRateFields, input: Input): { ok: true; fields: TaxRateFields } | { ok: false; error: z.ZodError } {
  const country = input.country ?? before.country;
  const stateIn = (input.state ?? before.state).trim();
  let state = stateIn;
  if (stateIn !== "") {
    const normal = country === "" ? null : normalizeState(country, stateIn);
    if (normal === null)
      return {
        ok: false,
        error: new z.ZodError([
          {
            code: "custom",
            path: ["state"],
            message: country === "" ? "needs a country" : `is not a state of ${COUNTRIES[country]?.name ?? country}`,
            input: input.state,
          },
        ]),
      };
    state = normal.toUpperCase();
  }
  let postcodes = before.postcodes;
  if (input.postcodes) postcodes = input.postcodes;
  else if (input.postcode !== undefined) {
    const list = input.postcode
      .split(";")
      .map((p) => p.trim())
      .filter(Boolean);
    const parsed = z.array(postcode).max(500).safeParse(list);
    if (!parsed.success) return { ok: false, error: new z.ZodError(parsed.error.issues.map((i) => ({ ...i, path: ["postcode"] }))) };
    postcodes = parsed.data;
  }
  return {
    ok: true,
    fields: {
      country,
      state,
      postcodes: [...new Set(postcodes.map((p) => p.toUpperCase()))],
      rate: input.rate ?? before.rate,
      name: input.name ?? before.name,
      priority: input.priority ?? before.priority,
      compound: input.compound ?? before.compound,
      shipping: input.shipping ?? before.shipping,
      order: input.order ?? before.order,
    },
  };
}

export type TaxRateWrite =
  { ok: true; rate: TaxRateRecord; before: TaxRateRecord | null } | { ok: false; reason: "invalid"; error: z.ZodError } | { ok: false; reason: "not_found" };

type OnSaved = (tx: Queryable, before: TaxRateRecord | null, after: TaxRateRecord) => Promise<void>;

async function committed<T>(db: Db, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(fn);
  } finally {
    invalidatePricingSetupCache();
  }
}

export const listRates = (db: Queryable) => repo.listTaxRates(db);
export const findRate = (db: Queryable, id: number) => repo.findTaxRate(db, id);

/** A new rate (WooCommerce's defaults for what is not sent). */
export async function createRate(db: Db, body: unknown, onSaved: OnSaved): Promise<TaxRateWrite> {
  const parsed = taxRateInput.safeParse(body);
  if (!parsed.success) return { ok: false, reason: "invalid", error: parsed.error };
  const m = merged(DEFAULTS, parsed.data);
  if (!m.ok) return { ok: false, reason: "invalid", error: m.error };
  const rate = await committed(db, async (tx) => {
    const id = await repo.insertTaxRate(tx, m.fields);
    const after = (await repo.findTaxRate(tx, id))!;
    await onSaved(tx, null, after);
    return after;
  });
  return { ok: true, rate, before: null };
}

/** The fields sent, each whole, over the rate's own. */
export async function updateRate(db: Db, id: number, body: unknown, onSaved: OnSaved): Promise<TaxRateWrite> {
  const parsed = taxRateInput.safeParse(body);
  if (!parsed.success) return { ok: false, reason: "invalid", error: parsed.error };
  return committed(db, async (tx): Promise<TaxRateWrite> => {
    await repo.lockTaxRate(tx, id);
    const before = await repo.findTaxRate(tx, id);
    if (!before) return { ok: false, reason: "not_found" };
    const m = merged(before, parsed.data);
    if (!m.ok) return { ok: false, reason: "invalid", error: m.error };
    await repo.updateTaxRate(tx, id, m.fields);
    const after = (await repo.findTaxRate(tx, id))!;
    await onSaved(tx, before, after);
    return { ok: true, rate: after, before };
  });
}

export async function deleteRate(db: Db, id: number, onDeleted: (tx: Queryable, before: TaxRateRecord) => Promise<void>): Promise<TaxRateRecord | null> {
  return committed(db, async (tx) => {
    await repo.lockTaxRate(tx, id);
    const before = await repo.findTaxRate(tx, id);
    if (!before || !(await repo.deleteTaxRate(tx, id))) return null;
    await onDeleted(tx, before);
    return before;
  });
}
