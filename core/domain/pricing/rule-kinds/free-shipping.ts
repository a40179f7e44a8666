/** `free_shipping`: grants free shipping (read by the shipping step); takes nothing off the lines. */
import type { RuleKind } from "./kind.ts";

export const freeShippingKind: RuleKind<"free_shipping"> = {
  code: "free_shipping",
  phase: "none",
  check: () => ({ applies: true, freeShipping: true }),
  apply: () => {},
};
