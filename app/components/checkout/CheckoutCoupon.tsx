/**
 * The checkout's coupon: the custom box (trigger → input; 'apply' or Enter copies the code into the standard
 * coupon field and submits it — that part is the cart's shared script, cart-client.ts) and the standard
 * `form.checkout_coupon`, whose submission goes to `?wc-ajax=apply_coupon` with the billing e-mail.
 * It sits outside the checkout form: forms cannot nest.
 */
import { CouponBox } from "../cart/CartPage.tsx";

export interface CouponNonces {
  applyCouponNonce: string;
  removeCouponNonce: string;
}

function post(endpoint: string, body: URLSearchParams): Promise<string> {
  return fetch(`/?wc-ajax=${endpoint}`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8", "X-Requested-With": "XMLHttpRequest" },
    credentials: "same-origin",
  }).then((r) => r.text());
}

/** Applies a coupon; the answer is the server's HTML notices. */
export const applyCheckoutCoupon = (nonce: string, code: string, billingEmail: string) =>
  post("apply_coupon", new URLSearchParams({ security: nonce, coupon_code: code, billing_email: billingEmail }));

export const removeCheckoutCoupon = (nonce: string, code: string) => post("remove_coupon", new URLSearchParams({ security: nonce, coupon: code }));

export function CheckoutCoupon({ notices, busy, onApply }: { notices: string | null; busy: boolean; onApply: (code: string) => void }) {
  return (
    <div className="checkout-coupon">
      <div
        className="woocommerce-notices-wrapper checkout-coupon-notices"
        aria-live="polite"
        dangerouslySetInnerHTML={notices ? { __html: notices } : undefined}
      />
      <CouponBox />
      <form
        className="checkout_coupon woocommerce-form-coupon"
        method="post"
        hidden
        aria-busy={busy}
        onSubmit={(e) => {
          e.preventDefault();
          const code = String(new FormData(e.currentTarget).get("coupon_code") ?? "");
          onApply(code);
        }}
      >
        <label htmlFor="checkout_coupon_code" className="screen-reader-text">
          Coupon:
        </label>
        <input type="text" name="coupon_code" className="input-text" id="checkout_coupon_code" placeholder="Coupon code" />
        <button type="submit" className="button" name="apply_coupon" value="Apply coupon">
          Apply coupon
        </button>
      </form>
    </div>
  );
}
