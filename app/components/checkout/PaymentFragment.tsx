/**
 * The `.woocommerce-checkout-payment` fragment of `update_order_review` (docs/contract/wire.md §1.3): the payment form
 * and the place-order row, rendered by the same PaymentForm the page uses, for scripts that replace it.
 */
import { PaymentForm, type SavedTokenView } from "./PaymentForm.tsx";
import type { GatewaySettings } from "../../../core/domain/payments/index.ts";

export function PaymentFragment(props: {
  gateways: { card: GatewaySettings; echeck: GatewaySettings };
  testMode: boolean;
  tokens: SavedTokenView[];
  canSave: boolean;
  method: string;
  nonce: string;
  checkoutToken: string;
  placeOrderText: string;
  slideMs: number;
}) {
  const defaults = Object.fromEntries(
    [props.gateways.card, props.gateways.echeck].map((g) => [g.id, String(props.tokens.find((t) => t.gatewayId === g.id && t.isDefault)?.id ?? "new")]),
  );
  return (
    <div id="payment" className="woocommerce-checkout-payment">
      <PaymentForm
        gateways={props.gateways}
        testMode={props.testMode}
        tokens={props.tokens}
        canSave={props.canSave}
        method={props.method}
        onMethodChange={() => undefined}
        tokenChoice={defaults}
        onTokenChoice={() => undefined}
        slideMs={props.slideMs}
      />
      <div className="form-row place-order">
        <input type="hidden" name="woocommerce-process-checkout-nonce" value={props.nonce} />
        <input type="hidden" name="_wp_http_referer" value="/checkout/" />
        <input type="hidden" name="_checkout_token" value={props.checkoutToken} />
        <button type="submit" className="button alt" name="woocommerce_checkout_place_order" id="place_order" value={props.placeOrderText}>
          {props.placeOrderText}
        </button>
      </div>
    </div>
  );
}
