/**
 * wc/v3/orders and wc/v3/orders/{id}/notes (docs/contract/rest/orders.md): WooCommerce's list filters and paging,
 * the full order shape with the attribution meta, a staff order created pending with its stock held, status
 * changes only along the status machine's edges, notes (a customer note is e-mailed), deletion, permissions and the
 * audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { CARD, billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let productId: number;
const placed: number[] = [];

function api(method: string, path: string, body?: unknown, who: SignedIn = admin, headers: Record<string, string> = {}) {
  return who.client.request(path, {
    method,
    headers: { "X-WP-Nonce": who.nonce, "Content-Type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
const stockOf = async () => (await shop.services.db.query<{ n: number }>(`SELECT stock_quantity AS n FROM products WHERE id = $1`, [productId]))[0]!.n;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "orders-admin@example.com", "administrator");
  manager = await signInAs(shop, "orders-manager@example.com", "shop_manager");
  productId = await productWithStock(shop, "silk-pocket-square", 100, 1500);
  for (const [i, email] of ["first@example.com", "second@example.com", "third@example.com"].entries()) {
    const client = await shopperWithCart(shop, productId, i + 1);
    const reply = await submitCheckout(client, await openCheckout(client), {
      ...billing(email),
      ...cardFields(),
      wc_order_attribution_source_type: "utm",
      wc_order_attribution_utm_source: "newsletter",
      wc_order_attribution_utm_medium: "email",
    });
    expect(reply.result).toBe("success");
    placed.push(Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]));
  }
});
afterAll(async () => shop?.close());

describe("GET wc/v3/orders", () => {
  it("lists with WooCommerce's paging headers, filters and order", async () => {
    const res = await api("GET", "/wp-json/wc/v3/orders?per_page=2&orderby=id&order=asc");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-wp-total")).toBe(String(placed.length));
    expect(res.headers.get("x-wp-totalpages")).toBe("2");
    expect(res.headers.get("link")).toMatch(/rel="next"/);
    expect(((await res.json()) as { id: number }[]).map((o) => o.id)).toEqual(placed.slice(0, 2));
    const search = (await (await api("GET", "/wp-json/wc/v3/orders?search=second@example")).json()) as { id: number }[];
    expect(search.map((o) => o.id)).toEqual([placed[1]]);
    const include = (await (await api("GET", `/wp-json/wc/v3/orders?include=${placed[2]},${placed[0]}&orderby=include`)).json()) as { id: number }[];
    expect(include.map((o) => o.id)).toEqual([placed[2], placed[0]]);
    const byStatus = await api("GET", "/wp-json/wc/v3/orders?status=pending,on-hold");
    expect(byStatus.headers.get("x-wp-total")).toBe("0");
    const any = await api("GET", "/wp-json/wc/v3/orders?status[]=any");
    expect(any.headers.get("x-wp-total")).toBe(String(placed.length));
    const product = await api("GET", `/wp-json/wc/v3/orders?product=${productId}&after=2000-01-01T00:00:00`);
    expect(product.headers.get("x-wp-total")).toBe(String(placed.length));
    const fields = (await (await api("GET", "/wp-json/wc/v3/orders?per_page=1&_fields=id,status,billing.email")).json()) as Record<string, unknown>[];
    expect(Object.keys(fields[0]!).sort()).toEqual(["billing", "id", "status"]);
  });

  it("answers the full WooCommerce shape, attribution meta included", async () => {
    const res = await api("GET", `/wp-json/wc/v3/orders/${placed[1]}`);
    expect(res.status).toBe(200);
    const o = (await res.json()) as Record<string, unknown> & { line_items: Record<string, unknown>[]; meta_data: { key: string; value: string }[] };
    expect(o).toMatchObject({
      id: placed[1],
      parent_id: 0,
      number: String(placed[1]),
      created_via: "checkout",
      status: "processing",
      currency: "USD",
      prices_include_tax: false,
      total_tax: "0.00",
      payment_method: "sandbox_credit_card",
      billing: { email: "second@example.com", first_name: "Ada", country: "US", state: "IL" },
      refunds: [],
    });
    expect(o.order_key).toMatch(/^wc_order_/);
    expect(o.transaction_id).toMatch(/^ch_/);
    expect(o.date_paid).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(o.line_items[0]).toMatchObject({ product_id: productId, variation_id: 0, quantity: 2, subtotal: "30.00", sku: "SKU-SILK-POCKET-SQUARE", price: 15 });
    expect(typeof o.line_items[0]!.id).toBe("number");
    expect(o.meta_data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: "_wc_order_attribution_source_type", value: "utm" }),
        expect.objectContaining({ key: "_wc_order_attribution_utm_source", value: "newsletter" }),
      ]),
    );
    for (const key of ["discount_total", "shipping_total", "total", "cart_tax", "shipping_tax", "discount_tax"]) expect(o[key]).toMatch(/^\d+\.\d{2}$/);
    expect((await api("GET", "/wp-json/wc/v3/orders/999999")).status).toBe(404);
    expect(((await (await api("GET", "/wp-json/wc/v3/orders/abc")).json()) as { code: string }).code).toBe("woocommerce_rest_shop_order_invalid_id");
  });

  it("refuses guests (401) and customers (403) with WooCommerce's codes, and bad parameters by name", async () => {
    const guest = await new TestClient(shop.url).get("/wp-json/wc/v3/orders");
    expect(guest.status).toBe(401);
    expect(((await guest.json()) as { code: string }).code).toBe("woocommerce_rest_cannot_view");
    const customer = await signInAs(shop, "first@example.com", "customer");
    const denied = await api("GET", `/wp-json/wc/v3/orders/${placed[0]}`, undefined, customer);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ code: "woocommerce_rest_cannot_view", message: "Sorry, you cannot view this resource.", data: { status: 403 } });
    for (const bad of ["per_page=0", "status=shipped", "after=yesterday", "orderby=total", "customer=-1"]) {
      const res = await api("GET", `/wp-json/wc/v3/orders?${bad}`);
      expect(res.status, bad).toBe(400);
      const body = (await res.json()) as { code: string; data: { params: Record<string, string> } };
      expect(body.code).toBe("rest_invalid_param");
      expect(Object.keys(body.data.params)).toEqual([bad.split("=")[0]]);
    }
    expect((await api("GET", "/wp-json/wc/v3/orders", undefined, manager)).status).toBe(200);
  });
});

describe("POST wc/v3/orders (staff order for a customer)", () => {
  it("creates a pending order with its stock held, for the customer's account; cancelling gives the stock back", async () => {
    const customer = await signInAs(shop, "staff-order@example.com", "customer");
    const before = await stockOf();
    const res = await api("POST", "/wp-json/wc/v3/orders", {
      customer_id: customer.id,
      billing: { first_name: "Grace", last_name: "Hopper", address_1: "1 Navy Way", city: "Arlington", state: "VA", postcode: "22201", country: "US" },
      shipping: { first_name: "Grace", last_name: "Hopper", country: "US" },
      line_items: [{ product_id: productId, quantity: 4 }],
      shipping_lines: [{ method_id: "flat_rate", instance_id: "1", method_title: "Flat rate", total: "5.00" }],
      customer_note: "Gift wrap, please",
    });
    expect(res.status).toBe(201);
    const o = (await res.json()) as Record<string, unknown> & { id: number; line_items: { quantity: number }[] };
    expect(o).toMatchObject({
      status: "pending",
      created_via: "rest-api",
      customer_id: customer.id,
      total: "65.00",
      shipping_total: "5.00",
      customer_note: "Gift wrap, please",
      needs_payment: true,
      billing: { email: "staff-order@example.com", first_name: "Grace" },
    });
    expect(o.payment_url).toMatch(new RegExp(`/checkout/order-pay/${o.id}/\\?pay_for_order=true&key=wc_order_`));
    expect(await stockOf()).toBe(before - 4);
    const account = await (await customer.client.get("/my-account/orders/")).text();
    expect(account).toContain(`/my-account/view-order/${o.id}/`);

    const cancelled = await api("PUT", `/wp-json/wc/v3/orders/${o.id}`, { status: "cancelled" });
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as { status: string }).status).toBe("cancelled");
    expect(await stockOf()).toBe(before);
    const audit = await shop.services.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE object_type = 'order' AND object_id = $1 ORDER BY id`, [
      String(o.id),
    ]);
    expect(audit.map((a) => a.action)).toEqual(["create", "update"]);
  });

  it("the customer pays it on its payment_url; staff refund it through the gateway and the stock comes back", async () => {
    const customer = await signInAs(shop, "pays-later@example.com", "customer");
    const before = await stockOf();
    const made = (await (
      await api("POST", "/wp-json/wc/v3/orders", {
        customer_id: customer.id,
        billing: { first_name: "Pay", last_name: "Later", address_1: "1 Main St", city: "Springfield", state: "IL", postcode: "62701", country: "US" },
        line_items: [{ product_id: productId, quantity: 2 }],
      })
    ).json()) as { id: number; payment_url: string; total: string; line_items: { id: number }[] };
    expect(await stockOf()).toBe(before - 2);
    const path = new URL(made.payment_url).pathname + new URL(made.payment_url).search;
    const html = await (await customer.client.get(path)).text();
    expect(html).toContain("Pay for order");
    const nonce = /name="woocommerce-pay-nonce" value="([^"]+)"/.exec(html)![1]!;
    const paid = await customer.client.post(path, { "woocommerce-pay-nonce": nonce, ...cardFields(), [`${CARD}-payment-token`]: "" });
    expect(paid.status).toBe(302);
    const order = (await (await api("GET", `/wp-json/wc/v3/orders/${made.id}`)).json()) as { status: string; transaction_id: string };
    expect(order.status).toBe("processing");
    expect(order.transaction_id).toMatch(/^ch_/);
    expect(await stockOf()).toBe(before - 2);
    const refund = await api("POST", `/wp-json/wc/v3/orders/${made.id}/refunds`, {
      amount: made.total,
      line_items: [{ id: made.line_items[0]!.id, quantity: 2, refund_total: made.total }],
    });
    expect(refund.status).toBe(201);
    expect(((await (await api("GET", `/wp-json/wc/v3/orders/${made.id}`)).json()) as { status: string }).status).toBe("refunded");
    expect(await stockOf()).toBe(before);
  });

  it("refuses what it cannot sell and changes nothing", async () => {
    const before = await stockOf();
    const [{ n: ordersBefore }] = (await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders`)) as [{ n: number }];
    const tooMany = await api("POST", "/wp-json/wc/v3/orders", {
      billing: { email: "x@example.com" },
      line_items: [{ product_id: productId, quantity: 5000 }],
    });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { code: string }).code).toBe("woocommerce_rest_invalid_stock");
    const unknown = await api("POST", "/wp-json/wc/v3/orders", { billing: { email: "x@example.com" }, line_items: [{ product_id: 987654, quantity: 1 }] });
    expect(((await unknown.json()) as { code: string }).code).toBe("woocommerce_rest_invalid_product_id");
    const missing = await api("POST", "/wp-json/wc/v3/orders", { billing: { email: "x@example.com" } });
    expect(((await missing.json()) as { code: string }).code).toBe("rest_missing_callback_param");
    for (const [body, param] of [
      [{ billing: { email: "not-an-email" }, line_items: [{ product_id: productId, quantity: 1 }] }, "billing"],
      [{ billing: { email: "x@example.com" }, line_items: [{ product_id: productId, quantity: 0 }] }, "line_items"],
      [{ billing: { email: "x@example.com" }, status: "completed", line_items: [{ product_id: productId, quantity: 1 }] }, "status"],
      [{ billing: { email: "x@example.com" }, set_paid: true, line_items: [{ product_id: productId, quantity: 1 }] }, "set_paid"],
    ] as const) {
      const res = await api("POST", "/wp-json/wc/v3/orders", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(((await res.json()) as { data: { params: Record<string, string> } }).data.params)).toContain(param);
    }
    expect(await stockOf()).toBe(before);
    const [{ n: ordersAfter }] = (await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders`)) as [{ n: number }];
    expect(ordersAfter).toBe(ordersBefore);
    const guest = await new TestClient(shop.url).request("/wp-json/wc/v3/orders", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(guest.status).toBe(401);
    expect(((await guest.json()) as { code: string }).code).toBe("woocommerce_rest_cannot_create");
  });
});

describe("PUT wc/v3/orders/{id}", () => {
  it("moves the status only along allowed transitions and names a forbidden one", async () => {
    const id = placed[0]!;
    const completed = await api("POST", `/wp-json/wc/v3/orders/${id}`, { status: "completed" }, admin, { "X-HTTP-Method-Override": "PATCH" });
    expect(completed.status).toBe(200);
    const c = (await completed.json()) as { status: string; date_completed: string | null };
    expect(c.status).toBe("completed");
    expect(c.date_completed).toMatch(/^\d{4}-/);
    const back = await api("PUT", `/wp-json/wc/v3/orders/${id}`, { status: "pending" });
    expect(back.status).toBe(400);
    const err = (await back.json()) as { code: string; message: string; data: { from: string; to: string; allowed: string[] } };
    expect(err.code).toBe("woocommerce_rest_invalid_order_status");
    expect(err.message).toBe("Cannot change the order status from completed to pending.");
    expect(err.data).toMatchObject({ status: 400, from: "completed", to: "pending", allowed: ["refunded"] });
    const refunded = await api("PUT", `/wp-json/wc/v3/orders/${id}`, { status: "refunded" });
    expect(refunded.status).toBe(400);
    expect(((await (await api("GET", `/wp-json/wc/v3/orders/${id}`)).json()) as { status: string }).status).toBe("completed");
    const bad = await api("PUT", `/wp-json/wc/v3/orders/${id}`, { status: "shipped" });
    expect(((await bad.json()) as { code: string }).code).toBe("rest_invalid_param");
    const lines = await api("PUT", `/wp-json/wc/v3/orders/${id}`, { line_items: [] });
    expect(Object.keys(((await lines.json()) as { data: { params: Record<string, string> } }).data.params)).toEqual(["line_items"]);
  });

  it("updates addresses field by field and the customer note", async () => {
    const id = placed[2]!;
    const res = await api("PUT", `/wp-json/wc/v3/orders/${id}`, {
      billing: { phone: "555 000 1111" },
      shipping: { city: "Chicago" },
      customer_note: "Leave at door",
    });
    expect(res.status).toBe(200);
    const o = (await res.json()) as { billing: Record<string, string>; shipping: Record<string, string>; customer_note: string };
    expect(o.billing).toMatchObject({ phone: "555 000 1111", email: "third@example.com", city: "Springfield" });
    expect(o.shipping.city).toBe("Chicago");
    expect(o.customer_note).toBe("Leave at door");
    const customer = await signInAs(shop, "third-customer@example.com", "customer");
    expect((await api("PUT", `/wp-json/wc/v3/orders/${id}`, { customer_note: "x" }, customer)).status).toBe(403);
  });
});

describe("wc/v3/orders/{id}/notes", () => {
  it("adds a private note and a customer note (e-mailed), lists and deletes them", async () => {
    const id = placed[1]!;
    const priv = await api("POST", `/wp-json/wc/v3/orders/${id}/notes`, { note: "Checked the address" });
    expect(priv.status).toBe(201);
    expect(await priv.json()).toMatchObject({ note: "Checked the address", customer_note: false, author: expect.any(String) });
    const pub = await api("POST", `/wp-json/wc/v3/orders/${id}/notes`, { note: "Shipped today", customer_note: true });
    const p = (await pub.json()) as { id: number; customer_note: boolean };
    expect(p.customer_note).toBe(true);
    const mail = await shop.services.db.query<{ to_address: string; body: string }>(
      `SELECT to_address, body FROM email_outbox WHERE order_id = $1 AND kind = 'order_note'`,
      [id],
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]!.to_address).toBe("second@example.com");
    expect(mail[0]!.body).toContain("Shipped today");
    const customerNotes = (await (await api("GET", `/wp-json/wc/v3/orders/${id}/notes?type=customer`)).json()) as { id: number }[];
    expect(customerNotes.map((n) => n.id)).toEqual([p.id]);
    expect((await api("GET", `/wp-json/wc/v3/orders/${id}/notes/${p.id}`)).status).toBe(200);
    expect((await api("DELETE", `/wp-json/wc/v3/orders/${id}/notes/${p.id}`)).status).toBe(501);
    expect((await api("DELETE", `/wp-json/wc/v3/orders/${id}/notes/${p.id}?force=true`)).status).toBe(200);
    expect((await api("GET", `/wp-json/wc/v3/orders/${id}/notes/${p.id}`)).status).toBe(404);
    expect(((await (await api("POST", `/wp-json/wc/v3/orders/${id}/notes`, { note: "" })).json()) as { code: string }).code).toBe("rest_invalid_param");
    expect(((await (await api("GET", `/wp-json/wc/v3/orders/999999/notes`)).json()) as { code: string }).code).toBe("woocommerce_rest_order_invalid_id");
  });
});

describe("DELETE wc/v3/orders/{id}", () => {
  it("needs force=true, gives an unpaid order's stock back, and is gone after", async () => {
    const before = await stockOf();
    const made = (await (
      await api("POST", "/wp-json/wc/v3/orders", { billing: { email: "del@example.com" }, line_items: [{ product_id: productId, quantity: 2 }] })
    ).json()) as {
      id: number;
    };
    expect(await stockOf()).toBe(before - 2);
    const soft = await api("DELETE", `/wp-json/wc/v3/orders/${made.id}`);
    expect(soft.status).toBe(501);
    expect(((await soft.json()) as { code: string }).code).toBe("woocommerce_rest_trash_not_supported");
    const customer = await signInAs(shop, "del-customer@example.com", "customer");
    expect((await api("DELETE", `/wp-json/wc/v3/orders/${made.id}?force=true`, undefined, customer)).status).toBe(403);
    const hard = await api("DELETE", `/wp-json/wc/v3/orders/${made.id}?force=true`);
    expect(hard.status).toBe(200);
    expect(((await hard.json()) as { id: number }).id).toBe(made.id);
    expect(await stockOf()).toBe(before);
    expect((await api("GET", `/wp-json/wc/v3/orders/${made.id}`)).status).toBe(404);
    const audit = await shop.services.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE object_type = 'order' AND object_id = $1 ORDER BY id`, [
      String(made.id),
    ]);
    expect(audit.map((a) => a.action)).toEqual(["create", "delete"]);
  });
});
