import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from "react";
import { useRevalidator } from "react-router";
import { post } from "./checkout-client.ts";
import { emitWcEvent } from "../../lib/wc-events.ts";

const WATCHED = new Set([
  "billing_city",
  "billing_postcode",
  "billing_email",
  "billing_state",
  // Where the order is shipped decides its shipping zone, so its rates (WooCommerce's checkout.js refreshes on these too).
  "billing_country",
  "shipping_country",
  "shipping_state",
  "shipping_postcode",
  "ship_to_different_address",
]);

/**
 * The order review's refresh (`update_order_review`, then the loader again): once when the payment form is
 * ready, when a watched field or the payment method changes, and when another script raises
 * 'update_checkout'. Requests arriving together make one call; a chosen shipping rate goes with its own.
 */
export function useCheckoutRefresh(formRef: RefObject<HTMLFormElement | null>, reviewNonce: string) {
  const revalidator = useRevalidator();
  const refresh = useCallback(
    async (shippingMethod?: string) => {
      const form = formRef.current;
      if (!form) return;
      const data = new FormData(form);
      const body = new URLSearchParams({
        security: reviewNonce,
        payment_method: String(data.get("payment_method") ?? ""),
        country: String(data.get("billing_country") ?? ""),
        state: String(data.get("billing_state") ?? ""),
        postcode: String(data.get("billing_postcode") ?? ""),
        city: String(data.get("billing_city") ?? ""),
        address: String(data.get("billing_address_1") ?? ""),
        address_2: String(data.get("billing_address_2") ?? ""),
        has_full_address: "true",
      });
      // The shipping address as checkout.js posts it: s_* are the shipping fields, or the billing ones when the order
      // ships to the billing address.
      const elsewhere = data.get("ship_to_different_address") !== null;
      for (const [s, f] of [
        ["s_country", "country"],
        ["s_state", "state"],
        ["s_postcode", "postcode"],
        ["s_city", "city"],
      ] as const)
        body.set(s, String(data.get(`${elsewhere ? "shipping" : "billing"}_${f}`) ?? ""));
      // update_shipping_method true: the chosen rate goes with the refresh.
      if (shippingMethod) body.set("shipping_method[0]", shippingMethod);
      const res = await post("/?wc-ajax=update_order_review", body).catch(() => null);
      const json = res ? ((await res.json().catch(() => null)) as { reload?: boolean; fragments?: Record<string, string> } | null) : null;
      if (json?.reload || (json?.fragments && "form.woocommerce-checkout" in json.fragments)) return void window.location.reload();
      await revalidator.revalidate();
      // checkout.js: trigger('updated_checkout', [data]) once the review shows the answer (docs/contract/wire.md §1.8).
      if (json) emitWcEvent("updated_checkout", json, { args: [json] });
    },
    [formRef, reviewNonce, revalidator],
  );

  // Refresh requests arriving together (the form's own watched fields, 'update_checkout' raised by other scripts
  // such as the discounts add-on's OrderReviewRefresh) make one update_order_review call.
  const refreshRef = useRef(refresh);
  useLayoutEffect(() => {
    refreshRef.current = refresh;
  }, [refresh]);
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const scheduleRefresh = useCallback(() => {
    clearTimeout(refreshTimer.current);
    refreshTimer.current = setTimeout(() => void refreshRef.current(), 0);
  }, []);
  useEffect(() => {
    const onUpdateCheckout = (e: Event) => {
      if ((e as CustomEvent<{ update_shipping_method?: boolean } | undefined>).detail?.update_shipping_method) {
        const chosen = formRef.current?.querySelector<HTMLInputElement>('input[name^="shipping_method"]:checked')?.value;
        return void refreshRef.current(chosen);
      }
      scheduleRefresh();
    };
    document.body.addEventListener("update_checkout", onUpdateCheckout);
    return () => {
      document.body.removeEventListener("update_checkout", onUpdateCheckout);
      clearTimeout(refreshTimer.current);
    };
  }, [formRef, scheduleRefresh]);

  // Watched fields refresh on the native 'change' (committed value, as WooCommerce does), not on every keystroke.
  // The payment method is watched too (issue 6); its radio's own handler schedules the same, coalesced refresh.
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const onNativeChange = (e: Event) => {
      const name = (e.target as HTMLInputElement | null)?.name ?? "";
      if (WATCHED.has(name) || name === "payment_method") scheduleRefresh();
    };
    form.addEventListener("change", onNativeChange);
    return () => form.removeEventListener("change", onNativeChange);
  }, [formRef, scheduleRefresh]);

  // The checkout refreshes once the payment form is ready (mount only: the latest `refresh` through its ref).
  useEffect(() => void refreshRef.current(), []);

  return { refresh, scheduleRefresh };
}
