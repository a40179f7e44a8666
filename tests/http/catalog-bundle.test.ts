/**
 * The shop, product and checkout pages ship no zod: the catalogue's schemas live in `*.schema.ts`
 * modules that only the server imports (core/domain/catalog/README.md). Follows every
 * script a page loads, and the chunks those import, statically or lazily.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";

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
