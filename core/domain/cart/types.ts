/** The cart's own vocabulary, shared by the cart use cases, their storage and the pages. Pure types. */

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
