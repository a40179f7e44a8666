/**
 * Creating a tag from the product editor (docs/contract/admin.md 'Edit Product', docs/contract/rest/taxonomies.md):
 * `POST wc/v3/products/tags` with `manage_product_terms` (administrator and shop manager), a name another tag has in
 * any case refused as WordPress does (`term_exists` with the tag's `resource_id`, which the editor then takes), a
 * guest and a customer refused, and the new tag saved on a product. On PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { roleCan } from "../../core/security/capabilities.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "tags-admin@example.com", "administrator");
  manager = await signInAs(shop, "tags-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "tags-customer@example.com", "customer");
});
afterAll(async () => shop?.close());

type Json = Record<string, unknown> & { code?: string; data?: { status: number; resource_id?: number; params?: Record<string, string> } };
async function call(who: SignedIn | null, method: string, path: string, json?: unknown) {
  const client = who?.client ?? new TestClient(shop.url);
  const res = await client.request(`/wp-json/wc/v3${path}`, { method, json, headers: who ? { "X-WP-Nonce": who.nonce } : {} });
  return { status: res.status, body: (await res.json()) as Json & Json[], headers: res.headers };
}
const tagsNamed = async (name: string) =>
  (await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM terms WHERE taxonomy = 'product_tag' AND lower(name) = lower($1)`, [name]))[0]!
    .n;

describe("creating product tags", () => {
  it("is WooCommerce's manage_product_terms, which staff have and customers do not", () => {
    expect(["administrator", "shop_manager", "customer"].map((r) => roleCan(r, "manage_product_terms"))).toEqual([true, true, false]);
  });

  it("creates a tag for staff, refuses the same name in another case with term_exists naming the tag, and it can go on a product", async () => {
    const made = await call(manager, "POST", "/products/tags", { name: "Festival Wear" });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "Festival Wear", slug: "festival-wear", count: 0 });
    const id = made.body.id as number;

    for (const [who, name] of [
      [admin, "festival wear"],
      [manager, "FESTIVAL WEAR"],
      [admin, "  Festival Wear  "],
    ] as const) {
      const again = await call(who, "POST", "/products/tags", { name });
      expect([name, again.status, again.body.code, again.body.data?.resource_id]).toEqual([name, 400, "term_exists", id]);
    }
    expect(await tagsNamed("festival wear")).toBe(1);

    // The editor's next step: the product saved with the tag.
    const product = await call(admin, "POST", "/products", { name: "Tag Test Hat", regular_price: "12.00", tags: [{ id }] });
    expect(product.status).toBe(201);
    const read = await call(admin, "GET", `/products/${product.body.id as number}`);
    expect((read.body.tags as Json[]).map((t) => [t.id, t.name])).toEqual([[id, "Festival Wear"]]);
    expect((await call(admin, "GET", `/products/tags/${id}`)).body.count).toBe(1);
  });

  it("refuses a guest (401) and a customer (403), creating nothing, and a name that makes no slug naming it", async () => {
    const guest = await call(null, "POST", "/products/tags", { name: "Guest Tag" });
    expect([guest.status, guest.body.code]).toEqual([401, "woocommerce_rest_cannot_create"]);
    const shopper = await call(customer, "POST", "/products/tags", { name: "Shopper Tag" });
    expect([shopper.status, shopper.body.code]).toEqual([403, "woocommerce_rest_cannot_create"]);
    expect((await tagsNamed("Guest Tag")) + (await tagsNamed("Shopper Tag"))).toBe(0);
    const empty = await call(admin, "POST", "/products/tags", { name: "   " });
    expect([empty.status, empty.body.code, Object.keys(empty.body.data?.params ?? {})]).toEqual([400, "rest_invalid_param", ["name"]]);
  });
});
