/**
 * The checkout form: billing/shipping fields, the login section and e-mail detection (guests), create-account,
 * the order review with its summary toggle and shipping choice, the payment form, 'Place order'.
 * It works without JavaScript as a plain form posting to `?wc-ajax=checkout`; with JavaScript it submits over
 * fetch and shows the contract's failure messages in place.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { ReviewOrder } from "./ReviewOrder.tsx";
import { CheckoutCoupon, applyCheckoutCoupon, removeCheckoutCoupon, type CouponNonces } from "./CheckoutCoupon.tsx";
import { PaymentForm, type SavedTokenView } from "./PaymentForm.tsx";
import { PasswordInput } from "../chrome/PasswordInput.tsx";
import { animateScrollTo, revealNotices, useRevealNotices } from "../chrome/Notices.tsx";
import type { CartSummaryView, CartTotalsView } from "../cart/cart-view.ts";
import { type GatewaySettings, validatePaymentForm, yearMonthOf, paymentFieldId, toAsciiDigits } from "../../../core/domain/payments/index.ts";

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
  layout: "one-page" | "multi-step" | "modern";
  toggleTexts: { toggle_show_text: string; toggle_hide_text: string };
  placeOrderText: string;
  checkoutError: string;
  account: { isCompletePackage: boolean; userValidationSuccessMsg: string; userValidationErrorMsg: string; guestCheckout: boolean };
  timings: { emailDebounceMs: number; collapseMs: number; slideMs: number; scrollOffsetPx: number; scrollMs: number };
  couponNonces: CouponNonces;
}

const WATCHED = new Set(["billing_city", "billing_postcode", "billing_email", "billing_state"]);
const EMAIL_COOKIE = "ast_modern_checkout_useremail";
const VALID_PAYMENT_EVENT = "sv_wc_payment_form_valid_payment_data";

function post(url: string, body: URLSearchParams): Promise<Response> {
  return fetch(url, { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8", "X-Requested-With": "XMLHttpRequest" }, credentials: "same-origin" });
}

/** Text only: whatever the server sent, no markup survives (the login error is shown as text). */
const plain = (s: unknown) => String(s ?? "").replace(/<[^>]*>?/g, "").trim();

export function CheckoutForm(props: CheckoutFormProps) {
  const { summary, totals, gateways, layout, toggleTexts, timings } = props;
  const formRef = useRef<HTMLFormElement>(null);
  const paymentRef = useRef<HTMLDivElement>(null);
  const revalidator = useRevalidator();
  const [method, setMethod] = useState(gateways.card.id);
  const defaultToken = (g: GatewaySettings) => String(props.tokens.find((t) => t.gatewayId === g.id && t.isDefault)?.id ?? "new");
  const [tokenChoice, setTokenChoice] = useState<Record<string, string>>({ [gateways.card.id]: defaultToken(gateways.card), [gateways.echeck.id]: defaultToken(gateways.echeck) });
  const [step, setStep] = useState<"details" | "payment">("details");
  const [hydrated, setHydrated] = useState(false);
  // The order summary: the toggle's state, the collapsing class (300 ms animation), and `hidden` once it is over.
  const [summaryOpen, setSummaryOpen] = useState(true);
  const [summaryCollapsed, setSummaryCollapsed] = useState(false);
  const [summaryHidden, setSummaryHidden] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  const summaryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [processing, setProcessing] = useState(false);
  // A new object for every failure, so the same message twice is revealed (scrolled to, focused) twice.
  const [notices, setNotices] = useState<{ html: string } | null>(null);
  const noticesRef = useRef<HTMLDivElement>(null);
  useRevealNotices(noticesRef, notices);
  // The payment form's own check: its messages, the fields they name (aria-invalid) and a count that remounts
  // the role="alert" list, so a repeated failure is announced again.
  const [paymentErrors, setPaymentErrors] = useState<{ messages: string[]; fields: ReadonlySet<string>; seq: number }>({ messages: [], fields: new Set(), seq: 0 });
  const clearPaymentErrors = () => setPaymentErrors((p) => (p.messages.length || p.fields.size ? { messages: [], fields: new Set(), seq: p.seq } : p));
  const [fieldErrors, setFieldErrors] = useState<Set<string>>(new Set());
  // Guests: e-mail detection, login section, create account.
  const [email, setEmail] = useState(props.savedBilling?.email || props.customer?.email || "");
  const [emailNote, setEmailNote] = useState<{ kind: "success" | "error"; text: string } | null>(null);
  const [loginOpen, setLoginOpen] = useState(false);
  // §4: create-account is hidden while the e-mail is empty; the e-mail check shows it for an unknown address.
  const [showCreateAccount, setShowCreateAccount] = useState(false);
  const [createAccount, setCreateAccount] = useState(false);
  const [loginError, setLoginError] = useState<string | null>(null);
  const [password, setPassword] = useState("");
  const [shipDifferent, setShipDifferent] = useState(false);
  const [couponNotices, setCouponNotices] = useState<string | null>(null);
  const [couponBusy, setCouponBusy] = useState(false);
  const checkSeq = useRef(0);
  const processingRef = useRef(false);
  const loginBusy = useRef(false);
  const methodRef = useRef(method);
  methodRef.current = method;

  useEffect(() => setHydrated(true), []);

  // A script of the payment page that fails to load is reported to the server (spec §7, payment form log), by
  // the form in use: the card form's action and nonce, or the e-check form's.
  useEffect(() => {
    const onError = (e: Event) => {
      const target = e.target as HTMLScriptElement | null;
      if (!target || target.tagName !== "SCRIPT") return;
      const name = target.src ? new URL(target.src, window.location.href).pathname : "inline";
      const echeck = methodRef.current === gateways.echeck.id;
      const action = echeck ? `${gateways.echeck.plugin_id}_echeck_payment_form_log_script_event` : `${gateways.card.plugin_id}_credit_card_payment_form_log_script_event`;
      const security = echeck ? props.echeckScriptLogNonce : props.scriptLogNonce;
      void post("/wp-admin/admin-ajax.php", new URLSearchParams({ action, security, name, message: `The script ${name} could not be loaded.` })).catch(() => undefined);
    };
    window.addEventListener("error", onError, true);
    return () => window.removeEventListener("error", onError, true);
  }, [gateways.card.plugin_id, gateways.echeck.plugin_id, gateways.echeck.id, props.scriptLogNonce, props.echeckScriptLogNonce]);

  // Collapsing: out of the tab order and the accessibility tree at once (inert), out of the layout (hidden) once
  // the 300 ms animation is over. Expanding: `hidden` goes first, then the class, so the opening animates too.
  const toggleSummary = () => {
    clearTimeout(summaryTimer.current);
    if (summaryOpen) {
      setSummaryOpen(false);
      setSummaryCollapsed(true);
      summaryTimer.current = setTimeout(() => setSummaryHidden(true), timings.collapseMs);
    } else {
      setSummaryOpen(true);
      setSummaryHidden(false);
    }
  };
  useEffect(() => {
    if (!summaryOpen || !summaryCollapsed || summaryHidden) return;
    void summaryRef.current?.offsetHeight; // lay out the collapsed state first: the transition starts from it
    setSummaryCollapsed(false);
  }, [summaryOpen, summaryCollapsed, summaryHidden]);
  useEffect(() => () => clearTimeout(summaryTimer.current), []);

  const refresh = useCallback(
    async (shippingMethod?: string) => {
      const form = formRef.current;
      if (!form) return;
      const data = new FormData(form);
      const body = new URLSearchParams({ security: props.reviewNonce, payment_method: String(data.get("payment_method") ?? ""), country: String(data.get("billing_country") ?? ""), state: String(data.get("billing_state") ?? ""), postcode: String(data.get("billing_postcode") ?? ""), city: String(data.get("billing_city") ?? ""), address: String(data.get("billing_address_1") ?? ""), address_2: String(data.get("billing_address_2") ?? ""), has_full_address: "true" });
      // update_shipping_method true: the chosen rate goes with the refresh.
      if (shippingMethod) body.set("shipping_method[0]", shippingMethod);
      const res = await post("/?wc-ajax=update_order_review", body).catch(() => null);
      const json = res ? ((await res.json().catch(() => null)) as { reload?: boolean; fragments?: Record<string, string> } | null) : null;
      if (json?.reload || (json?.fragments && "form.woocommerce-checkout" in json.fragments)) return void window.location.reload();
      revalidator.revalidate();
    },
    [props.reviewNonce, revalidator],
  );

  // Refresh requests arriving together (the form's own watched fields, 'update_checkout' raised by other scripts
  // such as the discounts add-on's OrderReviewRefresh) make one update_order_review call.
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
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
  }, [scheduleRefresh]);

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
  }, [scheduleRefresh]);

  // Coupons: the answer is HTML notices; then the checkout refreshes with update_shipping_method false.
  const changeCoupon = async (call: () => Promise<string>, event: string, code: string) => {
    if (couponBusy) return;
    setCouponBusy(true);
    try {
      setCouponNotices(await call().catch(() => `<ul class="woocommerce-error" role="alert"><li>${props.checkoutError}</li></ul>`));
      document.body.dispatchEvent(new CustomEvent(event, { detail: code }));
      await refresh();
    } finally {
      setCouponBusy(false);
    }
  };
  const applyCoupon = (code: string) => void changeCoupon(() => applyCheckoutCoupon(props.couponNonces.applyCouponNonce, code, email), "applied_coupon_in_checkout", code);
  const removeCoupon = (code: string) => void changeCoupon(() => removeCheckoutCoupon(props.couponNonces.removeCouponNonce, code), "removed_coupon_in_checkout", code);

  // The checkout refreshes once the payment form is ready.
  useEffect(() => {
    void refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onFieldChange = (e: React.ChangeEvent<HTMLFormElement>) => {
    const name = (e.target as unknown as HTMLInputElement).name;
    if (fieldErrors.has(name)) setFieldErrors((s) => new Set([...s].filter((n) => n !== name)));
  };

  // E-mail detection (guests), spec §4 table: 300 ms after typing stops; only the latest answer is applied.
  // The login label ('Returning customer? login') stays shown in every row, so nothing here hides it.
  const hideCreateAccount = () => {
    setShowCreateAccount(false);
    setCreateAccount(false);
  };
  useEffect(() => {
    if (props.loggedIn || !hydrated) return;
    const value = email.trim();
    document.cookie = `${EMAIL_COOKIE}=${encodeURIComponent(value)}; path=/; SameSite=Lax`;
    const seq = ++checkSeq.current; // an answer still on its way for an earlier value is dropped
    if (value === "") {
      // E-mail empty: close the login section, hide the validation note, hide create-account.
      setLoginOpen(false);
      setEmailNote(null);
      hideCreateAccount();
      return;
    }
    const timer = setTimeout(async () => {
      const res = await post("/wp-admin/admin-ajax.php", new URLSearchParams({ action: "astra_woo_check_user_exist", user_name_email: value, security: props.userCheckNonce })).catch(() => null);
      const body = res?.ok ? ((await res.json().catch(() => null)) as { data?: { success?: boolean; is_login_allowed?: boolean; error?: string } } | null) : null;
      if (seq !== checkSeq.current) return;
      // No answer, or a refusal (expired session, too many checks): the failure note, nothing else changes.
      if (!body?.data || body.data.error !== undefined) {
        setEmailNote({ kind: "error", text: props.account.userValidationErrorMsg });
        return;
      }
      if (body.data.success) {
        // E-mail exists: the success note; when login is allowed, open the login section (if closed) and hide
        // create-account. (Login section already open: only the note.)
        setEmailNote({ kind: "success", text: props.account.userValidationSuccessMsg });
        if (body.data.is_login_allowed) {
          setLoginOpen(true);
          hideCreateAccount();
        }
      } else {
        // Not found: close the login section if open; show create-account and its checkbox.
        setEmailNote(null);
        setLoginOpen(false);
        setShowCreateAccount(true);
      }
    }, timings.emailDebounceMs);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [email, hydrated]);

  const login = async () => {
    if (loginBusy.current) return;
    loginBusy.current = true;
    setLoginError(null);
    try {
      const res = await post("/wp-admin/admin-ajax.php", new URLSearchParams({ action: "astra_woocommerce_login_user", user_name_email: email, password, security: props.loginNonce })).catch(() => null);
      const body = res ? ((await res.json().catch(() => null)) as { data?: { success?: boolean; error?: string } } | null) : null;
      if (body?.data?.success) return void window.location.reload();
      setLoginError(plain(body?.data?.error) || props.checkoutError);
    } finally {
      loginBusy.current = false;
    }
  };
  // The login section sits inside the checkout form, so it cannot be a <form> of its own: Enter in its inputs
  // logs in (like the Login button) instead of submitting the checkout.
  const onLoginKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== "Enter" || e.nativeEvent.isComposing || !(e.target instanceof HTMLInputElement)) return;
    e.preventDefault();
    void login();
  };

  const onSubmit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    // While processing, a second submit does nothing (the server's idempotency claim is the real guard).
    if (processingRef.current) return;
    if (layout !== "one-page" && step === "details") return void setStep("payment");
    const data = new FormData(form);
    const chosen = String(data.get("payment_method") ?? "");
    const settings = chosen === gateways.card.id ? gateways.card : chosen === gateways.echeck.id ? gateways.echeck : null;
    if (settings) {
      const f = (k: Parameters<typeof paymentFieldId>[1]) => {
        const v = data.get(paymentFieldId(settings, k));
        return v === null ? undefined : toAsciiDigits(String(v));
      };
      const saved = (tokenChoice[settings.id] ?? "new") !== "new";
      const result = validatePaymentForm(
        { cardNumber: f("account-number"), expiry: f("expiry"), csc: f("csc"), routingNumber: f("routing-number"), accountNumber: f("account-number"), savedTokenSelected: saved },
        settings,
        { currentMonth: yearMonthOf(new Date(), "local") },
      );
      const veto = new CustomEvent(VALID_PAYMENT_EVENT, { cancelable: true, detail: { gateway: settings.id, valid: result.ok } });
      const allowed = form.dispatchEvent(veto);
      if (!result.ok || !allowed) {
        const errors = result.ok ? [] : result.errors;
        setPaymentErrors((p) => ({ messages: errors.map((x) => x.message), fields: new Set(errors.map((x) => paymentFieldId(settings, x.field))), seq: p.seq + 1 }));
        (document.activeElement as HTMLElement | null)?.blur?.();
        // The list sits at the top of the payment form: 100 px above it over 1 s, then focus on it after 500 ms.
        requestAnimationFrame(() => revealNotices(paymentRef.current));
        return;
      }
      if (!saved && settings.type === "credit-card") {
        const number = form.elements.namedItem(paymentFieldId(settings, "account-number")) as HTMLInputElement | null;
        if (number) number.value = number.value.replace(/[\s-]/g, "");
      }
    }
    clearPaymentErrors();
    setNotices(null);
    processingRef.current = true;
    setProcessing(true);
    try {
      const res = await post("/?wc-ajax=checkout", new URLSearchParams(data as unknown as Record<string, string>));
      const text = await res.text();
      const start = text.indexOf('{"result');
      const json = (start >= 0 ? JSON.parse(text.slice(start)) : null) as { result?: string; redirect?: string; messages?: string; refresh?: boolean; reload?: boolean } | null;
      if (json?.result === "success" && json.redirect) return void window.location.assign(json.redirect);
      if (json?.reload) return void window.location.reload();
      const messages = json?.messages || `<ul class="woocommerce-error" role="alert"><li>${props.checkoutError}</li></ul>`;
      // Notices are announced and focused through their role="alert"; markup without one is wrapped in one.
      setNotices({ html: /role="alert"/.test(messages) ? messages : `<div role="alert">${messages}</div>` });
      const ids = [...messages.matchAll(/data-id="([^"]+)"/g)].map((m) => m[1]!);
      setFieldErrors(new Set(ids));
      if (ids.some((id) => id.startsWith("billing_") || id.startsWith("shipping_") || id === "account_password")) setStep("details");
      if (json?.refresh) void refresh();
    } catch {
      setNotices({ html: `<ul class="woocommerce-error" role="alert"><li>${props.checkoutError}</li></ul>` });
    } finally {
      processingRef.current = false;
      setProcessing(false);
    }
  };

  const inputClass = (name: string) => `form-row${fieldErrors.has(name) ? " woocommerce-invalid" : ""}`;
  const text = (name: string, label: string, opts: { required?: boolean; type?: string; autoComplete?: string; defaultValue?: string; wide?: boolean } = {}) => (
    <p className={`${inputClass(name)} ${opts.wide === false ? "" : "form-row-wide"}`} id={`${name}_field`}>
      <label htmlFor={name}>
        {label} {opts.required === false ? <span className="optional">(optional)</span> : <abbr className="required" title="required">*</abbr>}
      </label>
      <input type={opts.type ?? "text"} className="input-text" name={name} id={name} autoComplete={opts.autoComplete} defaultValue={opts.defaultValue ?? (name.startsWith("billing_") ? props.savedBilling?.[name.slice(8)] : name.startsWith("shipping_") ? props.savedShipping?.[name.slice(9)] : undefined)} maxLength={200} aria-invalid={fieldErrors.has(name) || undefined} />
    </p>
  );
  const address = (prefix: "billing" | "shipping") => (
    <>
      {text(`${prefix}_first_name`, "First name", { autoComplete: "given-name", defaultValue: prefix === "billing" ? props.savedBilling?.first_name || props.customer?.first_name : props.savedShipping?.first_name })}
      {text(`${prefix}_last_name`, "Last name", { autoComplete: "family-name", defaultValue: prefix === "billing" ? props.savedBilling?.last_name || props.customer?.last_name : props.savedShipping?.last_name })}
      {text(`${prefix}_company`, "Company name", { required: false, autoComplete: "organization" })}
      <p className={`${inputClass(`${prefix}_country`)} form-row-wide`} id={`${prefix}_country_field`}>
        <label htmlFor={`${prefix}_country`}>
          Country / Region <abbr className="required" title="required">*</abbr>
        </label>
        <select name={`${prefix}_country`} id={`${prefix}_country`} defaultValue={(prefix === "billing" ? props.savedBilling?.country : props.savedShipping?.country) || "US"} autoComplete="country">
          <option value="US">United States (US)</option>
          <option value="CA">Canada</option>
          <option value="GB">United Kingdom (UK)</option>
          <option value="IE">Ireland</option>
          <option value="AU">Australia</option>
          <option value="NZ">New Zealand</option>
          <option value="DE">Germany</option>
          <option value="FR">France</option>
          <option value="NL">Netherlands</option>
        </select>
      </p>
      {text(`${prefix}_address_1`, "Street address", { autoComplete: "address-line1" })}
      {text(`${prefix}_address_2`, "Apartment, suite, unit, etc.", { required: false, autoComplete: "address-line2" })}
      {text(`${prefix}_city`, "Town / City", { autoComplete: "address-level2" })}
      {text(`${prefix}_state`, "State / County", { autoComplete: "address-level1" })}
      {text(`${prefix}_postcode`, "ZIP Code", { autoComplete: "postal-code" })}
    </>
  );

  const multi = layout !== "one-page" && hydrated;
  const showDetails = !multi || step === "details";
  const showPayment = !multi || step === "payment";
  const canSave = props.loggedIn || createAccount;

  return (
    <>
    <CheckoutCoupon notices={couponNotices} busy={couponBusy} onApply={applyCoupon} />
    <form ref={formRef} name="checkout" method="post" className={`checkout woocommerce-checkout layout-${layout}${processing ? " processing" : ""}`} action="/?wc-ajax=checkout" noValidate={hydrated} onSubmit={onSubmit} onChange={onFieldChange} aria-busy={processing} data-hydrated={hydrated ? "1" : undefined}>
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
        <div className="col2-set" id="customer_details" hidden={!showDetails}>
          <div className="woocommerce-billing-fields">
            <h2>Billing details</h2>
            {!props.loggedIn ? (
              <div className="ast-customer-info" id="customer_info">
                {layout !== "modern" ? (
                  <p className="woocommerce-form-login-toggle">
                    Returning customer?{" "}
                    <button type="button" className="showlogin link-button" aria-expanded={loginOpen} aria-controls="ast-customer-login-section" onClick={() => setLoginOpen((v) => !v)}>
                      login
                    </button>
                  </p>
                ) : null}
                <p className={`${inputClass("billing_email")} form-row-wide`} id="billing_email_field">
                  <label htmlFor="billing_email">
                    Email address <abbr className="required" title="required">*</abbr>
                  </label>
                  <input type="email" className="input-text" name="billing_email" id="billing_email" autoComplete="email" maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} aria-describedby="ast-email-note" />
                </p>
                {/* The live region stays in the page (a region added with its text is often not announced); the note inside comes and goes. */}
                <div id="ast-email-note" className={`ast-email-validation-note ${emailNote?.kind ?? ""}`} role="status" aria-live="polite">
                  {emailNote ? <span className="ast-email-validation-note__text">{emailNote.text}</span> : null}
                </div>
                <div id="ast-customer-login-section" className="ast-customer-login-section" hidden={!loginOpen} onKeyDown={onLoginKeyDown}>
                  <p className="form-row form-row-wide">
                    <label htmlFor="billing_password">Password</label>
                    <PasswordInput name="billing_password" id="billing_password" autoComplete="current-password" required={false} value={password} onChange={setPassword} />
                  </p>
                  <div className="ast-login-notice" role="alert">
                    {loginError ? <ul className="woocommerce-error"><li>{loginError}</li></ul> : null}
                  </div>
                  <button type="button" className="button ast-customer-login-section__login-button" onClick={() => void login()}>
                    Login
                  </button>
                </div>
                {showCreateAccount ? (
                  <div className="woocommerce-account-fields">
                    <p className="form-row form-row-wide create-account">
                      <label className="woocommerce-form__label-for-checkbox">
                        <input type="checkbox" className="input-checkbox" id="createaccount" name="createaccount" value="1" checked={createAccount} onChange={(e) => setCreateAccount(e.target.checked)} /> <span>Create an account?</span>
                      </label>
                    </p>
                    {createAccount ? (
                      <p className={`${inputClass("account_password")} form-row-wide`} id="account_password_field">
                        <label htmlFor="account_password">
                          Create account password <abbr className="required" title="required">*</abbr>
                        </label>
                        <PasswordInput name="account_password" id="account_password" autoComplete="new-password" minLength={8} required={false} />
                      </p>
                    ) : null}
                  </div>
                ) : null}
              </div>
            ) : (
              <input type="hidden" name="billing_email" value={email} />
            )}
            {address("billing")}
            {text("billing_phone", "Phone", { type: "tel", autoComplete: "tel" })}
          </div>
          <div className="woocommerce-shipping-fields">
            <h3 id="ship-to-different-address">
              <label className="woocommerce-form__label-for-checkbox">
                <input id="ship-to-different-address-checkbox" type="checkbox" name="ship_to_different_address" value="1" checked={shipDifferent} onChange={(e) => setShipDifferent(e.target.checked)} /> <span>Ship to a different address?</span>
              </label>
            </h3>
            {shipDifferent ? <div className="shipping_address">{address("shipping")}</div> : null}
          </div>
          <p className="form-row notes" id="order_comments_field">
            <label htmlFor="order_comments">
              Order notes <span className="optional">(optional)</span>
            </label>
            <textarea name="order_comments" className="input-text" id="order_comments" rows={3} maxLength={2000} placeholder="Notes about your order, e.g. special notes for delivery." />
          </p>
          {multi ? (
            <button type="button" className="button alt checkout-step-next" onClick={() => setStep("payment")}>
              Proceed to payment
            </button>
          ) : null}
        </div>
        <div className="checkout-review">
          <h3 id="order_review_heading">
            <button type="button" className="order-summary-toggle link-button" aria-expanded={summaryOpen} aria-controls="order_review" onClick={toggleSummary}>
              {summaryOpen ? toggleTexts.toggle_hide_text : toggleTexts.toggle_show_text}
            </button>
          </h3>
          <div id="order_review" ref={summaryRef} className={`woocommerce-checkout-review-order order-summary${summaryCollapsed ? " is-collapsed" : ""}`} style={{ transitionDuration: `${timings.collapseMs}ms` }} inert={!summaryOpen} hidden={summaryHidden}>
            <ReviewOrder summary={summary} totals={totals} onShippingChange={(id) => void refresh(id)} onRemoveCoupon={removeCoupon} />
          </div>
          <div id="payment" ref={paymentRef} className="woocommerce-checkout-payment" hidden={!showPayment}>
            {paymentErrors.messages.length ? (
              <ul className="woocommerce-error payment-form-errors" role="alert" key={paymentErrors.seq}>
                {paymentErrors.messages.map((m, i) => (
                  <li key={i}>{m}</li>
                ))}
              </ul>
            ) : null}
            <PaymentForm
              gateways={gateways}
              testMode={props.testMode}
              tokens={props.tokens}
              canSave={canSave}
              method={method}
              invalidFields={paymentErrors.fields}
              onMethodChange={(id) => {
                setMethod(id);
                clearPaymentErrors();
                scheduleRefresh();
              }}
              tokenChoice={tokenChoice}
              onTokenChoice={(g, v) => setTokenChoice((c) => ({ ...c, [g]: v }))}
              slideMs={timings.slideMs}
            />
            <div className="form-row place-order">
              <input type="hidden" name="woocommerce-process-checkout-nonce" value={props.nonce} />
              <input type="hidden" name="_wp_http_referer" value="/checkout/" />
              <input type="hidden" name="_checkout_token" value={props.checkoutToken} />
              {/* wire-contracts §4.4: the attribution script fills this element with its 16 hidden inputs. */}
              {/* @ts-expect-error: custom element */}
              <wc-order-attribution-inputs />
              {multi ? (
                <button type="button" className="button checkout-step-back" onClick={() => setStep("details")}>
                  Back to my details
                </button>
              ) : null}
              <button type="submit" className="button alt" name="woocommerce_checkout_place_order" id="place_order" value={props.placeOrderText} disabled={processing} aria-disabled={processing}>
                {props.placeOrderText}
              </button>
            </div>
          </div>
        </div>
      </div>
    </form>
    </>
  );
}
