import { describe, expect, it } from "vitest";
import { editedTotals, isEditableStatus, lineEditNote, planLineEdits, scaleAmount, type EditableLine } from "./edit-lines.ts";
import { cartTax, type TaxRate } from "../pricing/tax.ts";

const line = (id: number, quantity: number, subtotal: number, total: number, name = `Line ${id}`): EditableLine => ({
  id,
  productId: 100 + id,
  variationId: null,
  name,
  quantity,
  subtotal,
  total,
});

describe("planLineEdits", () => {
  it("scales a changed line's stored prices and discount, removes at 0 and prices a new line at its unit price", () => {
    const lines = [line(1, 3, 3000, 2700, "Scarf"), line(2, 1, 1000, 1000, "Clip")];
    const r = planLineEdits(
      lines,
      [
        { index: 0, id: 1, quantity: 2 },
        { index: 1, id: 2, quantity: 0 },
      ],
      [{ index: 2, productId: 9, variationId: 12, name: "Mask", details: "Color: Red", quantity: 2, unitPrice: 750 }],
    );
    if (!r.ok) throw new Error("refused");
    expect(r.plan.lines.map((l) => [l.id, l.quantity, l.subtotal, l.total])).toEqual([
      [1, 2, 2000, 1800],
      [null, 2, 1500, 1500],
    ]);
    expect(lineEditNote(r.plan)).toBe("Added Mask (Color: Red) × 2. Removed Clip × 1. Changed quantity of Scarf from 3 to 2.");
  });

  it("names the request's field for an unknown or repeated line, and keeps at least one line", () => {
    const lines = [line(1, 1, 500, 500)];
    const bad = planLineEdits(
      lines,
      [
        { index: 0, id: 7, quantity: 1 },
        { index: 1, id: 1, quantity: 2 },
        { index: 2, id: 1, quantity: 3 },
      ],
      [],
    );
    expect(bad.ok ? null : Object.keys(bad.problems)).toEqual(["line_items[0].id", "line_items[2].id"]);
    const empty = planLineEdits(lines, [{ index: 0, id: 1, quantity: 0 }], []);
    expect(empty.ok ? null : Object.keys(empty.problems)).toEqual(["line_items"]);
  });

  it("rounds a scaled amount once, half away from zero", () => {
    expect(scaleAmount(1000, 1, 3)).toBe(333);
    expect(scaleAmount(1000, 2, 3)).toBe(667);
    expect(scaleAmount(5, 1, 2)).toBe(3);
  });
});

describe("editedTotals", () => {
  it("keeps shipping and the discount not tied to lines, and adds the checkout's tax", () => {
    const old = [line(1, 2, 2000, 1800)];
    const r = planLineEdits(old, [{ index: 0, id: 1, quantity: 4 }], []);
    if (!r.ok) throw new Error("refused");
    const rate: TaxRate = { id: 1, country: "US", state: "", postcodes: [], rate: 100000, name: "Tax", priority: 1, compound: false, shipping: true, order: 0 };
    const tax = cartTax(
      [rate],
      { country: "US" },
      { lines: r.plan.lines.map((l, i) => ({ key: String(i), subtotal: l.subtotal, total: l.total })), shipping: 500, shippingTaxable: true },
    );
    // The order had 200 of line discount and 100 of another discount; shipping 500.
    const t = editedTotals({ subtotal: 2000, discountTotal: 300, shippingTotal: 500 }, old, r.plan, tax);
    expect(t).toMatchObject({ subtotal: 4000, discountTotal: 500, totalTax: 410, shippingTax: 50, total: 3600 + 500 + 410 });
    expect(t.taxLines).toEqual([{ rateId: 1, label: "Tax", rate: 100000, compound: false, taxTotal: 360, shippingTaxTotal: 50 }]);
    expect(editedTotals({ subtotal: 2000, discountTotal: 200, shippingTotal: 0 }, old, r.plan, null).totalTax).toBe(0);
  });

  it("knows WooCommerce's editable statuses", () => {
    expect(["pending", "on-hold", "processing", "completed", "cancelled"].map(isEditableStatus)).toEqual([true, true, false, false, false]);
  });
});
