/**
 * Share buttons (docs/contract/storefront.md §9 'Share networks'): the links printed on product pages and blog posts,
 * and the share counts our server reads from the networks that publish one — here a real local HTTP server stands in
 * for the networks (the shop is pointed at it through SHOP_SETTINGS), answering some networks with a count, one with
 * an error and one with garbage.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { applySettingsOverrides } from "../../core/config/settings-overrides.ts";
import { SITE_CONFIG } from "../../core/config/site-config.ts";

let shop: TestShop;
let receiver: http.Server;
const asked: string[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    asked.push(req.url ?? "");
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/vk") return void res.end(`VK.Share.count(1, 41);`);
    if (url.pathname === "/pinterest") return void res.end(`receiveCount({"url":"${url.searchParams.get("url")}","count":7})`);
    if (url.pathname === "/tumblr") return void res.writeHead(500).end("down");
    res.end("<html>not a count</html>"); // odnoklassniki: an answer without a number
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  shop = await startTestShop({
    SHOP_SETTINGS: JSON.stringify({
      share: {
        networks: ["facebook", "x", "vk", "pinterest", "tumblr", "odnoklassniki", "email", "print"],
        counters: ["vk", "pinterest", "tumblr", "odnoklassniki"],
        countEndpoints: {
          vk: `${base}/vk?url={url}`,
          pinterest: `${base}/pinterest?url={url}`,
          tumblr: `${base}/tumblr?url={url}`,
          odnoklassniki: `${base}/ok?url={url}`,
        },
      },
    }),
  });
});
afterAll(async () => {
  await shop?.close();
  await new Promise((r) => receiver?.close(r));
});

const counts = (url: string) => fetch(`${shop.url}/wp-json/shop/v1/share-counts?url=${encodeURIComponent(url)}`);

describe("share links on the page", () => {
  it("prints the configured networks in order, with the canonical address and title, and no network script", async () => {
    const html = await (await fetch(`${shop.url}/product/silk-pocket-square/`)).text();
    const canonical = `${shop.url}/product/silk-pocket-square/`;
    const group = /<div class="share-buttons" role="group" aria-label="Share this page">([\s\S]*?)<\/ul><\/div>/.exec(html)?.[1] ?? "";
    const labels = [...group.matchAll(/aria-label="([^"]+)"/g)].map((m) => m[1]);
    expect(labels).toEqual([
      "Share on Facebook",
      "Share on X",
      "Share on VK",
      "Share on Pinterest",
      "Share on Tumblr",
      "Share on OK",
      "Share by e-mail",
      "Print this page",
    ]);
    expect(group).toContain(`href="https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(canonical)}"`);
    expect(group).toContain(`href="mailto:?subject=Silk%20Pocket%20Square&amp;body=${encodeURIComponent(canonical)}"`);
    expect(group).toMatch(/class="share-button share-facebook"[^>]*target="_blank" rel="noopener noreferrer"/);
    expect(html).not.toMatch(/<script[^>]+src="https?:\/\/(?!127\.0\.0\.1|localhost)/);
  });
  it("prints them on blog posts with the post's canonical address", async () => {
    const slug = (await shop.services.db.query<{ slug: string }>("SELECT slug FROM posts WHERE type = 'post' ORDER BY published_at DESC LIMIT 1"))[0]!.slug;
    const html = await (await fetch(`${shop.url}/blog/${slug}/`)).text();
    expect(html).toContain(`<link rel="canonical" href="${shop.url}/blog/${slug}/"/>`);
    expect(html).toContain(`https://vk.com/share.php?url=${encodeURIComponent(`${shop.url}/blog/${slug}/`)}`);
  });
});

describe("share counts", () => {
  it("answers the counts the networks published, and none for a network that failed or answered garbage", async () => {
    const res = await counts(`${shop.url}/product/silk-pocket-square/?utm_source=x#top`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: `${shop.url}/product/silk-pocket-square/`, counts: { vk: 41, pinterest: 7 } });
    // the networks were asked about the canonical page address, without its query
    expect(asked.filter((u) => u.startsWith("/vk"))).toEqual([`/vk?url=${encodeURIComponent(`${shop.url}/product/silk-pocket-square/`)}`]);
  });
  it("asks each network once per page while the count is cached", async () => {
    const before = asked.length;
    await Promise.all([counts(`${shop.url}/product/silk-pocket-square/`), counts(`${shop.url}/product/silk-pocket-square/`)]);
    expect(asked.length).toBe(before);
    const other = await (await counts(`${shop.url}/shop/`)).json();
    expect(other.counts).toEqual({ vk: 41, pinterest: 7 });
    expect(asked.length).toBe(before + 4);
  });
  it("refuses addresses that are not the shop's own pages, and a missing address", async () => {
    for (const url of ["https://example.com/product/x/", "javascript:alert(1)", "not a url"]) {
      const res = await counts(url);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "rest_invalid_param", data: { status: 400, params: { url: "url must be a page of this shop." } } });
    }
    const missing = await fetch(`${shop.url}/wp-json/shop/v1/share-counts`);
    expect(missing.status).toBe(400);
    expect((await missing.json()).code).toBe("rest_missing_callback_param");
  });
});

describe("share settings", () => {
  it("refuses an unknown network and a counter for a network without a public count, naming the setting", () => {
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ share: { networks: ["facebook", "myspace"] } }))).toThrow(
      'SHOP_SETTINGS: share.networks: unknown network "myspace"',
    );
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ share: { counters: ["facebook"] } }))).toThrow(
      "SHOP_SETTINGS: share.counters: Facebook publishes no share count",
    );
  });
});
