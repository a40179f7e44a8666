/** Card and e-check rules shared by the browser form and the server. Pure: no I/O, no clock. */
export * from "./card-types.ts";
export * from "./messages.ts";
export * from "./limits.ts";
export * from "./settings.ts";
export * from "./expiry.ts";
export * from "./format.ts";
export * from "./aba.ts";
export * from "./validation.ts";
