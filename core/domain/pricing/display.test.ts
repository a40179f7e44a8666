import { describe, expect, it } from "vitest";
import {
  bulkTableHtml,
  bulkTableModel,
  priceAmountHtml,
  priceHtmlResponse,
  priceProduct,
  productDiscountDetail,
  renderSaleBadge,
  saleBadgeMap,
  salePriceHtml,
} from "./display.ts";
import { MASK_PROMOTION_RULES } from "./mask-promotion.ts";
import { NOW, line, rule } from "./test-fixtures.ts";

const MASK = { productId: 501, categorySlugs: ["face-masks"], regularUnitPrice: 300 };
const amount = (n: string) => `<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">$</span>${n}</bdi></span>`;

describe("WooCommerce price HTML", () => {
  it("formats an amount like WooCommerce", () => {
    expect(priceAmountHtml(1500)).toBe(amount("15"));
    expect(priceAmountHtml(123456789)).toBe(amount("1,234,568"));
    const euro = { symbol: "€", position: "right_space" as const, decimals: 2, decimalSeparator: ",", thousandSeparator: "." };
    expect(priceAmountHtml(1250, euro)).toBe(
      `<span class="woocommerce-Price-amount amount"><bdi>12,50&nbsp;<span class="woocommerce-Price-currencySymbol">€</span></bdi></span>`,
    );
  });
  it("formats a sale as del/ins", () => {
    expect(salePriceHtml(1800, 1500)).toBe(`<del>${amount("18")}</del> <ins>${amount("15")}</ins>`);
  });
});

describe("get_price_html", () => {
  it("prices a product for a quantity with the cart's own function", () => {
    const p = priceProduct({ product: MASK, quantity: 12, rules: MASK_PROMOTION_RULES, now: NOW });
    expect(p).toMatchObject({ unitPrice: 200, subtotal: 3600, lineTotal: 2400, totalDiscount: 1200, matched: true });
    expect(p.appliedRules).toEqual([{ code: "mask-multibuy", title: "Mask multi-buy: 6 masks for $15, 12 masks for $24", discount: 1200 }]);
  });

  it("counts what is already in the cart", () => {
    const cart = [line("m", { ...MASK, quantity: 10 })];
    expect(priceProduct({ product: MASK, quantity: 2, rules: MASK_PROMOTION_RULES, now: NOW, cartLines: cart }).unitPrice).toBe(200);
  });

  it("quantity 0 (no quantity input) prices one unit", () => {
    expect(priceProduct({ product: MASK, quantity: 0, rules: MASK_PROMOTION_RULES, now: NOW })).toMatchObject({ quantity: 1, unitPrice: 300, matched: false });
  });

  it("show_when_matched: price_html only when a rule matched", () => {
    const matched = priceProduct({ product: MASK, quantity: 12, rules: MASK_PROMOTION_RULES, now: NOW });
    expect(priceHtmlResponse(matched, "show_when_matched")).toEqual({
      price_html: `<del>${amount("3")}</del> <ins>${amount("2")}</ins>`,
      original_price_html: amount("3"),
    });
    const plain = priceProduct({ product: MASK, quantity: 2, rules: MASK_PROMOTION_RULES, now: NOW });
    expect(priceHtmlResponse(plain, "show_when_matched")).toEqual({ original_price_html: amount("3") });
  });

  it("show_dynamically: always a price_html", () => {
    const plain = priceProduct({ product: { ...MASK, saleUnitPrice: 200 }, quantity: 2, rules: [], now: NOW });
    const sale = `<del>${amount("3")}</del> <ins>${amount("2")}</ins>`;
    expect(priceHtmlResponse(plain, "show_dynamically")).toEqual({ price_html: sale, original_price_html: sale });
  });
});

describe("bulk table", () => {
  const rules = [
    rule(
      "bulk",
      {
        kind: "bulk",
        countBy: "product",
        tiers: [
          { min: 2, max: 4, type: "percent", value: 10 },
          { min: 5, type: "fixed_per_unit", value: 250 },
        ],
      },
      { title: "Buy more <save>" },
    ),
    rule(
      "members",
      { kind: "bulk", countBy: "product", tiers: [{ min: 1, type: "percent", value: 50 }] },
      { conditions: [{ type: "customer_logged_in", loggedIn: true }] },
    ),
    rule("other", { kind: "bulk", countBy: "product", tiers: [{ min: 1, type: "percent", value: 50 }] }, { filters: [{ type: "products", productIds: [2] }] }),
    rule("pct", { kind: "product_percent", percent: 5 }),
  ];

  it("lists the tiers of the bulk rules that select the product", () => {
    const rows = bulkTableModel({ product: { productId: 1, regularUnitPrice: 1000 }, rules, now: NOW });
    expect(rows.map((r) => [r.ruleCode, r.range, r.discountLabel, r.unitPrice])).toEqual([
      ["bulk", "2 - 4", "10% off", 900],
      ["bulk", "5 +", "$3 off each", 750],
    ]);
    const member = bulkTableModel({ product: { productId: 1, regularUnitPrice: 1000 }, rules, now: NOW, customer: { loggedIn: true } });
    expect(member.map((r) => r.ruleCode)).toEqual(["bulk", "bulk", "members"]);
  });

  it("renders the wdr table, escaping text", () => {
    const rows = bulkTableModel({ product: { productId: 1, regularUnitPrice: 1000 }, rules, now: NOW });
    const html = bulkTableHtml(rows);
    expect(html.startsWith('<table id="sort_customizable_table" class="wdr_bulk_table_msg sar-table">')).toBe(true);
    expect(html).toContain("Buy more &lt;save&gt;");
    expect(html).toContain(`<td class="wdr_bulk_table_td bulk_table_range col_index_2" data-colindex="2">2 - 4</td>`);
    expect(html).toContain(amount("9"));
    expect(html.match(/bulk_table_row/g)).toHaveLength(2);
    expect(bulkTableHtml([])).toBe("");
  });
});

describe("awdr_get_product_discount", () => {
  it("describes the discount for a quantity, with a custom price preview that is never charged", () => {
    const d = productDiscountDetail({ product: MASK, quantity: 6, rules: MASK_PROMOTION_RULES, now: NOW, customPrice: 400 });
    expect(d).toEqual({
      product_id: 501,
      qty: 6,
      initial_price: 300,
      discounted_price: 250,
      initial_price_total: 1800,
      discounted_price_total: 1500,
      total_discount: 300,
      discount_percentage: 17,
      has_discount: true,
      applied_rules: [{ code: "mask-multibuy", title: "Mask multi-buy: 6 masks for $15, 12 masks for $24", discount: 300 }],
      // The shop's one format (0 decimals): $2.50 prints "$3", as the cart prints it.
      initial_price_html: amount("3"),
      discounted_price_html: amount("3"),
      custom_price_preview: {
        custom_price: 400,
        discounted_price: 250,
        discounted_price_total: 1500,
        total_discount: 900,
        applied_rules: [{ code: "mask-multibuy", title: "Mask multi-buy: 6 masks for $15, 12 masks for $24", discount: 900 }],
      },
    });
  });

  it("no discount: has_discount false, no preview", () => {
    const d = productDiscountDetail({ product: MASK, quantity: 1, rules: MASK_PROMOTION_RULES, now: NOW });
    expect(d).toMatchObject({ has_discount: false, total_discount: 0, discounted_price_total: 300 });
    expect(d.custom_price_preview).toBeUndefined();
  });
});

describe("sale badge", () => {
  const variations = [
    { variationId: 11, regularUnitPrice: 2000, saleUnitPrice: 1500 },
    { variationId: 12, regularUnitPrice: 3000 },
    { variationId: 13, regularUnitPrice: 999, saleUnitPrice: 666 },
  ];
  it("maps variation ids to whole percentages", () => {
    expect(saleBadgeMap({ parentProductId: 1, variations, template: "-[value]%" })).toEqual({
      type: "sale-percentage",
      template: "-[value]%",
      values: { "11": 25, "13": 33 },
    });
  });
  it("can include discount rules for one unit", () => {
    const m = saleBadgeMap({
      parentProductId: 1,
      variations,
      template: "[value]% off",
      rules: [rule("r", { kind: "product_percent", percent: 10 })],
      now: NOW,
    });
    expect(m.values).toEqual({ "11": 33, "12": 10, "13": 40 });
  });
  it("renders the template", () => expect(renderSaleBadge("Save [value]%!", 25)).toBe("Save 25%!"));
});

describe("every amount prints in the shop's one format (decision 0003)", () => {
  it("a discounted price prints as the cart prints it: 0 decimals, rounded half away from zero", () => {
    expect(priceAmountHtml(1520)).toBe(amount("15"));
    expect(priceAmountHtml(2610)).toBe(amount("26"));
    expect(priceAmountHtml(250)).toBe(amount("3"));
    expect(priceAmountHtml(249)).toBe(amount("2"));
    expect(salePriceHtml(1900, 1520)).toBe(`<del>${amount("19")}</del> <ins>${amount("15")}</ins>`);
  });
  it("a discount that does not show at the shop's precision is not struck through against itself", () => {
    expect(salePriceHtml(300, 250)).toBe(amount("3"));
    const two = { symbol: "€", position: "right" as const, decimals: 2, decimalSeparator: ",", thousandSeparator: "." };
    expect(salePriceHtml(300, 250, two)).toContain("<del>");
  });
});

describe("productDiscountDetail wording", () => {
  it("prints the mask prices in the shop's format, like the cart", () => {
    const detail = productDiscountDetail({ product: MASK, quantity: 6, rules: MASK_PROMOTION_RULES, now: NOW });
    expect(detail.discounted_price).toBe(250);
    expect(detail.discounted_price_html).toBe(amount("3"));
    expect(detail.initial_price_html).toBe(amount("3"));
    const twelve = productDiscountDetail({ product: MASK, quantity: 12, rules: MASK_PROMOTION_RULES, now: NOW });
    expect(twelve.discounted_price_html).toBe(amount("2"));
  });
});
