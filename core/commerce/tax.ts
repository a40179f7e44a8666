/**
 * Which address's tax rates a cart or an order is charged (Settings › Tax, docs/decisions/0040-tax-rates.md): none
 * while tax is off; else the shipping address (the billing one when there is none), the billing address, or the
 * store's own, as "Calculate tax based on" says. The rates and the sums are core/domain/pricing/tax.ts's.
 */
import type { SiteConfig } from "../config/site-config.ts";
import type { TaxAddress } from "../domain/pricing/tax.ts";
import type { PricingOptions } from "./cart.ts";

export function taxPricing(
  config: Pick<SiteConfig, "tax" | "store">,
  addresses: { shipping: TaxAddress | null; billing: TaxAddress | null },
): Pick<PricingOptions, "tax"> {
  const t = config.tax;
  if (!t.enabled) return {};
  const base: TaxAddress = { country: config.store.country, state: config.store.state, postcode: config.store.postcode };
  const address = t.basedOn === "base" ? base : t.basedOn === "billing" ? (addresses.billing ?? addresses.shipping) : (addresses.shipping ?? addresses.billing);
  return { tax: { address, shippingTaxable: t.shippingTaxable } };
}
