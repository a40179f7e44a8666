/**
 * wc/v3/coupons (the storefront's apply_coupon honours what the API writes, at once), wc/v3/reports/sales and
 * top_sellers over real orders, wc/v3/data/countries and wc/v3/system_status (docs/contract/rest/orders.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let admin: SignedIn;
let customer: SignedIn;
let productId: number;

function api(method: string, path: string, body?: unknown, who: SignedIn = admin) {
  return who.client.request(path, {
    method,
    headers: { "X-WP-Nonce": who.nonce, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "coupons-admin@example.com", "administrator");
  customer = await signInAs(shop, "coupons-customer@example.com", "customer");
  productId = await productWithStock(shop, "silk-pocket-square", 100, 1500);
});
afterAll(async () => shop?.close());

async function applyCoupon(client: TestClient, code: string): Promise<string> {
  const params = pageGlobal(await (await client.get("/cart/")).text(), "wc_cart_params") as Record<string, string>;
  return (await client.post("/?wc-ajax=apply_coupon", { security: params.apply_coupon_nonce!, coupon_code: code })).text();
}

describe("wc/v3/coupons", () => {
  it("creates a coupon in WooCommerce's shape that the storefront's apply_coupon honours; updates and deletion take effect at once", async () => {
    const res = await api("POST", "/wp-json/wc/v3/coupons", {
      code: "API15",
      discount_type: "percent",
      amount: "15",
      minimum_amount: "20.00",
      usage_limit: 5,
      individual_use: true,
      product_ids: [productId],
    });
    expect(res.status).toBe(201);
    const c = (await res.json()) as Record<string, unknown> & { id: number };
    expect(c).toMatchObject({
      code: "api15",
      discount_type: "percent",
      amount: "15.00",
      minimum_amount: "20.00",
      maximum_amount: "0.00",
      usage_limit: 5,
      usage_limit_per_user: null,
      usage_count: 0,
      individual_use: true,
      product_ids: [productId],
      free_shipping: false,
      date_expires: null,
      email_restrictions: [],
      used_by: [],
    });

    const small = await shopperWithCart(shop, productId, 1);
    expect(await applyCoupon(small, "API15")).toContain("The minimum spend for this coupon is");
    const big = await shopperWithCart(shop, productId, 2);
    expect(await applyCoupon(big, "api15")).toContain("Coupon code applied successfully.");
    const totals = await (await big.post("/?wc-ajax=get_cart_totals", {})).text();
    expect(totals).toContain("Coupon: api15");

    // Place the order: the usage shows on the coupon.
    const reply = await submitCheckout(big, await openCheckout(big), { ...billing("coupon-buyer@example.com"), ...cardFields() });
    expect(reply.result).toBe("success");
    const used = (await (await api("GET", `/wp-json/wc/v3/coupons/${c.id}`)).json()) as { usage_count: number; used_by: string[] };
    expect(used).toMatchObject({ usage_count: 1, used_by: ["coupon-buyer@example.com"] });

    const expired = await api("PUT", `/wp-json/wc/v3/coupons/${c.id}`, { date_expires: "2020-01-01T00:00:00", amount: "10" });
    expect(expired.status).toBe(200);
    expect(await expired.json()).toMatchObject({ amount: "10.00", date_expires: "2020-01-01T00:00:00", minimum_amount: "20.00" });
    const later = await shopperWithCart(shop, productId, 2);
    expect(await applyCoupon(later, "api15")).toContain("This coupon has expired.");

    const fixed = await api("POST", `/wp-json/wc/v3/coupons/${c.id}`, { date_expires: null, discount_type: "fixed_cart", amount: "7.00", minimum_amount: "0" });
    expect(await fixed.json()).toMatchObject({ discount_type: "fixed_cart", amount: "7.00", minimum_amount: "0.00", date_expires: null });
    expect(await applyCoupon(later, "api15")).toContain("Coupon code applied successfully.");
    const laterTotals = await (await later.post("/?wc-ajax=get_cart_totals", {})).text();
    // The cart prints whole dollars (storefront.md §9): the fixed $7.00 discount shows as −$7.
    expect(laterTotals).toMatch(
      /Coupon: api15<\/th><td[^>]*>−<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">\$<\/span>7<\/bdi>/,
    );

    expect((await api("DELETE", `/wp-json/wc/v3/coupons/${c.id}`)).status).toBe(501);
    expect((await api("DELETE", `/wp-json/wc/v3/coupons/${c.id}?force=true`)).status).toBe(200);
    expect((await api("GET", `/wp-json/wc/v3/coupons/${c.id}`)).status).toBe(404);
    const gone = await shopperWithCart(shop, productId, 2);
    expect(await applyCoupon(gone, "api15")).toContain("does not exist!");
    const audit = await shop.services.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE object_type = 'coupon' AND object_id = $1 ORDER BY id`, [
      String(c.id),
    ]);
    expect(audit.map((a) => a.action)).toEqual(["create", "update", "update", "delete"]);
  });

  it("answers the coupon's version as an ETag and refuses a save from an older one (If-Match), changing nothing", async () => {
    const made = await api("POST", "/wp-json/wc/v3/coupons", { code: "TWOTABS", discount_type: "fixed_cart", amount: "5" });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: number };
    const opened = made.headers.get("etag")!;
    expect(opened).toMatch(/^"\d+"$/);
    const read = await api("GET", `/wp-json/wc/v3/coupons/${id}`);
    expect(read.headers.get("etag")).toBe(opened);
    const put = (body: unknown, ifMatch?: string) =>
      admin.client.request(`/wp-json/wc/v3/coupons/${id}`, {
        method: "PUT",
        headers: { "X-WP-Nonce": admin.nonce, ...(ifMatch ? { "If-Match": ifMatch } : {}) },
        json: body,
      });
    const first = await put({ amount: "6" }, opened);
    expect(first.status).toBe(200);
    const newer = first.headers.get("etag");
    expect(newer).toMatch(/^"\d+"$/);
    expect(newer).not.toBe(opened);
    const second = await put({ amount: "9", code: "overwritten" }, opened);
    expect(second.status).toBe(412);
    expect(await second.json()).toEqual({
      code: "rest_coupon_changed",
      message: "This coupon was changed since you opened it. Reload it to see the changes, then make yours again.",
      data: { status: 412 },
    });
    expect(await (await api("GET", `/wp-json/wc/v3/coupons/${id}`)).json()).toMatchObject({ code: "twotabs", amount: "6.00" });
    // The version just read goes through; a malformed one never matches; none (or *) is last-write-wins.
    expect((await put({ amount: "7" }, newer!)).status).toBe(200);
    expect((await put({ amount: "8" }, "garbage")).status).toBe(412);
    expect((await put({ amount: "8" })).status).toBe(200);
    expect((await put({ amount: "8.50" }, "*")).status).toBe(200);
  });

  it("lists with paging and search; refuses duplicates, rules the cart cannot honour, bad values, guests and customers", async () => {
    for (const code of ["list-a", "list-b", "list-c"]) expect((await api("POST", "/wp-json/wc/v3/coupons", { code, amount: "1.00" })).status).toBe(201);
    const page = await api("GET", "/wp-json/wc/v3/coupons?search=list-&per_page=2&orderby=title&order=asc");
    expect(page.headers.get("x-wp-total")).toBe("3");
    expect(((await page.json()) as { code: string }[]).map((x) => x.code)).toEqual(["list-a", "list-b"]);
    const byCode = (await (await api("GET", "/wp-json/wc/v3/coupons?code=LIST-C")).json()) as { code: string; discount_type: string }[];
    expect(byCode).toMatchObject([{ code: "list-c", discount_type: "fixed_cart" }]);

    const dup = await api("POST", "/wp-json/wc/v3/coupons", { code: "List-A", amount: "2" });
    expect(dup.status).toBe(400);
    expect(((await dup.json()) as { code: string }).code).toBe("woocommerce_rest_coupon_code_already_exists");
    for (const [body, param] of [
      [{ code: "x1", amount: "150", discount_type: "percent" }, "amount"],
      [{ code: "x2", amount: "abc" }, "amount"],
      [{ code: "x3", discount_type: "bogo" }, "discount_type"],
      [{ code: "x4", email_restrictions: ["a@example.com"] }, "email_restrictions"],
      [{ code: "x5", limit_usage_to_x_items: 2 }, "limit_usage_to_x_items"],
      [{ code: "x6", date_expires: "soon" }, "date_expires"],
      [{ code: "<b>x</b>" }, "code"],
      [{ code: "x7", usage_limit: -1 }, "usage_limit"],
    ] as const) {
      const res = await api("POST", "/wp-json/wc/v3/coupons", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = (await res.json()) as { code: string; data: { params: Record<string, string> } };
      expect(err.code).toBe("rest_invalid_param");
      expect(Object.keys(err.data.params)).toContain(param);
    }
    const [{ n }] = (await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM coupons WHERE code LIKE 'x%' OR code LIKE '<%'`)) as [
      { n: number },
    ];
    expect(n).toBe(0);

    const guest = await new TestClient(shop.url).get("/wp-json/wc/v3/coupons");
    expect(guest.status).toBe(401);
    expect(((await guest.json()) as { code: string }).code).toBe("woocommerce_rest_cannot_view");
    const denied = await api("POST", "/wp-json/wc/v3/coupons", { code: "sneaky", amount: "100" }, customer);
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { code: string }).code).toBe("woocommerce_rest_cannot_create");
  });
});

describe("wc/v3/reports", () => {
  it("sums today's orders, items and refunds; ranks top sellers", async () => {
    const ids: number[] = [];
    for (const qty of [1, 3]) {
      const client = await shopperWithCart(shop, productId, qty);
      const reply = await submitCheckout(client, await openCheckout(client), { ...billing(), ...cardFields() });
      expect(reply.result).toBe("success");
      ids.push(Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]));
    }
    expect((await api("POST", `/wp-json/wc/v3/orders/${ids[0]}/refunds`, { amount: "2.00", api_refund: false })).status).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    const [orders] = await shop.services.db.query<{ n: number; sales: number; items: number }>(
      `SELECT count(*)::int AS n, sum(total)::int AS sales, (SELECT sum(quantity)::int FROM order_lines l JOIN orders o2 ON o2.id = l.order_id WHERE o2.status IN ('processing','completed','on-hold','refunded')) AS items
       FROM orders WHERE status IN ('processing','completed','on-hold','refunded')`,
    );
    const res = await api("GET", `/wp-json/wc/v3/reports/sales?date_min=${today}&date_max=${today}`);
    expect(res.status).toBe(200);
    const [report] = (await res.json()) as Record<string, unknown>[];
    expect(report).toMatchObject({
      total_orders: orders!.n,
      total_items: orders!.items,
      total_sales: (orders!.sales / 100).toFixed(2),
      total_refunds: 2,
      total_tax: "0.00",
      totals_grouped_by: "day",
    });
    expect((report!.totals as Record<string, { orders: number }>)[today]!.orders).toBe(orders!.n);
    const week = (await (await api("GET", "/wp-json/wc/v3/reports/sales?period=week")).json()) as { totals: Record<string, unknown> }[];
    expect(Object.keys(week[0]!.totals)).toHaveLength(7);
    const year = (await (await api("GET", "/wp-json/wc/v3/reports/sales?period=year")).json()) as { totals_grouped_by: string }[];
    expect(year[0]!.totals_grouped_by).toBe("month");

    const top = (await (await api("GET", "/wp-json/wc/v3/reports/top_sellers?period=month")).json()) as {
      title: string;
      product_id: number;
      quantity: number;
    }[];
    expect(top[0]).toEqual({ title: "Silk Pocket Square", product_id: productId, quantity: orders!.items });

    const bad = await api("GET", "/wp-json/wc/v3/reports/sales?period=decade");
    expect(((await bad.json()) as { code: string }).code).toBe("rest_invalid_param");
    const backwards = await api("GET", `/wp-json/wc/v3/reports/sales?date_min=2026-02-01&date_max=2026-01-01`);
    expect(backwards.status).toBe(400);
    expect((await api("GET", "/wp-json/wc/v3/reports/sales", undefined, customer)).status).toBe(403);
    expect((await new TestClient(shop.url).get("/wp-json/wc/v3/reports/top_sellers")).status).toBe(401);
  });
});

describe("wc/v3/data/countries and wc/v3/system_status", () => {
  it("lists the shop's countries with their states", async () => {
    const all = (await (await api("GET", "/wp-json/wc/v3/data/countries")).json()) as {
      code: string;
      name: string;
      states: { code: string; name: string }[];
    }[];
    const us = all.find((c) => c.code === "US")!;
    expect(us.name).toBe("United States (US)");
    expect(us.states).toContainEqual({ code: "CA", name: "California" });
    expect(all.find((c) => c.code === "DE")!.states).toEqual([]);
    const one = await api("GET", "/wp-json/wc/v3/data/countries/ca");
    expect(((await one.json()) as { code: string }).code).toBe("CA");
    expect((await api("GET", "/wp-json/wc/v3/data/countries/zz")).status).toBe(404);
    expect((await api("GET", "/wp-json/wc/v3/data/countries", undefined, customer)).status).toBe(403);
  });

  it("reports the environment and the database, never a secret", async () => {
    const res = await api("GET", "/wp-json/wc/v3/system_status");
    expect(res.status).toBe(200);
    const text = await res.text();
    const s = JSON.parse(text) as {
      environment: Record<string, unknown>;
      database: Record<string, unknown> & { database_tables: { woocommerce: Record<string, unknown> } };
    };
    expect(s.environment).toMatchObject({ home_url: shop.services.siteUrl, site_url: shop.services.siteUrl, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(s.environment.node_version).toBe(process.version);
    expect(["PGlite", "PostgreSQL"]).toContain(s.database.engine);
    expect(s.database.engine_version).toMatch(/^\d+/);
    expect(Object.keys(s.database.database_tables.woocommerce)).toEqual(expect.arrayContaining(["orders", "order_refunds", "coupons"]));
    expect(text).not.toContain(shop.services.secret);
    expect(text).not.toMatch(/postgres(ql)?:\/\/|password_hash|session_secret/i);
    expect((await api("GET", "/wp-json/wc/v3/system_status", undefined, customer)).status).toBe(403);
    expect((await new TestClient(shop.url).get("/wp-json/wc/v3/system_status")).status).toBe(401);
  });
});
