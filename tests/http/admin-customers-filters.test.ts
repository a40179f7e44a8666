/**
 * The Customers list's filters and sorts by spend, orders and last order (docs/contract/admin.md 'Customers',
 * docs/contract/rest/people.md): `wc/v3/customers` with `total_spend_min|max` (paid orders only, in the shop's
 * currency), `orders_count_min|max` (orders of any status), `last_order_after|before` and `orderby=total_spend|
 * orders_count|date_last_order`, done in SQL with the paging totals of the filtered list; bad values refused naming
 * the parameter; the route's capability. On PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;
/** a: one paid order of 150.00 on 1 October; b: a completed 40.00 and a pending 500.00 (last on 20 November); c: none; d: a cancelled 1,000.00 on 1 September. */
const id: Record<"a" | "b" | "c" | "d", number> = { a: 0, b: 0, c: 0, d: 0 };

type Json = Record<string, unknown>;

async function order(customerId: number, key: string, status: string, cents: number, at: string) {
  await shop.services.db.query(
    `INSERT INTO orders (order_key, status, customer_id, billing_email, currency, subtotal, discount_total, shipping_total, total, payment_method, created_at, paid_at)
     VALUES ($1, $2, $3, 'cf@example.com', 'USD', $4, 0, 0, $4, 'bacs', $5, CASE WHEN $2 IN ('processing', 'completed') THEN $5::timestamptz END)`,
    [key, status, customerId, cents, at],
  );
}

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "filters-admin@example.com", "administrator");
  manager = await signInAs(shop, "filters-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "filters-customer@example.com", "customer");
  for (const k of ["a", "b", "c", "d"] as const) {
    const made = await registerCustomer(shop.services.db, {
      email: `cf-${k}@example.com`,
      password: "a long password 1",
      first_name: k.toUpperCase(),
      last_name: "Filter",
    });
    if (!made.ok) throw new Error(made.message);
    id[k] = made.customerId;
  }
  await order(id.a, "wc_order_cf_a1", "processing", 15000, "2026-10-01T10:00:00Z");
  await order(id.b, "wc_order_cf_b1", "completed", 4000, "2026-11-10T09:00:00Z");
  await order(id.b, "wc_order_cf_b2", "pending", 50000, "2026-11-20T09:00:00Z");
  await order(id.d, "wc_order_cf_d1", "cancelled", 100000, "2026-09-01T08:00:00Z");
});
afterAll(async () => shop?.close());

const list = async (who: SignedIn | null, q: string) => {
  const client = who?.client ?? new TestClient(shop.url);
  const res = await client.request(`/wp-json/wc/v3/customers?search=cf-&${q}`, { headers: who ? { "X-WP-Nonce": who.nonce } : {} });
  const body = (await res.json()) as Json & Json[];
  return { status: res.status, body, total: res.headers.get("x-wp-total"), pages: res.headers.get("x-wp-totalpages") };
};
const names = async (q: string, who: SignedIn = admin) => {
  const res = await list(who, `per_page=100&orderby=id&order=asc&${q}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.map((c: Json) => (c.email as string).slice(3, 4));
};

describe("filtering customers by spend, orders and last order", () => {
  it("answers each customer's spend over paid orders, orders of any status and the latest order's date", async () => {
    const rows = (await list(admin, "per_page=100&orderby=id&order=asc")).body;
    const shape = (k: keyof typeof id) => rows.find((c: Json) => c.id === id[k]);
    expect(shape("a")).toMatchObject({ total_spent: "150.00", orders_count: 1, date_last_order: "2026-10-01T10:00:00" });
    expect(shape("b")).toMatchObject({ total_spent: "40.00", orders_count: 2, date_last_order: "2026-11-20T09:00:00" });
    expect(shape("c")).toMatchObject({ total_spent: "0.00", orders_count: 0, date_last_order: null });
    expect(shape("d")).toMatchObject({ total_spent: "0.00", orders_count: 1, date_last_order: "2026-09-01T08:00:00" });
  });

  it("keeps spend at least / at most (both included, in the shop's currency, paid orders only)", async () => {
    expect(await names("total_spend_min=100")).toEqual(["a"]);
    expect(await names("total_spend_min=40")).toEqual(["a", "b"]);
    expect(await names("total_spend_min=40.01")).toEqual(["a"]);
    expect(await names("total_spend_max=40")).toEqual(["b", "c", "d"]);
    expect(await names("total_spend_min=40&total_spend_max=40.00")).toEqual(["b"]);
    // d's 1,000.00 was cancelled and b's 500.00 is unpaid: neither is spend.
    expect(await names("total_spend_min=500")).toEqual([]);
  });

  it("keeps orders counted at least / at most, and last orders after / before an instant (exclusive)", async () => {
    expect(await names("orders_count_min=1")).toEqual(["a", "b", "d"]);
    expect(await names("orders_count_min=2")).toEqual(["b"]);
    expect(await names("orders_count_max=0")).toEqual(["c"]);
    expect(await names("last_order_after=2026-10-15")).toEqual(["b"]);
    expect(await names("last_order_after=2026-10-01T10:00:00Z")).toEqual(["b"]);
    expect(await names("last_order_after=2026-10-01T09:59:59Z")).toEqual(["a", "b"]);
    // Never ordered: no last order, so neither bound keeps c.
    expect(await names("last_order_before=2026-10-01T12:00:00Z")).toEqual(["a", "d"]);
    expect(await names("last_order_before=2026-10-01")).toEqual(["d"]);
    expect(await names("last_order_after=2026-08-01&total_spend_max=0&orders_count_min=1")).toEqual(["d"]);
    // A shop manager lists customers (list_users), with the same filters.
    expect(await names("total_spend_min=100", manager)).toEqual(["a"]);
  });

  it("sorts by spend, order count and last order (never ordered last either way), ties by id", async () => {
    const sorted = async (q: string) => (await list(admin, `per_page=100&${q}`)).body.map((c: Json) => (c.email as string).slice(3, 4));
    expect(await sorted("orderby=total_spend&order=desc")).toEqual(["a", "b", "d", "c"]);
    expect(await sorted("orderby=total_spend&order=asc")).toEqual(["c", "d", "b", "a"]);
    expect(await sorted("orderby=orders_count&order=asc")).toEqual(["c", "a", "d", "b"]);
    expect(await sorted("orderby=date_last_order&order=desc")).toEqual(["b", "a", "d", "c"]);
    expect(await sorted("orderby=date_last_order&order=asc")).toEqual(["d", "a", "b", "c"]);
  });

  it("counts the filtered list in X-WP-Total and X-WP-TotalPages, page by page", async () => {
    const first = await list(admin, "per_page=2&orders_count_min=1&orderby=total_spend&order=desc");
    expect([first.total, first.pages]).toEqual(["3", "2"]);
    expect(first.body.map((c: Json) => c.id)).toEqual([id.a, id.b]);
    const second = await list(admin, "per_page=2&page=2&orders_count_min=1&orderby=total_spend&order=desc");
    expect([second.total, second.pages]).toEqual(["3", "2"]);
    expect(second.body.map((c: Json) => c.id)).toEqual([id.d]);
    const past = await list(admin, "per_page=2&page=3&orders_count_min=1");
    expect([past.status, past.body.code]).toEqual([400, "rest_post_invalid_page_number"]);
    const none = await list(admin, "total_spend_min=99999");
    expect([none.status, none.total, none.pages, none.body]).toEqual([200, "0", "1", []]);
  });

  it("refuses a bad value with rest_invalid_param naming the parameter", async () => {
    for (const bad of [
      "total_spend_min=abc",
      "total_spend_min=-5",
      "total_spend_max=1.234",
      "orders_count_min=-1",
      "orders_count_max=two",
      "last_order_after=yesterday",
      "last_order_before=2026-13",
      "orderby=spend",
    ]) {
      const res = await list(admin, bad);
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, "rest_invalid_param"]);
      expect(Object.keys((res.body.data as { params: Json }).params)).toEqual([bad.split("=")[0]]);
    }
    const message = await list(admin, "total_spend_min=abc");
    expect((message.body.data as { params: Json }).params).toEqual({ total_spend_min: "total_spend_min must be an amount like 25 or 25.50" });
  });

  it("refuses a guest (401) and a customer (403) whatever the filters", async () => {
    const guest = await list(null, "total_spend_min=1");
    expect([guest.status, guest.body.code]).toEqual([401, "woocommerce_rest_cannot_view"]);
    const shopper = await list(customer, "orderby=total_spend");
    expect([shopper.status, shopper.body.code]).toEqual([403, "woocommerce_rest_cannot_view"]);
  });
});
