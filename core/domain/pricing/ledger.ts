/**
 * What each line still costs while discounts are applied: the one place a discount is taken off a line.
 * Every discount is clamped to what the line still costs, so no line goes below zero; a cart-level
 * discount is split over lines with `allocate` (exact, no cent lost) and recorded once.
 */
import { allocate, type Cents } from "../money/money.ts";
import { baseUnitPrice, clamp } from "./rules.ts";
import type { CartLevelDiscount, CartLineInput, DiscountSource, LineDiscount } from "./types.ts";

export interface LineState {
  line: CartLineInput;
  base: Cents;
  subtotal: Cents;
  discounts: LineDiscount[];
  /** Sum of `discounts` so far, kept as they are given (summing on every look-up made big carts quadratic). */
  taken: Cents;
}

export type DiscountTag = Omit<LineDiscount, "amount">;

export interface Ledger {
  /** The state of a line by key (the key must be one of the cart's lines). */
  state(key: string): LineState;
  /** What the line still costs. */
  remaining(key: string): Cents;
  /** Takes up to `amount` off the line (never below zero); returns what was taken. */
  give(key: string, tag: DiscountTag, amount: Cents): Cents;
  /**
   * A cart-level discount of `wanted` spread over `keys` in proportion to what they still cost, recorded
   * in `cartDiscounts`; returns what was given.
   */
  spread(source: DiscountSource, code: string, title: string, keys: readonly string[], wanted: Cents): Cents;
  /**
   * A cart-level discount already split into per-line amounts (each clamped to what its line still
   * costs), recorded in `cartDiscounts` even when nothing could be given; returns what was given.
   */
  giveEach(source: DiscountSource, code: string, title: string, parts: readonly { key: string; amount: Cents }[]): Cents;
  /** The cart-level discounts recorded so far, in the order given. */
  readonly cartDiscounts: CartLevelDiscount[];
}

export function createLedger(lines: readonly CartLineInput[]): Ledger {
  const states = new Map<string, LineState>();
  for (const line of lines) {
    const base = baseUnitPrice(line);
    states.set(line.key, { line, base, subtotal: base * line.quantity, discounts: [], taken: 0 });
  }
  const state = (key: string): LineState => states.get(key)!;
  const left = (s: LineState): Cents => s.subtotal - s.taken;
  const take = (s: LineState, tag: DiscountTag, amount: Cents): Cents => {
    const amt = clamp(amount, 0, left(s));
    if (amt > 0) {
      s.discounts.push({ ...tag, amount: amt });
      s.taken += amt;
    }
    return amt;
  };
  const cartDiscounts: CartLevelDiscount[] = [];
  const giveEach: Ledger["giveEach"] = (source, code, title, parts) => {
    const allocations: { lineKey: string; amount: Cents }[] = [];
    let given = 0;
    for (const { key, amount } of parts) {
      const g = take(state(key), { source, code, title, level: "cart" }, amount);
      given += g;
      if (g > 0) allocations.push({ lineKey: key, amount: g });
    }
    cartDiscounts.push({ source, code, title, amount: given, allocations });
    return given;
  };
  return {
    state,
    remaining: (key) => left(state(key)),
    give: (key, tag, amount) => take(state(key), tag, amount),
    spread(source, code, title, keys, wanted) {
      const targets = keys.map(state).filter((s) => left(s) > 0);
      const room = targets.reduce((a, s) => a + left(s), 0);
      const amount = clamp(wanted, 0, room);
      if (amount === 0) return 0;
      const parts = allocate(amount, targets.map(left));
      return giveEach(
        source,
        code,
        title,
        targets.map((s, i) => ({ key: s.line.key, amount: parts[i]! })),
      );
    },
    giveEach,
    cartDiscounts,
  };
}
