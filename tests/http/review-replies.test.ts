/**
 * The shop's replies to product reviews and editing a comment's text (docs/contract/rest/content.md 'Comments',
 * docs/contract/admin.md 'Reviews & comments', decision 0038): `POST wp/v2/comments` with the product's id as `post`
 * and the review as `parent` makes an approved comment threaded under the review on the product page, never a review
 * (products/reviews, the rating and its count ignore it); `POST wp/v2/comments/{id}` with `content` edits it; a
 * comment on a product needs a review of that product as its parent; customers and guests are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;
let product: { id: number; slug: string };
let otherProduct: number;
let reviewId: number;
let postId: number;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "rr-admin@example.com", "administrator");
  manager = await signInAs(shop, "rr-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "rr-customer@example.com", "customer");
  const db = shop.services.db;
  const [p, q] = await db.query<{ id: number; slug: string }>(`SELECT id, slug FROM products WHERE status = 'publish' ORDER BY id LIMIT 2`);
  product = p!;
  otherProduct = q!.id;
  reviewId = (
    await db.query<{ id: number }>(
      `INSERT INTO comments (type, product_id, author, author_email, rating, content, status) VALUES ('review', $1, 'Rita Reviewer', 'rita@example.com', 3, 'Runs a little small.', 'approved') RETURNING id`,
      [product.id],
    )
  )[0]!.id;
  postId = (await db.query<{ id: number }>(`SELECT id FROM posts WHERE type = 'post' AND status = 'publish' ORDER BY id LIMIT 1`))[0]!.id;
});
afterAll(async () => shop?.close());

type Json = Record<string, unknown>;
const call = async (who: SignedIn | null, method: string, path: string, json?: unknown) => {
  const client = who?.client ?? new TestClient(shop.url);
  const res = await client.request(`/wp-json/${path}`, { method, json, headers: who ? { "X-WP-Nonce": who.nonce } : {} });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Json & Json[] };
};
const codeOf = (r: { status: number; body: Json }) => [r.status, r.body.code];
const productPage = async () => (await new TestClient(shop.url).get(`/product/${product.slug}/`)).text();
const count = async () => (await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM comments`))[0]!.n;

describe("replying to a product review as the shop", () => {
  let replyId: number;

  it("creates an approved comment on the product under the review, in WordPress's shape", async () => {
    const rating = await shop.services.db.query(`SELECT rating_average, rating_count FROM products WHERE id = $1`, [product.id]);
    const res = await call(manager, "POST", "wp/v2/comments", { post: product.id, parent: reviewId, content: "Thanks Rita — size up one." });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      post: product.id,
      parent: reviewId,
      status: "approved",
      type: "comment",
      author: manager.id,
      content: { raw: "Thanks Rita — size up one." },
      link: expect.stringMatching(new RegExp(`/product/${product.slug}/#comment-\\d+$`)),
    });
    expect((res.body._links as { up: { post_type: string }[] }).up[0]!.post_type).toBe("product");
    replyId = res.body.id as number;
    // Not a review: WooCommerce's reviews list, the rating and its count do not see it.
    const reviews = await call(admin, "GET", `wc/v3/products/reviews?product=${product.id}&per_page=100&status=all`);
    expect(reviews.body.map((r: Json) => r.id)).toContain(reviewId);
    expect(reviews.body.map((r: Json) => r.id)).not.toContain(replyId);
    expect(codeOf(await call(admin, "GET", `wc/v3/products/reviews/${replyId}`))[0]).toBe(404);
    expect(await shop.services.db.query(`SELECT rating_average, rating_count FROM products WHERE id = $1`, [product.id])).toEqual(rating);
    // wp/v2/comments lists it with the product (a guest too: it is approved, on a published product).
    const listed = await call(null, "GET", `wp/v2/comments?post=${product.id}`);
    expect(listed.body.map((c: Json) => c.id)).toEqual([replyId]);
  });

  it("shows the reply threaded under the review on the product page (ul.children inside the review's li)", async () => {
    const html = await productPage();
    const li = new RegExp(`<li class="review comment" id="li-comment-${reviewId}">([\\s\\S]*?)</li>\\s*</ul>\\s*</li>`).exec(html);
    expect(li).not.toBeNull();
    expect(li![1]).toContain('<ul class="children">');
    expect(li![1]).toContain(`id="li-comment-${replyId}"`);
    expect(li![1]).toContain("Thanks Rita — size up one.");
  });

  it("edits the reply's text (POST wp/v2/comments/{id} content) and the page shows the new text; a review's text through products/reviews", async () => {
    const res = await call(manager, "POST", `wp/v2/comments/${replyId}`, { content: "Thanks Rita: we suggest one size up." });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: replyId, content: { raw: "Thanks Rita: we suggest one size up." } });
    const review = await call(manager, "PUT", `wc/v3/products/reviews/${reviewId}`, { review: "Runs small: order one size up." });
    expect(review.status).toBe(200);
    const html = await productPage();
    expect(html).toContain("Thanks Rita: we suggest one size up.");
    expect(html).toContain("Runs small: order one size up.");
    expect(html).not.toContain("size up one.");
    expect(codeOf(await call(manager, "POST", `wp/v2/comments/${replyId}`, { content: "   " }))).toEqual([400, "rest_comment_content_invalid"]);
  });

  it("refuses a comment on a product without a parent, a parent on another product or post, and a missing product", async () => {
    const before = await count();
    const top = await call(admin, "POST", "wp/v2/comments", { post: product.id, content: "Top-level on a product" });
    expect(codeOf(top)).toEqual([400, "rest_comment_invalid_parent_id"]);
    expect(codeOf(await call(admin, "POST", "wp/v2/comments", { post: otherProduct, parent: reviewId, content: "Wrong product" }))).toEqual([
      400,
      "rest_comment_invalid_parent_id",
    ]);
    const blogComment = (await shop.services.db.query<{ id: number }>(`SELECT id FROM comments WHERE post_id = $1 LIMIT 1`, [postId]))[0];
    if (blogComment)
      expect(codeOf(await call(admin, "POST", "wp/v2/comments", { post: product.id, parent: blogComment.id, content: "A post's comment" }))).toEqual([
        400,
        "rest_comment_invalid_parent_id",
      ]);
    expect(codeOf(await call(admin, "POST", "wp/v2/comments", { post: postId, parent: reviewId, content: "A review under a post" }))).toEqual([
      400,
      "rest_comment_invalid_parent_id",
    ]);
    expect(codeOf(await call(admin, "POST", "wp/v2/comments", { post: 99999999, parent: reviewId, content: "Nowhere" }))).toEqual([
      403,
      "rest_comment_invalid_post_id",
    ]);
    expect(codeOf(await call(admin, "POST", "wp/v2/comments", { post: product.id, parent: reviewId, content: "" }))[0]).toBe(400);
    expect(await count()).toBe(before);
  });

  it("refuses replying and editing to a customer and a guest", async () => {
    const before = await count();
    expect(codeOf(await call(customer, "POST", "wp/v2/comments", { post: product.id, parent: reviewId, content: "Me too" }))).toEqual([
      403,
      "rest_cannot_create",
    ]);
    expect(codeOf(await call(null, "POST", "wp/v2/comments", { post: product.id, parent: reviewId, content: "Me too" }))).toEqual([
      401,
      "rest_comment_login_required",
    ]);
    expect(codeOf(await call(customer, "POST", `wp/v2/comments/${replyId}`, { content: "Defaced" }))).toEqual([403, "rest_cannot_edit"]);
    expect(codeOf(await call(null, "POST", `wp/v2/comments/${replyId}`, { content: "Defaced" }))).toEqual([401, "rest_cannot_edit"]);
    expect(codeOf(await call(customer, "PUT", `wc/v3/products/reviews/${reviewId}`, { review: "Defaced" }))[0]).toBe(403);
    expect(await count()).toBe(before);
    expect(await productPage()).not.toContain("Defaced");
  });

  it("hides the reply while its review is held, and deletes it with the review", async () => {
    await call(admin, "PUT", `wc/v3/products/reviews/${reviewId}`, { status: "hold" });
    expect(await productPage()).not.toContain("we suggest one size up");
    await call(admin, "PUT", `wc/v3/products/reviews/${reviewId}`, { status: "approved" });
    expect(await productPage()).toContain("we suggest one size up");
    expect((await call(admin, "DELETE", `wc/v3/products/reviews/${reviewId}?force=true`)).status).toBe(200);
    expect(await shop.services.db.query(`SELECT 1 FROM comments WHERE id = $1`, [replyId])).toEqual([]);
  });
});
