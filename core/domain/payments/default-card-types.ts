// Its own module so the site configuration (in every page's JavaScript) does not bring the card rules along (issue 18).
import type { CardTypeName } from "./card-types.ts";

/** docs/contract/storefront.md §5 'Accepted card types': the card types a gateway accepts unless the shop's settings say otherwise. */
export const DEFAULT_ENABLED_CARD_TYPES: readonly CardTypeName[] = ["visa", "mastercard", "amex", "discover", "dinersclub", "jcb"];
