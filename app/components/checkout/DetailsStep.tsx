/** The details step: billing details (with the guest's e-mail, login and create-account), shipping address, order notes. */
import { useState, type ReactNode } from "react";
import { AddressFields, TextField } from "./CheckoutFields.tsx";

interface Props {
  hidden: boolean;
  /** The guest's e-mail / login / create-account block; for a signed-in customer, the (editable) e-mail field. */
  customerInfo: ReactNode;
  /** Multi-step layouts: the 'Proceed to payment' button. */
  onNext: (() => void) | null;
  /** False for a cart of virtual and downloadable items only: no shipping address is asked (WooCommerce's needs_shipping_address). */
  needsShipping: boolean;
}

export function DetailsStep({ hidden, customerInfo, onNext, needsShipping }: Props) {
  const [shipDifferent, setShipDifferent] = useState(false);
  return (
    <div className="col2-set" id="customer_details" hidden={hidden}>
      <div className="woocommerce-billing-fields">
        {/* Focused when the shopper comes back from the payment step (tabIndex -1: focusable by script only). */}
        <h2 id="checkout-details-heading" tabIndex={-1}>
          Billing details
        </h2>
        {customerInfo}
        <AddressFields prefix="billing" />
        <TextField
          name="billing_phone"
          label="Phone"
          type="tel"
          autoComplete="tel"
          description="Only used if the courier needs to reach you about this delivery."
        />
      </div>
      <div className="woocommerce-shipping-fields" hidden={!needsShipping}>
        <h3 id="ship-to-different-address">
          <label className="woocommerce-form__label-for-checkbox">
            <input
              id="ship-to-different-address-checkbox"
              type="checkbox"
              name="ship_to_different_address"
              value="1"
              checked={shipDifferent}
              onChange={(e) => setShipDifferent(e.target.checked)}
            />{" "}
            <span>Ship to a different address?</span>
          </label>
        </h3>
        {shipDifferent && needsShipping ? (
          <div className="shipping_address">
            <AddressFields prefix="shipping" />
          </div>
        ) : null}
      </div>
      <p className="form-row notes" id="order_comments_field">
        <label htmlFor="order_comments">
          Order notes <span className="optional">(optional)</span>
        </label>
        <textarea
          name="order_comments"
          className="input-text"
          id="order_comments"
          rows={3}
          maxLength={2000}
          placeholder="Notes about your order, e.g. special notes for delivery."
        />
      </p>
      {onNext ? (
        <button type="button" className="button alt checkout-step-next" onClick={onNext}>
          Proceed to payment
        </button>
      ) : null}
      {/* docs/contract/wire.md §4.4: the attribution script fills this element with its 16 hidden inputs. It lives
          in the customer details, as WooCommerce stamps it, outside the .woocommerce-checkout-payment fragment that
          checkout.js replaces on every update_order_review (a hidden step still submits it). */}
      {/* @ts-expect-error: custom element */}
      <wc-order-attribution-inputs />
    </div>
  );
}
