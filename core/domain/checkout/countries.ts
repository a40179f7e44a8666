// Its own module so a page that only names countries (the listing's change-country form) does not ship the address
// rules' data (subdivisions, postcode patterns) with it (issue 18).

/**
 * The countries the shop ships to, with WooCommerce's per-country address locale (the labels and which of state
 * and postcode are asked for and required). The subdivision lists come from country-region-data and the postcode
 * patterns from postcode-validator (docs/decisions/0012-address-data.md), so neither is maintained by hand here.
 */
interface CountryLocale {
  name: string;
  /** What the state field is called; null when the country's addresses have none (the field is not shown). */
  stateLabel: string | null;
  stateRequired: boolean;
  postcodeLabel: string;
  postcodeRequired: boolean;
}

export const COUNTRIES: Record<string, CountryLocale> = {
  US: { name: "United States (US)", stateLabel: "State", stateRequired: true, postcodeLabel: "ZIP Code", postcodeRequired: true },
  CA: { name: "Canada", stateLabel: "Province", stateRequired: true, postcodeLabel: "Postal code", postcodeRequired: true },
  GB: { name: "United Kingdom (UK)", stateLabel: "County", stateRequired: false, postcodeLabel: "Postcode", postcodeRequired: true },
  IE: { name: "Ireland", stateLabel: "County", stateRequired: true, postcodeLabel: "Eircode", postcodeRequired: false },
  AU: { name: "Australia", stateLabel: "State", stateRequired: true, postcodeLabel: "Postcode", postcodeRequired: true },
  NZ: { name: "New Zealand", stateLabel: "Region", stateRequired: false, postcodeLabel: "Postcode", postcodeRequired: true },
  DE: { name: "Germany", stateLabel: null, stateRequired: false, postcodeLabel: "Postcode", postcodeRequired: true },
  FR: { name: "France", stateLabel: null, stateRequired: false, postcodeLabel: "Postcode", postcodeRequired: true },
  NL: { name: "Netherlands", stateLabel: null, stateRequired: false, postcodeLabel: "Postcode", postcodeRequired: true },
};
