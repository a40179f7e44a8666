/**
 * A paid order's download permissions, as the Order screen changes them (docs/contract/rest/shop-v1.md 'Download
 * permissions'): `shop/v1/orders/{id}/downloads` lists, grants, edits (resets) and revokes, staff only, refusing bad
 * input at the field (400), an unknown order or permission (404), a guest (401) and a customer (403); each write is
 * audited, and the shopper's download link follows at once. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { billing, cardFields, openCheckout, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let manager: SignedIn;
let buyer: SignedIn;
let productId = 0;
let otherProductId = 0;
let plainProductId = 0;
let orderId = 0;
let files: { id: string; name: string }[] = [];

interface Permission {
  id: number;
  order_id: number;
  product_id: number;
  product_name: string;
  download_id: string;
  download_name: string;
  download_limit: number;
  downloads_remaining: number | null;
  download_count: number;
  access_expires: string | null;
  download_url: string;
}
interface RestErr {
  code: string;
  data: { status: number; params?: Record<string, string> };
}

function api(method: string, path: string, body?: unknown, who: SignedIn | null = manager) {
  const client = who?.client ?? new TestClient(shop.url);
  return client.request(`/wp-json/${path}`, {
    method,
    headers: { ...(who ? { "X-WP-Nonce": who.nonce } : {}), "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
const list = async () => (await (await api("GET", `shop/v1/orders/${orderId}/downloads`)).json()) as Permission[];
/** The shopper's link, opened by anyone holding it (the e-mailed link): the status it answers. */
const open = async (p: Permission) => {
  const url = new URL(p.download_url);
  return (await new TestClient(shop.url).get(url.pathname + url.search)).status;
};
async function refusal(res: Response, status: number): Promise<RestErr> {
  expect(res.status).toBe(status);
  return (await res.json()) as RestErr;
}

beforeAll(async () => {
  shop = await startTestShop();
  manager = await signInAs(shop, "perms-manager@example.com", "shop_manager");
  buyer = await signInAs(shop, "perms-buyer@example.com", "customer");
  const admin = await signInAs(shop, "perms-admin@example.com", "administrator");
  const make = async (body: Record<string, unknown>) => {
    const res = await api("POST", "wc/v3/products", { status: "publish", regular_price: "4.00", ...body }, admin);
    expect(res.status).toBe(201);
    return (await res.json()) as { id: number; downloads: { id: string; name: string }[] };
  };
  const pattern = await make({
    name: "Perms Pattern",
    downloadable: true,
    downloads: [
      { name: "Pattern A4", file: "https://files.example/pattern-a4.pdf" },
      { name: "Pattern Letter", file: "https://files.example/pattern-letter.pdf" },
    ],
    download_limit: 2,
    download_expiry: -1,
  });
  productId = pattern.id;
  files = pattern.downloads;
  otherProductId = (await make({ name: "Perms Guide", downloadable: true, downloads: [{ name: "Guide", file: "https://files.example/guide.pdf" }] })).id;
  plainProductId = (await make({ name: "Perms Scarf" })).id;
  await buyer.client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
  const reply = await submitCheckout(buyer.client, await openCheckout(buyer.client), { ...billing("perms-buyer@example.com"), ...cardFields() });
  expect(reply.result).toBe("success");
  orderId = Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]);
});
afterAll(async () => shop?.close());

describe("shop/v1/orders/{id}/downloads", () => {
  it("lists the permissions the payment granted, for staff only", async () => {
    const perms = await list();
    expect(perms.map((p) => [p.download_name, p.downloads_remaining, p.download_count, p.access_expires])).toEqual([
      ["Pattern A4", 2, 0, null],
      ["Pattern Letter", 2, 0, null],
    ]);
    expect(perms[0]).toMatchObject({ order_id: orderId, product_id: productId, product_name: "Perms Pattern", download_limit: 2 });
    expect(perms[0]!.download_url).toMatch(/\/\?download_file=\d+&order=wc_order_[^&]+&email=perms-buyer%40example.com&key=/);
    expect((await refusal(await api("GET", `shop/v1/orders/${orderId}/downloads`, undefined, null), 401)).code).toBe("rest_not_logged_in");
    expect((await refusal(await api("GET", `shop/v1/orders/${orderId}/downloads`, undefined, buyer), 403)).code).toBe("rest_forbidden");
    expect((await refusal(await api("GET", "shop/v1/orders/999999/downloads"), 404)).code).toBe("woocommerce_rest_shop_order_invalid_id");
  });

  it("wc/v3/products?downloadable= lists the products the Order screen may grant (or the others)", async () => {
    const names = async (q: string) =>
      ((await (await api("GET", `wc/v3/products?search=Perms&orderby=title&order=asc&${q}`)).json()) as { name: string }[]).map((p) => p.name);
    expect(await names("downloadable=true")).toEqual(["Perms Guide", "Perms Pattern"]);
    expect(await names("downloadable=false")).toEqual(["Perms Scarf"]);
    expect(await names("downloadable=true&type=variable")).toEqual([]);
  });

  it("revokes a permission: its link stops working; a customer may not, an unknown one is 404", async () => {
    const [, letter] = await list();
    expect((await api("DELETE", `shop/v1/orders/${orderId}/downloads/${letter!.id}`, undefined, buyer)).status).toBe(403);
    expect(await open(letter!)).toBe(302); // a file kept elsewhere: the link redirects to it
    const res = await api("DELETE", `shop/v1/orders/${orderId}/downloads/${letter!.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ deleted: true, previous: { id: letter!.id, download_name: "Pattern Letter" } });
    expect(await open(letter!)).toBe(404);
    expect((await refusal(await api("DELETE", `shop/v1/orders/${orderId}/downloads/${letter!.id}`), 404)).code).toBe("shop_download_permission_invalid_id");
    expect((await list()).map((p) => p.download_name)).toEqual(["Pattern A4"]);
  });

  it("grants access to a file, refusing bad input at the field, a customer and a file the order already has", async () => {
    const bad = async (body: unknown, field: string) => {
      const err = await refusal(await api("POST", `shop/v1/orders/${orderId}/downloads`, body), 400);
      expect(err.code).toBe("rest_invalid_param");
      expect(Object.keys(err.data.params ?? {})).toEqual([field]);
    };
    await bad({ product_id: "pattern" }, "product_id");
    await bad({ product_id: plainProductId }, "product_id");
    await bad({ product_id: productId, download_id: "not-a-file" }, "download_id");
    await bad({ product_id: productId, downloads_remaining: 3 }, "downloads_remaining");
    expect((await refusal(await api("POST", `shop/v1/orders/${orderId}/downloads`, {}), 400)).code).toBe("rest_missing_callback_param");
    expect((await api("POST", `shop/v1/orders/${orderId}/downloads`, { product_id: productId, download_id: files[1]!.id }, buyer)).status).toBe(403);
    expect((await api("POST", "shop/v1/orders/999999/downloads", { product_id: productId, download_id: files[1]!.id })).status).toBe(404);

    const res = await api("POST", `shop/v1/orders/${orderId}/downloads`, { product_id: productId, download_id: files[1]!.id });
    expect(res.status).toBe(201);
    const [granted] = (await res.json()) as Permission[];
    expect(granted).toMatchObject({ download_name: "Pattern Letter", downloads_remaining: 2, download_count: 0, access_expires: null });
    expect(await open(granted!)).toBe(302);
    expect((await refusal(await api("POST", `shop/v1/orders/${orderId}/downloads`, { product_id: productId, download_id: files[1]!.id }), 409)).code).toBe(
      "shop_download_permission_exists",
    );
    expect((await api("POST", `shop/v1/orders/${orderId}/downloads`, { product_id: productId })).status).toBe(409);
    // Without a file: every file of the product (WooCommerce's "Grant access" with a product chosen).
    const whole = await api("POST", `shop/v1/orders/${orderId}/downloads`, { product_id: otherProductId });
    expect(whole.status).toBe(201);
    expect(((await whole.json()) as Permission[]).map((p) => [p.download_name, p.downloads_remaining])).toEqual([["Guide", null]]);
    expect((await list()).map((p) => p.download_name)).toEqual(["Pattern A4", "Pattern Letter", "Guide"]);
  });

  it("resets a used-up permission by setting downloads remaining, and expires or frees it by its date", async () => {
    const a4 = (await list())[0]!;
    expect([await open(a4), await open(a4), await open(a4)]).toEqual([302, 302, 403]);
    expect((await list())[0]).toMatchObject({ downloads_remaining: 0, download_count: 2, refusal: "used-up" });
    const path = `shop/v1/orders/${orderId}/downloads/${a4.id}`;
    const bad = async (body: unknown, field: string) => {
      const err = await refusal(await api("PUT", path, body), 400);
      expect(Object.keys(err.data.params ?? {})).toEqual([field]);
    };
    await bad({ downloads_remaining: -1 }, "downloads_remaining");
    await bad({ downloads_remaining: 1.5 }, "downloads_remaining");
    await bad({ access_expires: "soon" }, "access_expires");
    await bad({ access_expires: "2026-02-30" }, "access_expires");
    await bad({ download_count: 0 }, "download_count");
    await bad({}, "downloads_remaining");
    expect((await api("PUT", path, { downloads_remaining: 5 }, buyer)).status).toBe(403);
    expect((await api("PUT", path, { downloads_remaining: 5 }, null)).status).toBe(401);
    expect((await api("PUT", `shop/v1/orders/${orderId}/downloads/999999`, { downloads_remaining: 5 })).status).toBe(404);
    expect((await api("PUT", `shop/v1/orders/999999/downloads/${a4.id}`, { downloads_remaining: 5 })).status).toBe(404);

    const reset = await api("PUT", path, { downloads_remaining: 1 });
    expect(reset.status).toBe(200);
    expect(await reset.json()).toMatchObject({ downloads_remaining: 1, download_count: 2, access_expires: null, refusal: null });
    expect([await open(a4), await open(a4)]).toEqual([302, 403]);
    const expired = await api("PATCH", path, { downloads_remaining: "", access_expires: "2020-01-31" });
    expect(await expired.json()).toMatchObject({ downloads_remaining: null, access_expires: "2020-01-31T23:59:59", refusal: "expired" });
    expect(await open(a4)).toBe(403);
    expect((await (await api("POST", path, { access_expires: null })).json()) as Permission).toMatchObject({ access_expires: null });
    expect(await open(a4)).toBe(302);
  });

  it("records each write in the audit log with who made it", async () => {
    const rows = await shop.services.db.query<{ action: string; actor_label: string }>(
      `SELECT action, actor_label FROM audit_log WHERE object_type = 'download_permission' ORDER BY id`,
    );
    expect(rows.map((r) => r.action)).toEqual(["revoke", "grant", "grant", "update", "update", "update"]);
    expect(new Set(rows.map((r) => r.actor_label))).toEqual(new Set(["perms-manager@example.com"]));
  });
});
