/**
 * Settings › General (docs/contract/admin.md 'Settings'): the store's address, its currency (shown, fixed) and where it
 * sells and ships, over `shop/v1/settings/general` (a stale save refused, refusals at their field).
 */
import type { ReactNode } from "react";
import { CheckboxControl, RadioControl, SelectControl, TextControl } from "@wordpress/components";
import { SectionForm, type SettingsSection } from "./settings-section.tsx";
import { COUNTRIES } from "../../core/domain/checkout/countries.ts";
import { subdivisionsOf } from "../../core/domain/checkout/address.ts";

type Scope = "all" | "specific" | "all_except";

interface General extends Record<string, unknown> {
  address: string;
  address2: string;
  city: string;
  postcode: string;
  country: string;
  state: string;
  sellTo: Scope;
  sellToCountries: string[];
  shipTo: Scope | "same_as_selling";
  shipToCountries: string[];
  currency?: { code: string; symbol: string };
}

/** The body a save sends: the currency is shown, never sent (the server refuses it as no field). */
const withoutCurrency = ({ currency: _c, ...rest }: General): General => rest as General;

const SELL_OPTIONS = [
  { value: "all", label: "Sell to all countries" },
  { value: "specific", label: "Sell to specific countries" },
  { value: "all_except", label: "Sell to all countries, except for…" },
];
const SHIP_OPTIONS = [
  { value: "same_as_selling", label: "Ship to all countries you sell to" },
  { value: "all", label: "Ship to all countries" },
  { value: "specific", label: "Ship to specific countries only" },
  { value: "all_except", label: "Ship to all countries, except for…" },
];

function CountryChecklist({
  legend,
  selected,
  onChange,
  error,
}: {
  legend: string;
  selected: string[];
  onChange: (codes: string[]) => void;
  error?: ReactNode;
}) {
  return (
    <fieldset className="admin-fieldset admin-country-list">
      <legend>{legend}</legend>
      {error ? <p role="alert">{error}</p> : null}
      {Object.entries(COUNTRIES).map(([code, c], i) => (
        <CheckboxControl
          key={code}
          label={c.name}
          // The first box takes the focus when the list is refused (useFocusFirstInvalid).
          {...(error && i === 0 ? { "aria-invalid": true } : {})}
          checked={selected.includes(code)}
          onChange={(on) => onChange(on ? [...selected.filter((s) => s !== code), code] : selected.filter((s) => s !== code))}
        />
      ))}
    </fieldset>
  );
}

function AddressFields({ s }: { s: SettingsSection<General> }) {
  const states = subdivisionsOf(s.form.country);
  return (
    <fieldset className="admin-fieldset">
      <legend>Store address</legend>
      <p className="admin-hint">Where the business is. Its country is where a shopper who has not given an address yet is priced from (shipping zone).</p>
      <TextControl __next40pxDefaultSize label="Address line 1" value={s.form.address} onChange={(v) => s.set("address", v)} {...s.err("address")} />
      <TextControl __next40pxDefaultSize label="Address line 2" value={s.form.address2} onChange={(v) => s.set("address2", v)} {...s.err("address2")} />
      <div className="admin-row">
        <TextControl __next40pxDefaultSize label="City" value={s.form.city} onChange={(v) => s.set("city", v)} {...s.err("city")} />
        <TextControl __next40pxDefaultSize label="Postcode / ZIP" value={s.form.postcode} onChange={(v) => s.set("postcode", v)} {...s.err("postcode")} />
      </div>
      <div className="admin-row">
        <SelectControl
          __next40pxDefaultSize
          label="Country / Region"
          value={s.form.country}
          options={Object.entries(COUNTRIES).map(([value, c]) => ({ value, label: c.name }))}
          onChange={(v) => {
            s.set("country", v);
            s.set("state", "");
          }}
          {...s.err("country")}
        />
        {states ? (
          <SelectControl
            __next40pxDefaultSize
            label="State / County"
            value={s.form.state}
            options={[{ value: "", label: "—" }, ...states.map((d) => ({ value: d.code, label: d.name }))]}
            onChange={(v) => s.set("state", v)}
            {...s.err("state")}
          />
        ) : (
          <TextControl __next40pxDefaultSize label="State / County" value={s.form.state} onChange={(v) => s.set("state", v)} {...s.err("state")} />
        )}
      </div>
    </fieldset>
  );
}

export default function GeneralSettings({ onDirty }: { onDirty: (dirty: boolean) => void }) {
  return (
    <SectionForm<General> section="general" legend="General" onDirty={onDirty} prepare={withoutCurrency}>
      {(s) => (
        <>
          <AddressFields s={s} />
          <div className="admin-fieldset">
            <p className="admin-readonly" id="general-currency">
              <strong>Currency:</strong> {s.form.currency ? `${s.form.currency.code} (${s.form.currency.symbol})` : "—"}
            </p>
            <p className="admin-hint">The shop&apos;s currency is fixed: every price, cart and order is kept in it, so it cannot be changed here.</p>
          </div>
          <RadioControl
            label="Selling location(s)"
            selected={s.form.sellTo}
            options={SELL_OPTIONS}
            onChange={(v) => s.set("sellTo", v as Scope)}
            {...s.err("sellTo")}
          />
          {s.form.sellTo !== "all" ? (
            <CountryChecklist
              legend={s.form.sellTo === "specific" ? "Sell to these countries" : "Sell to all countries except"}
              selected={s.form.sellToCountries}
              onChange={(v) => s.set("sellToCountries", v)}
              error={s.err("sellToCountries").help}
            />
          ) : null}
          <RadioControl
            label="Shipping location(s)"
            selected={s.form.shipTo}
            options={SHIP_OPTIONS}
            onChange={(v) => s.set("shipTo", v as General["shipTo"])}
            {...s.err("shipTo")}
          />
          {s.form.shipTo === "specific" || s.form.shipTo === "all_except" ? (
            <CountryChecklist
              legend={s.form.shipTo === "specific" ? "Ship to these countries" : "Ship to all countries except"}
              selected={s.form.shipToCountries}
              onChange={(v) => s.set("shipToCountries", v)}
              error={s.err("shipToCountries").help}
            />
          ) : null}
          <p className="admin-hint">
            The checkout offers only these countries, and refuses an order from a country not sold to or shipped to a country not shipped to.
          </p>
        </>
      )}
    </SectionForm>
  );
}
