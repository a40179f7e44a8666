/**
 * Tax rates (WooCommerce's standard rates, docs/decisions/0040-tax-rates.md). Pure: the cart (core/commerce/cart.ts)
 * hands the priced lines and the shipping total here and adds what comes back to its totals.
 *
 * Matching, as WooCommerce's `WC_Tax::find_rates`: a rate matches an address when its country is empty or the
 * address's, its state is empty or the address's, and it has no postcodes or one of them matches (exact, `prefix*`
 * or `low...high`, zones.ts's rule). The matching rates are taken in (priority, order, id) order, ONE per priority:
 * a rate of a priority already taken is skipped, so "US 5 %" and "US:CA 7.25 %" at the same priority are
 * alternatives while different priorities stack.
 *
 * Computing (prices entered exclusive of tax): every non-compound rate is a percentage of the amount; then every
 * compound rate, in priority order, a percentage of the amount plus every tax before it. Each rate's tax is exact
 * until it is rounded ONCE per cart line (and once for the shipping), half away from zero (roundCents): the cart's
 * tax for a rate is the sum of its rounded line taxes, so an order's lines add up to its tax rows (WooCommerce's
 * default "round tax at subtotal level" off). Shipping is taxed by the matching rates marked `shipping` only.
 */
import { roundCents, type Cents } from "../money/money.ts";
import { postcodeMatches } from "./postcodes.ts";
import type { OrderTaxLine } from "../orders/types.ts";

/** A rate's percentage in ten-thousandths of a percent: 20 % = 200_000 (WooCommerce keeps four decimals). */
export type RateMicros = number;

export const RATE_DECIMALS = 4;
export const MAX_RATE_MICROS = 100 * 10 ** RATE_DECIMALS * 10; // 1000 %

export interface TaxRate {
  id: number;
  /** Two-letter country code, '' = any country. */
  country: string;
  /** State code of that country, '' = any state. */
  state: string;
  /** Postcodes, prefixes (`SW1*`) or ranges (`90210...90299`); empty = any postcode. */
  postcodes: readonly string[];
  rate: RateMicros;
  name: string;
  priority: number;
  compound: boolean;
  /** Whether the rate also applies to shipping. */
  shipping: boolean;
  /** The owner's order within a priority (lower first). */
  order: number;
}

export interface TaxAddress {
  country: string;
  state?: string;
  postcode?: string;
}

/** The rates that apply to an address, in the order they are applied (see the module's comment). */
export function matchTaxRates(rates: readonly TaxRate[], to: TaxAddress | null): TaxRate[] {
  if (!to || to.country === "") return [];
  const country = to.country.toUpperCase();
  const state = (to.state ?? "").toUpperCase();
  const matching = rates.filter(
    (r) =>
      (r.country === "" || r.country.toUpperCase() === country) &&
      (r.state === "" || r.state.toUpperCase() === state) &&
      (r.postcodes.length === 0 || r.postcodes.some((p) => postcodeMatches(p, to.postcode ?? ""))),
  );
  const ordered = [...matching].sort((a, b) => a.priority - b.priority || a.order - b.order || a.id - b.id);
  const taken = new Set<number>();
  const out: TaxRate[] = [];
  for (const r of ordered) {
    if (taken.has(r.priority)) continue;
    taken.add(r.priority);
    out.push(r);
  }
  // Non-compound first, then the compound ones, each group in priority order (WooCommerce's calc_exclusive_tax).
  return [...out.filter((r) => !r.compound), ...out.filter((r) => r.compound)];
}

const MICROS_PER_UNIT = BigInt(100 * 10 ** RATE_DECIMALS); // a rate of 100 % in micros

/** Half away from zero of num/den (den > 0), exactly. */
function roundDiv(num: bigint, den: bigint): Cents {
  const neg = num < 0n;
  const a = neg ? -num : num;
  const q = (2n * a + den) / (2n * den);
  const r = Number(q);
  return neg ? roundCents(-r) : r;
}

/** Each rate's tax on one amount (rounded once per rate), in the order given; compound rates on amount + taxes before. */
export function taxesOn(amount: Cents, rates: readonly TaxRate[]): { rateId: number; tax: Cents }[] {
  // The running base as an exact fraction num/den.
  let num = BigInt(amount);
  let den = 1n;
  let nonCompoundNum = 0n; // Σ non-compound taxes, over den at the time (den is 1e6 until the first compound rate)
  const out: { rateId: number; tax: Cents }[] = [];
  const exact: { num: bigint; den: bigint }[] = [];
  for (const r of rates) {
    if (!r.compound) {
      const tNum = BigInt(amount) * BigInt(r.rate);
      const tDen = MICROS_PER_UNIT;
      nonCompoundNum += tNum;
      exact.push({ num: tNum, den: tDen });
      out.push({ rateId: r.id, tax: roundDiv(tNum, tDen) });
      continue;
    }
    if (den === 1n) {
      // First compound rate: the base is the amount plus every non-compound tax.
      num = BigInt(amount) * MICROS_PER_UNIT + nonCompoundNum;
      den = MICROS_PER_UNIT;
    }
    const tNum = num * BigInt(r.rate);
    const tDen = den * MICROS_PER_UNIT;
    exact.push({ num: tNum, den: tDen });
    out.push({ rateId: r.id, tax: roundDiv(tNum, tDen) });
    // The next compound rate's base includes this tax too.
    num = num * MICROS_PER_UNIT + tNum;
    den = tDen;
  }
  return out;
}

export interface TaxLine {
  rateId: number;
  name: string;
  /** The rate as WooCommerce writes it: "20.0000". */
  rate: RateMicros;
  compound: boolean;
  /** Tax on the items (Σ of the rounded line taxes). */
  itemsTax: Cents;
  shippingTax: Cents;
}

export interface CartTax {
  /** Per cart line key: the tax on its subtotal (before discounts) and on its total (after). */
  lines: Record<string, { subtotalTax: Cents; totalTax: Cents }>;
  shippingTax: Cents;
  /** One row per applied rate with any tax (the order's tax_lines). */
  taxLines: TaxLine[];
  /** Σ items tax + shipping tax. */
  total: Cents;
}

export interface CartTaxInput {
  lines: readonly { key: string; subtotal: Cents; total: Cents }[];
  shipping: Cents;
  shippingTaxable: boolean;
}

export const NO_TAX: CartTax = { lines: {}, shippingTax: 0, taxLines: [], total: 0 };

/** The tax of a priced cart for the address's rates (see the module's comment for matching and rounding). */
export function cartTax(rates: readonly TaxRate[], to: TaxAddress | null, input: CartTaxInput): CartTax {
  const applied = matchTaxRates(rates, to);
  if (applied.length === 0) return { ...NO_TAX, lines: Object.fromEntries(input.lines.map((l) => [l.key, { subtotalTax: 0, totalTax: 0 }])) };
  const byRate = new Map(applied.map((r) => [r.id, { items: 0, shipping: 0 }]));
  const lines: CartTax["lines"] = {};
  for (const l of input.lines) {
    const onTotal = taxesOn(l.total, applied);
    for (const t of onTotal) byRate.get(t.rateId)!.items += t.tax;
    lines[l.key] = { subtotalTax: taxesOn(l.subtotal, applied).reduce((n, t) => n + t.tax, 0), totalTax: onTotal.reduce((n, t) => n + t.tax, 0) };
  }
  let shippingTax = 0;
  if (input.shippingTaxable && input.shipping > 0) {
    for (const t of taxesOn(
      input.shipping,
      applied.filter((r) => r.shipping),
    )) {
      byRate.get(t.rateId)!.shipping += t.tax;
      shippingTax += t.tax;
    }
  }
  const taxLines = applied
    .map((r) => ({
      rateId: r.id,
      name: r.name,
      rate: r.rate,
      compound: r.compound,
      itemsTax: byRate.get(r.id)!.items,
      shippingTax: byRate.get(r.id)!.shipping,
    }))
    .filter((t) => t.itemsTax + t.shippingTax !== 0);
  const total = taxLines.reduce((n, t) => n + t.itemsTax + t.shippingTax, 0);
  return { lines, shippingTax, taxLines, total };
}

/** "20.0000" from 200_000 (WooCommerce's wire form of a rate). */
export function formatRate(rate: RateMicros): string {
  const unit = 10 ** RATE_DECIMALS;
  return `${Math.trunc(rate / unit)}.${String(rate % unit).padStart(RATE_DECIMALS, "0")}`;
}

/** "20", "7.25", "0.5": a rate as a shopper reads it (a tax row's label without a name). */
export function shortRate(rate: RateMicros): string {
  return formatRate(rate).replace(/\.?0+$/, "");
}

/** A rate from what a client sent ("20", "7.25", 20, "20.0000"): null when not 0–1000 with at most four decimals. */
export function parseRate(value: unknown): RateMicros | null {
  const text = typeof value === "number" && Number.isFinite(value) ? String(value) : typeof value === "string" ? value.trim() : null;
  if (text === null) return null;
  const m = /^(\d{1,4})(?:\.(\d{0,4}))?$/.exec(text);
  if (!m) return null;
  const micros = Number(m[1]) * 10 ** RATE_DECIMALS + Number((m[2] ?? "").padEnd(RATE_DECIMALS, "0") || "0");
  return micros <= MAX_RATE_MICROS ? micros : null;
}

/** What a tax row is called: its name, else "Tax" (WooCommerce's default label). */
export function taxLabel(t: { name: string }): string {
  return t.name.trim() || "Tax";
}

/** A cart's tax rows as an order stores them (orders.tax_lines): the checkout's and a staff edit's. */
export function orderTaxLines(lines: readonly TaxLine[]): OrderTaxLine[] {
  return lines.map((t) => ({
    rateId: t.rateId,
    label: taxLabel(t),
    rate: t.rate,
    compound: t.compound,
    taxTotal: t.itemsTax,
    shippingTaxTotal: t.shippingTax,
  }));
}
