/**
 * The shop, product and checkout pages ship no zod: the catalogue's schemas live in `*.schema.ts`
 * modules that only the server imports (core/domain/catalog/README.md). Follows every
 * script a page loads, and the chunks those import, statically or lazily.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await startTestShop();
});
afterAll(async () => {
  await shop?.close();
});

/** Every JavaScript file a page can load, with its text. */
async function scriptsOf(path: string): Promise<Map<string, string>> {
  const html = await (await fetch(shop.url + path)).text();
  const queue: string[] = [];
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) queue.push(new URL(m[1]!, shop.url + path).href);
  for (const m of html.matchAll(/<script[^>]+src="([^"]+)"/g)) queue.push(new URL(m[1]!, shop.url + path).href);
  for (const m of html.matchAll(/import\("([^"]+\.js)"\)/g)) queue.push(new URL(m[1]!, shop.url + path).href);
  const seen = new Map<string, string>();
  while (queue.length) {
    const url = queue.pop()!;
    if (seen.has(url) || !url.startsWith(shop.url)) continue;
    const response = await fetch(url);
    expect(response.status, url).toBe(200);
    const text = await response.text();
    seen.set(url, text);
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+\.js)"/g)) queue.push(new URL(m[1]!, url).href);
    for (const m of text.matchAll(/"(assets\/[^"]+\.js)"/g)) queue.push(new URL(`/${m[1]}`, shop.url).href);
  }
  return seen;
}

describe("JavaScript shipped by catalogue pages", () => {
  // The checkout too: its payment form reads the gateway settings' types, never their zod schema (settings.schema.ts).
  it.each(["/shop/", "/product-category/ties/", "/product/pleated-face-mask/", "/checkout/"])("%s loads no zod", async (path) => {
    const scripts = await scriptsOf(path);
    expect(scripts.size).toBeGreaterThan(3);
    const withZod = [...scripts].filter(([, text]) => text.includes("ZodError") || text.includes("$ZodType")).map(([url]) => url);
    expect(withZod).toEqual([]);
  });
});

/** The Groomsmen Gift Box: a $20 box, a tie at 10 % off ($19.80), 2 masks ($3 each) and an optional pocket square ($12). */
describe("a bundle's one price: page, listing sort, get_price_html and cart (issue 20)", () => {
  const AJAX = "/wp-admin/admin-ajax.php";
  const amount = (n: string) => `<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">$</span>${n}</bdi></span>`;
  const productId = async (slug: string) => (await shop.services.db.query<{ id: number }>(`SELECT id FROM products WHERE slug = $1`, [slug]))[0]!.id;

  it("the product page shows the box with its mandatory items, and each item's picture and link", async () => {
    const html = await (await fetch(`${shop.url}/product/groomsmen-gift-box/`)).text();
    const price = /<p class="price">([\s\S]*?)<\/p>/.exec(html)![1]!;
    expect(price).toContain(amount("46"));
    expect(price).not.toContain(amount("20"));
    const items = /<ul class="bundled_products">([\s\S]*?)<\/ul>/.exec(html)![1]!;
    expect(items).toContain('href="/product/skinny-cotton-tie/"');
    expect(items).toContain('href="/product/silk-pocket-square/"');
    expect(items.match(/<img [^>]*src="\/media\/[^"]+\.svg"/g)?.length).toBe(4);
    expect(/class="bundle_total"[^>]*>[\s\S]*?<\/p>/.exec(html)![0]).toContain(amount("46"));
  });

  it("get_price_html prices the bundle with the extras ticked, as the cart then charges it", async () => {
    const shopper = new TestClient(shop.url);
    const page = await (await shopper.get("/product/groomsmen-gift-box/")).text();
    const nonce = String(pageGlobal(page, "awdr_params").nonce);
    const id = await productId("groomsmen-gift-box");
    const ask = (extra: Record<string, string>) =>
      shopper.post(AJAX, { action: "wdr_ajax", method: "get_price_html", product_id: String(id), qty: "1", awdr_nonce: nonce, ...extra });
    const plain = await ask({});
    expect(plain.status).toBe(200);
    expect(((await plain.json()) as { data: { original_price_html: string } }).data.original_price_html).toBe(amount("46"));
    const withSquare = await ask({ bundle_selected_optional_3: "yes" });
    expect(withSquare.status).toBe(200);
    expect(((await withSquare.json()) as { data: { original_price_html: string } }).data.original_price_html).toBe(amount("58"));
    // A mandatory item, an unknown one or a malformed field is a client's mistake.
    const bads: Record<string, string>[] = [
      { bundle_selected_optional_1: "yes" },
      { bundle_selected_optional_99: "yes" },
      { bundle_selected_optional_3: "no" },
      { bundle_selected_optional_x: "yes" },
    ];
    for (const bad of bads) {
      const res = await ask(bad);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { data: { code: string } }).data.code).toBe("invalid_bundle_items");
    }
    // The cart charges what the page said.
    const added = await shopper.post(AJAX, {
      action: "astra_add_cart_single_product",
      "add-to-cart": String(id),
      quantity: "1",
      bundle_quantity_1: "1",
      bundle_quantity_2: "2",
      bundle_quantity_3: "1",
      bundle_selected_optional_3: "yes",
    });
    expect(added.status).toBe(200);
    const cart = await (await shopper.get("/cart/")).text();
    expect(/<td class="product-subtotal"[^>]*>([\s\S]*?)<\/td>/.exec(cart)![1]).toContain(amount("58"));
  });

  it("/shop/?orderby=price-desc lists the shown prices from high to low: the bundle sorts by the price it shows", async () => {
    const html = await (await fetch(`${shop.url}/shop/?orderby=price-desc`)).text();
    const cards = [...html.matchAll(/woocommerce-loop-product__title">([^<]+)<[\s\S]*?<\/a>/g)].map((m) => {
      const amounts = [...m[0].matchAll(/<\/span>([\d,]+)<\/bdi>/g)].map((a) => Number(a[1]!.replace(/,/g, "")));
      return { name: m[1]!, shown: amounts[amounts.length - 1]! };
    });
    const box = cards.find((c) => c.name === "Groomsmen Gift Box");
    expect(box?.shown).toBe(46);
    for (let i = 1; i < cards.length; i++) expect(cards[i]!.shown, `${cards[i - 1]!.name} then ${cards[i]!.name}`).toBeLessThanOrEqual(cards[i - 1]!.shown);
  });
});
