export * from "./constants.ts";
export * from "./stages.ts";
export * from "./i18n.ts";
export * from "./schema.ts";
export * from "./display.ts";
export * from "./update.ts";
export * from "./indicator.ts";
export * from "./selection.ts";
