/**
 * The admin dashboard's and customer screen's own routes (docs/contract/rest/shop-v1.md 'dashboard' and
 * 'customers', docs/contract/rest/orders.md 'reports/orders/totals'): figures checked against orders placed at the
 * checkout here, page views counted by the funnel and a live-match viewer on the hub; saved methods without tokens;
 * the staff password reset through the outbox and its limit; who may call them and what bad input answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";
import { saveToken } from "../../core/db/repositories/orders.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;
let productId: number;
const today = new Date().toISOString().slice(0, 10);

function api(method: string, path: string, who: SignedIn | null = admin) {
  if (!who) return new TestClient(shop.url).request(path, { method });
  return who.client.request(path, { method, headers: { "X-WP-Nonce": who.nonce } });
}
const body = async <T>(res: Response, status = 200): Promise<T> => {
  expect(res.status).toBe(status);
  return (await res.json()) as T;
};

/** A paid order at the checkout, with the attribution fields the storefront's script posts. */
async function order(quantity: number, attribution: Record<string, string>): Promise<{ id: number; total: number }> {
  const client = await shopperWithCart(shop, productId, quantity);
  const reply = await submitCheckout(client, await openCheckout(client), { ...billing(), ...cardFields(), ...attribution });
  expect(reply.result).toBe("success");
  const id = Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]);
  const [row] = await shop.services.db.query<{ total: number }>(`SELECT total FROM orders WHERE id = $1`, [id]);
  return { id, total: row!.total };
}

beforeAll(async () => {
  shop = await startTestShop();
  [admin, manager, customer] = await Promise.all([
    signInAs(shop, "dash-admin@example.com", "administrator"),
    signInAs(shop, "dash-manager@example.com", "shop_manager"),
    signInAs(shop, "dash-customer@example.com", "customer"),
  ]);
  productId = await productWithStock(shop, "silk-pocket-square", 100, 1500);
});
afterAll(async () => shop?.close());

interface Dashboard {
  date_min: string;
  date_max: string;
  revenue: string;
  orders: number;
  average_order_value: string;
  sessions: number;
  conversion_rate: number | null;
  revenue_by_source: { source_type: string; source: string; label: string; orders: number; revenue: string }[];
  low_stock: { threshold: number; total: number; products: { id: number; name: string; stock_quantity: number | null }[] };
  live_visitors: number;
}

describe("shop/v1/dashboard", () => {
  it("sums today's paid orders, their average, revenue by attribution source, sessions, conversion and low stock", async () => {
    const google = await order(1, { wc_order_attribution_source_type: "utm", wc_order_attribution_utm_source: "google" });
    const direct = await order(3, { wc_order_attribution_source_type: "typein", wc_order_attribution_utm_source: "(direct)" });
    // An order left unpaid counts nowhere.
    const unpaid = await shopperWithCart(shop, productId, 2);
    await submitCheckout(unpaid, await openCheckout(unpaid), { ...billing(), ...cardFields("4000 0000 0000 0002") });

    const [paid] = await shop.services.db.query<{ n: number; sum: number }>(
      `SELECT count(*)::int AS n, coalesce(sum(total), 0)::int AS sum FROM orders
        WHERE status IN ('processing', 'completed', 'on-hold', 'refunded') AND created_at >= $1::date`,
      [today],
    );
    expect(paid!.n).toBeGreaterThanOrEqual(2);

    // Sessions: page views by visitor (address + browser) per day; a second view by the same visitor is the same session.
    const before = await body<Dashboard>(await api("GET", `/wp-json/shop/v1/dashboard?date_min=${today}&date_max=${today}`));
    for (const ua of ["Mozilla/5.0 (Dashboard one)", "Mozilla/5.0 (Dashboard two)", "Mozilla/5.0 (Dashboard three)", "Mozilla/5.0 (Dashboard one)"]) {
      const res = await new TestClient(shop.url).request("/product/silk-pocket-square/", { headers: { "user-agent": ua } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const d = await body<Dashboard>(await api("GET", `/wp-json/shop/v1/dashboard?date_min=${today}&date_max=${today}`));
    expect(d).toMatchObject({ date_min: today, date_max: today, orders: paid!.n, revenue: (paid!.sum / 100).toFixed(2) });
    expect(d.average_order_value).toBe((Math.round(paid!.sum / paid!.n) / 100).toFixed(2));
    expect(d.sessions).toBe(before.sessions + 3);
    expect(d.conversion_rate).toBe(Math.round((paid!.n / d.sessions) * 10_000) / 100);

    const bySource = Object.fromEntries(d.revenue_by_source.map((s) => [s.label, s]));
    expect(bySource["Source: google"]).toMatchObject({ source_type: "utm", source: "google", orders: 1, revenue: (google.total / 100).toFixed(2) });
    expect(bySource["Direct"]).toMatchObject({ orders: 1, revenue: (direct.total / 100).toFixed(2) });
    expect(d.revenue_by_source.reduce((n, s) => n + s.orders, 0)).toBe(paid!.n);

    // Low stock: at or below the threshold (2), the emptiest first; a well-stocked product is not listed.
    const low = await productWithStock(shop, "silk-pocket-square", 1);
    const again = await body<Dashboard>(await api("GET", `/wp-json/shop/v1/dashboard?period=week`));
    expect(again.low_stock.threshold).toBe(2);
    expect(again.low_stock.products.find((p) => p.id === low)).toMatchObject({ stock_quantity: 1 });
    await productWithStock(shop, "silk-pocket-square", 100);
    const restocked = await body<Dashboard>(await api("GET", `/wp-json/shop/v1/dashboard?period=week`));
    expect(restocked.low_stock.products.some((p) => p.id === low)).toBe(false);

    // A range with no orders.
    const empty = await body<Dashboard>(await api("GET", `/wp-json/shop/v1/dashboard?date_min=2020-01-01&date_max=2020-01-30`));
    expect(empty).toMatchObject({ orders: 0, revenue: "0.00", average_order_value: "0.00", sessions: 0, conversion_rate: null, revenue_by_source: [] });
  });

  it("compares the range with the previous period of the same length, and refuses bad or over-long ranges", async () => {
    const DAY = 86_400_000;
    const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    // An order moved to yesterday: today's and yesterday's paid figures straight from the table.
    const moved = await order(2, {});
    await shop.services.db.query(`UPDATE orders SET created_at = created_at - interval '1 day' WHERE id = $1`, [moved.id]);
    const paidOn = async (day: string) => {
      const [row] = await shop.services.db.query<{ n: number; sum: number }>(
        `SELECT count(*)::int AS n, coalesce(sum(total), 0)::int AS sum FROM orders
          WHERE status IN ('processing', 'completed', 'on-hold', 'refunded') AND created_at >= $1::date AND created_at < $1::date + 1`,
        [day],
      );
      return row!;
    };
    const [now, before] = [await paidOn(today), await paidOn(yesterday)];
    expect(before.n).toBeGreaterThanOrEqual(1);
    const d = await body<Dashboard & { previous: Dashboard; change: Record<string, number | null> }>(
      await api("GET", `/wp-json/shop/v1/dashboard?date_min=${today}&date_max=${today}`),
    );
    expect(d.previous).toMatchObject({ date_min: yesterday, date_max: yesterday, orders: before.n, revenue: (before.sum / 100).toFixed(2) });
    expect(d.change.orders).toBe(Math.round(((now.n - before.n) / before.n) * 1000) / 10);
    expect(d.change.revenue).toBe(Math.round(((now.sum - before.sum) / before.sum) * 1000) / 10);
    // Back to today, as the reports' tests below count every order as today's.
    await shop.services.db.query(`UPDATE orders SET created_at = created_at + interval '1 day' WHERE id = $1`, [moved.id]);
    // Thirty days in March: the thirty before them, whatever the months' lengths.
    const march = await body<Dashboard & { previous: Dashboard; change: Record<string, number | null> }>(
      await api("GET", "/wp-json/shop/v1/dashboard?date_min=2021-03-01&date_max=2021-03-30"),
    );
    expect(march.previous).toMatchObject({ date_min: "2021-01-30", date_max: "2021-02-28", orders: 0, revenue: "0.00" });
    expect(march.change).toEqual({ revenue: null, orders: null, average_order_value: null, sessions: null, conversion_rate: null });

    const refused = async (q: string, param: string) => {
      const r = await body<{ code: string; data: { params: Record<string, string> } }>(await api("GET", `/wp-json/shop/v1/dashboard?${q}`), 400);
      expect(r.code).toBe("rest_invalid_param");
      expect(Object.keys(r.data.params)).toEqual([param]);
    };
    await refused("date_min=2026-02-30&date_max=2026-03-05", "date_min");
    await refused("date_min=2026-01-01&date_max=2026-13-01", "date_max");
    await refused("date_min=yesterday", "date_min");
    await refused("date_min=2026-03-05&date_max=2026-03-04", "date_max");
    // 366 days is the longest range (a leap year); one more is refused.
    expect((await api("GET", "/wp-json/shop/v1/dashboard?date_min=2024-01-01&date_max=2024-12-31")).status).toBe(200);
    await refused("date_min=2024-01-01&date_max=2025-01-01", "date_max");
  });

  it("counts live-match viewers connected to the hub", async () => {
    const { default: WebSocket } = await import("ws");
    const { Centrifuge } = await import("centrifuge");
    const client = new Centrifuge(shop.url.replace("http", "ws") + "/ws", { websocket: WebSocket, timeout: 60_000 });
    const sub = client.newSubscription("football");
    const subscribed = new Promise<void>((resolve) => sub.on("subscribed", () => resolve()));
    sub.subscribe();
    client.connect();
    await subscribed;
    const live = async () => (await body<Dashboard>(await api("GET", "/wp-json/shop/v1/dashboard"))).live_visitors;
    expect(await live()).toBe(1);
    client.disconnect();
    await expect.poll(live).toBe(0);
  });

  it("is for staff with view_woocommerce_reports; bad ranges are rest_invalid_param", async () => {
    expect((await api("GET", "/wp-json/shop/v1/dashboard", manager)).status).toBe(200);
    expect((await body<{ code: string }>(await api("GET", "/wp-json/shop/v1/dashboard", customer), 403)).code).toBe("rest_forbidden");
    expect((await body<{ code: string }>(await api("GET", "/wp-json/shop/v1/dashboard", null), 401)).code).toBe("rest_not_logged_in");
    const bad = await body<{ code: string; data: { params: Record<string, string> } }>(await api("GET", "/wp-json/shop/v1/dashboard?period=decade"), 400);
    expect(bad.code).toBe("rest_invalid_param");
    expect(Object.keys(bad.data.params)).toEqual(["period"]);
    expect((await body<{ code: string }>(await api("GET", "/wp-json/shop/v1/dashboard?date_min=2026-02-01&date_max=2026-01-01"), 400)).code).toBe(
      "rest_invalid_param",
    );
    expect((await body<{ code: string }>(await api("GET", "/wp-json/shop/v1/dashboard?low_stock_limit=0"), 400)).code).toBe("rest_invalid_param");
  });
});

describe("wc/v3/reports/orders/totals", () => {
  it("counts orders per status in WooCommerce's shape, all time or in a range", async () => {
    const all = await body<{ slug: string; name: string; total: number }[]>(await api("GET", "/wp-json/wc/v3/reports/orders/totals"));
    const counts = await shop.services.db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM orders GROUP BY status`);
    const expected = Object.fromEntries(counts.map((c) => [c.status, c.n]));
    expect(all.find((s) => s.slug === "processing")).toEqual({ slug: "processing", name: "Processing", total: expected.processing ?? 0 });
    for (const s of all) expect(s.total).toBe(expected[s.slug] ?? 0);
    expect(all.map((s) => s.slug)).toEqual(expect.arrayContaining(["pending", "processing", "on-hold", "completed", "cancelled", "refunded", "failed"]));
    const old = await body<{ total: number }[]>(await api("GET", "/wp-json/wc/v3/reports/orders/totals?date_min=2020-01-01&date_max=2020-01-02"));
    expect(old.every((s) => s.total === 0)).toBe(true);
    const inToday = await body<{ slug: string; total: number }[]>(await api("GET", `/wp-json/wc/v3/reports/orders/totals?date_min=${today}&date_max=${today}`));
    expect(inToday.find((s) => s.slug === "processing")!.total).toBe(expected.processing ?? 0);

    expect((await api("GET", "/wp-json/wc/v3/reports/orders/totals", manager)).status).toBe(200);
    expect((await body<{ code: string }>(await api("GET", "/wp-json/wc/v3/reports/orders/totals", customer), 403)).code).toBe("woocommerce_rest_cannot_view");
    expect((await api("GET", "/wp-json/wc/v3/reports/orders/totals", null)).status).toBe(401);
    expect((await body<{ code: string }>(await api("GET", "/wp-json/wc/v3/reports/orders/totals?date_min=yesterday"), 400)).code).toBe("rest_invalid_param");
  });
});

describe("shop/v1/customers/{id}", () => {
  it("lists saved payment methods by brand and last four, never the token", async () => {
    await saveToken(shop.services.db, customer.id, "sandbox_credit_card", {
      kind: "card",
      brand: "visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2034,
      token: "tok_secret_value_123",
    });
    const res = await api("GET", `/wp-json/shop/v1/customers/${customer.id}/payment-methods`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain("tok_secret_value_123");
    expect(JSON.parse(text)).toEqual([
      {
        id: expect.any(Number),
        gateway: "sandbox_credit_card",
        type: "card",
        brand: "visa",
        last4: "4242",
        expires: "12/34",
        is_default: true,
        label: "Visa ending in 4242 (expires 12/34)",
      },
    ]);
    expect(await body(await api("GET", `/wp-json/shop/v1/customers/${admin.id}/payment-methods`, manager))).toEqual([]);
    expect((await api("GET", `/wp-json/shop/v1/customers/${customer.id}/payment-methods`, customer)).status).toBe(403);
    expect((await api("GET", `/wp-json/shop/v1/customers/${customer.id}/payment-methods`, null)).status).toBe(401);
    expect((await body<{ code: string }>(await api("GET", "/wp-json/shop/v1/customers/99999/payment-methods"), 404)).code).toBe(
      "woocommerce_rest_customer_invalid_id",
    );
    expect((await body<{ code: string }>(await api("GET", "/wp-json/shop/v1/customers/abc/payment-methods"), 404)).code).toBe("rest_no_route");
  });

  it("sends WordPress's password reset e-mail through the outbox, for staff who may edit the customer, within the limits", async () => {
    const mails = async () =>
      shop.services.db.query<{ body: string }>(`SELECT body FROM email_outbox WHERE kind = 'password_reset' AND to_address = 'dash-customer@example.com'`);
    expect(await body(await api("POST", `/wp-json/shop/v1/customers/${customer.id}/password-reset`))).toEqual({
      sent: true,
      email: "dash-customer@example.com",
    });
    const [mail] = await mails();
    expect(mail!.body).toMatch(/lost-password\/\?key=[\w-]+&(amp;)?id=\d+/);
    const [entry] = await shop.services.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE object_type = 'user' AND object_id = $1`, [
      String(customer.id),
    ]);
    expect(entry?.action).toBe("password_reset");

    // A shop manager resets customers' passwords, not staff's; a customer and a guest nobody's.
    expect((await api("POST", `/wp-json/shop/v1/customers/${customer.id}/password-reset`, manager)).status).toBe(200);
    expect((await api("POST", `/wp-json/shop/v1/customers/${admin.id}/password-reset`, manager)).status).toBe(403);
    expect((await api("POST", `/wp-json/shop/v1/customers/${customer.id}/password-reset`, customer)).status).toBe(403);
    expect((await api("POST", `/wp-json/shop/v1/customers/${customer.id}/password-reset`, null)).status).toBe(401);
    expect((await api("POST", "/wp-json/shop/v1/customers/99999/password-reset")).status).toBe(404);

    // The lost-password form's limit per account and requesting address: the third from here is the last this hour.
    expect((await api("POST", `/wp-json/shop/v1/customers/${customer.id}/password-reset`)).status).toBe(200);
    const limited = await body<{ code: string; message: string }>(await api("POST", `/wp-json/shop/v1/customers/${customer.id}/password-reset`), 429);
    expect(limited.code).toBe("shop_rest_password_reset_limited");
    expect(await mails()).toHaveLength(3);
  });
});
