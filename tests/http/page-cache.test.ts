/**
 * The anonymous page cache (docs/decisions/0028-page-cache.md, docs/contract/storefront.md §10 'Page cache'): one set of
 * bytes for every visitor without a session, no cookie, ETag and 304, a CSP of script hashes, and no stale price or
 * stock after the write that changed it: REST, an order, a scheduled change, and another process on PostgreSQL.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtServer, startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";
import { parseEnv } from "../../core/config/env.server.ts";
import { tempDir } from "../support/database.ts";
import type { FunnelHit } from "../../core/tracking/funnel.ts";

let shop: TestShop;
let admin: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "cache-admin@example.com", "administrator");
});
afterAll(async () => shop?.close());

const anonymous = (path: string, headers: Record<string, string> = {}) => fetch(shop.url + path, { headers, redirect: "manual" });

async function putProduct(id: number, fields: Record<string, unknown>): Promise<void> {
  const res = await admin.client.request(`/wp-json/wc/v3/products/${id}`, { method: "PUT", headers: { "X-WP-Nonce": admin.nonce }, json: fields });
  expect(res.status).toBe(200);
}

/** The product page's "N in stock" note. */
const stockShown = (html: string) => Number(/class="stock in-stock">(\d+)/.exec(html)?.[1]);

const productId = async (slug: string) => (await shop.services.db.query<{ id: number }>(`SELECT id FROM products WHERE slug = $1`, [slug]))[0]!.id;

describe("a page for everyone", () => {
  it("a second anonymous GET of /shop/ is a hit with the same bytes, no Set-Cookie, Cache-Control for a CDN", async () => {
    const first = await anonymous("/shop/");
    const firstBody = await first.text();
    const second = await anonymous("/shop/");
    const secondBody = await second.text();
    expect(first.status).toBe(200);
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(secondBody).toBe(firstBody);
    for (const res of [first, second]) {
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(res.headers.get("cache-control")).toMatch(/^public, max-age=0, s-maxage=\d+(, stale-while-revalidate=\d+)?$/);
      expect(res.headers.get("vary")).toMatch(/Accept-Encoding/);
    }
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
  });

  it("a kept product page answered before Express still counts as a funnel view, with the proxied client address", async () => {
    const hits: FunnelHit[] = [];
    const funnel = shop.services.funnel;
    const record = funnel.record.bind(funnel);
    funnel.record = (hit) => (hits.push(hit), record(hit));
    try {
      const visitor = { "user-agent": "FunnelProbe/1.0", "x-forwarded-for": "203.0.113.7" };
      await anonymous("/product/silk-pocket-square/", visitor);
      const hit = await anonymous("/product/silk-pocket-square/", visitor);
      expect(hit.headers.get("x-cache")).toBe("HIT");
      // A prefetch and a HEAD are not views; a 304 revalidation is not a new one.
      await anonymous("/product/silk-pocket-square/", { ...visitor, "sec-purpose": "prefetch" });
      await fetch(`${shop.url}/product/silk-pocket-square/`, { method: "HEAD", headers: visitor });
      await anonymous("/product/silk-pocket-square/", { ...visitor, "if-none-match": hit.headers.get("etag")! });
      const probes = hits.filter((h) => h.userAgent === "FunnelProbe/1.0");
      expect(probes).toHaveLength(2);
      for (const h of probes) expect(h).toMatchObject({ step: "view", address: "203.0.113.7" });
    } finally {
      funnel.record = record;
    }
  });

  it("If-None-Match answers 304 without a body", async () => {
    const etag = (await anonymous("/product/black-everyday-mask/")).headers.get("etag")!;
    expect(etag).toMatch(/^W\/"/);
    const res = await anonymous("/product/black-everyday-mask/", { "if-none-match": etag });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe("");
    expect(res.headers.get("etag")).toBe(etag);
  });

  it("the CSP allows the page's inline scripts by their hashes, with no nonce in the page", async () => {
    const res = await anonymous("/");
    const html = await res.text();
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).not.toMatch(/'nonce-/);
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter((m) => !/\ssrc=/.test(m[1]!));
    expect(inline.length).toBeGreaterThan(1);
    for (const m of inline) {
      expect(m[1]).not.toMatch(/nonce="[^"]/);
      expect(csp).toContain(`'sha256-${createHash("sha256").update(m[2]!).digest("base64")}'`);
    }
  });

  it("gzip and brotli are made once: the same encoded bytes for every request", async () => {
    await anonymous("/blog/");
    const a = await fetch(shop.url + "/blog/", { headers: { "accept-encoding": "br" } });
    const b = await fetch(shop.url + "/blog/", { headers: { "accept-encoding": "br" } });
    expect(a.headers.get("x-cache")).toBe("HIT");
    expect(await a.text()).toBe(await b.text());
  });

  it("the anonymous nonces of a cached page work for a guest, and the page set no key cookie", async () => {
    const client = new TestClient(shop.url);
    const html = await (await client.get("/product/black-everyday-mask/")).text();
    expect(client.cookies.size).toBe(0);
    const nonce = String(pageGlobal(html, "awdr_params").nonce);
    const res = await client.post("/wp-admin/admin-ajax.php", {
      action: "wdr_ajax",
      method: "get_price_html",
      product_id: String(await productId("black-everyday-mask")),
      qty: "6",
      awdr_nonce: nonce,
    });
    expect(res.status).toBe(200);
  });
});

describe("a shopper with a cart (decision 0042)", () => {
  /** The cart fragments as the browser's refresh gets them. */
  const fragments = async (client: TestClient) =>
    ((await (await client.post("/?wc-ajax=get_refreshed_fragments", { time: "1" })).json()) as { fragments: Record<string, string>; cart_hash: string })
      .fragments;
  const countIn = (html: string) => Number(/class="count"[^>]*>(\d+)</.exec(html)?.[1]);

  it("gets the page kept for everyone (the same bytes, no Set-Cookie), and the fragments refresh gives their real cart", async () => {
    const id = await productWithStock(shop, "silk-pocket-square", 50, 1200);
    const client = await shopperWithCart(shop, id, 12);
    expect([...client.cookies.keys()]).toEqual(expect.arrayContaining(["woocommerce_items_in_cart", "woocommerce_cart_hash"]));
    const everyone = await (await anonymous("/shop/")).text();
    const res = await client.get("/shop/");
    expect(res.headers.get("x-cache")).toBe("HIT");
    expect(res.headers.getSetCookie()).toEqual([]);
    const html = await res.text();
    expect(html).toBe(everyone);
    // Its cart parts are placeholders (their box kept, unseen for a shopper with items until the fragments fill them).
    expect(html).toMatch(/<a class="cart-contents"[^>]*data-cart-placeholder=""/);
    expect(html).toMatch(/class="widget_shopping_cart_content" data-cart-placeholder=""/);
    expect(html).toContain("data-cart-pending");
    const own = await fragments(client);
    expect(countIn(own["a.cart-contents"]!)).toBe(12);
    expect(own["a.cart-contents"]).not.toContain("data-cart-placeholder");
    expect(own["div.widget_shopping_cart_content"]).toContain("Silk Pocket Square");
    // A product page too, first rendered for this shopper (a miss) and then kept for everyone.
    const first = await client.get("/product/wool-knit-tie/");
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(countIn(await first.text())).toBe(0);
    expect((await anonymous("/product/wool-knit-tie/")).headers.get("x-cache")).toBe("HIT");
    // Their session was not touched by the page rendered for everyone: the cart is still theirs.
    expect(countIn((await fragments(client))["a.cart-contents"]!)).toBe(12);
    expect(shop.pageCache!.stats.shopperHits).toBeGreaterThan(0);
  });

  it("a price change drops the page for them too: the next page and the fragments show the new price", async () => {
    const id = await productWithStock(shop, "tie-clip", 40, 900);
    const client = await shopperWithCart(shop, id, 2);
    await client.get("/product/tie-clip/");
    const before = await client.get("/product/tie-clip/");
    expect(before.headers.get("x-cache")).toBe("HIT");
    expect(await before.text()).not.toContain("543.21");
    await putProduct(id, { regular_price: "543.21", sale_price: "" });
    const after = await client.get("/product/tie-clip/");
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(await after.text()).toContain("543.21");
    // The mini-cart (its prices) on a page for everyone always comes from this refresh, never from storage.
    expect((await fragments(client))["div.widget_shopping_cart_content"]).toContain("</span>543</bdi>");
  });

  it("a shopper with a session notice gets their own page with the notice, then the kept one again", async () => {
    const id = await productWithStock(shop, "silk-pocket-square", 50, 1200);
    const client = await shopperWithCart(shop, id, 1);
    await anonymous("/product/black-everyday-mask/");
    expect((await client.get("/product/black-everyday-mask/")).headers.get("x-cache")).toBe("HIT");
    // A refused add queues a notice in the session (the browser then goes to a product page to show it).
    const refused = (await (await client.post("/?wc-ajax=add_to_cart", { product_id: "abc" })).json()) as { error?: boolean };
    expect(refused.error).toBe(true);
    const own = await client.get("/product/black-everyday-mask/");
    expect(own.headers.get("x-cache")).toBeNull();
    expect(own.headers.get("cache-control")).toBe("private, no-cache");
    const html = await own.text();
    expect(html).toContain("Sorry, this product cannot be purchased.");
    expect(countIn(html)).toBe(1);
    const again = await client.get("/product/black-everyday-mask/");
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(await again.text()).not.toContain("Sorry, this product cannot be purchased.");
  });

  it("with a popup whose cart condition their cart meets, a shopper gets their own page with it; one whose cart does not, the kept page", async () => {
    const withMask = await shopperWithCart(shop, await productWithStock(shop, "black-everyday-mask", 100, 1500), 1);
    const withoutMask = await shopperWithCart(shop, await productWithStock(shop, "silk-pocket-square", 50, 1200), 1);
    const popup = `settings->>'title' = 'Free mask with 6'`;
    await shop.services.db.query(`UPDATE popups SET settings = jsonb_set(settings, '{enabled}', 'true') WHERE ${popup}`);
    try {
      await anonymous("/shop/");
      const everyone = await anonymous("/shop/");
      expect(everyone.headers.get("x-cache")).toBe("HIT");
      expect(await everyone.text()).not.toContain("A free mask with every 6");
      const own = await withMask.get("/shop/");
      expect(own.headers.get("x-cache")).toBeNull();
      expect(await own.text()).toContain("A free mask with every 6");
      const kept = await withoutMask.get("/shop/");
      expect(kept.headers.get("x-cache")).toBe("HIT");
    } finally {
      await shop.services.db.query(`UPDATE popups SET settings = jsonb_set(settings, '{enabled}', 'false') WHERE ${popup}`);
    }
    await withMask.get("/shop/");
    expect((await withMask.get("/shop/")).headers.get("x-cache")).toBe("HIT");
  });

  it("a signed-in customer, and a shopper with another cookie of theirs, get their own page", async () => {
    const customer = await signInAs(shop, "cache-customer@example.com");
    await anonymous("/shop/");
    const res = await customer.client.get("/shop/");
    expect(res.headers.get("x-cache")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    const id = await productWithStock(shop, "silk-pocket-square", 50, 1200);
    const client = await shopperWithCart(shop, id, 1);
    const viewed = await fetch(`${shop.url}/shop/`, { headers: { cookie: `${client.cookieHeader()}; shop_view=list` } });
    expect(viewed.headers.get("x-cache")).toBeNull();
  });

  it("a page for everyone that is not kept (a 404) is rendered again for a shopper: their own, with their cart", async () => {
    const client = await shopperWithCart(shop, await productWithStock(shop, "silk-pocket-square", 50, 1200), 3);
    for (const path of ["/product/no-such-product/", "/shop/page/999/"]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("x-cache")).toBeNull();
      expect(countIn(await res.text())).toBe(3);
      expect((await anonymous(path)).status).toBe(404);
    }
  });

  it("add to cart from a kept page, and the mini-cart's remove link, still work with the shopper's own nonces", async () => {
    const id = await productWithStock(shop, "silk-pocket-square", 50, 1200);
    const client = await shopperWithCart(shop, id, 1);
    expect((await client.get("/shop/")).headers.get("x-cache")).toMatch(/HIT|MISS/);
    const added = (await (await client.post("/?wc-ajax=add_to_cart", { product_id: String(id), quantity: "2" })).json()) as {
      fragments: Record<string, string>;
    };
    expect(countIn(added.fragments["a.cart-contents"]!)).toBe(3);
    const remove = /href="([^"]*remove_item=[^"]*)"/.exec((await fragments(client))["div.widget_shopping_cart_content"]!)![1]!.replaceAll("&amp;", "&");
    const removed = await client.get(remove.replace(shop.url, ""));
    expect(removed.status).toBeLessThan(400);
    expect(countIn((await fragments(client))["a.cart-contents"]!)).toBe(0);
  });
});

describe("no stale page after a change", () => {
  it("a price changed through wc/v3/products shows at once on the product page and the listing", async () => {
    const id = await productId("travel-tie-case");
    const before = await (await anonymous("/product/travel-tie-case/")).text();
    expect((await anonymous("/product/travel-tie-case/")).headers.get("x-cache")).toBe("HIT");
    await anonymous("/shop/");
    expect(before).not.toContain("987.65");
    await putProduct(id, { regular_price: "987.65", sale_price: "" });
    const product = await anonymous("/product/travel-tie-case/");
    expect(product.headers.get("x-cache")).toBe("MISS");
    expect(await product.text()).toContain("987.65");
    expect(await (await anonymous("/shop/?orderby=price-desc")).text()).toContain("987.65");
  });

  it("a content page renamed through wp/v2/pages changes the footer link on cached product and listing pages", async () => {
    const about = (await shop.services.db.query<{ id: number }>(`SELECT id FROM posts WHERE slug = 'about' AND type = 'page'`))[0]!.id;
    for (const path of ["/product/travel-tie-case/", "/shop/"]) {
      await anonymous(path);
      expect((await anonymous(path)).headers.get("x-cache")).toBe("HIT");
    }
    const res = await admin.client.request(`/wp-json/wp/v2/pages/${about}`, {
      method: "POST",
      headers: { "X-WP-Nonce": admin.nonce },
      json: { slug: "our-story" },
    });
    expect(res.status).toBe(200);
    for (const path of ["/product/travel-tie-case/", "/shop/"]) {
      const html = await (await anonymous(path)).text();
      expect(html).toContain('href="/our-story/"');
      expect(html).not.toContain('href="/about/"');
    }
  });

  it("an order's stock change invalidates the product page", async () => {
    const id = await productWithStock(shop, "tie-clip", 40, 900);
    expect(stockShown(await (await anonymous("/product/tie-clip/")).text())).toBe(40);
    expect((await anonymous("/product/tie-clip/")).headers.get("x-cache")).toBe("HIT");
    const client = await shopperWithCart(shop, id, 3);
    const reply = await submitCheckout(client, await openCheckout(client), { ...billing(), ...cardFields() });
    expect(reply.result).toBe("success");
    expect(stockShown(await (await anonymous("/product/tie-clip/")).text())).toBe(37);
  });

  it("a page is not kept past the next scheduled change (a discount rule's start)", async () => {
    const realNow = shop.services.now;
    const start = new Date(Date.now() + 3600_000);
    await shop.services.db.query(`INSERT INTO discount_rules (code, priority, enabled, data) VALUES ($1, 1, true, $2)`, [
      "cache-test-sale",
      JSON.stringify({
        code: "cache-test-sale",
        title: "Cache test sale",
        priority: 1,
        enabled: true,
        schedule: { from: start.toISOString() },
        filters: [],
        conditions: [],
        action: { kind: "product_percent", percent: 10 },
        stacking: "combinable",
      }),
    ]);
    try {
      await anonymous("/product/black-everyday-mask/");
      const hit = await anonymous("/product/black-everyday-mask/");
      expect(hit.headers.get("x-cache")).toBe("HIT");
      // A CDN is not told to keep it past the start either.
      const sMaxAge = Number(/s-maxage=(\d+)/.exec(hit.headers.get("cache-control")!)![1]);
      expect(sMaxAge).toBeLessThanOrEqual(3600);
      shop.services.now = () => new Date(start.getTime() + 1000);
      expect((await anonymous("/product/black-everyday-mask/")).headers.get("x-cache")).toBe("MISS");
    } finally {
      shop.services.now = realNow;
      await shop.services.db.query(`DELETE FROM discount_rules WHERE code = 'cache-test-sale'`);
    }
  });
});

/** Another process of the same shop: the test shop's PostgreSQL database, its own data folder and port. */
async function anotherProcess(extra: Record<string, string> = {}) {
  const { dir, remove } = tempDir("shop-cache-process-");
  const { startShop, createLogger } = await builtServer();
  const env = parseEnv({
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: path.join(dir, "data"),
    SIMULATOR: "off",
    LOG_LEVEL: "warn",
    DATABASE_URL: shop.databaseUrl!,
    ...extra,
  });
  const running = await startShop(env, createLogger(env.LOG_LEVEL));
  return {
    ...running,
    url: `http://127.0.0.1:${(running.server.address() as { port: number }).port}`,
    async close() {
      await running.stop();
      remove();
    },
  };
}

/** Fetches `url` until its body contains `text` (the change crosses processes after the commit), at most 5 s. */
async function eventually(url: string, text: string): Promise<string> {
  let body = "";
  for (let i = 0; i < 100 && !body.includes(text); i++) {
    body = await (await fetch(url)).text();
    if (!body.includes(text)) await new Promise((r) => setTimeout(r, 50));
  }
  return body;
}

describe("revalidation", () => {
  it("a 304 from a fresh rendering carries the page's own CSP, not one with this request's nonce", async () => {
    const first = await anonymous("/product/black-everyday-mask/");
    const etag = first.headers.get("etag")!;
    // A product write (its price set to what it is) drops the page: the next request renders it again, to the same
    // bytes, so the same ETag.
    const id = await productId("silk-pocket-square");
    const current = (await (await admin.client.request(`/wp-json/wc/v3/products/${id}`, { headers: { "X-WP-Nonce": admin.nonce } })).json()) as {
      regular_price: string;
    };
    await putProduct(id, { regular_price: current.regular_price });
    const res = await anonymous("/product/black-everyday-mask/", { "if-none-match": etag });
    expect(res.status).toBe(304);
    expect(res.headers.get("x-cache")).toBe("MISS");
    // The browser stores a 304's headers with the page it has: a nonce policy there would block its scripts.
    expect(res.headers.get("content-security-policy")).toBe(first.headers.get("content-security-policy"));
    expect(res.headers.get("content-security-policy")).not.toContain("nonce-");
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("processes of one shop on PostgreSQL", () => {
  it("a price written through one process is not served stale by the other (LISTEN/NOTIFY)", async () => {
    const second = await anotherProcess();
    try {
      const url = `${second.url}/product/wool-knit-tie/`;
      await fetch(url);
      expect((await fetch(url)).headers.get("x-cache")).toBe("HIT");
      const invalidations = second.pageCache!.stats.invalidations;
      await putProduct(await productId("wool-knit-tie"), { regular_price: "876.54", sale_price: "" });
      expect(await eventually(url, "876.54")).toContain("876.54");
      expect(second.pageCache!.stats.invalidations).toBeGreaterThan(invalidations);
    } finally {
      await second.close();
    }
  });

  it("with REDIS_URL, over Redis pub/sub", async () => {
    const redis = { REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", REDIS_PREFIX: `page-cache-test-${process.pid}-${Date.now()}` };
    const [a, b] = [await anotherProcess(redis), await anotherProcess(redis)];
    try {
      const url = `${b.url}/product/skinny-cotton-tie/`;
      await fetch(url);
      expect((await fetch(url)).headers.get("x-cache")).toBe("HIT");
      const invalidations = b.pageCache!.stats.invalidations;
      await a.services.db.query(`UPDATE products SET regular_price = 76543, sale_price = NULL WHERE slug = 'skinny-cotton-tie'`);
      expect(await eventually(url, "765.43")).toContain("765.43");
      expect(b.pageCache!.stats.invalidations).toBeGreaterThan(invalidations);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
