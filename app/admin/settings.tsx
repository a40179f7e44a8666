/**
 * Settings (docs/contract/admin.md 'Settings'): the shop's options the storefront reads, one tab per address
 * (/wp-admin/settings/{tab}/), each over `shop/v1/settings/{section}` (docs/contract/rest/shop-v1.md 'Settings').
 * The tabs a role may open come from the loader (consent: administrators only). General is the store's address and
 * where it sells and ships; Shipping is the shipping zones (ShippingZones.tsx); Tax is the tax options and rates
 * (TaxSettings.tsx).
 */
import { useCallback, useRef, useState } from "react";
import { CheckboxControl, RadioControl, TextControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "./settings.css";
import { SETTINGS_TAB_LABELS, type AdminScreen, type SettingsTab } from "./screens.ts";
import { SectionForm } from "./settings-section.tsx";
import AttributionSettings from "./AttributionSettings.tsx";
import PaymentSettings from "./PaymentSettings.tsx";
import EmailSettings from "./EmailSettings.tsx";
import GeneralSettings from "./GeneralSettings.tsx";
import ShippingZones from "./ShippingZones.tsx";
import TaxSettings from "./TaxSettings.tsx";
import { useUnsavedWarning } from "./use-unsaved-warning.ts";
import { TRACKING_COOKIE_GROUPS } from "../../core/domain/tracking/consent.ts";

interface Consent extends Record<string, unknown> {
  required: boolean;
  disabledCookies: string[];
}

const COOKIE_GROUP_LABELS: Record<keyof typeof TRACKING_COOKIE_GROUPS, string> = {
  externalID: "External id (pbid)",
  advanced_form_data: "Advanced form data",
  landing_page: "Landing page",
  first_visit: "First visit",
  trafficsource: "Traffic source",
  utmTerms: "UTM terms",
  utmId: "UTM id",
};

function ConsentSettings({ onDirty }: { onDirty: (dirty: boolean) => void }) {
  return (
    <SectionForm<Consent> section="consent" legend="Consent" onDirty={onDirty}>
      {(s) => {
        const all = s.form.disabledCookies.includes("all");
        const toggle = (name: string, off: boolean) =>
          s.set("disabledCookies", off ? [...s.form.disabledCookies.filter((d) => d !== name), name] : s.form.disabledCookies.filter((d) => d !== name));
        return (
          <>
            <CheckboxControl
              label="Ask before tracking (opt-in)"
              help="On: analytics and marketing, the shop's own order attribution included, wait for the visitor's choice. Off: visitors are tracked until they refuse."
              checked={s.form.required}
              onChange={(v) => s.set("required", v)}
            />
            <fieldset className="admin-fieldset" aria-describedby="consent-cookies-hint">
              <legend>Tracking cookies turned off</legend>
              <p id="consent-cookies-hint" className="admin-hint">
                A group turned off is never written, whatever the visitor chooses.
              </p>
              {s.err("disabledCookies").help ? <p role="alert">{s.err("disabledCookies").help}</p> : null}
              <CheckboxControl label="All tracking cookies" checked={all} onChange={(v) => toggle("all", v)} />
              {Object.entries(TRACKING_COOKIE_GROUPS).map(([name, group]) => (
                <CheckboxControl
                  key={name}
                  label={`${COOKIE_GROUP_LABELS[name as keyof typeof TRACKING_COOKIE_GROUPS]} (${group.category})`}
                  checked={all || s.form.disabledCookies.includes(name)}
                  disabled={all}
                  onChange={(v) => toggle(name, v)}
                />
              ))}
            </fieldset>
          </>
        );
      }}
    </SectionForm>
  );
}

interface Checkout extends Record<string, unknown> {
  layout: "multi-step" | "modern" | "one-page";
  placeOrderText: string;
  checkoutError: string;
  orderReviewToggleTexts: { toggle_show_text: string; toggle_hide_text: string };
}
interface Accounts extends Record<string, unknown> {
  guestCheckout: boolean;
  isRegistrationRequired: boolean;
  isCompletePackage: boolean;
  userValidationSuccessMsg: string;
  userValidationErrorMsg: string;
}

const LAYOUTS = [
  { value: "multi-step", label: "Multi-step: the details, then the payment, on one page" },
  { value: "modern", label: "Modern: two steps (details, then payment), no login toggle" },
  { value: "one-page", label: "One page: everything in one form" },
];

function CheckoutSettings({ onDirty }: { onDirty: (dirty: boolean) => void }) {
  const parts = useRef({ checkout: false, accounts: false });
  const onCheckout = useCallback(
    (d: boolean) => {
      parts.current.checkout = d;
      onDirty(parts.current.checkout || parts.current.accounts);
    },
    [onDirty],
  );
  const onAccounts = useCallback(
    (d: boolean) => {
      parts.current.accounts = d;
      onDirty(parts.current.checkout || parts.current.accounts);
    },
    [onDirty],
  );
  return (
    <>
      <SectionForm<Checkout> section="checkout" legend="Checkout page" onDirty={onCheckout}>
        {(s) => (
          <>
            <RadioControl
              label="Checkout layout"
              selected={s.form.layout}
              options={LAYOUTS}
              onChange={(v) => s.set("layout", v as Checkout["layout"])}
              {...s.err("layout")}
            />
            <TextControl
              __next40pxDefaultSize
              label="Place order button text"
              value={s.form.placeOrderText}
              onChange={(v) => s.set("placeOrderText", v)}
              {...s.err("placeOrderText")}
            />
            <TextControl
              __next40pxDefaultSize
              label="Checkout error message"
              value={s.form.checkoutError}
              onChange={(v) => s.set("checkoutError", v)}
              {...s.err("checkoutError")}
            />
            <div className="admin-row">
              <TextControl
                __next40pxDefaultSize
                label="Order summary toggle: show"
                value={s.form.orderReviewToggleTexts.toggle_show_text}
                onChange={(v) => s.set("orderReviewToggleTexts", { ...s.form.orderReviewToggleTexts, toggle_show_text: v })}
                {...s.err("orderReviewToggleTexts.toggle_show_text")}
              />
              <TextControl
                __next40pxDefaultSize
                label="Order summary toggle: hide"
                value={s.form.orderReviewToggleTexts.toggle_hide_text}
                onChange={(v) => s.set("orderReviewToggleTexts", { ...s.form.orderReviewToggleTexts, toggle_hide_text: v })}
                {...s.err("orderReviewToggleTexts.toggle_hide_text")}
              />
            </div>
          </>
        )}
      </SectionForm>
      <SectionForm<Accounts> section="accounts" legend="Accounts at checkout" onDirty={onAccounts}>
        {(s) => (
          <>
            <CheckboxControl
              label="Allow customers to place orders without an account (guest checkout)"
              checked={s.form.guestCheckout}
              onChange={(v) => s.set("guestCheckout", v)}
              {...s.err("guestCheckout")}
            />
            <CheckboxControl
              label="Require an account to check out"
              help="The checkout then asks every guest to create an account with their order."
              checked={s.form.isRegistrationRequired}
              onChange={(v) => s.set("isRegistrationRequired", v)}
              {...s.err("isRegistrationRequired")}
            />
            <TextControl
              __next40pxDefaultSize
              label="Message for an e-mail address that has an account"
              value={s.form.userValidationSuccessMsg}
              onChange={(v) => s.set("userValidationSuccessMsg", v)}
              {...s.err("userValidationSuccessMsg")}
            />
            <TextControl
              __next40pxDefaultSize
              label="Message for an e-mail address that is not valid"
              value={s.form.userValidationErrorMsg}
              onChange={(v) => s.set("userValidationErrorMsg", v)}
              {...s.err("userValidationErrorMsg")}
            />
          </>
        )}
      </SectionForm>
    </>
  );
}

function SettingsScreen({ tab, tabs }: { tab: SettingsTab; tabs: SettingsTab[] }) {
  const [dirty, setDirty] = useState(false);
  useUnsavedWarning(dirty);
  return (
    <div className="admin-settings">
      <nav className="admin-settings-tabs" aria-label="Settings sections">
        <ul>
          {tabs.map((t) => (
            <li key={t}>
              <a href={`/wp-admin/settings/${t}/`} aria-current={t === tab ? "page" : undefined}>
                {SETTINGS_TAB_LABELS[t]}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {tab === "attribution" ? (
        <AttributionSettings onDirty={setDirty} />
      ) : tab === "consent" ? (
        <ConsentSettings onDirty={setDirty} />
      ) : tab === "payments" ? (
        <PaymentSettings onDirty={setDirty} />
      ) : tab === "emails" ? (
        <EmailSettings onDirty={setDirty} />
      ) : tab === "general" ? (
        <GeneralSettings onDirty={setDirty} />
      ) : tab === "shipping" ? (
        <ShippingZones onDirty={setDirty} />
      ) : tab === "tax" ? (
        <TaxSettings onDirty={setDirty} />
      ) : (
        <CheckoutSettings onDirty={setDirty} />
      )}
    </div>
  );
}

export function settingsScreen(screen: AdminScreen) {
  if (screen.name === "settings") return <SettingsScreen tab={screen.tab} tabs={screen.tabs} />;
  return null;
}
