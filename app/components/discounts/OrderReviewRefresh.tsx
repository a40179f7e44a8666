/**
 * For the checkout page: with `refresh_order_review` '1', a change of the billing details or the payment
 * method raises 'update_checkout' so the order review (and its discounted prices) is recalculated.
 * Renders nothing; mount it once on the checkout page.
 */
import { useEffect } from "react";
import { mountOrderReviewRefresh } from "./dynamic-pricing.ts";

export function OrderReviewRefresh() {
  useEffect(() => (window.awdr_params ? mountOrderReviewRefresh(window.awdr_params) : undefined), []);
  return null;
}
