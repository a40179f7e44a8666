/** Display helpers shared by server rendering and the browser. */
import { formatMoney, DEFAULT_CURRENCY_FORMAT, type Cents, type CurrencyFormat } from "../../core/domain/money/money.ts";
import { formatDate } from "../../core/domain/text/date.ts";

export function moneyParts(amount: Cents, format: CurrencyFormat = DEFAULT_CURRENCY_FORMAT): { symbol: string; number: string; symbolFirst: boolean } {
  return {
    symbol: format.symbol,
    number: formatMoney(amount, { ...format, symbol: "", position: "left" }),
    symbolFirst: format.position.startsWith("left"),
  };
}

export { formatMoney };

export function productUrl(slug: string): string {
  return `/product/${slug}/`;
}

export function mediaUrl(slug: string | null | undefined): string {
  return slug ? `/media/${slug}.svg` : "/media/placeholder.svg";
}

/** The shop's one date format for people ("November 24, 2026"), see core/domain/text/date.ts. */
export { formatDate };
