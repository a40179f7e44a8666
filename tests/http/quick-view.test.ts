// GET /quick-view/{slug}/ (docs/contract/sticky-quick-view.md §2): the product page loader's form data as JSON; an
// unknown or malformed slug is a 404, never a 5xx.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await startTestShop({ SHOP_SETTINGS: JSON.stringify({ shop: { quickViewEnable: true } }) });
});
afterAll(async () => {
  await shop?.close();
});

describe("GET /quick-view/{slug}/", () => {
  it("answers a variable product's form data, not cached", async () => {
    const res = await fetch(`${shop.url}/quick-view/silk-necktie/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const body = (await res.json()) as {
      product: { name: string; type: string };
      variable: { attributes: { name: string }[]; variations: { is_in_stock: boolean }[] };
      url: string;
    };
    expect(body.product.name).toBe("Silk Necktie");
    expect(body.variable.attributes.map((a) => a.name)).toContain("attribute_pa_color");
    expect(body.variable.variations.some((v) => !v.is_in_stock)).toBe(true);
    expect(body.url).toMatch(/\/product\/silk-necktie\/$/);
  });

  it("is a 404 for an unknown or malformed slug", async () => {
    for (const slug of ["no-such-product", "%27%3B--", "x".repeat(2000), "%E2%80%AE%F0%9F%98%80"]) {
      const res = await fetch(`${shop.url}/quick-view/${slug}/`);
      expect(res.status, slug.slice(0, 20)).toBe(404);
    }
  });
});
