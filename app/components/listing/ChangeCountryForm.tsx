/**
 * The 'change country' form on shop pages (docs/contract/storefront.md §2): `region`, `current_country` and the
 * hidden `se_current_time`. Without JavaScript it is a plain POST to /change-country/ (the action stores the country
 * and redirects back to the listing); once loaded, the region field is hidden (the country list is grouped by region
 * instead) and se_current_time holds the browser's clock in epoch milliseconds.
 */
import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { COUNTRIES } from "../../../core/domain/checkout/countries.ts";
import { COUNTRY_REGIONS } from "../../../core/domain/checkout/change-country.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";

export function ChangeCountryForm({ current, returnTo }: { current: string; returnTo: string }) {
  const hydrated = useHydrated();
  const time = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (time.current) time.current.value = String(Date.now());
  }, []);
  const region = COUNTRY_REGIONS.find((r) => r.countries.includes(current))?.id ?? "";
  return (
    <Form method="post" action="/change-country/" className="change-country" aria-labelledby="change-country-title" preventScrollReset>
      <h2 id="change-country-title" className="change-country__title">
        Shipping country
      </h2>
      <input type="hidden" name="redirect_to" value={returnTo} />
      <p className="form-row change-country__region" id="region_field" hidden={hydrated}>
        <label htmlFor="change-country-region">Region</label>
        <select name="region" id="change-country-region" defaultValue={region}>
          <option value="">Any region</option>
          {COUNTRY_REGIONS.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
            </option>
          ))}
        </select>
      </p>
      <p className="form-row" id="current_country_field">
        <label htmlFor="current_country">Country / Region</label>
        <select name="current_country" id="current_country" defaultValue={current} key={current} autoComplete="country">
          {COUNTRY_REGIONS.map((r) => (
            <optgroup key={r.id} label={r.label}>
              {r.countries.map((code) => (
                <option key={code} value={code}>
                  {COUNTRIES[code]!.name}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </p>
      <input type="hidden" name="se_current_time" ref={time} />
      <button type="submit" className="button">
        Change country
      </button>
    </Form>
  );
}
