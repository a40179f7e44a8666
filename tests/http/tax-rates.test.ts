/**
 * Tax rates (docs/decisions/0040-tax-rates.md): `wc/v3/taxes` (capability, WooCommerce's shapes and refusals) and
 * `shop/v1/settings/tax`; with a rate and tax on, the Store API cart, the classic checkout's review and both checkouts
 * charge it (items and shipping), the order stores it (wc/v3 order total_tax, tax_lines, line taxes) and the gateway
 * is asked for the total with tax; with tax off, nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;
let productId = 0;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire shapes read loosely in tests
type Json = any;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "tax-admin@example.com", "administrator");
  manager = await signInAs(shop, "tax-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "tax-customer@example.com", "customer");
  productId = await productWithStock(shop, "silk-pocket-square", 1000, 1500);
});
afterAll(async () => shop?.close());

const call = (who: SignedIn, method: string, path: string, json?: unknown) =>
  who.client.request(`/wp-json/${path}`, { method, headers: { "X-WP-Nonce": who.nonce }, ...(json === undefined ? {} : { json }) });
const guest = (method: string, path: string) => new TestClient(shop.url).request(`/wp-json/${path}`, { method });

async function params(res: Response): Promise<Record<string, string>> {
  expect(res.status).toBe(400);
  const body = (await res.json()) as { code: string; data: { params: Record<string, string> } };
  expect(body.code).toBe("rest_invalid_param");
  return body.data.params;
}

class Headless {
  token: string | null = null;
  async call(method: string, path: string, body?: unknown): Promise<{ res: Response; body: Json }> {
    const h: Record<string, string> = { Accept: "application/json" };
    if (this.token) h["Cart-Token"] = this.token;
    if (body !== undefined) h["Content-Type"] = "application/json";
    const res = await fetch(`${shop.url}/wp-json/wc/store/v1${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const token = res.headers.get("Cart-Token");
    if (token) this.token = token;
    const text = await res.text();
    return { res, body: text ? JSON.parse(text) : null };
  }
}

const setTax = async (fields: Record<string, unknown>) => expect((await call(admin, "PUT", "shop/v1/settings/tax", fields)).status).toBe(200);

describe("wc/v3/taxes", () => {
  it("guests 401, customers 403 in WooCommerce's words; staff list, create, read, edit and delete rates", async () => {
    expect((await guest("GET", "wc/v3/taxes")).status).toBe(401);
    const denied = await call(customer, "POST", "wc/v3/taxes", { country: "GB", rate: "20" });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as Json).code).toBe("woocommerce_rest_cannot_create");
    expect((await call(customer, "GET", "wc/v3/taxes")).status).toBe(403);

    const created = await call(manager, "POST", "wc/v3/taxes", { country: "gb", rate: "17.5", name: "VAT", postcode: "SW1*; E1" });
    expect(created.status).toBe(201);
    const vat = (await created.json()) as Json;
    expect(vat).toMatchObject({
      country: "GB",
      state: "",
      postcode: "SW1*; E1",
      postcodes: ["SW1*", "E1"],
      city: "",
      cities: [],
      rate: "17.5000",
      name: "VAT",
      priority: 1,
      compound: false,
      shipping: true,
      order: 0,
      class: "standard",
    });
    const edited = await call(admin, "PUT", `wc/v3/taxes/${vat.id}`, { rate: 20, postcodes: [] });
    expect(await edited.json()).toMatchObject({ id: vat.id, rate: "20.0000", postcode: "", name: "VAT" });
    const state = (await (
      await call(admin, "POST", "wc/v3/taxes", { country: "US", state: "california", rate: "7.25", name: "CA", priority: 2 })
    ).json()) as Json;
    expect(state).toMatchObject({ state: "CA", rate: "7.2500", priority: 2 });

    const list = await call(manager, "GET", "wc/v3/taxes?orderby=id&per_page=1");
    expect(list.headers.get("X-WP-Total")).toBe("2");
    expect(((await list.json()) as Json[]).map((r) => r.id)).toEqual([vat.id]);
    expect(await (await call(manager, "GET", `wc/v3/taxes/${state.id}`)).json()).toMatchObject({ id: state.id, name: "CA" });

    const trash = await call(admin, "DELETE", `wc/v3/taxes/${state.id}`);
    expect(trash.status).toBe(501);
    expect(((await trash.json()) as Json).code).toBe("woocommerce_rest_trash_not_supported");
    const gone = await call(admin, "DELETE", `wc/v3/taxes/${state.id}?force=true`);
    expect(gone.status).toBe(200);
    expect((await call(admin, "GET", `wc/v3/taxes/${state.id}`)).status).toBe(404);
    expect(((await (await call(admin, "GET", `wc/v3/taxes/${state.id}`)).json()) as Json).code).toBe("woocommerce_rest_invalid_id");
  });

  it("refuses bad values at their field with 400, never 500", async () => {
    const bad = (body: unknown) => call(admin, "POST", "wc/v3/taxes", body).then(params);
    expect((await bad({ rate: "abc" })).rate).toMatch(/percentage/);
    expect(await bad({ rate: "-1" })).toHaveProperty("rate");
    expect(await bad({ rate: "1.23456" })).toHaveProperty("rate");
    expect(await bad({ country: "ZZ", rate: "5" })).toHaveProperty("country");
    expect((await bad({ state: "CA", rate: "5" })).state).toMatch(/needs a country/);
    expect((await bad({ country: "US", state: "Narnia", rate: "5" })).state).toMatch(/not a state/);
    expect(await bad({ country: "US", postcode: "90299...90210", rate: "5" })).toHaveProperty("postcode");
    expect(await bad({ class: "reduced-rate", rate: "5" })).toHaveProperty("class");
    expect(await bad({ city: "London", rate: "5" })).toHaveProperty("city");
    expect(await bad({ priority: "high", rate: "5" })).toHaveProperty("priority");
    expect(await bad({ colour: "red" })).toHaveProperty("colour");
    expect(await params(await call(admin, "GET", "wc/v3/taxes?orderby=colour"))).toHaveProperty("orderby");
    expect((await call(admin, "PUT", "wc/v3/taxes/999999", { rate: "5" })).status).toBe(404);
  });
});

describe("Settings › Tax and the totals", () => {
  it("staff read and write the section; bad values are refused at their field", async () => {
    expect((await guest("GET", "shop/v1/settings/tax")).status).toBe(401);
    expect((await call(customer, "GET", "shop/v1/settings/tax")).status).toBe(403);
    expect(await (await call(manager, "GET", "shop/v1/settings/tax")).json()).toEqual({ enabled: false, basedOn: "shipping", shippingTaxable: true });
    expect(await params(await call(admin, "PUT", "shop/v1/settings/tax", { basedOn: "moon" }))).toHaveProperty("basedOn");
    expect(await params(await call(admin, "PUT", "shop/v1/settings/tax", { pricesIncludeTax: true }))).toHaveProperty("pricesIncludeTax");
  });

  it("with tax on, the cart and both checkouts charge the address's rates on items and shipping; the order keeps them; off, nothing", async () => {
    const c = new Headless();
    await c.call("GET", "/cart");
    await c.call("POST", "/cart/add-item", { id: productId, quantity: 2 });
    const gb = (await c.call("POST", "/cart/update-customer", { shipping_address: { country: "GB", postcode: "SW1A 1AA" } })).body;
    // Tax off (the default): the cart is what it was.
    expect(gb.totals).toMatchObject({ total_tax: "0", tax_lines: [], total_price: "3500" });

    await setTax({ enabled: true });
    try {
      const taxed = (await c.call("GET", "/cart")).body;
      // 2 × $15 = 3000 → VAT 600; shipping 500 → VAT 100.
      expect(taxed.totals).toMatchObject({
        total_items: "3000",
        total_items_tax: "600",
        total_shipping: "500",
        total_shipping_tax: "100",
        total_tax: "700",
        total_price: "4200",
        tax_lines: [{ name: "VAT", price: "700", rate: "20%" }],
      });
      expect(taxed.items[0].totals).toMatchObject({ line_subtotal_tax: "600", line_total_tax: "600" });
      // An address no rate matches pays none.
      const us = (await c.call("POST", "/cart/update-customer", { shipping_address: { country: "US", state: "NY", postcode: "10001" } })).body;
      expect(us.totals).toMatchObject({ total_tax: "0", total_price: "3500" });

      // Shipping not taxable: only the items.
      await setTax({ shippingTaxable: false });
      expect((await c.call("POST", "/cart/update-customer", { shipping_address: { country: "GB" } })).body.totals).toMatchObject({
        total_tax: "600",
        total_price: "4100",
      });
      await setTax({ shippingTaxable: true });

      // The Store API checkout charges the total with tax and the order keeps it.
      const address = {
        first_name: "Ada",
        last_name: "Lovelace",
        address_1: "1 Way",
        city: "London",
        state: "",
        postcode: "SW1A 1AA",
        country: "GB",
        phone: "555 123 4567",
        email: "ada-tax@example.com",
      };
      const placed = await c.call("POST", "/checkout", {
        billing_address: address,
        shipping_address: address,
        payment_method: "sandbox_credit_card",
        payment_data: [
          { key: "wc-sandbox-credit-card-account-number", value: "4242424242424242" },
          { key: "wc-sandbox-credit-card-expiry", value: "12 / 34" },
          { key: "wc-sandbox-credit-card-csc", value: "123" },
        ],
      });
      expect(placed.res.status).toBe(200);
      const storeOrderId = placed.body.order_id as number;
      const order = (await (await call(admin, "GET", `wc/v3/orders/${storeOrderId}`)).json()) as Json;
      expect(order).toMatchObject({ total: "42.00", total_tax: "7.00", cart_tax: "6.00", shipping_tax: "1.00", shipping_total: "5.00" });
      expect(order.tax_lines).toMatchObject([{ label: "VAT", tax_total: "6.00", shipping_tax_total: "1.00", rate_percent: 20, compound: false }]);
      expect(order.line_items[0]).toMatchObject({ total: "30.00", total_tax: "6.00", subtotal_tax: "6.00" });
      expect(order.shipping_lines[0]).toMatchObject({ total: "5.00", total_tax: "1.00" });
      const [attempt] = await shop.services.db.query<{ amount: number }>(`SELECT amount::int FROM payment_attempts WHERE order_id = $1`, [storeOrderId]);
      expect(attempt!.amount).toBe(4200);

      // The classic checkout: the review shows the VAT row, the order charges it.
      const shopper = await shopperWithCart(shop, productId);
      const page = await openCheckout(shopper);
      const review = (await (
        await shopper.post("/?wc-ajax=update_order_review", { security: page.reviewNonce, country: "GB", s_country: "GB", s_postcode: "E1 6AN" })
      ).json()) as Json;
      const table = review.fragments[".woocommerce-checkout-review-order-table"] as string;
      expect(table).toMatch(/<tr class="tax-rate tax-rate-\d+"><th>VAT<\/th><td>\$4<\/td><\/tr>/);
      const classic = await submitCheckout(shopper, page, {
        ...billing(),
        billing_country: "GB",
        billing_state: "",
        billing_postcode: "E1 6AN",
        ...cardFields(),
      });
      expect(classic.result).toBe("success");
      const [row] = await shop.services.db.query<{ total: number; total_tax: number; shipping_tax: number; amount: number }>(
        `SELECT o.total::int, o.total_tax::int, o.shipping_tax::int, a.amount::int FROM orders o JOIN payment_attempts a ON a.order_id = o.id ORDER BY o.id DESC LIMIT 1`,
      );
      // $15 + $5 shipping, VAT 300 + 100.
      expect(row).toEqual({ total: 2400, total_tax: 400, shipping_tax: 100, amount: 2400 });
      // The order received page and the order e-mail print the VAT row before the total.
      const url = new URL(classic.redirect!);
      expect(await (await shopper.get(url.pathname + url.search)).text()).toMatch(/<th>VAT:<\/th><td>\$4<\/td>/);
      const mail = () =>
        shop.services.db.query<{ body: string }>(`SELECT body FROM email_outbox WHERE kind = 'order_received' AND order_id = $1`, [
          Number(url.pathname.split("/")[3]),
        ]);
      await expect.poll(async () => (await mail())[0]?.body).toContain("Shipping: $5\nVAT: $4\nTotal: $24\n");

      // Based on the store's address (US, no rate): no tax, wherever the cart goes.
      await setTax({ basedOn: "base" });
      expect((await c.call("POST", "/cart/add-item", { id: productId, quantity: 1 })).body.totals.total_tax).toBe("0");
    } finally {
      expect((await call(admin, "DELETE", "shop/v1/settings/tax")).status).toBe(200);
    }
    // Off again: the same cart pays no tax.
    const off = (await c.call("POST", "/cart/update-customer", { shipping_address: { country: "GB" } })).body;
    expect(off.totals).toMatchObject({ total_tax: "0", tax_lines: [] });
    expect(off.items[0].totals.line_total_tax).toBe("0");
  });
});
