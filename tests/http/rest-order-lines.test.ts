/**
 * Editing an order's lines through `PUT wc/v3/orders/{id}` with `line_items` (decision 0048): add, change and remove
 * with the totals and the tax recalculated by the checkout's rule, the stock moved when the order holds it, a
 * private note and an audit entry; refused for an order that is not editable, bad input, a customer, a stale
 * If-Match; two edits at once lose no stock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { productWithStock } from "./checkout-support.ts";

let shop: TestShop;
let admin: SignedIn;
let customer: SignedIn;
let scarf = 0;
let tie = 0;
let variable = { productId: 0, variationId: 0 };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire shapes read loosely in tests
type Json = any;

function api(method: string, path: string, body?: unknown, who: SignedIn = admin, headers: Record<string, string> = {}) {
  return who.client.request(`/wp-json/${path}`, {
    method,
    headers: { "X-WP-Nonce": who.nonce, "Content-Type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const stockOf = async (table: "products" | "variations", id: number) =>
  (await shop.services.db.query<{ n: number }>(`SELECT stock_quantity AS n FROM ${table} WHERE id = $1`, [id]))[0]!.n;

async function newOrder(lines: { product_id: number; quantity: number; variation_id?: number }[]): Promise<Json> {
  const res = await api("POST", "wc/v3/orders", {
    billing: { email: "lines@example.com", first_name: "Ada", last_name: "Lovelace", country: "US", state: "IL", postcode: "62701", city: "Springfield" },
    shipping: { first_name: "Ada", last_name: "Lovelace", country: "US", state: "IL", postcode: "62701", city: "Springfield", address_1: "1 Main St" },
    line_items: lines,
    shipping_lines: [{ method_id: "flat_rate", method_title: "Flat rate", total: "5.00" }],
  });
  if (res.status !== 201) throw new Error(await res.text());
  return res.json();
}

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "lines-admin@example.com", "administrator");
  customer = await signInAs(shop, "lines-customer@example.com", "customer");
  scarf = await productWithStock(shop, "silk-pocket-square", 20, 1500);
  tie = await productWithStock(shop, "tie-clip", 3, 1000);
  const [v] = await shop.services.db.query<{ id: number; product_id: number }>(
    `UPDATE variations SET stock_quantity = 10, stock_status = 'instock', regular_price = 2000, sale_price = NULL
     WHERE id = (SELECT v.id FROM variations v JOIN products p ON p.id = v.product_id WHERE p.type = 'variable' ORDER BY v.id LIMIT 1)
     RETURNING id, product_id`,
  );
  variable = { productId: v!.product_id, variationId: v!.id };
  // Tax on: 10 % in the US, shipping taxed (Settings › Tax).
  expect((await api("POST", "wc/v3/taxes", { country: "US", rate: "10", name: "Sales tax", shipping: true })).status).toBe(201);
  expect((await api("PUT", "shop/v1/settings/tax", { enabled: true, shippingTaxable: true })).status).toBe(200);
});
afterAll(async () => shop?.close());

describe("PUT wc/v3/orders/{id} with line_items", () => {
  it("adds, changes and removes lines, recalculates the totals and the tax, moves the stock, notes and audits", async () => {
    const made = await newOrder([
      { product_id: scarf, quantity: 2 },
      { product_id: tie, quantity: 1 },
    ]);
    expect(await stockOf("products", scarf)).toBe(18);
    expect(await stockOf("products", tie)).toBe(2);
    const [scarfLine, tieLine] = made.line_items as { id: number }[];
    const read = await api("GET", `wc/v3/orders/${made.id}`);
    const etag = read.headers.get("etag")!;
    const res = await api(
      "PUT",
      `wc/v3/orders/${made.id}`,
      {
        line_items: [
          { id: scarfLine!.id, quantity: 3 },
          { id: tieLine!.id, quantity: 0 },
          { product_id: variable.productId, variation_id: variable.variationId, quantity: 2 },
        ],
      },
      admin,
      { "If-Match": etag },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).not.toBe(etag);
    const o: Json = await res.json();
    expect(o.line_items.map((l: Json) => [l.product_id, l.variation_id, l.quantity, l.subtotal, l.total])).toEqual([
      [scarf, 0, 3, "45.00", "45.00"],
      [variable.productId, variable.variationId, 2, "40.00", "40.00"],
    ]);
    // 10 % on each line and on the 5.00 shipping: 4.50 + 4.00 + 0.50.
    expect(o.line_items.map((l: Json) => l.total_tax)).toEqual(["4.50", "4.00"]);
    expect(o.shipping_total).toBe("5.00");
    expect(o.shipping_tax).toBe("0.50");
    expect(o.total_tax).toBe("9.00");
    expect(o.total).toBe("99.00");
    expect(o.tax_lines).toHaveLength(1);
    expect(o.tax_lines[0]).toMatchObject({ label: "Sales tax", tax_total: "8.50", shipping_tax_total: "0.50" });
    // The stock: one more scarf taken, the tie back, two of the variation taken.
    expect(await stockOf("products", scarf)).toBe(17);
    expect(await stockOf("products", tie)).toBe(3);
    expect(await stockOf("variations", variable.variationId)).toBe(8);
    const notes: Json[] = await (await api("GET", `wc/v3/orders/${made.id}/notes`)).json();
    const note = notes.find((n) => n.note.startsWith("Added"));
    expect(note?.customer_note).toBe(false);
    expect(note?.note).toContain("Removed Brushed Steel Tie Clip × 1.");
    expect(note?.note).toMatch(/Changed quantity of .+ from 2 to 3\./);
    const audit = await shop.services.db.query<{ action: string; changes: Json }>(
      `SELECT action, changes FROM audit_log WHERE object_type = 'order' AND object_id = $1 ORDER BY id`,
      [made.id],
    );
    expect(audit.at(-1)!.action).toBe("update");
    expect(audit.at(-1)!.changes.line_items.changed).toEqual([{ id: scarfLine!.id, from: 2, to: 3 }]);
    // Cancelling the edited order gives back exactly what it holds now.
    expect((await api("PUT", `wc/v3/orders/${made.id}`, { status: "cancelled" })).status).toBe(200);
    expect(await stockOf("products", scarf)).toBe(20);
    expect(await stockOf("variations", variable.variationId)).toBe(10);
  });

  it("refuses more than the stock, an order that is not editable, bad input, a customer and a stale If-Match, changing nothing", async () => {
    const made = await newOrder([{ product_id: scarf, quantity: 1 }]);
    const line = made.line_items[0].id as number;
    const before = await stockOf("products", tie);
    const short = await api("PUT", `wc/v3/orders/${made.id}`, {
      line_items: [
        { id: line, quantity: 2 },
        { product_id: tie, quantity: before + 1 },
      ],
    });
    expect(short.status).toBe(400);
    const shortBody: Json = await short.json();
    expect(shortBody.code).toBe("woocommerce_rest_invalid_stock");
    expect(Object.keys(shortBody.data.params)).toEqual(["line_items[1].quantity"]);
    expect(await stockOf("products", tie)).toBe(before);
    expect(await stockOf("products", scarf)).toBe(19);

    const unknown = await api("PUT", `wc/v3/orders/${made.id}`, { line_items: [{ product_id: 987654, quantity: 1 }] });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as Json).data.params).toHaveProperty(["line_items[0].product_id"]);
    const noVariation = await api("PUT", `wc/v3/orders/${made.id}`, { line_items: [{ product_id: variable.productId, quantity: 1 }] });
    expect(((await noVariation.json()) as Json).data.params).toHaveProperty(["line_items[0].variation_id"]);
    const badQuantity = await api("PUT", `wc/v3/orders/${made.id}`, { line_items: [{ id: line, quantity: -1 }] });
    expect(badQuantity.status).toBe(400);
    expect(((await badQuantity.json()) as Json).data.params).toHaveProperty(["line_items[0].quantity"]);
    const priced = await api("PUT", `wc/v3/orders/${made.id}`, { line_items: [{ id: line, quantity: 2, total: "0.01" }] });
    expect(((await priced.json()) as Json).data.params).toHaveProperty(["line_items[0].total"]);
    const foreign = await api("PUT", `wc/v3/orders/${made.id}`, { line_items: [{ id: 999999, quantity: 2 }] });
    expect(((await foreign.json()) as Json).data.params).toHaveProperty(["line_items[0].id"]);

    const denied = await api("PUT", `wc/v3/orders/${made.id}`, { line_items: [{ id: line, quantity: 5 }] }, customer);
    expect(denied.status).toBe(403);
    const stale = await api("PUT", `wc/v3/orders/${made.id}`, { line_items: [{ id: line, quantity: 5 }] }, admin, { "If-Match": '"1"' });
    expect(stale.status).toBe(412);
    expect(((await stale.json()) as Json).code).toBe("woocommerce_rest_order_changed");

    expect((await api("PUT", `wc/v3/orders/${made.id}`, { status: "processing" })).status).toBe(200);
    const locked = await api("PUT", `wc/v3/orders/${made.id}`, { line_items: [{ id: line, quantity: 5 }] });
    expect(locked.status).toBe(409);
    expect(((await locked.json()) as Json).code).toBe("woocommerce_rest_order_not_editable");

    const after: Json = await (await api("GET", `wc/v3/orders/${made.id}`)).json();
    expect(after.line_items.map((l: Json) => l.quantity)).toEqual([1]);
    expect(after.total).toBe(made.total);
    expect(await stockOf("products", scarf)).toBe(19);
  });

  it("two edits at once both count and lose no stock; the last unit goes to one of two orders", async () => {
    await productWithStock(shop, "tie-clip", 5, 1000);
    const made = await newOrder([{ product_id: scarf, quantity: 1 }]);
    const both = await Promise.all([
      api("PUT", `wc/v3/orders/${made.id}`, { line_items: [{ product_id: tie, quantity: 2 }] }),
      api("PUT", `wc/v3/orders/${made.id}`, { line_items: [{ product_id: tie, quantity: 2 }] }),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const o: Json = await (await api("GET", `wc/v3/orders/${made.id}`)).json();
    expect(o.line_items.filter((l: Json) => l.product_id === tie).reduce((n: number, l: Json) => n + l.quantity, 0)).toBe(4);
    expect(await stockOf("products", tie)).toBe(1);

    const a = await newOrder([{ product_id: scarf, quantity: 1 }]);
    const b = await newOrder([{ product_id: scarf, quantity: 1 }]);
    const race = await Promise.all([
      api("PUT", `wc/v3/orders/${a.id}`, { line_items: [{ product_id: tie, quantity: 1 }] }),
      api("PUT", `wc/v3/orders/${b.id}`, { line_items: [{ product_id: tie, quantity: 1 }] }),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await stockOf("products", tie)).toBe(0);
  });
});
