/**
 * The storefront's REST calls ask for the signed-in user's locale (docs/contract/storefront.md §7 'REST client':
 * `_locale=user`, as WordPress's api-fetch adds it), joined with `?` or `&` as the address needs.
 */
export function withUserLocale(url: string): string {
  const hash = url.indexOf("#");
  const [base, fragment] = hash === -1 ? [url, ""] : [url.slice(0, hash), url.slice(hash)];
  if (/[?&]_locale=/.test(base)) return url;
  return `${base}${base.includes("?") ? (base.endsWith("?") || base.endsWith("&") ? "" : "&") : "?"}_locale=user${fragment}`;
}
