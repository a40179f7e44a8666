/**
 * The checkout form: billing/shipping fields, the login section and e-mail detection (guests), create-account,
 * the order review with its summary toggle and shipping choice, the payment form, 'Place order'.
 * It works without JavaScript as a plain form posting to `?wc-ajax=checkout`; with JavaScript it submits over
 * fetch and shows the contract's failure messages in place.
 *
 * The parts, beside it: DetailsStep (with GuestCustomerInfo and CheckoutFields), PaymentStep, and the hooks
 * useCheckoutRefresh (the order review's refresh), useGuestEmailCheck (e-mail detection), useSummaryToggle,
 * useScriptErrorReport; payment-check.ts runs the payment form's own check before posting.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { errorListHtml, readDetails, type FieldError } from "../../../core/domain/checkout/address-form.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";
import { ReviewOrder } from "./ReviewOrder.tsx";
import { CheckoutCoupon, applyCheckoutCoupon, removeCheckoutCoupon, type CouponNonces } from "./CheckoutCoupon.tsx";
import type { SavedTokenView } from "./PaymentForm.tsx";
import { revealNotices, useRevealNotices } from "../chrome/Notices.tsx";
import type { CartSummaryView, CartTotalsView } from "../cart/cart-view.ts";
import type { GatewaySettings } from "../../../core/domain/payments/index.ts";
import { errorNoticeHtml, postCheckout } from "./checkout-client.ts";
import { CheckoutFieldsContext, EmailField } from "./CheckoutFields.tsx";
import { DetailsStep } from "./DetailsStep.tsx";
import { GuestCustomerInfo } from "./GuestCustomerInfo.tsx";
import { PaymentStep, type PaymentErrors } from "./PaymentStep.tsx";
import { checkPaymentBeforeSubmit } from "./payment-check.ts";
import { useCheckoutRefresh } from "./useCheckoutRefresh.ts";
import { useGuestEmailCheck } from "./useGuestEmailCheck.ts";
import { useScriptErrorReport } from "./useScriptErrorReport.ts";
import { useSummaryToggle } from "./useSummaryToggle.ts";
import { emitWcEvent, pageJQuery } from "../../lib/wc-events.ts";

export interface CheckoutFormProps {
  summary: CartSummaryView;
  totals: CartTotalsView;
  nonce: string;
  reviewNonce: string;
  userCheckNonce: string;
  loginNonce: string;
  checkoutToken: string;
  /** Security token for the card form's script-error log (action {plugin}_credit_card_payment_form_log_script_event). */
  scriptLogNonce: string;
  /** The same for the e-check form (action {plugin}_echeck_payment_form_log_script_event): each action has its own nonce. */
  echeckScriptLogNonce: string;
  gateways: { card: GatewaySettings; echeck: GatewaySettings };
  testMode: boolean;
  tokens: SavedTokenView[];
  loggedIn: boolean;
  customer: { email: string; first_name: string; last_name: string } | null;
  /** A returning customer's last billing address, to prefill the fields. */
  savedBilling: Record<string, string> | null;
  /** The shipping address saved in My account → Addresses. */
  savedShipping?: Record<string, string> | null;
  /** The country the shopper chose with the shop pages' 'change country' form. */
  chosenCountry?: string | null;
  /** The countries the billing and the shipping selects offer (Settings › General). */
  billingCountries?: readonly string[];
  shippingCountries?: readonly string[];
  layout: "one-page" | "multi-step" | "modern";
  toggleTexts: { toggle_show_text: string; toggle_hide_text: string };
  placeOrderText: string;
  checkoutError: string;
  account: { isCompletePackage: boolean; userValidationSuccessMsg: string; userValidationErrorMsg: string; guestCheckout: boolean };
  timings: { emailDebounceMs: number; collapseMs: number; slideMs: number; scrollOffsetPx: number; scrollMs: number };
  couponNonces: CouponNonces;
}

/** What checkout.js hands place-order handlers (its wc_checkout_form): the form, as jQuery, and the chosen gateway. */
function placeOrderApi(form: HTMLFormElement, method: string) {
  const $ = pageJQuery();
  return { $checkout_form: $ ? $(form) : null, get_payment_method: () => method };
}

/** checkout_place_order, then checkout_place_order_<gateway>, on the form: either may veto (false / preventDefault). */
function placeOrderAllowed(form: HTMLFormElement, method: string, api: ReturnType<typeof placeOrderApi>): boolean {
  const detail = { payment_method: method };
  const opts = { target: form, cancelable: true, args: [api] };
  return emitWcEvent("checkout_place_order", detail, opts) && emitWcEvent(`checkout_place_order_${method}`, detail, opts);
}

export function CheckoutForm(props: CheckoutFormProps) {
  const { summary, totals, gateways, layout, toggleTexts, timings } = props;
  const formRef = useRef<HTMLFormElement>(null);
  const paymentRef = useRef<HTMLDivElement>(null);
  const [method, setMethod] = useState(gateways.card.id);
  const defaultToken = (g: GatewaySettings) => String(props.tokens.find((t) => t.gatewayId === g.id && t.isDefault)?.id ?? "new");
  const [tokenChoice, setTokenChoice] = useState<Record<string, string>>({
    [gateways.card.id]: defaultToken(gateways.card),
    [gateways.echeck.id]: defaultToken(gateways.echeck),
  });
  const [step, setStep] = useState<"details" | "payment">("details");
  const hydrated = useHydrated();
  const [processing, setProcessing] = useState(false);
  // A new object for every failure, so the same message twice is revealed (scrolled to, focused) twice.
  const [notices, setNotices] = useState<{ html: string } | null>(null);
  const noticesRef = useRef<HTMLDivElement>(null);
  useRevealNotices(noticesRef, notices);
  // The payment form's own check: its messages, the fields they name (aria-invalid) and a count that remounts
  // the role="alert" list, so a repeated failure is announced again.
  const [paymentErrors, setPaymentErrors] = useState<PaymentErrors>({ messages: [], fields: new Set(), seq: 0 });
  const clearPaymentErrors = () => setPaymentErrors((p) => (p.messages.length || p.fields.size ? { messages: [], fields: new Set(), seq: p.seq } : p));
  const [fieldErrors, setFieldErrors] = useState<Set<string>>(new Set());
  const [email, setEmail] = useState(props.savedBilling?.email || props.customer?.email || "");
  const [couponNotices, setCouponNotices] = useState<string | null>(null);
  const [couponBusy, setCouponBusy] = useState(false);
  const processingRef = useRef(false);
  // Set by the step buttons only: the step that opens then takes focus on its heading (a failure's notices keep theirs).
  const focusStepRef = useRef(false);
  useEffect(() => {
    if (!focusStepRef.current) return;
    focusStepRef.current = false;
    document.getElementById(step === "payment" ? "checkout-payment-heading" : "checkout-details-heading")?.focus();
  }, [step]);
  const methodRef = useRef(method);
  useLayoutEffect(() => {
    methodRef.current = method;
  }, [method]);

  useScriptErrorReport(gateways, methodRef, { card: props.scriptLogNonce, echeck: props.echeckScriptLogNonce });
  const {
    open: summaryOpen,
    collapsed: summaryCollapsed,
    hidden: summaryHidden,
    ref: summaryRef,
    toggle: toggleSummary,
  } = useSummaryToggle(timings.collapseMs);
  const { refresh, scheduleRefresh } = useCheckoutRefresh(formRef, props.reviewNonce);
  const guest = useGuestEmailCheck({
    enabled: !props.loggedIn,
    hydrated,
    email,
    nonce: props.userCheckNonce,
    debounceMs: timings.emailDebounceMs,
    successMessage: props.account.userValidationSuccessMsg,
    errorMessage: props.account.userValidationErrorMsg,
  });

  // Coupons: the answer is HTML notices; then the checkout refreshes with update_shipping_method false.
  const changeCoupon = async (call: () => Promise<string>, event: string, code: string) => {
    if (couponBusy) return;
    setCouponBusy(true);
    try {
      setCouponNotices(await call().catch(() => errorNoticeHtml(props.checkoutError)));
      emitWcEvent(event, code, { args: [code] });
      await refresh();
    } finally {
      setCouponBusy(false);
    }
  };
  const applyCoupon = (code: string) =>
    void changeCoupon(() => applyCheckoutCoupon(props.couponNonces.applyCouponNonce, code, email), "applied_coupon_in_checkout", code);
  const removeCoupon = (code: string) =>
    void changeCoupon(() => removeCheckoutCoupon(props.couponNonces.removeCouponNonce, code), "removed_coupon_in_checkout", code);

  const onFieldChange = (e: React.ChangeEvent<HTMLFormElement>) => {
    const name = (e.target as unknown as HTMLInputElement).name;
    if (fieldErrors.has(name)) setFieldErrors((s) => new Set([...s].filter((n) => n !== name)));
  };

  // 'Proceed to payment': the details step is checked by the server's own rules first; errors are listed (and
  // focused) above the form and the shopper stays on the details.
  const goToPayment = () => {
    const form = formRef.current;
    if (!form) return;
    const errors: FieldError[] = [];
    const values = Object.fromEntries([...new FormData(form)].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    readDetails(values, { loggedIn: props.loggedIn, guestCheckout: props.account.guestCheckout }, errors);
    if (errors.length) {
      setNotices({ html: errorListHtml(errors) });
      setFieldErrors(new Set(errors.map((x) => x.id)));
      return;
    }
    setNotices(null);
    setFieldErrors(new Set());
    focusStepRef.current = true;
    setStep("payment");
  };
  const backToDetails = () => {
    focusStepRef.current = true;
    setStep("details");
  };

  const onSubmit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    // While processing, a second submit does nothing (the server's idempotency claim is the real guard).
    if (processingRef.current) return;
    if (layout !== "one-page" && step === "details") return goToPayment();
    const data = new FormData(form);
    const payment = checkPaymentBeforeSubmit(form, data, gateways, tokenChoice);
    if (!payment.ok) {
      setPaymentErrors((p) => ({ messages: payment.messages, fields: payment.fields, seq: p.seq + 1 }));
      (document.activeElement as HTMLElement | null)?.blur?.();
      // The list sits at the top of the payment form: 100 px above it over 1 s, then focus on it after 500 ms.
      requestAnimationFrame(() => revealNotices(paymentRef.current));
      return;
    }
    clearPaymentErrors();
    // Gateways and plugins may veto the submit, as with checkout.js (docs/contract/wire.md §1.8).
    const chosen = String(data.get("payment_method") ?? "");
    const checkoutForm = placeOrderApi(form, chosen);
    if (!placeOrderAllowed(form, chosen, checkoutForm)) return;
    setNotices(null);
    processingRef.current = true;
    setProcessing(true);
    try {
      // Read again: a place-order handler may have added fields (a gateway's token, say).
      const json = await postCheckout(new FormData(form));
      if (json?.result === "success" && json.redirect) {
        const proceed = emitWcEvent("checkout_place_order_success", json, { target: form, cancelable: true, args: [json, checkoutForm] });
        if (proceed) window.location.assign(json.redirect);
        return;
      }
      if (json?.reload) return void window.location.reload();
      const messages = json?.messages || errorNoticeHtml(props.checkoutError);
      emitWcEvent("checkout_error", messages, { args: [messages] });
      // Notices are announced and focused through their role="alert"; markup without one is wrapped in one.
      setNotices({ html: /role="alert"/.test(messages) ? messages : `<div role="alert">${messages}</div>` });
      const ids = [...messages.matchAll(/data-id="([^"]+)"/g)].map((m) => m[1]!);
      setFieldErrors(new Set(ids));
      if (ids.some((id) => id.startsWith("billing_") || id.startsWith("shipping_") || id === "account_password")) setStep("details");
      if (json?.refresh) void refresh();
    } catch {
      setNotices({ html: errorNoticeHtml(props.checkoutError) });
      emitWcEvent("checkout_error", errorNoticeHtml(props.checkoutError), { args: [errorNoticeHtml(props.checkoutError)] });
    } finally {
      processingRef.current = false;
      setProcessing(false);
    }
  };

  const multi = layout !== "one-page" && hydrated;
  const showDetails = !multi || step === "details";
  const showPayment = !multi || step === "payment";
  const canSave = props.loggedIn || guest.createAccount;

  return (
    <>
      <CheckoutCoupon notices={couponNotices} busy={couponBusy} onApply={applyCoupon} />
      <form
        ref={formRef}
        name="checkout"
        method="post"
        className={`checkout woocommerce-checkout layout-${layout}${processing ? " processing" : ""}`}
        action="/?wc-ajax=checkout"
        noValidate={hydrated}
        onSubmit={onSubmit}
        onChange={onFieldChange}
        aria-busy={processing}
        data-hydrated={hydrated ? "1" : undefined}
      >
        <div className="woocommerce-NoticeGroup woocommerce-NoticeGroup-checkout" ref={noticesRef}>
          {notices ? <div dangerouslySetInnerHTML={{ __html: notices.html }} /> : null}
        </div>
        {multi ? (
          <ol className="checkout-steps" aria-label="Checkout steps">
            <li aria-current={step === "details" ? "step" : undefined}>Details</li>
            <li aria-current={step === "payment" ? "step" : undefined}>Payment</li>
          </ol>
        ) : null}
        <div className="checkout-columns">
          <CheckoutFieldsContext value={{ errors: fieldErrors, defaults: props }}>
            <DetailsStep
              hidden={!showDetails}
              needsShipping={totals.needsShipping}
              onNext={multi ? goToPayment : null}
              customerInfo={
                !props.loggedIn ? (
                  <GuestCustomerInfo
                    layout={layout}
                    email={email}
                    onEmailChange={setEmail}
                    emailNote={guest.emailNote}
                    loginOpen={guest.loginOpen}
                    onToggleLogin={() => guest.setLoginOpen((v) => !v)}
                    showCreateAccount={guest.showCreateAccount}
                    createAccount={guest.createAccount}
                    onCreateAccount={guest.setCreateAccount}
                    loginNonce={props.loginNonce}
                    checkoutError={props.checkoutError}
                  />
                ) : (
                  <EmailField value={email} onChange={setEmail} />
                )
              }
            />
          </CheckoutFieldsContext>
          <div className="checkout-review">
            <h3 id="order_review_heading">
              <button
                type="button"
                className="order-summary-toggle link-button"
                aria-expanded={summaryOpen}
                aria-controls="order_review"
                onClick={toggleSummary}
              >
                {summaryOpen ? toggleTexts.toggle_hide_text : toggleTexts.toggle_show_text}
              </button>
            </h3>
            <div
              id="order_review"
              ref={summaryRef}
              className={`woocommerce-checkout-review-order order-summary${summaryCollapsed ? " is-collapsed" : ""}`}
              style={{ transitionDuration: `${timings.collapseMs}ms` }}
              inert={!summaryOpen}
              hidden={summaryHidden}
            >
              <ReviewOrder summary={summary} totals={totals} onShippingChange={(id) => void refresh(id)} onRemoveCoupon={removeCoupon} />
            </div>
            <PaymentStep
              paymentRef={paymentRef}
              hidden={!showPayment}
              errors={paymentErrors}
              gateways={gateways}
              testMode={props.testMode}
              tokens={props.tokens}
              canSave={canSave}
              method={method}
              onMethodChange={(id) => {
                setMethod(id);
                clearPaymentErrors();
                scheduleRefresh();
              }}
              tokenChoice={tokenChoice}
              onTokenChoice={(g, v) => setTokenChoice((c) => ({ ...c, [g]: v }))}
              slideMs={timings.slideMs}
              nonce={props.nonce}
              checkoutToken={props.checkoutToken}
              placeOrderText={props.placeOrderText}
              processing={processing}
              onBack={multi ? backToDetails : null}
            />
          </div>
        </div>
      </form>
    </>
  );
}
