/**
 * Money is always an integer number of minor units (cents). Every computation
 * that can produce a fraction goes through `roundCents`, the one rounding rule
 * of the shop: half away from zero, like a till.
 */
export type Cents = number;

export function roundCents(value: number): Cents {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite amount: ${value}`);
  const rounded = Math.sign(value) * Math.round(Math.abs(value));
  return rounded === 0 ? 0 : rounded; // never -0
}

export function assertCents(value: number): Cents {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not a whole number of cents: ${value}`);
  return value;
}

/** `percent` of an amount (e.g. 12.5 for 12.5 %), rounded once. */
export function percentOf(amount: Cents, percent: number): Cents {
  return roundCents((amount * percent) / 100);
}

/** Splits `total` over `weights` so that the parts add up to `total` exactly (largest remainder). */
export function allocate(total: Cents, weights: readonly number[]): Cents[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (weights.length === 0) return [];
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const raw = weights.map((w) => (total * w) / sum);
  const parts = raw.map((r) => Math.trunc(r));
  let rest = total - parts.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => ({ i, frac: Math.abs(r - Math.trunc(r)) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  const step = Math.sign(rest);
  for (let k = 0; rest !== 0; k = (k + 1) % order.length) {
    parts[order[k]!.i]! += step;
    rest -= step;
  }
  return parts;
}

export interface CurrencyFormat {
  symbol: string;
  position: "left" | "right" | "left_space" | "right_space";
  decimals: number;
  decimalSeparator: string;
  thousandSeparator: string;
}

/** The spec's currency display (docs/contract/storefront.md §9): `$` before the value, 0 decimals, '.' and ','. */
export const DEFAULT_CURRENCY_FORMAT: CurrencyFormat = {
  symbol: "$",
  position: "left",
  decimals: 0,
  decimalSeparator: ".",
  thousandSeparator: ",",
};

/** The one formatter for showing money. Works on cents, never on floats from elsewhere. */
export function formatMoney(amount: Cents, format: CurrencyFormat = DEFAULT_CURRENCY_FORMAT): string {
  const negative = amount < 0;
  const scale = 10 ** Math.max(0, 2 - format.decimals);
  // Round the cents to the displayed precision with the shop's rounding rule.
  const units = roundCents(Math.abs(amount) / scale); // in 10^-decimals
  const divisor = 10 ** format.decimals;
  const whole = Math.floor(units / divisor);
  const fraction = units % divisor;
  const wholeText = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, format.thousandSeparator);
  const number = format.decimals > 0 ? `${wholeText}${format.decimalSeparator}${String(fraction).padStart(format.decimals, "0")}` : wholeText;
  const withSymbol =
    format.position === "left"
      ? `${format.symbol}${number}`
      : format.position === "left_space"
        ? `${format.symbol}\u00a0${number}`
        : format.position === "right"
          ? `${number}${format.symbol}`
          : `${number}\u00a0${format.symbol}`;
  return negative ? `-${withSymbol}` : withSymbol;
}

/** Parses a decimal amount typed by a person or an admin ("12.50", "1,200") into cents. */
export function parseMoney(text: string): Cents | null {
  const cleaned = text.trim().replace(/[,\s$]/g, "");
  if (!/^-?\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole, frac = ""] = cleaned.replace("-", "").split(".");
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, "0"));
  return cleaned.startsWith("-") ? -cents : cents;
}
