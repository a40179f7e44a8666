/** The cart's own vocabulary, shared by the cart use cases, their storage and the pages. Pure types. */
import type { BundleComponent, ProductKind } from "../catalog/index.ts";
import type { CartResult } from "../pricing/index.ts";
import type { CartTax } from "../pricing/tax.ts";

/** Whose cart: a customer's (signed in) or a guest session's. */
export type CartOwner = { customerId: number } | { sessionId: string };

/** What makes two lines of the same product different. */
export interface CartItemData {
  /** Bundle: ticked optional bundled_item_ids, sorted. */
  bundleOptional?: number[];
  /** Downloadable with several prices: the chosen price option. */
  priceIndex?: number;
  /** A free item given by a buy-X-get-Y rule. */
  freeItem?: string;
}

/** One priced line of a cart (core/commerce/cart.ts prices it; the pages show it). */
export interface CartLine {
  key: string;
  productId: number;
  variationId: number;
  variation: Record<string, string>;
  itemData: CartItemData;
  name: string;
  slug: string;
  sku: string;
  type: ProductKind;
  imageSlug: string | null;
  /** "Color: Red, Size: M" or the bundle's chosen extras; '' when nothing to say. */
  details: string;
  quantity: number;
  /** null: stock not managed. */
  stockQuantity: number | null;
  /** For a bundle: the products inside each unit of this line (mandatory ones and the ticked extras). */
  components: BundleComponent[];
  needsShipping: boolean;
  /** Engine figures, integer cents. */
  regularUnitPrice: number;
  unitPrice: number;
  subtotal: number;
  discountedSubtotal: number;
  total: number;
  /** The free-item grant this line fills, with the products the shopper may switch to. */
  freeItem: { ruleUniqueId: string; parentProductId: number; choices: { id: number; label: string }[] } | null;
}

export interface PricedCart {
  cartId: number | null;
  createdAt: Date | null;
  lines: CartLine[];
  /** Units in the cart. */
  count: number;
  couponCodes: string[];
  chosenShippingMethodId: string | null;
  /** `result.totals.grandTotal` includes it. */
  result: CartResult;
  /** The cart's tax (Settings › Tax on; core/domain/pricing/tax.ts); null: tax is off. */
  tax: CartTax | null;
  /** '' for an empty cart; otherwise changes whenever anything shown in a cart fragment changes. */
  hash: string;
}
