/**
 * A product's description as HTML (docs/decisions/0046-rich-text-description.md, docs/contract/rest/products.md
 * 'Descriptions'): wc/v3/products stores `description` and `short_description` as wp_kses_post allows them (no
 * script, no event handler, no javascript: link), the product page prints the sanitised HTML (bold, lists and links
 * reach it) and a description without tags (the demo's) as paragraphs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- WooCommerce's loose JSON in assertions

let shop: TestShop;
let admin: SignedIn;
let guest: TestClient;

const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
  const res = await admin.client.request(`/wp-json/wc/v3/${path}`, { method, headers: { "X-WP-Nonce": admin.nonce }, json: body });
  return { status: res.status, body: (await res.json()) as Json };
};
const page = async (slug: string) => {
  const res = await guest.get(`/product/${slug}/`);
  expect(res.status).toBe(200);
  return res.text();
};
/** The Description tab's markup. */
const descriptionOf = (html: string) => /<div class="woocommerce-product-description">([\s\S]*?)<\/div><h2 id="reviews">/.exec(html)?.[1];

const HOSTILE =
  '<p>Soft <strong>cotton</strong> and <em>linen</em>.</p><script>alert("x")</script>' +
  '<ul><li onclick="alert(1)">One</li><li>Two</li></ul><ol><li>First</li></ol>' +
  '<p><a href="javascript:alert(1)">bad</a> <a href="https://example.com/care">Care guide</a></p><img src=x onerror="alert(2)">';

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "rich-admin@example.com", "administrator");
  guest = new TestClient(shop.url);
});
afterAll(async () => shop?.close());

describe("product descriptions as HTML", () => {
  it("sanitises description and short_description on create and update, and the page prints only what is allowed", async () => {
    const created = await api("POST", "products", {
      name: "Kses Scarf",
      regular_price: "12.00",
      description: HOSTILE,
      short_description: '<b onmouseover="x()">Warm</b><script>steal()</script>',
    });
    expect(created.status).toBe(201);
    const stored = created.body.description as string;
    for (const bad of ["<script", 'alert("x")', "onclick", "onerror", "javascript:"]) expect(stored).not.toContain(bad);
    expect(stored).toContain("<strong>cotton</strong>");
    expect(stored).toContain("<ul><li>One</li><li>Two</li></ul>");
    expect(stored).toContain('<a href="https://example.com/care">Care guide</a>');
    expect(created.body.short_description).toBe("<b>Warm</b>");
    const row = (await shop.services.db.query<{ description: string }>("SELECT description FROM products WHERE id = $1", [created.body.id]))[0]!;
    expect(row.description).toBe(stored);

    const html = await page(created.body.slug as string);
    const description = descriptionOf(html);
    expect(description).toBeDefined();
    expect(description).toContain("<strong>cotton</strong>");
    expect(description).toContain("<ul><li>One</li><li>Two</li></ul>");
    expect(description).toContain('<a href="https://example.com/care">Care guide</a>');
    expect(description).not.toContain("<script");
    // Not in the markup, nor in the page's data for hydration.
    for (const bad of ["alert(", "onclick", "onerror", "javascript:", "steal()", "onmouseover"]) expect(html).not.toContain(bad);
    expect(html).toContain('<div class="woocommerce-product-details__short-description"><b>Warm</b></div>');
    // The page's description meta is text.
    expect(html).toContain('<meta name="description" content="Warm"/>');

    const updated = await api("PUT", `products/${created.body.id}`, { description: '<h2 onclick="x()">Care</h2><iframe src="https://evil.example"></iframe>' });
    expect(updated.status).toBe(200);
    expect(updated.body.description).toBe("<h2>Care</h2>");
    expect(descriptionOf(await page(created.body.slug as string))).toBe("<h2>Care</h2>");
  });

  it("prints a description without tags as paragraphs and line breaks", async () => {
    const created = await api("POST", "products", {
      name: "Plain Scarf",
      regular_price: "9.00",
      description: "First part.\n\nSecond part\nnext line, 1 < 2 & more",
    });
    expect(created.status).toBe(201);
    expect(created.body.description).toBe("First part.\n\nSecond part\nnext line, 1 &lt; 2 & more");
    expect(descriptionOf(await page(created.body.slug as string))).toBe("<p>First part.</p>\n<p>Second part<br>\nnext line, 1 &lt; 2 & more</p>\n");
  });

  it("sanitises the HTML already stored when it renders (written by SQL, not the API)", async () => {
    const created = await api("POST", "products", { name: "Old Scarf", regular_price: "9.00", description: "x" });
    await shop.services.db.query("UPDATE products SET description = $1 WHERE id = $2", ['<p onclick="a()">Old</p><script>b()</script>', created.body.id]);
    const html = await page(created.body.slug as string);
    expect(descriptionOf(html)).toBe("<p>Old</p>");
    expect(html).not.toContain("b()");
  });
});
