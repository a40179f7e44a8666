import { describe, expect, it } from "vitest";
import type { Db } from "../db/client.ts";
import type { PricedCart } from "../domain/cart/types.ts";
import type { CartCondition } from "../domain/popups/settings.ts";
import { CartDecisionMemo, cartLinesKey, decidesAsEmptyCart, shopperFitsKeptPage, type CartDecisions } from "./kept-pages.ts";

const line = (productId: number, quantity: number, more: Partial<{ variationId: number; variation: Record<string, string>; itemData: object }> = {}) => ({
  key: `k${productId}`,
  productId,
  variationId: more.variationId ?? 0,
  variation: more.variation ?? {},
  itemData: more.itemData ?? {},
  quantity,
});

const MASK = 11;
const SQUARE = 22;
/** The demo's "Free mask with 6": a cart holding a mask. */
const withMask: CartCondition = { contains_products: [MASK], contains_categories: [] };
const under100: CartCondition = { contains_products: [], contains_categories: [], subtotal_below: 10000 };

describe("cartLinesKey (decision 0045)", () => {
  it("is '' for no line, equal for the same lines, and differs when any part of a line or their order differs", () => {
    expect(cartLinesKey([])).toBe("");
    const base = [line(MASK, 1), line(SQUARE, 2)];
    expect(cartLinesKey(base)).toBe(cartLinesKey([line(MASK, 1), line(SQUARE, 2)]));
    const others = [
      [line(MASK, 2), line(SQUARE, 2)],
      [line(MASK, 1)],
      [line(SQUARE, 2), line(MASK, 1)],
      [line(MASK, 1, { variationId: 5 }), line(SQUARE, 2)],
      [line(MASK, 1, { variation: { attribute_pa_color: "red" } }), line(SQUARE, 2)],
      [line(MASK, 1, { itemData: { bundle: ["x"] } }), line(SQUARE, 2)],
      [{ ...line(MASK, 1), key: "other" }, line(SQUARE, 2)],
    ];
    const keys = new Set([cartLinesKey(base), ...others.map((l) => cartLinesKey(l))]);
    expect(keys.size).toBe(others.length + 1);
  });
});

describe("decidesAsEmptyCart (decision 0042)", () => {
  it("a cart fits when each condition holds for it exactly when it holds for the empty cart", () => {
    const square = { subtotal: 2400, productIds: [SQUARE], categoryIds: [3] };
    const mask = { subtotal: 1500, productIds: [MASK], categoryIds: [3] };
    expect(decidesAsEmptyCart([], mask)).toBe(true);
    expect(decidesAsEmptyCart([withMask], square)).toBe(true);
    expect(decidesAsEmptyCart([withMask], mask)).toBe(false);
    // The empty cart is under 100: so is a small cart (fits), a big one is not (its own page).
    expect(decidesAsEmptyCart([under100], square)).toBe(true);
    expect(decidesAsEmptyCart([under100], { ...square, subtotal: 20000 })).toBe(false);
  });
});

describe("CartDecisionMemo", () => {
  it("keeps at most its bound, the least recently used going first, and counts what it answered and was told", () => {
    const stats = { shopperCartsDecided: 0, shopperCartsRemembered: 0 };
    const memo = new CartDecisionMemo(2, stats);
    memo.set("a", true);
    memo.set("b", false);
    expect(memo.get("a")).toBe(true); // "b" is now the least recently used
    memo.set("c", true);
    expect(memo.size).toBe(2);
    expect(memo.get("b")).toBeUndefined();
    expect(memo.get("a")).toBe(true);
    expect(memo.get("c")).toBe(true);
    expect(stats).toEqual({ shopperCartsDecided: 3, shopperCartsRemembered: 3 });
  });
});

describe("shopperFitsKeptPage (decision 0045)", () => {
  /** A database answering the session-and-lines read with `rows()`, and no category for any product. */
  const fakeDb = (rows: () => Record<string, unknown>[]) => {
    const reads = { sessions: 0 };
    const db = {
      kind: "pglite",
      query: async (text: string) => {
        if (/from "sessions"/.test(text)) {
          reads.sessions++;
          return rows();
        }
        return [];
      },
    } as unknown as Db;
    return { db, reads };
  };
  const row = (l: ReturnType<typeof line> | null, data: Record<string, unknown> = {}) => ({
    customer_id: null,
    data,
    item_key: l?.key ?? null,
    product_id: l?.productId ?? null,
    variation_id: l?.variationId ?? null,
    variation: l?.variation ?? null,
    item_data: l?.itemData ?? null,
    quantity: l?.quantity ?? null,
  });
  const priced = (lines: ReturnType<typeof line>[], subtotal: number) => ({ lines, result: { totals: { subtotal } } }) as unknown as PricedCart;
  const now = new Date("2026-11-28T10:00:00Z");

  it("prices a cart once for its lines, then answers from the memo while the lines are the same", async () => {
    let lines = [line(SQUARE, 1)];
    const { db, reads } = fakeDb(() => lines.map((l) => row(l)));
    const memo = new CartDecisionMemo(10);
    let pricings = 0;
    const pricedCart = async () => (pricings++, priced(lines, 1200));
    expect(await shopperFitsKeptPage(db, "s1", now, [withMask], memo, pricedCart)).toBe(true);
    expect(await shopperFitsKeptPage(db, "s1", now, [withMask], memo, pricedCart)).toBe(true);
    expect(pricings).toBe(1);
    expect(reads.sessions).toBe(2); // the session and the lines are read every time
    lines = [line(SQUARE, 1), line(MASK, 1)];
    expect(await shopperFitsKeptPage(db, "s1", now, [withMask], memo, pricedCart)).toBe(false);
    expect(pricings).toBe(2);
    expect(await shopperFitsKeptPage(db, "s1", now, [withMask], memo, pricedCart)).toBe(false);
    expect(pricings).toBe(2);
  });

  it("files a decision under the lines that were priced, not the ones read before (a cart changed in between)", async () => {
    const read = [line(SQUARE, 1)];
    const meanwhile = [line(SQUARE, 1), line(MASK, 1)];
    const { db } = fakeDb(() => read.map((l) => row(l)));
    const filed: [string, boolean][] = [];
    const memo: CartDecisions = { get: () => undefined, set: (k, fits) => void filed.push([k, fits]) };
    expect(await shopperFitsKeptPage(db, "s1", now, [withMask], memo, async () => priced(meanwhile, 2700))).toBe(false);
    expect(filed).toEqual([[cartLinesKey(meanwhile), false]]);
  });

  it("no session, an empty cart or no cart condition: fits without pricing; a session with a notice: does not", async () => {
    const never = async (): Promise<PricedCart> => {
      throw new Error("priced");
    };
    const memo = new CartDecisionMemo(10);
    expect(await shopperFitsKeptPage(fakeDb(() => []).db, "gone", now, [withMask], memo, never)).toBe(true);
    expect(await shopperFitsKeptPage(fakeDb(() => []).db, null, now, [withMask], memo, never)).toBe(true);
    expect(await shopperFitsKeptPage(fakeDb(() => [row(null)]).db, "s1", now, [withMask], memo, never)).toBe(true);
    expect(await shopperFitsKeptPage(fakeDb(() => [row(line(MASK, 1))]).db, "s1", now, [], memo, never)).toBe(true);
    expect(await shopperFitsKeptPage(fakeDb(() => [row(line(SQUARE, 1), { notices: [{}] })]).db, "s1", now, [withMask], memo, never)).toBe(false);
  });
});
