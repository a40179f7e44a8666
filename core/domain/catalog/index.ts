/**
 * The catalogue's pure domain code, for the server. The browser imports the single modules
 * (never this index, nor the `*.schema.ts` modules), so zod stays out of its bundle.
 */
export * from "./settings.ts";
export * from "./variations.ts";
export * from "./variations.schema.ts";
export * from "./swatches.ts";
export * from "./listing-filters.ts";
export * from "./listing-filters.schema.ts";
export * from "./price-filter.ts";
export * from "./listing-query.ts";
export * from "./listing-query.schema.ts";
export * from "./product-kinds.ts";
export * from "./add-to-cart.ts";
export * from "./sale-badge.ts";
