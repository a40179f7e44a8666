/** The catalogue's pure domain code, shared by the server and the browser. */
export * from "./settings.ts";
export * from "./variations.ts";
export * from "./swatches.ts";
export * from "./listing-filters.ts";
export * from "./price-filter.ts";
export * from "./listing-query.ts";
export * from "./product-kinds.ts";
export * from "./add-to-cart.ts";
export * from "./sale-badge.ts";
