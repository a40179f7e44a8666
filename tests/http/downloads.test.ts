/**
 * Downloadable products end to end (decision 0041, docs/contract/rest/products.md 'Downloads'): a file uploaded
 * for downloads is not reachable by its address; wc/v3 products take `downloads`, `download_limit` and
 * `download_expiry` (validated, capability-checked); paying grants one permission per file, once; the download link
 * streams the file to its owner or to whoever has the order key and e-mail, counts each download atomically (no
 * more than the limit under concurrent requests), and refuses an expired or used-up permission with a page;
 * cancelling takes the downloads back. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { billing, cardFields, openCheckout, submitCheckout } from "./checkout-support.ts";
import { grantOrderDownloads } from "../../core/db/repositories/downloads.ts";

let shop: TestShop;
let admin: SignedIn;
let buyer: SignedIn;
let other: SignedIn;
let fileUrl = "";
let productId = 0;
let orderId = 0;
const BYTES = Buffer.from("%PDF-1.4\nA pattern, in bytes.\n%%EOF\n");

function api(method: string, path: string, body?: unknown, who: SignedIn = admin) {
  return who.client.request(`/wp-json/${path}`, {
    method,
    headers: { "X-WP-Nonce": who.nonce, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

function upload(who: SignedIn, name: string, bytes: Buffer) {
  return who.client.request("/wp-json/shop/v1/downloadable-files", {
    method: "POST",
    headers: { "X-WP-Nonce": who.nonce, "Content-Type": "application/octet-stream", "Content-Disposition": `attachment; filename="${name}"` },
    body: new Uint8Array(bytes),
  });
}

const permissionRows = async () =>
  shop.services.db.query<{ downloads_remaining: number | null; download_count: number }>(
    `SELECT downloads_remaining, download_count FROM download_permissions WHERE order_id = $1`,
    [orderId],
  );

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "downloads-admin@example.com", "administrator");
  buyer = await signInAs(shop, "downloads-buyer@example.com", "customer");
  other = await signInAs(shop, "downloads-other@example.com", "customer");
});
afterAll(async () => shop?.close());

describe("the editor's REST fields", () => {
  it("uploads a file that its address does not serve, staff only", async () => {
    expect((await upload(buyer, "x.pdf", BYTES)).status).toBe(403);
    const res = await upload(admin, "Mask Pattern.pdf", BYTES);
    expect(res.status).toBe(201);
    const body = (await res.json()) as { file: string; name: string; filesize: number };
    expect(body).toMatchObject({ name: "Mask Pattern.pdf", filesize: BYTES.length });
    expect(body.file).toMatch(/\/wp-content\/uploads\/woocommerce_uploads\/\d{4}\/\d{2}\/mask-pattern\.pdf$/);
    fileUrl = body.file;
    const direct = await new TestClient(shop.url).get(new URL(fileUrl).pathname);
    expect(direct.status).toBe(404);
    expect(Buffer.from(await direct.arrayBuffer()).includes(BYTES)).toBe(false);
    const list = (await (await api("GET", "shop/v1/downloadable-files")).json()) as { file: string }[];
    expect(list.map((f) => f.file)).toContain(fileUrl);
  });

  it("creates a downloadable product with its files, limit and expiry, and refuses bad ones with 400", async () => {
    const bad = await api("POST", "wc/v3/products", { name: "Bad", downloadable: true, download_limit: -5 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string; data: { params: Record<string, string> } }).data.params).toHaveProperty("download_limit");
    const unknown = await api("POST", "wc/v3/products", {
      name: "Unknown file",
      downloadable: true,
      downloads: [{ name: "Ghost", file: fileUrl.replace("mask-pattern", "ghost") }],
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { code: string }).code).toBe("rest_invalid_param");
    expect((await api("POST", "wc/v3/products", { name: "Nope", downloadable: true }, buyer)).status).toBe(403);

    const res = await api("POST", "wc/v3/products", {
      name: "Downloadable Pattern",
      status: "publish",
      regular_price: "3.00",
      downloadable: true,
      virtual: true,
      downloads: [{ name: "Mask pattern", file: fileUrl }],
      download_limit: 2,
      download_expiry: 30,
    });
    expect(res.status).toBe(201);
    const p = (await res.json()) as { id: number; downloads: { id: string; name: string; file: string }[]; download_limit: number; download_expiry: number };
    expect(p).toMatchObject({ downloadable: true, virtual: true, download_limit: 2, download_expiry: 30, shipping_required: false });
    expect(p.downloads).toEqual([{ id: expect.stringMatching(/.+/), name: "Mask pattern", file: fileUrl }]);
    productId = p.id;
    const blank = await api("PUT", `wc/v3/products/${productId}`, { download_expiry: "" });
    expect(((await blank.json()) as { download_expiry: number }).download_expiry).toBe(-1);
    const back = await api("PUT", `wc/v3/products/${productId}`, { download_expiry: 30 });
    expect(back.status).toBe(200);
  });
});

describe("granting and downloading", () => {
  it("grants one permission per file when the order is paid, once", async () => {
    const add = await buyer.client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
    expect(((await add.json()) as { fragments?: unknown }).fragments).toBeDefined();
    const checkout = await openCheckout(buyer.client);
    // Only a virtual (downloadable) item: no shipping address is asked, no shipping charged.
    expect(checkout.html).toMatch(/class="woocommerce-shipping-fields" hidden=""/);
    const reply = await submitCheckout(buyer.client, checkout, { ...billing("downloads-buyer@example.com"), ...cardFields() });
    expect(reply.result).toBe("success");
    orderId = Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]);
    expect(await permissionRows()).toEqual([{ downloads_remaining: 2, download_count: 0 }]);
    const [order] = await shop.services.db.query<{ shipping_total: number; total: number }>(`SELECT shipping_total, total FROM orders WHERE id = $1`, [
      orderId,
    ]);
    expect(order).toEqual({ shipping_total: 0, total: 300 });
    // Completing the order, and a second payment notice, grant nothing more.
    expect((await api("PUT", `wc/v3/orders/${orderId}`, { status: "completed" })).status).toBe(200);
    expect(await shop.services.db.transaction((tx) => grantOrderDownloads(tx, orderId, new Date()))).toBe(0);
    expect(await permissionRows()).toEqual([{ downloads_remaining: 2, download_count: 0 }]);
    const mail = await shop.services.db.query<{ body: string }>(`SELECT body FROM email_outbox WHERE order_id = $1 AND kind = 'order_received'`, [orderId]);
    expect(mail[0]?.body).toMatch(/Downloads\nMask pattern: http:\/\/.+\/\?download_file=/);
  });

  it("lists the download in My account, the order view and customers/{id}/downloads", async () => {
    const page = await (await buyer.client.get("/my-account/downloads/")).text();
    expect(page).toContain("Downloadable Pattern");
    expect(page).toMatch(/href="\/\?download_file=\d+&amp;order=wc_order_[^"]+&amp;email=downloads-buyer%40example.com&amp;key=[^"]+"/);
    expect(await (await buyer.client.get(`/my-account/view-order/${orderId}/`)).text()).toContain("Mask pattern");
    expect(await (await other.client.get("/my-account/downloads/")).text()).toContain("No downloads available yet.");
    const rest = await api("GET", `wc/v3/customers/${buyer.id}/downloads`);
    expect(rest.status).toBe(200);
    const [d] = (await rest.json()) as Record<string, unknown>[];
    expect(d).toMatchObject({
      product_id: productId,
      product_name: "Downloadable Pattern",
      download_name: "Mask pattern",
      order_id: orderId,
      downloads_remaining: "2",
      file: { name: "Mask pattern", file: fileUrl },
    });
    expect(String(d!.access_expires)).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await api("GET", `wc/v3/customers/${buyer.id}/downloads`, undefined, other)).status).toBe(403);
  });

  it("streams the file to its owner and to a guest with the key and e-mail; refuses another customer", async () => {
    const page = await (await buyer.client.get("/my-account/downloads/")).text();
    const link = /href="(\/\?download_file=[^"]+)"/.exec(page)![1]!.replaceAll("&amp;", "&");
    const withoutEmail = link.replace(/&email=[^&]+/, "");
    const mine = await buyer.client.get(withoutEmail);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-disposition")).toMatch(/^attachment; filename="Mask Pattern.pdf"/);
    expect(mine.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await mine.arrayBuffer()).equals(BYTES)).toBe(true);
    const otherTry = await other.client.get(withoutEmail);
    expect(otherTry.status).toBe(403);
    expect(await otherTry.text()).toContain("Invalid download link.");
    expect((await new TestClient(shop.url).get(link.replace("downloads-buyer", "someone"))).status).toBe(403);
    expect((await new TestClient(shop.url).get(link.replace(/key=[^&]+/, "key=nope"))).status).toBe(404);
    // The last one of the limit (2), taken by one of six guests at once.
    const all = await Promise.all(Array.from({ length: 6 }, () => new TestClient(shop.url).get(link)));
    const statuses = all.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 403, 403, 403, 403, 403]);
    const refused = all.find((r) => r.status === 403)!;
    expect(await refused.text()).toContain("Sorry, you have reached your download limit for this file.");
    expect(await permissionRows()).toEqual([{ downloads_remaining: 0, download_count: 2 }]);
    expect(await (await buyer.client.get("/my-account/downloads/")).text()).toContain("No downloads available yet.");
  });

  it("refuses an expired download with a page, and takes the downloads back when the order is refunded", async () => {
    await shop.services.db.query(`UPDATE download_permissions SET downloads_remaining = NULL, access_expires = now() - interval '1 day' WHERE order_id = $1`, [
      orderId,
    ]);
    const rest = (await (await api("GET", `wc/v3/customers/${buyer.id}/downloads`)).json()) as { download_url: string }[];
    const link = new URL(rest[0]!.download_url);
    const expired = await new TestClient(shop.url).get(link.pathname + link.search);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain("Sorry, this download has expired.");
    // A full refund moves the order to refunded (through the one status transition).
    expect((await api("POST", `wc/v3/orders/${orderId}/refunds`, { amount: "3.00", api_refund: false, reason: "test" })).status).toBe(201);
    expect((await (await api("GET", `wc/v3/orders/${orderId}`)).json()) as { status: string }).toMatchObject({ status: "refunded" });
    expect(await permissionRows()).toEqual([]);
    expect((await new TestClient(shop.url).get(link.pathname + link.search)).status).toBe(404);
  });
});
