/**
 * The page globals' `<script>` text (built on the server by browser-globals.server.ts) and the one part that comes
 * from the page itself: a listing's paging (`astra.shop_infinite_total` / `shop_infinite_count`, docs/contract/wire.md
 * §1.1), which only the listing route's loader knows. Browser-safe: the root layout renders it.
 */

/** A listing's page and page count, as a listing route's loader data carries them (`listing.loop`). */
export interface ListingPaging {
  page: number;
  totalPages: number;
}

/** The paging of the first loader data that holds a listing loop, if any. */
export function listingPagingOf(datas: unknown[]): ListingPaging | null {
  for (const data of datas) {
    const loop = (data as { listing?: { loop?: Partial<ListingPaging> } } | null | undefined)?.listing?.loop;
    if (loop && typeof loop.page === "number" && typeof loop.totalPages === "number") return { page: loop.page, totalPages: loop.totalPages };
  }
  return null;
}

/** The globals with a listing's paging written into `astra`, as strings like every `wp_localize_script` value. */
export function withListingPaging(globals: Record<string, unknown>, paging: ListingPaging | null): Record<string, unknown> {
  if (!paging || typeof globals.astra !== "object" || globals.astra === null) return globals;
  return {
    ...globals,
    astra: { ...globals.astra, shop_infinite_count: String(paging.page + 1), shop_infinite_total: String(paging.totalPages) },
  };
}

/** `<script>` text assigning each global; `<` is escaped so no value can close the tag. */
export function globalsScript(globals: Record<string, unknown>): string {
  return Object.entries(globals)
    .map(([name, value]) => `var ${name} = ${JSON.stringify(value).replace(/</g, "\\u003c")};`)
    .join("\n");
}
