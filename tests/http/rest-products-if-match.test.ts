/**
 * Two editors at once (docs/contract/rest/products.md 'Two editors at once'): wc/v3/products/{id} answers the
 * product's version as an ETag; an update that sends it back as If-Match is refused with 412
 * rest_product_changed, changing nothing, when someone saved the product in between; without If-Match, an update
 * is applied as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

let shop: TestShop;
let first: SignedIn;
let second: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  first = await signInAs(shop, "if-match-admin@example.com", "administrator");
  second = await signInAs(shop, "if-match-manager@example.com", "shop_manager");
});
afterAll(async () => shop?.close());

const put = (who: SignedIn, id: number, body: unknown, ifMatch?: string) =>
  who.client.request(`/wp-json/wc/v3/products/${id}`, {
    method: "PUT",
    headers: { "X-WP-Nonce": who.nonce, ...(ifMatch ? { "If-Match": ifMatch } : {}) },
    json: body,
  });

describe("If-Match on a product update", () => {
  it("refuses the second of two saves made from the same version, and keeps the first", async () => {
    const [row] = await shop.services.db.query<{ id: number }>(`SELECT id FROM products WHERE type = 'simple' AND status = 'publish' ORDER BY id LIMIT 1`);
    const id = row!.id;
    const read = async (who: SignedIn) => {
      const res = await who.client.request(`/wp-json/wc/v3/products/${id}`, { headers: { "X-WP-Nonce": who.nonce } });
      expect(res.status).toBe(200);
      return res.headers.get("etag")!;
    };
    const opened = await read(first);
    expect(opened).toMatch(/^"\d+"$/);
    expect(await read(second)).toBe(opened);

    const saved = await put(first, id, { regular_price: "91.00" }, opened);
    expect(saved.status).toBe(200);
    const newer = saved.headers.get("etag");
    expect(newer).toMatch(/^"\d+"$/);
    expect(newer).not.toBe(opened);

    const refused = await put(second, id, { regular_price: "12.00", name: "Overwritten" }, opened);
    expect(refused.status).toBe(412);
    expect(await refused.json()).toEqual({
      code: "rest_product_changed",
      message: "This product was changed since you opened it. Reload it to see the changes, then make yours again.",
      data: { status: 412 },
    });
    const [after] = await shop.services.db.query<{ regular_price: number; name: string }>(`SELECT regular_price, name FROM products WHERE id = $1`, [id]);
    expect(Number(after!.regular_price)).toBe(9100);
    expect(after!.name).not.toBe("Overwritten");

    // With the version just read, the same save goes through; a malformed If-Match never matches; no If-Match is last-write-wins.
    expect((await put(second, id, { regular_price: "92.00" }, await read(second))).status).toBe(200);
    expect((await put(second, id, { regular_price: "93.00" }, "garbage")).status).toBe(412);
    expect((await put(second, id, { regular_price: "94.00" })).status).toBe(200);
    expect((await put(second, id, { regular_price: "95.00" }, "*")).status).toBe(200);
  });
});
