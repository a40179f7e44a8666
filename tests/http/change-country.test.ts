/**
 * The shop pages' 'change country' form (docs/contract/storefront.md §2 'Change country'): its fields, and
 * POST /change-country/ storing the shopper's country in the customer session, which the checkout then starts on.
 * A country the shop does not ship to, an unknown region or a malformed time is refused with a notice and changes
 * nothing; the way back is always a page of this shop.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { productWithStock } from "./checkout-support.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await startTestShop();
  await productWithStock(shop, "silk-pocket-square", 100, 1500);
});
afterAll(async () => shop?.close());

const selectedCountry = (html: string) => /<select name="billing_country"[^>]*>[\s\S]*?<option value="([A-Z]{2})" selected=""/.exec(html)?.[1];
const noticeText = (html: string) => [...html.matchAll(/<(div|ul)[^>]*role="alert"[^>]*>([\s\S]*?)<\/\1>/g)].map((m) => m[2]!.replace(/<[^>]+>/g, "").trim());

async function shopperWithCart(): Promise<TestClient> {
  const client = new TestClient(shop.url);
  await client.get("/shop/");
  const res = await client.get(
    "/?add-to-cart=" + (await shop.services.db.query<{ id: number }>("SELECT id FROM products WHERE slug = 'silk-pocket-square'"))[0]!.id,
  );
  expect(res.status).toBe(303);
  return client;
}

describe("change country", () => {
  it("prints the form's three fields on shop and category pages", async () => {
    for (const path of ["/shop/", "/product-category/face-masks/"]) {
      const html = await (await fetch(shop.url + path)).text();
      expect(html).toMatch(/<form class="change-country"[^>]* action="\/change-country\/" method="post">/);
      expect(html).toContain('<select name="region" id="change-country-region">');
      expect(html).toContain('<select name="current_country" id="current_country"');
      expect(html).toContain('<input type="hidden" name="se_current_time"/>');
      expect(html).toContain(`<input type="hidden" name="redirect_to" value="${path}"/>`);
    }
  });

  it("stores the country for the checkout and goes back to the page", async () => {
    const client = await shopperWithCart();
    expect(selectedCountry(await (await client.get("/checkout/")).text())).toBe("US");
    const res = await client.post("/change-country/", {
      region: "europe",
      current_country: "DE",
      se_current_time: String(Date.now()),
      redirect_to: "/shop/?orderby=price",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/shop/?orderby=price");
    const page = await (await client.get("/shop/?orderby=price")).text();
    expect(noticeText(page)).toContain("Your country is now Germany. Prices, shipping and the checkout use it.");
    expect(page).toMatch(/<option value="DE" selected="">Germany<\/option>/);
    expect(selectedCountry(await (await client.get("/checkout/")).text())).toBe("DE");
  });

  it("refuses a country the shop does not ship to, a bad region or time, and changes nothing", async () => {
    const client = await shopperWithCart();
    await client.post("/change-country/", { current_country: "CA", redirect_to: "/shop/" });
    const bad: [Record<string, string>, string][] = [
      [{ current_country: "RU" }, "Country / Region is not a country we ship to."],
      [{ current_country: "" }, "Country / Region is not a country we ship to."],
      [{ current_country: "CA", region: "antarctica" }, "Region is not one of the regions we ship to."],
      [{ current_country: "CA", se_current_time: "yesterday" }, "se_current_time must be the time in epoch milliseconds."],
    ];
    for (const [form, message] of bad) {
      const res = await client.post("/change-country/", { ...form, redirect_to: "/shop/" });
      expect(res.status).toBe(303);
      expect(noticeText(await (await client.get("/shop/")).text())).toContain(message);
    }
    expect(selectedCountry(await (await client.get("/checkout/")).text())).toBe("CA");
  });

  it("never sends the shopper to another site, and a GET goes to the shop", async () => {
    const client = new TestClient(shop.url);
    for (const to of ["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
      const res = await client.post("/change-country/", { current_country: "US", redirect_to: to });
      expect(res.headers.get("location")).toBe("/shop/");
    }
    const get = await client.get("/change-country/");
    expect([get.status, get.headers.get("location")]).toEqual([302, "/shop/"]);
  });
});
