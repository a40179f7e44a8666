/** Display helpers shared by server rendering and the browser. */
import { formatMoney, DEFAULT_CURRENCY_FORMAT, type Cents, type CurrencyFormat } from "../../core/domain/money/money.ts";

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

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-GB", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}
