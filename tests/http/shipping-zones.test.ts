/**
 * Settings › General (`shop/v1/settings/general`: the store's address, where it sells and ships) and shipping zones
 * (`shop/v1/shipping-zones`): validation, versions, capabilities; a cart shipped to a country of a zone gets that
 * zone's rates (Store API and the classic checkout's update_order_review), the rest of the world keeps the flat
 * methods the shop had before (migration 0033), and a country the shop does not sell or ship to is refused by the
 * Store API and by the classic checkout with WooCommerce's words.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { billing, cardFields, counts, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;
let productId = 0;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire shapes read loosely in tests
type Json = any;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "zones-admin@example.com", "administrator");
  manager = await signInAs(shop, "zones-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "zones-customer@example.com", "customer");
  productId = await productWithStock(shop, "silk-pocket-square", 1000, 1500);
});
afterAll(async () => shop?.close());

const call = (who: SignedIn, method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
  who.client.request(`/wp-json/${path}`, { method, headers: { "X-WP-Nonce": who.nonce, ...headers }, ...(json === undefined ? {} : { json }) });
const guest = (method: string, path: string, json?: unknown) =>
  new TestClient(shop.url).request(`/wp-json/${path}`, { method, ...(json === undefined ? {} : { json }) });

async function params(res: Response): Promise<Record<string, string>> {
  expect(res.status).toBe(400);
  const body = (await res.json()) as { code: string; data: { params: Record<string, string> } };
  expect(body.code).toBe("rest_invalid_param");
  return body.data.params;
}

/** A cookie-less Store API client keeping its cart by Cart-Token. */
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

const rates = (cart: Json) => (cart.shipping_rates[0]?.shipping_rates ?? []).map((r: Json) => [r.rate_id, Number(r.price)]);

describe("Settings › General", () => {
  it("guests 401, customers 403; staff read the address, the selling locations and the fixed currency", async () => {
    expect((await guest("GET", "shop/v1/settings/general")).status).toBe(401);
    expect((await call(customer, "GET", "shop/v1/settings/general")).status).toBe(403);
    expect((await call(customer, "PUT", "shop/v1/settings/general", { city: "Leeds" })).status).toBe(403);
    const res = await call(manager, "GET", "shop/v1/settings/general");
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toMatch(/^"[0-9a-f]{16}"$/);
    expect(await res.json()).toMatchObject({
      country: "US",
      sellTo: "all",
      sellToCountries: [],
      shipTo: "same_as_selling",
      currency: { code: "USD", editable: false },
    });
  });

  it("refuses bad values at their field, the currency as no field, a stale If-Match with 412; a good save reads back", async () => {
    expect(await params(await call(admin, "PUT", "shop/v1/settings/general", { country: "ZZ" }))).toHaveProperty("country");
    expect((await params(await call(admin, "PUT", "shop/v1/settings/general", { sellTo: "specific" }))).sellToCountries).toMatch(/at least one country/);
    expect(await params(await call(admin, "PUT", "shop/v1/settings/general", { country: "US", state: "Narnia" }))).toHaveProperty("state");
    expect(await params(await call(admin, "PUT", "shop/v1/settings/general", { country: "GB", postcode: "12345678" }))).toHaveProperty("postcode");
    expect(await params(await call(admin, "PUT", "shop/v1/settings/general", { sellToCountries: ["US", "US"] }))).toHaveProperty("sellToCountries");
    expect(await params(await call(admin, "PUT", "shop/v1/settings/general", { currency: "EUR" }))).toHaveProperty("currency");

    const first = await call(admin, "GET", "shop/v1/settings/general");
    const etag = first.headers.get("ETag")!;
    const saved = await call(
      admin,
      "PUT",
      "shop/v1/settings/general",
      { address: "1 Mask Lane", city: "Springfield", state: "illinois", postcode: "62701" },
      { "If-Match": etag },
    );
    expect(saved.status).toBe(200);
    // The state is stored as its code.
    expect(await saved.json()).toMatchObject({ address: "1 Mask Lane", city: "Springfield", state: "IL", postcode: "62701", country: "US" });
    const stale = await call(admin, "PUT", "shop/v1/settings/general", { city: "Shelbyville" }, { "If-Match": etag });
    expect(stale.status).toBe(412);
    expect(((await stale.json()) as Json).code).toBe("rest_setting_changed");
    expect(await (await call(admin, "GET", "shop/v1/settings/general")).json()).toMatchObject({ city: "Springfield" });
  });
});

describe("shop/v1/shipping-zones", () => {
  it("guests 401, customers 403; the rest of the world holds the methods the shop had before", async () => {
    expect((await guest("GET", "shop/v1/shipping-zones")).status).toBe(401);
    expect((await call(customer, "GET", "shop/v1/shipping-zones")).status).toBe(403);
    const denied = await call(customer, "POST", "shop/v1/shipping-zones", { name: "Mine", regions: [{ type: "country", code: "GB" }] });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as Json).code).toBe("rest_cannot_create");
    expect((await call(customer, "DELETE", "shop/v1/shipping-zones/0")).status).toBe(403);
    const zones = (await (await call(manager, "GET", "shop/v1/shipping-zones")).json()) as Json[];
    expect(zones).toHaveLength(1);
    expect(zones[0]).toMatchObject({ id: 0, rest_of_world: true, name: "Locations not covered by your other zones", regions: [] });
    expect(zones[0].methods.map((m: Json) => m.id)).toEqual(["flat_rate:1", "free_shipping:1", "local_pickup:1"]);
  });

  it("validates a zone at its field and refuses what would break the rest of the world", async () => {
    const bad = (body: unknown) => call(admin, "POST", "shop/v1/shipping-zones", body).then(params);
    expect(await bad({ name: "", regions: [] })).toHaveProperty("name");
    expect((await bad({ name: "X", regions: [{ type: "country", code: "Britain" }] })).regions).toMatch(/^regions\[0\]\.code /);
    expect((await bad({ name: "X", regions: [{ type: "postcode", code: "90299...90210" }] })).regions).toMatch(/range/);
    expect((await bad({ name: "X", methods: [{ kind: "free_shipping", title: "Free", requires: "min_amount" }] })).methods).toMatch(
      /^methods\[0\]\.minAmount /,
    );
    expect((await bad({ name: "X", methods: [{ kind: "flat_rate", title: "Flat", cost: -1 }] })).methods).toMatch(/^methods\[0\]\.cost /);
    expect((await bad({ name: "X", methods: [{ kind: "flat_rate", title: "Flat", cost: 1.5 }] })).methods).toMatch(/^methods\[0\]\.cost /);
    // A method of another zone cannot be taken over.
    expect((await bad({ name: "X", methods: [{ id: "flat_rate:1", kind: "flat_rate", title: "Flat", cost: 100 }] })).methods).toMatch(
      /not a method of this zone/,
    );
    expect(await bad({ name: "X", colour: "red" })).toHaveProperty("colour");
    expect(await params(await call(admin, "PUT", "shop/v1/shipping-zones/0", { name: "Elsewhere" }))).toHaveProperty("name");
    expect(await params(await call(admin, "PUT", "shop/v1/shipping-zones/0", { regions: [{ type: "country", code: "GB" }] }))).toHaveProperty("regions");
    const undeletable = await call(admin, "DELETE", "shop/v1/shipping-zones/0");
    expect(undeletable.status).toBe(400);
    expect(((await undeletable.json()) as Json).code).toBe("rest_shipping_zone_cannot_delete");
    expect((await call(admin, "GET", "shop/v1/shipping-zones/999")).status).toBe(404);
    expect(((await (await call(admin, "GET", "shop/v1/shipping-zones")).json()) as Json[]).length).toBe(1);
  });

  it("a cart shipped to a country of a zone gets that zone's rates; elsewhere, the rest of the world's; reorder and delete follow", async () => {
    const created = await call(admin, "POST", "shop/v1/shipping-zones", {
      name: "United Kingdom",
      regions: [{ type: "country", code: "GB" }],
      methods: [
        { kind: "flat_rate", title: "Royal Mail", cost: 900, costPerItem: 100 },
        { kind: "local_pickup", title: "Collect in London", cost: 0 },
      ],
    });
    expect(created.status).toBe(201);
    const uk = (await created.json()) as Json;
    expect(uk).toMatchObject({ name: "United Kingdom", order: 0, rest_of_world: false, regions: [{ type: "country", code: "GB" }] });
    // New methods take instance numbers past every existing one.
    expect(uk.methods.map((m: Json) => m.id)).toEqual(["flat_rate:2", "local_pickup:3"]);
    const europe = (await (
      await call(admin, "POST", "shop/v1/shipping-zones", {
        name: "Europe",
        regions: ["GB", "IE", "FR", "DE"].map((code) => ({ type: "country", code })),
        methods: [{ kind: "flat_rate", title: "Europe flat", cost: 1200 }],
      })
    ).json()) as Json;

    const c = new Headless();
    await c.call("GET", "/cart");
    await c.call("POST", "/cart/add-item", { id: productId, quantity: 2 });
    // No address yet: the store's country (US) is in no zone, so the rest of the world's rates, as before zones.
    expect(rates((await c.call("GET", "/cart")).body)).toEqual([
      ["flat_rate:1", 500],
      ["local_pickup:1", 0],
    ]);
    const gb = (await c.call("POST", "/cart/update-customer", { shipping_address: { country: "GB", postcode: "SW1A 1AA" } })).body;
    // 900 + 100 per item × 2: the UK zone, first in order, not Europe.
    expect(rates(gb)).toEqual([
      ["flat_rate:2", 1100],
      ["local_pickup:3", 0],
    ]);
    expect(Number(gb.totals.total_shipping)).toBe(1100);
    const fr = (await c.call("POST", "/cart/update-customer", { shipping_address: { country: "FR" } })).body;
    expect(rates(fr)).toEqual([[europe.methods[0].id, 1200]]);
    expect((await c.call("POST", "/cart/select-shipping-rate", { package_id: 0, rate_id: europe.methods[0].id })).res.status).toBe(200);

    // Europe first: Great Britain now gets Europe's rate.
    expect(await params(await call(admin, "PUT", "shop/v1/shipping-zones/order", { ids: [europe.id] }))).toHaveProperty("ids");
    const reordered = await call(admin, "PUT", "shop/v1/shipping-zones/order", { ids: [europe.id, uk.id] });
    expect(reordered.status).toBe(200);
    expect(((await reordered.json()) as Json[]).map((z) => z.id)).toEqual([europe.id, uk.id, 0]);
    expect(rates((await c.call("POST", "/cart/update-customer", { shipping_address: { country: "GB" } })).body)).toEqual([[europe.methods[0].id, 1200]]);

    // An edit with a stale version is refused; a current one changes the rate the cart sees at once.
    const read = await call(admin, "GET", `shop/v1/shipping-zones/${europe.id}`);
    const etag = read.headers.get("ETag")!;
    const edited = await call(
      admin,
      "PUT",
      `shop/v1/shipping-zones/${europe.id}`,
      {
        methods: [
          { ...europe.methods[0], cost: 1300 },
          { kind: "free_shipping", title: "Free over $20", requires: "min_amount", minAmount: 2000 },
        ],
      },
      { "If-Match": etag },
    );
    expect(edited.status).toBe(200);
    const stale = await call(admin, "PUT", `shop/v1/shipping-zones/${europe.id}`, { name: "EU" }, { "If-Match": etag });
    expect(stale.status).toBe(412);
    expect(((await stale.json()) as Json).code).toBe("rest_shipping_zone_changed");
    const gbAgain = rates((await c.call("GET", "/cart")).body);
    // The flat rate kept its id (the cart's chosen rate); 2 × $15 reaches the free shipping's minimum.
    expect(gbAgain).toEqual([
      [europe.methods[0].id, 1300],
      [expect.stringMatching(/^free_shipping:\d+$/), 0],
    ]);

    // The classic checkout's refresh posts the address the same way (s_country…), and the order is priced with it.
    const shopper = await shopperWithCart(shop, productId);
    const page = await openCheckout(shopper);
    const review = (await (
      await shopper.post("/?wc-ajax=update_order_review", { security: page.reviewNonce, country: "GB", s_country: "GB", s_postcode: "SW1A 1AA" })
    ).json()) as Json;
    expect(review.fragments[".woocommerce-checkout-review-order-table"]).toContain("Europe flat");
    const placed = await submitCheckout(shopper, page, {
      ...billing(),
      billing_country: "GB",
      billing_state: "",
      billing_postcode: "SW1A 1AA",
      shipping_method: europe.methods[0].id,
      ...cardFields(),
    });
    expect(placed.result).toBe("success");
    const [order] = await shop.services.db.query<{ shipping_total: number; shipping_method_id: string }>(
      `SELECT shipping_total::int, shipping_method_id FROM orders ORDER BY id DESC LIMIT 1`,
    );
    expect(order).toEqual({ shipping_total: 1300, shipping_method_id: europe.methods[0].id });

    // Deleting the zones: Great Britain is the rest of the world again.
    expect((await call(admin, "DELETE", `shop/v1/shipping-zones/${europe.id}`)).status).toBe(200);
    expect((await call(admin, "DELETE", `shop/v1/shipping-zones/${uk.id}`)).status).toBe(200);
    expect(rates((await c.call("GET", "/cart")).body).map((r: [string, number]) => r[0])).toEqual(["flat_rate:1", "local_pickup:1"]);
  });
});

describe("countries the shop does not sell or ship to", () => {
  it("the Store API and the classic checkout refuse them with WooCommerce's words; the checkout offers only the allowed ones", async () => {
    const saved = await call(admin, "PUT", "shop/v1/settings/general", {
      sellTo: "specific",
      sellToCountries: ["US", "GB", "CA"],
      shipTo: "all_except",
      shipToCountries: ["CA"],
    });
    expect(saved.status).toBe(200);
    try {
      const c = new Headless();
      await c.call("GET", "/cart");
      await c.call("POST", "/cart/add-item", { id: productId, quantity: 1 });
      const notSold = await c.call("POST", "/cart/update-customer", { billing_address: { country: "FR" } });
      expect(notSold.res.status).toBe(400);
      expect(notSold.body).toMatchObject({
        code: "rest_invalid_param",
        data: { status: 400, params: { billing_address: "Sorry, we do not allow orders from the provided country (FR)" } },
      });
      const notShipped = await c.call("POST", "/cart/update-customer", { shipping_address: { country: "CA" } });
      expect(notShipped.body.data.params.shipping_address).toBe("Sorry, we do not ship orders to the provided country (CA)");

      const before = await counts(shop);
      const address = {
        first_name: "Ada",
        last_name: "Lovelace",
        address_1: "1 Way",
        city: "Toronto",
        state: "ON",
        postcode: "M5H 2N2",
        country: "CA",
        phone: "555 123 4567",
        email: "ada@example.com",
      };
      const pay = {
        payment_method: "sandbox_credit_card",
        payment_data: [
          { key: "wc-sandbox-credit-card-account-number", value: "4242424242424242" },
          { key: "wc-sandbox-credit-card-expiry", value: "12 / 34" },
          { key: "wc-sandbox-credit-card-csc", value: "123" },
        ],
      };
      const refused = await c.call("POST", "/checkout", { billing_address: address, ...pay });
      expect(refused.res.status).toBe(400);
      expect(refused.body.code).toBe("rest_invalid_param");
      expect(refused.body.data.params.billing_address).toBe("Sorry, we do not ship orders to the provided country (CA)");
      const fromFrance = await c.call("POST", "/checkout", {
        billing_address: { ...address, country: "FR", state: "", postcode: "75001", city: "Paris" },
        ...pay,
      });
      expect(fromFrance.body.data.params.billing_address).toBe("Sorry, we do not allow orders from the provided country (FR)");

      const shopper = await shopperWithCart(shop, productId);
      const page = await openCheckout(shopper);
      // The billing select offers only the countries sold to (in the shop's order).
      const options = (id: string) =>
        [...(new RegExp(`<select name="${id}"[^>]*>(.*?)</select>`).exec(page.html)?.[1] ?? "").matchAll(/value="([A-Z]{2})"/g)].map((m) => m[1]);
      expect(options("billing_country")).toEqual(["US", "CA", "GB"]);
      const classic = await submitCheckout(shopper, page, {
        ...billing(),
        ...cardFields(),
        billing_country: "DE",
        billing_state: "",
        billing_postcode: "10115",
      });
      expect(classic.result).toBe("failure");
      expect(classic.messages).toContain('data-id="billing_country"');
      expect(classic.messages).toContain("Sorry, we do not allow orders from the provided country (DE)");
      const toCanada = await submitCheckout(shopper, page, {
        ...billing(),
        ...cardFields(),
        ship_to_different_address: "1",
        shipping_first_name: "Ada",
        shipping_last_name: "Lovelace",
        shipping_country: "CA",
        shipping_address_1: "1 Way",
        shipping_city: "Toronto",
        shipping_state: "ON",
        shipping_postcode: "M5H 2N2",
      });
      expect(toCanada.result).toBe("failure");
      expect(toCanada.messages).toContain('data-id="shipping_country"');
      expect(toCanada.messages).toContain("we do not ship to Canada");
      expect(await counts(shop)).toEqual(before);
    } finally {
      expect((await call(admin, "DELETE", "shop/v1/settings/general")).status).toBe(200);
    }
  });
});
