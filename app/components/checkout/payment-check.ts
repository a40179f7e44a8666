import { type GatewaySettings, paymentFieldId, toAsciiDigits, validatePaymentForm, yearMonthOf } from "../../../core/domain/payments/index.ts";

const VALID_PAYMENT_EVENT = "sv_wc_payment_form_valid_payment_data";

export type PaymentCheck = { ok: true } | { ok: false; messages: string[]; fields: Set<string> };

/**
 * The payment form's own check before the checkout is posted, with the same validation the server runs.
 * Other scripts may veto through the cancelable 'sv_wc_payment_form_valid_payment_data' event on the
 * form (a veto fails with no messages). A new card number is sent without its spaces and dashes.
 */
export function checkPaymentBeforeSubmit(
  form: HTMLFormElement,
  data: FormData,
  gateways: { card: GatewaySettings; echeck: GatewaySettings },
  tokenChoice: Readonly<Record<string, string>>,
): PaymentCheck {
  const chosen = String(data.get("payment_method") ?? "");
  const settings = chosen === gateways.card.id ? gateways.card : chosen === gateways.echeck.id ? gateways.echeck : null;
  if (!settings) return { ok: true };
  const f = (k: Parameters<typeof paymentFieldId>[1]) => {
    const v = data.get(paymentFieldId(settings, k));
    return v === null ? undefined : toAsciiDigits(String(v));
  };
  const saved = (tokenChoice[settings.id] ?? "new") !== "new";
  const result = validatePaymentForm(
    {
      cardNumber: f("account-number"),
      expiry: f("expiry"),
      csc: f("csc"),
      routingNumber: f("routing-number"),
      accountNumber: f("account-number"),
      savedTokenSelected: saved,
    },
    settings,
    { currentMonth: yearMonthOf(new Date(), "local") },
  );
  const veto = new CustomEvent(VALID_PAYMENT_EVENT, { cancelable: true, detail: { gateway: settings.id, valid: result.ok } });
  const allowed = form.dispatchEvent(veto);
  if (!result.ok || !allowed) {
    const errors = result.ok ? [] : result.errors;
    return { ok: false, messages: errors.map((x) => x.message), fields: new Set(errors.map((x) => paymentFieldId(settings, x.field))) };
  }
  if (!saved && settings.type === "credit-card") {
    const number = form.elements.namedItem(paymentFieldId(settings, "account-number")) as HTMLInputElement | null;
    if (number) number.value = number.value.replace(/[\s-]/g, "");
  }
  return { ok: true };
}
