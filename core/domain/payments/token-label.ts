/** A saved payment method as the forms list it. */
export interface TokenLabelParts {
  kind: string;
  brand: string;
  last4: string;
  expMonth: number | null;
  expYear: number | null;
}

/** 'Visa ending in 4242 (expires 12/34)' — what a saved method shows; never more than brand, last four, expiry. */
export function tokenLabel(t: TokenLabelParts): string {
  if (t.kind !== "card") return `Bank account ending in ${t.last4}`;
  const brand = `${t.brand.charAt(0).toUpperCase()}${t.brand.slice(1)}`;
  return t.expMonth && t.expYear
    ? `${brand} ending in ${t.last4} (expires ${String(t.expMonth).padStart(2, "0")}/${String(t.expYear).slice(-2)})`
    : `${brand} ending in ${t.last4}`;
}
