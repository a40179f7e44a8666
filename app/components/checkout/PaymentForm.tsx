/**
 * The payment form (docs/contract/storefront.md §2 'Payment form', §4 'Payment form', §5, §8): card or e-check fields, saved-token
 * choice, 'tokenize payment method', live formatting and checks. The same validation functions run here on
 * submit and on the server (core/domain/payments). Field names are the gateway framework's:
 * `wc-{id_dasherized}-account-number`, `-expiry`, `-csc`, `-routing-number`, `-payment-token`,
 * `-tokenize-payment-method`.
 */
import { useState } from "react";
import {
  type GatewaySettings,
  cleanCardNumber,
  detectCardType,
  enabledCardTypeError,
  formatCardNumber,
  formatCsc,
  formatExpiry,
  isValidExpiry,
  liveCardChecks,
  paymentFieldId,
  toAsciiDigits,
  validateAccountNumber,
  validateCardNumber,
  validateCsc,
  validateRoutingNumber,
  yearMonthOf,
} from "../../../core/domain/payments/index.ts";

export interface SavedTokenView {
  id: number;
  gatewayId: string;
  label: string;
  isDefault: boolean;
}

export interface PaymentFormProps {
  gateways: { card: GatewaySettings; echeck: GatewaySettings };
  testMode: boolean;
  tokens: SavedTokenView[];
  /** Signed in, or 'create account' ticked: the 'save payment method' box is offered. */
  canSave: boolean;
  method: string;
  onMethodChange: (id: string) => void;
  /** Which saved token is chosen per gateway ("new" or a token id). */
  tokenChoice: Record<string, string>;
  onTokenChoice: (gatewayId: string, value: string) => void;
  slideMs: number;
  /**
   * Field ids (`paymentFieldId`) the last submit found invalid: each carries aria-invalid="true" until its value
   * passes its own rule. The live card-type check marks the number field the same way.
   */
  invalidFields?: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

export function PaymentForm(props: PaymentFormProps) {
  const { gateways, testMode, method, onMethodChange } = props;
  return (
    <ul className="wc_payment_methods payment_methods methods">
      {[gateways.card, gateways.echeck].map((g) => (
        <li key={g.id} className={`wc_payment_method payment_method_${g.id}`}>
          <input
            id={`payment_method_${g.id}`}
            type="radio"
            className="input-radio"
            name="payment_method"
            value={g.id}
            checked={method === g.id}
            onChange={() => onMethodChange(g.id)}
          />
          <label htmlFor={`payment_method_${g.id}`}>{g.type === "echeck" ? "eCheck" : "Credit Card"}</label>
          <div className={`payment_box payment_method_${g.id}`} hidden={method !== g.id}>
            {testMode ? (
              <p className="sandbox-test-mode" role="note">
                <strong>Test mode:</strong> no real money moves. Use one of the{" "}
                <a href="/payments/test-numbers/" target="_blank" rel="noopener">
                  documented test numbers
                </a>
                .
              </p>
            ) : null}
            <GatewayFields settings={g} {...props} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function GatewayFields({
  settings,
  tokens,
  canSave,
  tokenChoice,
  onTokenChoice,
  slideMs,
  invalidFields = NONE,
}: PaymentFormProps & { settings: GatewaySettings }) {
  const mine = tokens.filter((t) => t.gatewayId === settings.id);
  const choice = tokenChoice[settings.id] ?? "new";
  const usingToken = choice !== "new" && mine.length > 0;
  const prefix = `wc-${settings.id_dasherized}`;
  const cscBesideToken = settings.type === "credit-card" && settings.csc_required && settings.csc_required_for_tokens && usingToken;
  return (
    <fieldset id={`${prefix}-${settings.type === "echeck" ? "echeck" : "cc"}-form`} className={`wc-${settings.type}-form wc-payment-form`}>
      {mine.length ? (
        <div className="wc-saved-payment-methods" role="radiogroup" aria-label="Saved payment methods">
          {mine.map((t) => (
            <p className="form-row" key={t.id}>
              <input
                type="radio"
                id={`${prefix}-payment-token-${t.id}`}
                name={`${prefix}-payment-token`}
                value={String(t.id)}
                checked={choice === String(t.id)}
                onChange={() => onTokenChoice(settings.id, String(t.id))}
                className="js-sv-wc-payment-token"
              />
              <label htmlFor={`${prefix}-payment-token-${t.id}`}>{t.label}</label>
            </p>
          ))}
          <p className="form-row">
            <input
              type="radio"
              id={`${prefix}-use-new-payment-method`}
              name={`${prefix}-payment-token`}
              value="new"
              checked={choice === "new"}
              onChange={() => onTokenChoice(settings.id, "new")}
              className="js-sv-wc-payment-token"
            />
            <label htmlFor={`${prefix}-use-new-payment-method`}>Use a new {settings.type === "echeck" ? "bank account" : "card"}</label>
          </p>
          {cscBesideToken ? <CscField settings={settings} marked={invalidFields} /> : null}
        </div>
      ) : null}
      <div
        className={`wc-new-payment-method-form${usingToken ? " is-collapsed" : ""}`}
        style={{ transitionDuration: `${slideMs}ms` }}
        inert={usingToken}
        aria-hidden={usingToken}
      >
        {settings.type === "credit-card" ? (
          <CardFields settings={settings} cscHere={!cscBesideToken} marked={invalidFields} usingToken={usingToken} />
        ) : (
          <EcheckFields settings={settings} marked={invalidFields} />
        )}
        {canSave ? (
          <p className="form-row wc-tokenize-payment-method">
            <input type="checkbox" id={`${prefix}-tokenize-payment-method`} name={`${prefix}-tokenize-payment-method`} value="true" />
            <label htmlFor={`${prefix}-tokenize-payment-method`}>Securely save to account</label>
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}

/** aria-invalid for a field: true while marked by the last submit and its value still fails its rule. */
const invalidIf = (marked: ReadonlySet<string>, id: string, fails: () => boolean): true | undefined => (marked.has(id) && fails() ? true : undefined);

function CscField({ settings, marked }: { settings: GatewaySettings; marked: ReadonlySet<string> }) {
  const [csc, setCsc] = useState("");
  const id = paymentFieldId(settings, "csc");
  const ok = /^\d{3,4}$/.test(csc);
  const invalid = invalidIf(marked, id, () => validateCsc(csc, settings, true).length > 0);
  return (
    <p className="form-row form-row-last">
      <label htmlFor={id}>Card Security Code {settings.csc_required ? <span className="required">*</span> : null}</label>
      <input
        id={id}
        name={id}
        className={`input-text js-sv-wc-payment-gateway-credit-card-form-input js-sv-wc-payment-gateway-credit-card-form-csc${ok ? " identified" : ""}`}
        inputMode="numeric"
        autoComplete="cc-csc"
        placeholder="CSC"
        maxLength={4}
        value={csc}
        onChange={(e) => setCsc(formatCsc(e.target.value))}
        aria-invalid={invalid}
      />
    </p>
  );
}

function CardFields({
  settings,
  cscHere,
  marked,
  usingToken,
}: {
  settings: GatewaySettings;
  cscHere: boolean;
  marked: ReadonlySet<string>;
  usingToken: boolean;
}) {
  const [number, setNumber] = useState("");
  const [expiry, setExpiry] = useState("");
  const [csc, setCsc] = useState("");
  const month = yearMonthOf(new Date(), "local");
  const live = liveCardChecks({ cardNumber: number, expiry, csc }, settings, month);
  const id = (f: Parameters<typeof paymentFieldId>[1]) => paymentFieldId(settings, f);
  const numberInvalid =
    live.invalidCardType ||
    invalidIf(marked, id("account-number"), () => {
      const clean = cleanCardNumber(number);
      return validateCardNumber(clean).length > 0 || enabledCardTypeError(detectCardType(clean)?.name ?? null, settings.enabled_card_types) !== null;
    });
  const expiryInvalid = invalidIf(marked, id("expiry"), () => !isValidExpiry(expiry, month));
  const cscInvalid = invalidIf(marked, id("csc"), () => validateCsc(csc, settings, usingToken).length > 0);
  const numberClass = [
    "input-text",
    "js-sv-wc-payment-gateway-credit-card-form-input",
    "js-sv-wc-payment-gateway-credit-card-form-account-number",
    live.typeIdentified ? `identified card-type-${live.cardType}` : "",
    live.invalidCardType ? "invalid-card-type" : "",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <>
      <p className="form-row form-row-wide">
        <label htmlFor={id("account-number")}>
          Card Number <span className="required">*</span>
        </label>
        <input
          id={id("account-number")}
          name={id("account-number")}
          className={numberClass}
          inputMode="numeric"
          autoComplete="cc-number"
          autoCorrect="off"
          spellCheck={false}
          placeholder="•••• •••• •••• ••••"
          value={number}
          onChange={(e) => setNumber(formatCardNumber(toAsciiDigits(e.target.value)))}
          aria-invalid={numberInvalid || undefined}
        />
      </p>
      <p className="form-row form-row-first">
        <label htmlFor={id("expiry")}>
          Expiration (MM/YY) <span className="required">*</span>
        </label>
        <input
          id={id("expiry")}
          name={id("expiry")}
          className={`input-text js-sv-wc-payment-gateway-credit-card-form-input js-sv-wc-payment-gateway-credit-card-form-expiry${live.expiryIdentified ? " identified" : ""}`}
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM / YY"
          value={expiry}
          onChange={(e) => setExpiry(e.target.value.length < expiry.length ? e.target.value : formatExpiry(toAsciiDigits(e.target.value)))}
          aria-invalid={expiryInvalid}
        />
      </p>
      {cscHere ? (
        <p className="form-row form-row-last">
          <label htmlFor={id("csc")}>Card Security Code {settings.csc_required ? <span className="required">*</span> : null}</label>
          <input
            id={id("csc")}
            name={id("csc")}
            className={`input-text js-sv-wc-payment-gateway-credit-card-form-input js-sv-wc-payment-gateway-credit-card-form-csc${live.cscIdentified ? " identified" : ""}`}
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="CSC"
            maxLength={4}
            value={csc}
            onChange={(e) => setCsc(formatCsc(toAsciiDigits(e.target.value)))}
            aria-invalid={cscInvalid}
          />
        </p>
      ) : null}
    </>
  );
}

function EcheckFields({ settings, marked }: { settings: GatewaySettings; marked: ReadonlySet<string> }) {
  const [hintOpen, setHintOpen] = useState(false);
  const [routing, setRouting] = useState("");
  const [account, setAccount] = useState("");
  const id = (f: Parameters<typeof paymentFieldId>[1]) => paymentFieldId(settings, f);
  const routingInvalid = invalidIf(marked, id("routing-number"), () => validateRoutingNumber(toAsciiDigits(routing)).length > 0);
  const accountInvalid = invalidIf(marked, id("account-number"), () => validateAccountNumber(toAsciiDigits(account)).length > 0);
  return (
    <>
      <p className="form-row form-row-wide">
        <button
          type="button"
          className="js-sv-wc-payment-gateway-echeck-form-check-hint link-button"
          aria-expanded={hintOpen}
          aria-controls={`${id("routing-number")}-sample-check`}
          onClick={() => setHintOpen((v) => !v)}
        >
          Where do I find these numbers? (sample check)
        </button>
      </p>
      <div id={`${id("routing-number")}-sample-check`} className="js-sv-wc-payment-gateway-echeck-form-sample-check" hidden={!hintOpen}>
        <p>
          On a check, the <strong>routing number</strong> is the 9-digit number at the bottom left; the <strong>account number</strong> follows it.
        </p>
        <svg viewBox="0 0 320 80" width="320" height="80" role="img" aria-label="Sample check: routing number, then account number, along the bottom">
          <rect x="1" y="1" width="318" height="78" fill="#fff" stroke="#999" />
          <text x="12" y="68" fontFamily="monospace" fontSize="12">
            ⑆110000000⑆ 000123456789⑈ 1001
          </text>
        </svg>
      </div>
      <p className="form-row form-row-first">
        <label htmlFor={id("routing-number")}>
          Routing Number <span className="required">*</span>
        </label>
        <input
          id={id("routing-number")}
          name={id("routing-number")}
          className="input-text js-sv-wc-payment-gateway-echeck-form-input"
          inputMode="numeric"
          autoComplete="off"
          maxLength={9}
          value={routing}
          onChange={(e) => setRouting(e.target.value)}
          aria-invalid={routingInvalid}
        />
      </p>
      <p className="form-row form-row-last">
        <label htmlFor={id("account-number")}>
          Account Number <span className="required">*</span>
        </label>
        <input
          id={id("account-number")}
          name={id("account-number")}
          className="input-text js-sv-wc-payment-gateway-echeck-form-input"
          inputMode="numeric"
          autoComplete="off"
          maxLength={17}
          value={account}
          onChange={(e) => setAccount(e.target.value)}
          aria-invalid={accountInvalid}
        />
      </p>
    </>
  );
}
