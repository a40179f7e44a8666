/**
 * The promotion simulator (docs/contract/rest/shop-v1.md 'Promotion simulator'): a cart that exists nowhere — products
 * with quantities, coupon codes, optionally a customer — priced twice by the checkout's own cart pricing
 * (`priceUnsavedCart`, core/commerce/cart.ts, over the engine's `evaluateCart`): under the stored rules, and under the
 * stored rules with one draft rule in place of the stored rule of its code (or added), as if published. Reads only.
 */
import type { Queryable } from "../db/client.ts";
import { cachedPricingSetup } from "../db/repositories/discounts.ts";
import { resolveVariationId, sellables } from "../db/repositories/cart.ts";
import { findUser } from "../db/repositories/customers.ts";
import { normalizeCouponCode, type DiscountRule } from "../domain/pricing/index.ts";
import type { CurrencyFormat } from "../domain/money/money.ts";
import { priceUnsavedCart, type PricedCart } from "./cart.ts";

interface SimulationRequest {
  /** `productId` is a simple product's id or a variation's own id, as the cart's `add-to-cart` takes them. */
  items: readonly { productId: number; quantity: number }[];
  coupons: readonly string[];
  customerId: number | null;
  /** The rule being edited, already checked with `discountRuleSchema`; null: the stored rules only. */
  draft: DiscountRule | null;
  now: Date;
  currencyFormat: CurrencyFormat;
}

/** A refusal naming where it is: `["items", 0, "product_id"]`, `["customer_id"]`. */
interface SimulationProblem {
  path: (string | number)[];
  message: string;
}

type SimulationOutcome = { ok: true; current: PricedCart; draft: PricedCart | null } | { ok: false; problems: SimulationProblem[] };

/** Kinds a cart line cannot be: they have no price of their own or are bought elsewhere (core/commerce/cart.ts's add refuses them too). */
const NOT_A_LINE: Partial<Record<string, string>> = {
  variable: "is a variable product: choose one of its variations",
  grouped: "is a grouped product: choose its products one by one",
  external: "is sold by a partner and cannot be in the cart",
};

export async function simulatePromotion(db: Queryable, request: SimulationRequest): Promise<SimulationOutcome> {
  const problems: SimulationProblem[] = [];
  const items: { productId: number; variationId: number; variation: Record<string, string>; quantity: number }[] = [];
  for (const [index, item] of request.items.entries()) {
    const variation = await resolveVariationId(db, item.productId);
    const productId = variation ? variation.productId : item.productId;
    const variationId = variation ? item.productId : 0;
    const found = (await sellables(db, [{ productId, variationId }])).get(`${productId}:${variationId}`);
    const refusal = !found || !found.published ? `no published product has id ${item.productId}` : variationId ? undefined : NOT_A_LINE[found.type];
    if (refusal) problems.push({ path: ["items", index, "product_id"], message: refusal });
    else items.push({ productId, variationId, variation: variation ? withoutEmpty(variation.attributes) : {}, quantity: item.quantity });
  }
  if (request.customerId !== null && !(await findUser(db, request.customerId)))
    problems.push({ path: ["customer_id"], message: `no customer has id ${request.customerId}` });
  if (problems.length) return { ok: false, problems };

  const stored = (await cachedPricingSetup(db, db)).rules;
  const input = {
    items,
    coupons: [...new Set(request.coupons.map(normalizeCouponCode))],
    owner: request.customerId !== null ? { customerId: request.customerId } : null,
  };
  const opts = { now: request.now, loggedIn: request.customerId !== null, currencyFormat: request.currencyFormat };
  const current = await priceUnsavedCart(db, input, opts, [...stored]);
  if (!request.draft) return { ok: true, current, draft: null };
  const draftRules = [...stored.filter((r) => r.code !== request.draft!.code), { ...request.draft, enabled: true }];
  return { ok: true, current, draft: await priceUnsavedCart(db, input, opts, draftRules) };
}

const withoutEmpty = (attributes: Record<string, string>) => Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== ""));
