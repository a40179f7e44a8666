/**
 * Postcode patterns as WooCommerce matches them, for shipping zones (zones.ts) and tax rates (tax.ts): an exact
 * code, a prefix ending in `*` (`SW1*`) or a numeric range (`90210...90299`), compared in upper case without spaces.
 * Kept apart from zones.ts (which holds the zones' zod schema) so that the browser's cart code, which names tax
 * rates, ships no zod (tests/http/catalog-bundle.test.ts).
 */
const normalPostcode = (p: string) => p.toUpperCase().replace(/\s+/g, "");

export function postcodeMatches(pattern: string, postcode: string): boolean {
  const p = normalPostcode(postcode);
  if (p === "") return false;
  const range = /^(\d+)\.\.\.(\d+)$/.exec(pattern);
  if (range) return /^\d+$/.test(p) && Number(p) >= Number(range[1]) && Number(p) <= Number(range[2]);
  const r = normalPostcode(pattern);
  return r.endsWith("*") ? p.startsWith(r.slice(0, -1)) : p === r;
}
