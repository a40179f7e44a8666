/**
 * The 'change country' form of the shop pages (docs/contract/storefront.md §2 'Storefront-wide elements'): fields
 * `region`, `current_country` and the hidden `se_current_time` (the browser's clock in epoch milliseconds, set on
 * load). The chosen country becomes the shopper's country for the cart and the checkout. Pure: the route's action
 * stores what this accepts.
 */
import { COUNTRIES } from "./countries.ts";

/** The regions the form groups countries by (the region field is a filter; it is hidden once the page has loaded). */
export const COUNTRY_REGIONS: readonly { id: string; label: string; countries: readonly string[] }[] = [
  { id: "americas", label: "Americas", countries: ["US", "CA"] },
  { id: "europe", label: "Europe", countries: ["GB", "IE", "DE", "FR", "NL"] },
  { id: "oceania", label: "Oceania", countries: ["AU", "NZ"] },
];

export const CHANGE_COUNTRY_MESSAGES = {
  notSold: "Country / Region is not a country we ship to.",
  badRegion: "Region is not one of the regions we ship to.",
  badTime: "se_current_time must be the time in epoch milliseconds.",
  changed: (name: string) => `Your country is now ${name}. Prices, shipping and the checkout use it.`,
} as const;

export type ChangeCountry = { ok: true; country: string; region: string | null; clientTime: number | null } | { ok: false; message: string };

export function parseChangeCountry(form: { get(name: string): unknown }): ChangeCountry {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v.trim() : "";
  };
  const country = text("current_country").toUpperCase();
  if (!Object.hasOwn(COUNTRIES, country)) return { ok: false, message: CHANGE_COUNTRY_MESSAGES.notSold };
  const regionId = text("region");
  const region = regionId ? COUNTRY_REGIONS.find((r) => r.id === regionId) : undefined;
  if (regionId && !region) return { ok: false, message: CHANGE_COUNTRY_MESSAGES.badRegion };
  const time = text("se_current_time");
  if (time && !/^\d{1,15}$/.test(time)) return { ok: false, message: CHANGE_COUNTRY_MESSAGES.badTime };
  return { ok: true, country, region: region?.id ?? null, clientTime: time ? Number(time) : null };
}

export function countryName(code: string): string {
  return COUNTRIES[code]?.name ?? code;
}
