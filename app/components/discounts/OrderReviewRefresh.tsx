/**
 * For the checkout page: with `refresh_order_review` '1', a change of the billing details or the payment
 * method raises 'update_checkout' so the order review (and its discounted prices) is recalculated.
 * Renders nothing; mount it once on the checkout page.
 */
import { useEffect } from "react";
import type { AwdrParams } from "./awdr-params.ts";
import { emitWcEvent } from "../../lib/wc-events.ts";

export function OrderReviewRefresh() {
  useEffect(() => (window.awdr_params ? mountOrderReviewRefresh(window.awdr_params) : undefined), []);
  return null;
}

/**
 * With refresh_order_review '1' the checkout's order review is refreshed when the billing details or the
 * payment method change (prices can depend on the customer), through the 'update_checkout' event.
 */
function mountOrderReviewRefresh(params: AwdrParams, root: Document = document): () => void {
  if (params.refresh_order_review !== "1") return () => {};
  const onChange = (event: Event) => {
    const target = event.target as HTMLInputElement | null;
    if (!target?.name || !(target.name.startsWith("billing_") || target.name === "payment_method")) return;
    emitWcEvent("update_checkout", { update_shipping_method: false });
  };
  root.addEventListener("change", onChange);
  return () => root.removeEventListener("change", onChange);
}
