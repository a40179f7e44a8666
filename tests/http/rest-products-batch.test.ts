/**
 * The admin's bulk edit and variation routes (docs/contract/rest/products.md 'Writes', 'Two editors at once'):
 * `wc/v3/products/batch` `update` applies each item on its own and answers a refused one in WooCommerce's batch
 * shape (`{id, error: {code, message, data}}`) while the others are saved; only staff may batch. A variation answers
 * its own version as an ETag; an update or delete sent with a stale `If-Match` is refused with 412
 * `rest_variation_changed` and changes nothing; a batch's items are not checked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "batch-admin@example.com", "administrator");
  manager = await signInAs(shop, "batch-manager@example.com", "shop_manager");
});
afterAll(async () => shop?.close());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- WooCommerce's loose JSON in assertions

const api = async (who: SignedIn, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await who.client.request(`/wp-json/wc/v3/${path}`, { method, headers: { "X-WP-Nonce": who.nonce, ...headers }, json: body });
  return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
};
const row = async <T>(sql: string, params: unknown[] = []) => (await shop.services.db.query<T>(sql, params))[0]!;
const simpleProducts = (n: number) =>
  shop.services.db.query<{ id: number; regular_price: number; sale_price: number | null }>(
    `SELECT id, regular_price, sale_price FROM products WHERE type = 'simple' AND status = 'publish' AND regular_price >= 2000 ORDER BY id LIMIT $1`,
    [n],
  );

describe("wc/v3/products/batch update", () => {
  it("saves the items it can and answers each refused one with its error, in WooCommerce's shape", async () => {
    const [a, b, c] = await simpleProducts(3);
    const res = await api(manager, "POST", "products/batch", {
      update: [
        { id: a!.id, sale_price: "10.00", stock_quantity: 7 },
        // Above the regular price: refused by the same rule as a single update.
        { id: b!.id, sale_price: "100000.00" },
        { id: 99999999, sale_price: "1.00" },
        { id: c!.id, status: "draft" },
      ],
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["update"]);
    const [first, second, third, fourth] = res.body.update as Json[];
    expect(first).toMatchObject({ id: a!.id, sale_price: "10.00", stock_quantity: 7, manage_stock: true, on_sale: true });
    expect(second).toEqual({
      id: b!.id,
      error: {
        code: "rest_invalid_param",
        message: "Invalid parameter(s): sale_price",
        data: { status: 400, params: { sale_price: "sale_price must be lower than regular_price" }, details: {} },
      },
    });
    expect(third).toEqual({ id: 99999999, error: { code: "woocommerce_rest_product_invalid_id", message: "Invalid ID.", data: { status: 404 } } });
    expect(fourth).toMatchObject({ id: c!.id, status: "draft" });

    const stored = async (id: number) =>
      row<{ sale_price: number | null; stock_quantity: number | null; status: string }>(
        `SELECT sale_price, stock_quantity, status FROM products WHERE id = $1`,
        [id],
      );
    expect(await stored(a!.id)).toMatchObject({ sale_price: 1000, stock_quantity: 7 });
    expect((await stored(b!.id)).sale_price).toBe(b!.sale_price);
    expect((await stored(c!.id)).status).toBe("draft");
    await api(manager, "PUT", `products/${c!.id}`, { status: "publish" });

    // Each saved item has its audit line; the refused one none.
    const audited = await shop.services.db.query<{ object_id: string }>(
      `SELECT object_id FROM audit_log WHERE object_type = 'product' AND action = 'update' AND object_id = ANY($1::text[])`,
      [[a!.id, b!.id].map(String)],
    );
    expect(audited.map((r) => Number(r.object_id))).toEqual([a!.id]);
  });

  it("ignores the batch request's own If-Match (it names no one product)", async () => {
    const [a] = await simpleProducts(1);
    const res = await api(admin, "POST", "products/batch", { update: [{ id: a!.id, stock_quantity: 3 }] }, { "If-Match": '"1"' });
    expect(res.status).toBe(200);
    expect(res.body.update[0]).toMatchObject({ id: a!.id, stock_quantity: 3 });
  });

  it("is refused to a guest (401) and a customer (403) with WooCommerce's code, changing nothing", async () => {
    const [a] = await simpleProducts(1);
    const before = await row<{ sale_price: number | null }>(`SELECT sale_price FROM products WHERE id = $1`, [a!.id]);
    const body = { update: [{ id: a!.id, sale_price: "1.00" }] };
    const guest = await new TestClient(shop.url).request("/wp-json/wc/v3/products/batch", { method: "POST", json: body });
    expect(guest.status).toBe(401);
    expect(((await guest.json()) as Json).code).toBe("woocommerce_rest_cannot_batch");
    const customer = await signInAs(shop, "batch-customer@example.com", "customer");
    const refused = await api(customer, "POST", "products/batch", body);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      code: "woocommerce_rest_cannot_batch",
      message: "Sorry, you are not allowed to batch manipulate this resource.",
      data: { status: 403 },
    });
    expect(await row(`SELECT sale_price FROM products WHERE id = $1`, [a!.id])).toEqual(before);
  });

  it("refuses more than 100 items at once", async () => {
    const res = await api(admin, "POST", "products/batch", { update: Array.from({ length: 101 }, (_, i) => ({ id: i + 1 })) });
    expect(res.status).toBe(400); // zod's max(100) on the list: rest_invalid_param naming `update`
    expect(res.body.code).toBe("rest_invalid_param");
  });
});

describe("If-Match on a variation", () => {
  it("answers the variation's version and refuses a stale update or delete with 412, changing nothing", async () => {
    const { product_id: productId } = await row<{ product_id: number }>(
      `SELECT v.product_id FROM variations v JOIN products p ON p.id = v.product_id WHERE p.status = 'publish' GROUP BY v.product_id HAVING count(*) >= 2 ORDER BY v.product_id LIMIT 1`,
    );
    const list = await api(admin, "GET", `products/${productId}/variations?orderby=id&order=asc`);
    const [v1, v2] = list.body as Json[];
    const path = `products/${productId}/variations/${v1!.id}`;
    const read = await api(admin, "GET", path);
    const opened = read.headers.get("etag")!;
    expect(opened).toMatch(/^"\d+"$/);

    // Someone else saves it (its answer carries the new version)…
    const saved = await api(manager, "PUT", path, { regular_price: "77.00" }, { "If-Match": opened });
    expect(saved.status).toBe(200);
    const newer = saved.headers.get("etag")!;
    expect(newer).toMatch(/^"\d+"$/);
    expect(newer).not.toBe(opened);

    // …so a save from the version first read is refused and changes nothing.
    const stale = await api(admin, "PUT", path, { regular_price: "12.00", sale_price: "" }, { "If-Match": opened });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({
      code: "rest_variation_changed",
      message: "This variation was changed since you opened it. Reload it to see the changes, then make yours again.",
      data: { status: 412 },
    });
    expect(Number((await row<{ regular_price: number }>(`SELECT regular_price FROM variations WHERE id = $1`, [v1!.id])).regular_price)).toBe(7700);

    const staleDelete = await api(admin, "DELETE", `${path}?force=true`, undefined, { "If-Match": opened });
    expect(staleDelete.status).toBe(412);
    expect(staleDelete.body.code).toBe("rest_variation_changed");
    expect((await api(admin, "GET", path)).status).toBe(200);

    // With the current version both go through; a batch's items are not checked.
    expect((await api(admin, "PUT", path, { regular_price: "78.00" }, { "If-Match": newer })).status).toBe(200);
    const batch = await api(
      admin,
      "POST",
      `products/${productId}/variations/batch`,
      { update: [{ id: v2!.id, regular_price: "79.00" }] },
      { "If-Match": opened },
    );
    expect(batch.body.update[0]).toMatchObject({ id: v2!.id, regular_price: "79.00" });
    const current = (await api(admin, "GET", path)).headers.get("etag")!;
    const deleted = await api(admin, "DELETE", `${path}?force=true`, undefined, { "If-Match": current });
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(v1!.id);
    expect((await api(admin, "GET", path)).status).toBe(404);
    expect((await api(admin, "GET", `products/${productId}`)).body.variations).not.toContain(v1!.id);
  });
});
