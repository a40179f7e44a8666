/** The payment step: the payment form's own error list, the payment form, the hidden checkout fields and 'Place order'. */
import type { RefObject } from "react";
import { PaymentForm, type PaymentFormProps } from "./PaymentForm.tsx";

export interface PaymentErrors {
  messages: string[];
  /** Field ids the messages name (aria-invalid). */
  fields: ReadonlySet<string>;
  /** Remounts the role="alert" list, so a repeated failure is announced again. */
  seq: number;
}

/** The payment form's own props (but the invalid fields, which come from `errors`) and the step around it. */
interface Props extends Omit<PaymentFormProps, "invalidFields"> {
  paymentRef: RefObject<HTMLDivElement | null>;
  hidden: boolean;
  errors: PaymentErrors;
  nonce: string;
  checkoutToken: string;
  placeOrderText: string;
  processing: boolean;
  /** Multi-step layouts: the 'Back to my details' button. */
  onBack: (() => void) | null;
}

export function PaymentStep({ paymentRef, ...props }: Props) {
  const { errors, processing } = props;
  return (
    <div id="payment" ref={paymentRef} className="woocommerce-checkout-payment" hidden={props.hidden}>
      {/* The step's heading takes focus when 'Proceed to payment' opens it, so the step is announced. */}
      <h2 id="checkout-payment-heading" className="checkout-payment-heading" tabIndex={-1}>
        Payment
      </h2>
      {errors.messages.length ? (
        <ul className="woocommerce-error payment-form-errors" role="alert" key={errors.seq}>
          {errors.messages.map((m, i) => (
            <li key={i}>{m}</li>
          ))}
        </ul>
      ) : null}
      <PaymentForm
        gateways={props.gateways}
        testMode={props.testMode}
        tokens={props.tokens}
        canSave={props.canSave}
        method={props.method}
        invalidFields={errors.fields}
        onMethodChange={props.onMethodChange}
        tokenChoice={props.tokenChoice}
        onTokenChoice={props.onTokenChoice}
        slideMs={props.slideMs}
      />
      <div className="form-row place-order">
        <input type="hidden" name="woocommerce-process-checkout-nonce" value={props.nonce} />
        <input type="hidden" name="_wp_http_referer" value="/checkout/" />
        <input type="hidden" name="_checkout_token" value={props.checkoutToken} />
        {props.onBack ? (
          <button type="button" className="button checkout-step-back" onClick={props.onBack}>
            Back to my details
          </button>
        ) : null}
        <button
          type="submit"
          className="button alt"
          name="woocommerce_checkout_place_order"
          id="place_order"
          value={props.placeOrderText}
          disabled={processing}
          aria-disabled={processing}
        >
          {props.placeOrderText}
        </button>
      </div>
    </div>
  );
}
