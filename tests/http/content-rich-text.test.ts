/**
 * Rich text in pages, posts and a product's short description (decision 0049, docs/contract/rest/content.md
 * 'Sanitising', docs/contract/rest/products.md 'Descriptions'): what the admin's rich-text editor sends through
 * `wp/v2/pages|posts` and `wc/v3/products` `short_description` is stored as wp_kses_post allows it on every write
 * (create and update) — no script, event handler, iframe or javascript: link reaches the database — and the
 * storefront's page, post and product routes print bold, lists, headings and links, never the rest. A text without
 * tags (content written before the editor) prints as paragraphs. Runs on PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- WordPress's loose JSON in assertions

let shop: TestShop;
let admin: SignedIn;
let guest: TestClient;

const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
  const res = await admin.client.request(`/wp-json/${path}`, { method, headers: { "X-WP-Nonce": admin.nonce }, json: body });
  return { status: res.status, body: (await res.json()) as Json };
};
const storefront = async (path: string) => {
  const res = await guest.get(path);
  expect(res.status, path).toBe(200);
  return res.text();
};
/** The page's or post's body as the storefront prints it. */
const entryContent = (html: string) => /<div class="entry-content">([\s\S]*?)<\/div>/.exec(html)?.[1];
const storedContent = async (id: number) => (await shop.services.db.query<{ content: string }>("SELECT content FROM posts WHERE id = $1", [id]))[0]!.content;

/** What a hostile editor (or API client) sends: the formatting must survive, the rest must not. */
const HOSTILE =
  '<h2 onclick="steal()">Care</h2><p>Soft <strong>cotton</strong> and <em>linen</em>.</p><script>alert("x")</script>' +
  '<ul><li onmouseover="alert(1)">One</li><li>Two</li></ul><ol><li>First</li></ol>' +
  '<iframe src="https://evil.example/frame"></iframe>' +
  '<p><a href="javascript:alert(2)">bad</a> <a href="https://example.com/care">Care guide</a> <a href="JaVaScRiPt:alert(3)">worse</a></p>' +
  '<img src="x" onerror="alert(4)">';
/** What must not be left of HOSTILE; in a whole page (which has scripts of its own) all but the tags. */
const BAD = ["alert(", "steal()", "onclick", "onmouseover", "onerror", "evil.example", "javascript:", "JaVaScRiPt"];

function expectClean(text: string, { page = false } = {}) {
  for (const bad of page ? BAD : [...BAD, "<script", "<iframe"]) expect(text, bad).not.toContain(bad);
}
function expectFormatting(text: string) {
  expect(text).toContain("<h2>Care</h2>");
  expect(text).toContain("<strong>cotton</strong>");
  expect(text).toContain("<ul><li>One</li><li>Two</li></ul>");
  expect(text).toContain("<ol><li>First</li></ol>");
  expect(text).toContain('<a href="https://example.com/care">Care guide</a>');
}

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "rich-content@example.com", "administrator");
  guest = new TestClient(shop.url);
});
afterAll(async () => shop?.close());

describe("rich text in pages and posts", () => {
  for (const [type, base, address] of [
    ["page", "pages", (slug: string) => `/${slug}/`],
    ["post", "posts", (slug: string) => `/blog/${slug}/`],
  ] as const) {
    it(`a ${type}'s content is sanitised on create and on update, and the storefront prints only what is allowed`, async () => {
      const created = await api("POST", `wp/v2/${base}`, { title: `Rich ${type}`, status: "publish", content: HOSTILE });
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      const stored = await storedContent(id);
      expectClean(stored);
      expectFormatting(stored);
      expect((await api("GET", `wp/v2/${base}/${id}?context=edit`)).body.content.raw).toBe(stored);

      const html = await storefront(address(created.body.slug as string));
      const body = entryContent(html);
      expect(body).toBeDefined();
      expectFormatting(body!);
      expectClean(body!);
      // Neither in the markup nor in the page's data for hydration.
      expectClean(html, { page: true });

      // An update is sanitised the same way (the rich-text editor saves with PUT).
      const updated = await api("PUT", `wp/v2/${base}/${id}`, {
        content: '<p>New <b onclick="x()">bold</b></p><iframe srcdoc="<script>y()</script>"></iframe><p><a href="javascript:z()">link</a></p>',
      });
      expect(updated.status).toBe(200);
      expect(await storedContent(id)).toBe("<p>New <b>bold</b></p><p><a>link</a></p>");
      expect(updated.body.content.raw).toBe("<p>New <b>bold</b></p><p><a>link</a></p>");
      expect(entryContent(await storefront(address(created.body.slug as string)))).toBe("<p>New <b>bold</b></p><p><a>link</a></p>");
    });
  }

  it("prints content without tags (written before the editor) as paragraphs, and content written by SQL sanitised", async () => {
    const created = await api("POST", "wp/v2/pages", { title: "Plain page", status: "publish", content: "x" });
    await shop.services.db.query("UPDATE posts SET content = $1 WHERE id = $2", ["First part.\n\nSecond part\nnext line, 1 < 2", created.body.id]);
    expect(entryContent(await storefront(`/${created.body.slug}/`))).toBe("<p>First part.</p>\n<p>Second part<br>\nnext line, 1 &lt; 2</p>\n");
    await shop.services.db.query("UPDATE posts SET content = $1 WHERE id = $2", ['<p onclick="a()">Old</p><script>b()</script>', created.body.id]);
    const html = await storefront(`/${created.body.slug}/`);
    expect(entryContent(html)).toBe("<p>Old</p>");
    expect(html).not.toContain("b()");
  });
});

describe("a product's rich-text short description", () => {
  it("is sanitised on create and update, and the product page prints only what is allowed", async () => {
    const created = await api("POST", "wc/v3/products", { name: "Short Rich Scarf", regular_price: "12.00", short_description: HOSTILE });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const [row] = await shop.services.db.query<{ short_description: string }>("SELECT short_description FROM products WHERE id = $1", [id]);
    expectClean(row!.short_description);
    expectFormatting(row!.short_description);
    expect(created.body.short_description).toBe(row!.short_description);

    const html = await storefront(`/product/${created.body.slug}/`);
    const short = /<div class="woocommerce-product-details__short-description">([\s\S]*?)<\/div>/.exec(html)?.[1];
    expect(short).toBeDefined();
    expectFormatting(short!);
    expectClean(short!);
    expectClean(html, { page: true });

    const updated = await api("PUT", `wc/v3/products/${id}`, {
      short_description: '<p>Warm <strong onclick="x()">wool</strong> <a href="javascript:y()">x</a></p><iframe src="//evil.example"></iframe>',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.short_description).toBe("<p>Warm <strong>wool</strong> <a>x</a></p>");
    const [after] = await shop.services.db.query<{ short_description: string }>("SELECT short_description FROM products WHERE id = $1", [id]);
    expect(after!.short_description).toBe("<p>Warm <strong>wool</strong> <a>x</a></p>");
    expect(await storefront(`/product/${created.body.slug}/`)).toContain(
      '<div class="woocommerce-product-details__short-description"><p>Warm <strong>wool</strong> <a>x</a></p></div>',
    );
  });
});
