import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { cartTax, formatRate, matchTaxRates, parseRate, shortRate, taxesOn, type TaxRate } from "./tax.ts";

let nextId = 1;
const rate = (over: Partial<TaxRate> & { rate: number }): TaxRate => ({
  id: nextId++,
  country: "",
  state: "",
  postcodes: [],
  name: "Tax",
  priority: 1,
  compound: false,
  shipping: true,
  order: 0,
  ...over,
});
const pct = (p: number) => Math.round(p * 10_000);

describe("matchTaxRates", () => {
  it("matches by country, state and postcode; empty fields match any address", () => {
    const gb = rate({ country: "GB", rate: pct(20) });
    const ca = rate({ country: "US", state: "CA", rate: pct(7.25), priority: 2 });
    const any = rate({ rate: pct(1), priority: 3 });
    const nyc = rate({ country: "US", postcodes: ["100*"], rate: pct(4.5), priority: 4 });
    const all = [gb, ca, any, nyc];
    expect(matchTaxRates(all, { country: "GB" }).map((r) => r.id)).toEqual([gb.id, any.id]);
    expect(matchTaxRates(all, { country: "us", state: "ca" }).map((r) => r.id)).toEqual([ca.id, any.id]);
    expect(matchTaxRates(all, { country: "US", state: "NY", postcode: "10001" }).map((r) => r.id)).toEqual([any.id, nyc.id]);
    expect(matchTaxRates(all, { country: "US", state: "NY", postcode: "20001" }).map((r) => r.id)).toEqual([any.id]);
    expect(matchTaxRates(all, null)).toEqual([]);
  });

  it("takes one rate per priority, the first by order; different priorities stack", () => {
    const state = rate({ country: "US", state: "CA", rate: pct(7.25), priority: 1, order: 0 });
    const country = rate({ country: "US", rate: pct(5), priority: 1, order: 1 });
    const county = rate({ country: "US", rate: pct(1), priority: 2 });
    expect(matchTaxRates([country, state, county], { country: "US", state: "CA" }).map((r) => r.id)).toEqual([state.id, county.id]);
    expect(matchTaxRates([country, state, county], { country: "US", state: "TX" }).map((r) => r.id)).toEqual([country.id, county.id]);
  });

  it("applies compound rates after the others, whatever their priority", () => {
    const qst = rate({ country: "CA", rate: pct(9.975), priority: 1, compound: true });
    const gst = rate({ country: "CA", rate: pct(5), priority: 2 });
    expect(matchTaxRates([qst, gst], { country: "CA" }).map((r) => r.id)).toEqual([gst.id, qst.id]);
  });
});

describe("taxesOn", () => {
  it("rounds each rate once, half away from zero", () => {
    const r = rate({ rate: pct(20) });
    expect(taxesOn(1999, [r])).toEqual([{ rateId: r.id, tax: 400 }]); // 399.8
    expect(taxesOn(1, [rate({ rate: pct(50) })])[0]!.tax).toBe(1); // 0.5 → 1
    expect(taxesOn(1, [rate({ rate: pct(49.9999) })])[0]!.tax).toBe(0);
  });

  it("a compound rate is charged on the amount plus the taxes before it", () => {
    const gst = rate({ rate: pct(5) });
    const pst = rate({ rate: pct(10), compound: true, priority: 2 });
    // 10000 → GST 500; PST 10 % of 10500 = 1050
    expect(taxesOn(10_000, [gst, pst]).map((t) => t.tax)).toEqual([500, 1050]);
    const third = rate({ rate: pct(10), compound: true, priority: 3 });
    // then 10 % of 11550 = 1155
    expect(taxesOn(10_000, [gst, pst, third]).map((t) => t.tax)).toEqual([500, 1050, 1155]);
  });
});

describe("cartTax", () => {
  const vat = rate({ country: "GB", rate: pct(20), name: "VAT" });
  const noShip = rate({ country: "GB", rate: pct(5), name: "Levy", priority: 2, shipping: false });

  it("taxes each line's total, the shipping by the rates marked for shipping, and sums the rounded line taxes", () => {
    const t = cartTax(
      [vat, noShip],
      { country: "GB" },
      {
        lines: [
          { key: "a", subtotal: 1000, total: 999 },
          { key: "b", subtotal: 333, total: 333 },
        ],
        shipping: 500,
        shippingTaxable: true,
      },
    );
    expect(t.lines.a).toEqual({ subtotalTax: 200 + 50, totalTax: 200 + 50 }); // 199.8 → 200, 49.95 → 50
    expect(t.lines.b).toEqual({ subtotalTax: 67 + 17, totalTax: 67 + 17 }); // 66.6 → 67, 16.65 → 17
    expect(t.shippingTax).toBe(100);
    expect(t.taxLines).toEqual([
      { rateId: vat.id, name: "VAT", rate: pct(20), compound: false, itemsTax: 267, shippingTax: 100 },
      { rateId: noShip.id, name: "Levy", rate: pct(5), compound: false, itemsTax: 67, shippingTax: 0 },
    ]);
    expect(t.total).toBe(267 + 100 + 67);
  });

  it("no shipping tax when shipping is not taxable; nothing for an address no rate matches", () => {
    expect(cartTax([vat], { country: "GB" }, { lines: [{ key: "a", subtotal: 100, total: 100 }], shipping: 500, shippingTaxable: false }).shippingTax).toBe(0);
    const none = cartTax([vat], { country: "FR" }, { lines: [{ key: "a", subtotal: 100, total: 100 }], shipping: 500, shippingTaxable: true });
    expect(none.total).toBe(0);
    expect(none.taxLines).toEqual([]);
    expect(none.lines.a).toEqual({ subtotalTax: 0, totalTax: 0 });
  });

  it("property: the tax rows add up to the line taxes plus the shipping tax, and tax is never negative", () => {
    const rateArb = fc.record({
      country: fc.constantFrom("", "GB", "US"),
      rate: fc.integer({ min: 0, max: 300_000 }),
      priority: fc.integer({ min: 1, max: 3 }),
      compound: fc.boolean(),
      shipping: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(rateArb, { maxLength: 5 }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 100_000 }),
        (rs, totals, shipping) => {
          const rates = rs.map((r, i) => rate({ ...r, id: i + 1, order: i }));
          const t = cartTax(
            rates,
            { country: "GB" },
            { lines: totals.map((v, i) => ({ key: `k${i}`, subtotal: v, total: v })), shipping, shippingTaxable: true },
          );
          const lineSum = Object.values(t.lines).reduce((n, l) => n + l.totalTax, 0);
          expect(t.taxLines.reduce((n, l) => n + l.itemsTax, 0)).toBe(lineSum);
          expect(t.total).toBe(lineSum + t.shippingTax);
          expect(t.total).toBeGreaterThanOrEqual(0);
          for (const l of Object.values(t.lines)) expect(Number.isSafeInteger(l.totalTax)).toBe(true);
        },
      ),
    );
  });
});

describe("rates on the wire", () => {
  it("formats and parses WooCommerce's four-decimal rate strings", () => {
    expect(formatRate(pct(20))).toBe("20.0000");
    expect(formatRate(pct(7.25))).toBe("7.2500");
    expect(shortRate(pct(7.25))).toBe("7.25");
    expect(shortRate(pct(20))).toBe("20");
    expect(parseRate("20")).toBe(200_000);
    expect(parseRate("7.25")).toBe(72_500);
    expect(parseRate(9.975)).toBe(99_750);
    expect(parseRate("20.0000")).toBe(200_000);
    for (const bad of ["-1", "abc", "1.23456", "", "1001", null, {}]) expect(parseRate(bad)).toBeNull();
  });
});
