/**
 * WooCommerce's '“Name” has been added to your cart. View cart' notice after an in-place add from the product's own
 * form (cart-client's `added_to_cart` event). A polite live region that is on the page from the start, so the message
 * is announced when it arrives; it sits just above the form, where the shopper is looking.
 */
import { useEffect, useState } from "react";

function addedToCartMessage(name: string, quantity: number): string {
  return quantity > 1 ? `${quantity} × “${name}” have been added to your cart.` : `“${name}” has been added to your cart.`;
}

export function AddedToCartNotice({ productName, formId }: { productName: string; formId: string }) {
  const [added, setAdded] = useState<{ message: string; n: number; cartUrl: string; viewCart: string } | null>(null);
  useEffect(() => {
    const onAdded = (event: Event) => {
      const button = (event as CustomEvent<{ button?: Element }>).detail?.button;
      const form =
        button instanceof Element
          ? (button.closest("form") ?? (button.getAttribute("form") ? document.getElementById(button.getAttribute("form")!) : null))
          : null;
      if (!(form instanceof HTMLFormElement) || form.id !== formId) return;
      const quantity = Math.max(1, Math.trunc(Number(new FormData(form).get("quantity") ?? 1)) || 1);
      const params = window.wc_add_to_cart_params;
      setAdded((a) => ({
        message: addedToCartMessage(productName, quantity),
        n: (a?.n ?? 0) + 1,
        cartUrl: params?.cart_url ?? "/cart/",
        viewCart: params?.i18n_view_cart ?? "View cart",
      }));
    };
    document.body.addEventListener("added_to_cart", onAdded);
    return () => document.body.removeEventListener("added_to_cart", onAdded);
  }, [productName, formId]);
  return (
    <div className="woocommerce-notices-wrapper product-added-notice" role="status" aria-live="polite">
      {added ? (
        <div className="woocommerce-message" key={added.n}>
          {added.message}{" "}
          <a href={added.cartUrl} className="button wc-forward">
            {added.viewCart}
          </a>
        </div>
      ) : null}
    </div>
  );
}
