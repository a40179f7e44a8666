/**
 * Editing an order's addresses through `PUT wc/v3/orders/{id}` (docs/contract/rest/orders.md 'Editing addresses'):
 * the checkout's rules with each refusal at its field, the state kept as its code, a private note and an audit
 * entry, the ETag sent back as `If-Match` refusing a stale save, and customers refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { productWithStock } from "./checkout-support.ts";

let shop: TestShop;
let admin: SignedIn;
let productId: number;

function api(method: string, path: string, body?: unknown, who: SignedIn = admin, headers: Record<string, string> = {}) {
  return who.client.request(path, {
    method,
    headers: { "X-WP-Nonce": who.nonce, "Content-Type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function newOrder(): Promise<number> {
  const res = await api("POST", "/wp-json/wc/v3/orders", {
    billing: {
      email: "addr@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      address_1: "1 Main St",
      city: "Springfield",
      state: "IL",
      postcode: "62701",
      country: "US",
    },
    shipping: { first_name: "Ada", last_name: "Lovelace", address_1: "1 Main St", city: "Springfield", state: "IL", postcode: "62701", country: "US" },
    line_items: [{ product_id: productId, quantity: 1 }],
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "addr-admin@example.com", "administrator");
  productId = await productWithStock(shop, "silk-pocket-square", 50, 900);
});
afterAll(async () => shop?.close());

describe("PUT wc/v3/orders/{id} with addresses", () => {
  it("stores a checked address, keeps the state's code, writes a private note and the audit", async () => {
    const id = await newOrder();
    const read = await api("GET", `/wp-json/wc/v3/orders/${id}`);
    const etag = read.headers.get("etag");
    expect(etag).toMatch(/^"\d+"$/);
    const res = await api(
      "PUT",
      `/wp-json/wc/v3/orders/${id}`,
      {
        shipping: { first_name: "Grace", last_name: "Hopper", address_1: "2 Navy Way", city: "Toronto", state: "Ontario", postcode: "M5V 2T6", country: "CA" },
      },
      admin,
      { "If-Match": etag! },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).not.toBe(etag);
    const o = (await res.json()) as { shipping: Record<string, string>; billing: Record<string, string> };
    expect(o.shipping).toMatchObject({ first_name: "Grace", city: "Toronto", state: "ON", postcode: "M5V 2T6", country: "CA" });
    expect(o.billing.city).toBe("Springfield");
    const notes = (await (await api("GET", `/wp-json/wc/v3/orders/${id}/notes`)).json()) as { note: string; customer_note: boolean; author: string }[];
    const note = notes.find((n) => n.note.startsWith("Shipping address changed"));
    expect(note).toBeDefined();
    expect(note!.customer_note).toBe(false);
    expect(note!.note).toContain("from Ada Lovelace, 1 Main St, Springfield, IL 62701, US to Grace Hopper, 2 Navy Way, Toronto, ON M5V 2T6, CA");
    expect(note!.author).not.toBe("WooCommerce");
    const audit = await shop.services.db.query<{ action: string; changes: unknown }>(
      `SELECT action, changes FROM audit_log WHERE object_type = 'order' AND object_id = $1 ORDER BY id`,
      [id],
    );
    expect(audit.map((a) => a.action)).toEqual(["create", "update"]);
    expect(JSON.stringify(audit[1]!.changes)).toContain("Toronto");

    // The ETag read before the save is stale now: the save is refused, nothing written.
    const stale = await api("PUT", `/wp-json/wc/v3/orders/${id}`, { shipping: { city: "Ottawa" } }, admin, { "If-Match": etag! });
    expect(stale.status).toBe(412);
    expect(((await stale.json()) as { code: string }).code).toBe("woocommerce_rest_order_changed");
    const after = (await (await api("GET", `/wp-json/wc/v3/orders/${id}`)).json()) as { shipping: Record<string, string> };
    expect(after.shipping.city).toBe("Toronto");
  });

  it("refuses each bad field at its name, writing nothing", async () => {
    const id = await newOrder();
    const cases: [Record<string, unknown>, string][] = [
      [{ billing: { email: "not-an-email" } }, "billing.email"],
      [{ billing: { email: "a@b" } }, "billing.email"],
      [{ shipping: { country: "XX" } }, "shipping.country"],
      [{ shipping: { state: "Narnia" } }, "shipping.state"],
      [{ billing: { postcode: "ABCDE" } }, "billing.postcode"],
      [{ shipping: { country: "GB" } }, "shipping.postcode"],
    ];
    for (const [body, field] of cases) {
      const res = await api("PUT", `/wp-json/wc/v3/orders/${id}`, body);
      expect(res.status, field).toBe(400);
      const e = (await res.json()) as { code: string; data: { params: Record<string, string> } };
      expect(e.code).toBe("rest_invalid_param");
      expect(Object.keys(e.data.params), JSON.stringify(body)).toContain(field);
      expect(e.data.params[field]).toMatch(new RegExp(`^${field.replace(".", "\\.")} `));
    }
    const o = (await (await api("GET", `/wp-json/wc/v3/orders/${id}`)).json()) as { billing: Record<string, string>; shipping: Record<string, string> };
    expect(o.billing).toMatchObject({ email: "addr@example.com", postcode: "62701" });
    expect(o.shipping).toMatchObject({ country: "US", state: "IL" });
    const notes = (await (await api("GET", `/wp-json/wc/v3/orders/${id}/notes`)).json()) as { note: string }[];
    expect(notes.some((n) => n.note.includes("address changed"))).toBe(false);
  });

  it("refuses a customer, even on their own order", async () => {
    const id = await newOrder();
    const customer = await signInAs(shop, "addr@example.com", "customer");
    const res = await api("PUT", `/wp-json/wc/v3/orders/${id}`, { shipping: { city: "Elsewhere" } }, customer);
    expect(res.status).toBe(403);
    const o = (await (await api("GET", `/wp-json/wc/v3/orders/${id}`)).json()) as { shipping: Record<string, string> };
    expect(o.shipping.city).toBe("Springfield");
  });
});
