/**
 * What pages print for the browser tracker (docs/contract/storefront.md §3 'Tracking data', §9 'Tracking
 * (analytics)'), with destinations configured: the tracker's settings (user_id for a signed-in visitor), the CSP
 * naming exactly the configured hosts, and the per-product data (one unit's params, the grouped child map).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";
import { billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop({ SHOP_SETTINGS: JSON.stringify({ tracking: { gtmContainerId: "GTM-TEST12", pixels: { facebook: ["1234567890"] } } }) });
  productId = await productWithStock(shop, "silk-pocket-square", 100, 1500);
});
afterAll(async () => shop?.close());

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";
function jsonScript(html: string, selector: RegExp): Record<string, unknown> {
  const m = selector.exec(html);
  if (!m) throw new Error(`no ${selector}`);
  return JSON.parse(m[1]!) as Record<string, unknown>;
}

describe("tracking data in pages", () => {
  it("prints the tracker's settings and allows exactly the configured destinations' hosts", async () => {
    const res = await new TestClient(shop.url).get("/product/silk-pocket-square/");
    const csp = res.headers.get("content-security-policy") ?? "";
    const html = await res.text();
    expect(pageGlobal(html, "shop_tracking")).toMatchObject({
      dataLayer: "dataLayer",
      gtm: "GTM-TEST12",
      ga4: null,
      pixels: { facebook: ["1234567890"] },
      serverEvents: true,
      restUrl: "/wp-json/pys/v1/event",
      ajaxUrl: "/wp-admin/admin-ajax.php",
      currency: "USD",
      userId: 0,
    });
    // The page's inline scripts by nonce, or on a page the page cache keeps, by their hashes (decision 0028).
    expect(csp).toMatch(
      /script-src 'self' (?:'nonce-[^']+'|(?:'sha256-[^']+' )*'sha256-[^']+') https:\/\/www\.googletagmanager\.com https:\/\/connect\.facebook\.net;/,
    );
    expect(csp).toContain("https://www.facebook.com");
    expect(csp).not.toContain("pinimg");
  });

  it("a product page prints its one-unit params and ViewContent; a grouped product its child map", async () => {
    const client = new TestClient(shop.url);
    const html = await (await client.get("/product/silk-pocket-square/")).text();
    const data = jsonScript(html, new RegExp(`<script type="application/json" class="pys-product-data" data-product-id="${productId}">(.*?)</script>`));
    expect(data.params).toEqual({
      value: 15,
      currency: "USD",
      contents: [{ id: String(productId), quantity: 1 }],
      content_ids: [String(productId)],
      items: [{ id: String(productId), quantity: 1, price: 15 }],
      ecomm_totalvalue: 15,
    });
    expect(jsonScript(html, /<script type="application\/json" id="pys-page-event">(.*?)<\/script>/)).toMatchObject({
      event: "ViewContent",
      params: { value: 15 },
    });

    const grouped = await (await client.get("/product/office-essentials/")).text();
    const [row] = await shop.services.db.query<{ id: number }>(`SELECT id FROM products WHERE slug = 'office-essentials'`);
    const groupedData = jsonScript(grouped, new RegExp(`class="pys-product-data" data-product-id="${row!.id}">(.*?)</script>`)) as {
      children: Record<string, { content_id: string; price: number }>;
    };
    expect(Object.keys(groupedData.children)).toHaveLength(3);
    expect(groupedData.children[String(productId)]).toEqual({ content_id: String(productId), price: 15 });
  });

  it("a signed-in visitor's id goes to the tag manager (storefront.md §6)", async () => {
    const email = "tracked-user@example.com";
    const registered = await registerCustomer(shop.services.db, { email, password: "account pass 1", first_name: "Ada", last_name: "Lovelace" });
    const client = new TestClient(shop.url);
    const page = await (await client.get("/my-account/")).text();
    const login = await client.post("/my-account/", {
      intent: "login",
      username: email,
      password: "account pass 1",
      "woocommerce-login-nonce": hidden(page, "woocommerce-login-nonce"),
    });
    expect(login.status).toBe(302);
    const html = await (await client.get("/shop/")).text();
    expect(registered.ok).toBe(true);
    expect(pageGlobal(html, "shop_tracking").userId).toBe(registered.ok ? registered.customerId : -1);
    expect(html).not.toContain("pys-registration-event"); // a sign-in is no registration
    // Listing items with an in-place add carry their own data.
    expect(html).toMatch(/class="pys-product-data" data-product-id="\d+"/);
  });

  it("an account created at checkout: the order's page prints CompleteRegistration once, the next page does not", async () => {
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const reply = await submitCheckout(client, page, {
      ...billing("tracked-new-account@example.com"),
      ...cardFields(),
      createaccount: "1",
      account_password: "new account pass 1",
    });
    expect(reply.result).toBe("success");
    const received = await (await client.get(new URL(reply.redirect!, shop.url).pathname + new URL(reply.redirect!, shop.url).search)).text();
    expect(jsonScript(received, /<script type="application\/json" id="pys-registration-event">(.*?)<\/script>/)).toEqual({
      event: "CompleteRegistration",
      params: { method: "email" },
    });
    expect(received).toContain('id="pys-page-event"'); // the Purchase is printed beside it
    expect(await (await client.get("/shop/")).text()).not.toContain("pys-registration-event");
  });
});
