/**
 * The page cache's memo of a shopper's popup decision (docs/decisions/0045-shopper-decision-memo.md): a shopper with a
 * cart gets the kept page without their cart being priced again, and never a kept page their cart, a popup or a
 * price no longer allows — whether the cart changed through this process or straight in the database (as another
 * process's write would: no message on any bus).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import type { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { productWithStock, shopperWithCart } from "./checkout-support.ts";

let shop: TestShop;
let admin: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "memo-admin@example.com", "administrator");
});
afterAll(async () => shop?.close());

const OFFER = "A free mask with every 6";
const POPUP = `settings->>'title' = 'Free mask with 6'`;

/** The demo's "Free mask with 6" popup enabled, with this cart condition when given (its own otherwise). */
async function enableOffer(cart?: Record<string, unknown>): Promise<void> {
  await shop.services.db.query(`UPDATE popups SET settings = jsonb_set(settings, '{enabled}', 'true') WHERE ${POPUP}`);
  if (cart)
    await shop.services.db.query(`UPDATE popups SET settings = jsonb_set(settings, '{conditions,cart}', $1::jsonb) WHERE ${POPUP}`, [JSON.stringify(cart)]);
}

let original: unknown;
beforeAll(async () => {
  original = (await shop.services.db.query<{ settings: unknown }>(`SELECT settings FROM popups WHERE ${POPUP}`))[0]!.settings;
});
/** Puts the popup back as seeded (disabled). */
async function restoreOffer(): Promise<void> {
  await shop.services.db.query(`UPDATE popups SET settings = $1::jsonb WHERE ${POPUP}`, [JSON.stringify(original)]);
}

/** `/shop/` for this shopper: "HIT" (the kept page, without the offer) or "own" (rendered for them), and whether it offers. */
async function shopFor(client: TestClient): Promise<{ served: "HIT" | "MISS" | "own"; offer: boolean }> {
  const res = await client.get("/shop/");
  const cache = res.headers.get("x-cache");
  return { served: cache === "HIT" || cache === "MISS" ? cache : "own", offer: (await res.text()).includes(OFFER) };
}

/** A kept `/shop/` for everyone (made by an anonymous visitor). */
async function keepShopPage(): Promise<void> {
  await fetch(`${shop.url}/shop/`);
  expect((await fetch(`${shop.url}/shop/`)).headers.get("x-cache")).toBe("HIT");
}

describe("the shopper decision memo (decision 0045)", () => {
  it("a shopper whose cart does not meet the popup gets the kept page, their cart priced once; a mask added: their own page at once", async () => {
    const mask = await productWithStock(shop, "black-everyday-mask", 100, 1500);
    const square = await productWithStock(shop, "silk-pocket-square", 50, 1200);
    const client = await shopperWithCart(shop, square, 1);
    await enableOffer();
    try {
      await keepShopPage();
      const stats = shop.pageCache!.stats;
      const decided = stats.shopperCartsDecided;
      expect(await shopFor(client)).toEqual({ served: "HIT", offer: false });
      const remembered = stats.shopperCartsRemembered;
      expect(await shopFor(client)).toEqual({ served: "HIT", offer: false });
      expect(await shopFor(client)).toEqual({ served: "HIT", offer: false });
      // (a) Three hits, one pricing: the other two took the decision from the memo.
      expect(stats.shopperCartsDecided).toBe(decided + 1);
      expect(stats.shopperCartsRemembered).toBe(remembered + 2);
      // (b) A mask added: the popup's condition holds, so the next page is theirs, with the offer.
      const added = (await (await client.post("/?wc-ajax=add_to_cart", { product_id: String(mask), quantity: "1" })).json()) as { error?: boolean };
      expect(added.error).toBeFalsy();
      expect(await shopFor(client)).toEqual({ served: "own", offer: true });
      expect(await shopFor(client)).toEqual({ served: "own", offer: true });
      // The mask line deleted straight in the database (another process's write sends nothing on the bus): the kept page again.
      await shop.services.db.query(`DELETE FROM cart_items WHERE product_id = $1 AND cart_id IN (SELECT cart_id FROM cart_items WHERE product_id = $2)`, [
        mask,
        square,
      ]);
      expect(await shopFor(client)).toEqual({ served: "HIT", offer: false });
      // And put back the same way: their own page at once, though the decision for the cart with a mask is in the memo.
      await shop.services.db.query(
        `INSERT INTO cart_items (cart_id, item_key, product_id, variation_id, variation, item_data, quantity, position)
         SELECT cart_id, 'memo-test-mask', $1, 0, '{}', '{}', 1, 99 FROM cart_items WHERE product_id = $2`,
        [mask, square],
      );
      expect(await shopFor(client)).toEqual({ served: "own", offer: true });
    } finally {
      await restoreOffer();
    }
  });

  it("(c) the owner changing the popup's cart condition: no decision taken before the change is used", async () => {
    const square = await productWithStock(shop, "silk-pocket-square", 50, 1200);
    const client = await shopperWithCart(shop, square, 1);
    await enableOffer();
    try {
      await keepShopPage();
      expect(await shopFor(client)).toEqual({ served: "HIT", offer: false });
      expect(await shopFor(client)).toEqual({ served: "HIT", offer: false });
      // Now the offer is for carts holding a pocket square.
      await enableOffer({ contains_products: [square], contains_categories: [] });
      expect(await shopFor(client)).toEqual({ served: "own", offer: true });
      expect(await shopFor(client)).toEqual({ served: "own", offer: true });
      // And disabled: the kept page again.
      await restoreOffer();
      await keepShopPage();
      expect(await shopFor(client)).toEqual({ served: "HIT", offer: false });
    } finally {
      await restoreOffer();
    }
  });

  it("(c) a price raised through wc/v3/products so the cart's subtotal meets the popup: their own page at once", async () => {
    const clip = await productWithStock(shop, "tie-clip", 40, 900);
    const client = await shopperWithCart(shop, clip, 2); // 18.00
    await enableOffer({ contains_products: [], contains_categories: [], subtotal_above: 10_000 }); // above 100.00
    try {
      await keepShopPage();
      expect(await shopFor(client)).toEqual({ served: "HIT", offer: false });
      expect(await shopFor(client)).toEqual({ served: "HIT", offer: false });
      const res = await admin.client.request(`/wp-json/wc/v3/products/${clip}`, {
        method: "PUT",
        headers: { "X-WP-Nonce": admin.nonce },
        json: { regular_price: "60.00", sale_price: "" },
      });
      expect(res.status).toBe(200);
      // 2 × 60.00 = 120.00: the condition holds now.
      expect(await shopFor(client)).toEqual({ served: "own", offer: true });
      // Under 100.00 again (a write to products: its tags drop the kept pages and the decisions alike).
      await shop.services.db.query(`UPDATE products SET regular_price = 1000 WHERE id = $1`, [clip]);
      await keepShopPage();
      expect(await shopFor(client)).toEqual({ served: "HIT", offer: false });
    } finally {
      await restoreOffer();
    }
  });
});
