/**
 * Product reviews and blog comments over HTTP (docs/contract/storefront.md §4 'Reviews and comments'): the form on the
 * product and post pages, POST /wp-comments-post.php with and without JavaScript, moderation (held, shown to its
 * author only, then counted in the rating, the review count and the structured data), escaping, and every refusal
 * storing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";
import { moderateComment } from "../../core/commerce/comments.ts";
import { COMMENT_MESSAGES } from "../../core/domain/comments/comments.ts";
import { setCommentsOpen } from "../../core/db/repositories/comments.ts";

let shop: TestShop;
const SLUG = "silk-pocket-square";
let productId: number;
let postSlug: string;
let postId: number;

beforeAll(async () => {
  shop = await startTestShop({ SHOP_SETTINGS: JSON.stringify({ comments: { allowGuests: true } }) });
  const db = shop.services.db;
  productId = (await db.query<{ id: number }>("SELECT id FROM products WHERE slug = $1", [SLUG]))[0]!.id;
  const post = (await db.query<{ id: number; slug: string }>("SELECT id, slug FROM posts WHERE type = 'post' ORDER BY published_at DESC LIMIT 1"))[0]!;
  postSlug = post.slug;
  postId = post.id;
});
afterAll(async () => shop?.close());

const commentRows = async () => (await shop.services.db.query<{ n: number }>("SELECT count(*)::int AS n FROM comments"))[0]!.n;

/** A browser that has opened the page (so it has its own client key for the flood limit). */
async function visitor(path = `/product/${SLUG}/`): Promise<{ client: TestClient; html: string }> {
  const client = new TestClient(shop.url);
  const res = await client.get(path);
  expect(res.status).toBe(200);
  return { client, html: await res.text() };
}

const review = (over: Record<string, string> = {}) => ({
  comment_post_ID: String(productId),
  comment_parent: "0",
  author: "Ada",
  email: "ada@example.com",
  rating: "4",
  comment: `Soft and well made ${Math.random().toString(36).slice(2)}`,
  ...over,
});

const postJson = (client: TestClient, form: Record<string, string>) => client.post("/wp-comments-post.php", form, { headers: { accept: "application/json" } });

function productJsonLd(html: string): Record<string, unknown> {
  const m = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
  return JSON.parse(m![1]!) as Record<string, unknown>;
}

const ratingOf = async () =>
  (
    await shop.services.db.query<{ rating_average: string; rating_count: number }>("SELECT rating_average, rating_count FROM products WHERE id = $1", [
      productId,
    ])
  )[0]!;

describe("the review form on the product page", () => {
  it("posts to /wp-comments-post.php with comment_post_ID, a required 1–5 star radio group, labelled fields", async () => {
    const { html } = await visitor();
    const form = /<form[^>]*id="commentform"[\s\S]*?<\/form>/.exec(html)![0];
    expect(form).toContain('action="/wp-comments-post.php"');
    expect(form).toContain('method="post"');
    expect(form).toContain(`name="comment_post_ID" value="${productId}"`);
    expect(form.match(/<input type="radio" required="" name="rating" value="[1-5]"\/>/g)).toHaveLength(5);
    expect(form).toMatch(/<legend>Your rating/);
    for (const id of ["comment", "author", "email"]) expect(form).toMatch(new RegExp(`<label for="${id}">`));
  });
});

describe("submitting without JavaScript", () => {
  it("redirects back to the new review, shown only to its author as awaiting approval; approval publishes and counts it", async () => {
    const { client } = await visitor();
    const other = (await visitor()).client;
    const before = await ratingOf();
    const text = `Lovely colour <b>bold</b> & "quoted" ${Date.now()}`;
    const res = await client.post("/wp-comments-post.php", review({ comment: text, rating: "5", author: "Grace <i>" }));
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    const id = Number(/^\/product\/silk-pocket-square\/#comment-(\d+)$/.exec(location)![1]);

    const own = await (await client.get(`/product/${SLUG}/`)).text();
    expect(own).toContain(`id="comment-${id}"`);
    expect(own).toContain("Your review is awaiting approval");
    expect(own).toContain("Lovely colour &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;");
    expect(own).not.toContain("<b>bold</b>");
    const stranger = await (await other.get(`/product/${SLUG}/`)).text();
    expect(stranger).not.toContain(`id="comment-${id}"`);
    // Pending: not in the rating, the count or the structured data, not even for its author.
    expect(await ratingOf()).toEqual(before);
    expect(JSON.stringify(productJsonLd(own))).not.toContain("Lovely colour");

    expect(await moderateComment(shop.services.db, id, "approve")).toMatchObject({ status: "approved" });
    const after = await ratingOf();
    expect(after.rating_count).toBe(before.rating_count + 1);
    const published = await (await other.get(`/product/${SLUG}/`)).text();
    expect(published).toContain(`id="comment-${id}"`);
    expect(published).toContain("Grace &lt;i&gt;");
    expect(published).toContain(`Reviews (<!-- -->${after.rating_count}<!-- -->)`);
    const ld = productJsonLd(published);
    expect(ld.aggregateRating).toMatchObject({ "@type": "AggregateRating", reviewCount: after.rating_count, ratingValue: Number(after.rating_average) });
    const reviews = ld.review as { author: { name: string }; reviewBody: string; reviewRating: { ratingValue: number } }[];
    expect(reviews.find((r) => r.reviewBody === text)).toMatchObject({ author: { name: "Grace <i>" }, reviewRating: { ratingValue: 5 } });
    // The JSON-LD script cannot be closed early by a reviewer's text.
    expect(published).not.toMatch(/<script type="application\/ld\+json">[^<]*<b>/);

    // Spam takes it out again.
    await moderateComment(shop.services.db, id, "spam");
    expect(await ratingOf()).toEqual(before);
    expect(await (await other.get(`/product/${SLUG}/`)).text()).not.toContain(`id="comment-${id}"`);
  });

  it("a refused form comes back to #respond with the message (an alert) and what was typed, once; nothing is stored", async () => {
    const { client } = await visitor();
    const rows = await commentRows();
    const res = await client.post("/wp-comments-post.php", review({ rating: "", comment: "Kept text", author: "Kept name" }));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/product/${SLUG}/#respond`);
    const page = await (await client.get(`/product/${SLUG}/`)).text();
    expect(page).toMatch(new RegExp(`role="alert"[^>]*>${COMMENT_MESSAGES.requireRating}<`));
    expect(page).toContain(">Kept text</textarea>");
    expect(page).toContain('value="Kept name"');
    expect(await (await client.get(`/product/${SLUG}/`)).text()).not.toContain(COMMENT_MESSAGES.requireRating);
    expect(await commentRows()).toBe(rows);
  });

  it("an unknown item answers WordPress's failure page, 404", async () => {
    const { client } = await visitor();
    const res = await client.post("/wp-comments-post.php", review({ comment_post_ID: "99999999" }));
    expect(res.status).toBe(404);
    expect(await res.text()).toContain(COMMENT_MESSAGES.notFound);
    expect((await client.get("/wp-comments-post.php")).status).toBe(405);
  });
});

describe("submitting with JavaScript (Accept: application/json)", () => {
  it("answers each refusal with its status, code, message and field, storing nothing", async () => {
    const { client } = await visitor();
    const rows = await commentRows();
    const cases: [Record<string, string>, number, string, string | null, string][] = [
      [{ rating: "" }, 400, "invalid", "rating", COMMENT_MESSAGES.requireRating],
      [{ rating: "6" }, 400, "invalid", "rating", COMMENT_MESSAGES.invalidRating],
      [{ rating: "3.5" }, 400, "invalid", "rating", COMMENT_MESSAGES.invalidRating],
      [{ email: "nobody" }, 400, "invalid", "email", COMMENT_MESSAGES.invalidEmail],
      [{ author: "" }, 400, "invalid", "author", COMMENT_MESSAGES.requireNameEmail],
      [{ comment: "   " }, 400, "invalid", "comment", COMMENT_MESSAGES.requireContent],
      [{ comment: "x".repeat(5001) }, 400, "invalid", "comment", COMMENT_MESSAGES.contentTooLong],
      [{ comment_post_ID: "abc" }, 404, "comment_id_not_found", null, COMMENT_MESSAGES.notFound],
      [{ comment_post_ID: "0" }, 404, "comment_id_not_found", null, COMMENT_MESSAGES.notFound],
    ];
    for (const [change, status, code, field, message] of cases) {
      const res = await postJson(client, review(change));
      expect(res.status, JSON.stringify(change).slice(0, 60)).toBe(status);
      expect(await res.json()).toEqual({ success: false, data: { code, message, field } });
    }
    await setCommentsOpen(shop.services.db, { kind: "review", id: productId }, false);
    const closed = await postJson(client, review());
    await setCommentsOpen(shop.services.db, { kind: "review", id: productId }, true);
    expect(closed.status).toBe(403);
    expect((await closed.json()).data.message).toBe(COMMENT_MESSAGES.closed);
    expect(await commentRows()).toBe(rows);
  });

  it("accepts once (201, pending); the same words again are a duplicate (409); a second post at once is a flood (429)", async () => {
    const { client } = await visitor();
    const form = review();
    const ok = await postJson(client, form);
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ success: true, data: { status: "pending", verified: false, message: COMMENT_MESSAGES.thanks.review } });
    const again = await postJson((await visitor()).client, { ...form, author: "Someone" });
    expect(again.status).toBe(409);
    expect((await again.json()).data).toMatchObject({
      code: "comment_duplicate",
      message: "Duplicate comment detected; it looks as though you\u2019ve already said that!",
    });
    const flood = await postJson(client, review());
    expect(flood.status).toBe(429);
    expect((await flood.json()).data).toMatchObject({ code: "comment_flood", message: COMMENT_MESSAGES.flood });
  });
});

describe("signed-in customers", () => {
  it("review under their account's name, marked verified owner when a paid order of theirs has the product", async () => {
    const email = `buyer-${Date.now()}@example.com`;
    const registered = await registerCustomer(shop.services.db, { email, password: "review pass 1", first_name: "Bea", last_name: "Buyer" });
    if (!registered.ok) throw new Error(registered.message);
    const cid = registered.customerId;
    const order = await shop.services.db.query<{ id: number }>(
      `INSERT INTO orders (order_key, status, customer_id, billing_email, currency, subtotal, discount_total, shipping_total, total, payment_method)
       VALUES ($1, 'completed', $2, $3, 'USD', 1000, 0, 0, 1000, 'cod') RETURNING id`,
      [`wc_order_rv${Date.now()}`, cid, email],
    );
    await shop.services.db.query("INSERT INTO order_lines (order_id, product_id, name, quantity, subtotal, total) VALUES ($1, $2, 'Silk', 1, 1000, 1000)", [
      order[0]!.id,
      productId,
    ]);
    const client = new TestClient(shop.url);
    const login = await (await client.get("/my-account/")).text();
    const nonce = /name="woocommerce-login-nonce" value="([^"]+)"/.exec(login)![1]!;
    expect((await client.post("/my-account/", { intent: "login", username: email, password: "review pass 1", "woocommerce-login-nonce": nonce })).status).toBe(
      302,
    );

    const page = await (await client.get(`/product/${SLUG}/`)).text();
    expect(page).toContain("Logged in as ");
    expect(page).not.toContain('id="author"');
    const res = await postJson(client, {
      comment_post_ID: String(productId),
      rating: "5",
      comment: "Bought two, both perfect.",
      author: "Spoofed",
      email: "x@y.com",
    });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { id: number; verified: boolean } };
    expect(data.verified).toBe(true);
    const row = (
      await shop.services.db.query<{ author: string; author_email: string; customer_id: number }>(
        "SELECT author, author_email, customer_id FROM comments WHERE id = $1",
        [data.id],
      )
    )[0]!;
    // The account's display name (registration sets it to the first name), not the posted one.
    expect(row).toEqual({ author: "Bea", author_email: email, customer_id: cid });
    await moderateComment(shop.services.db, data.id, "approve");
    const published = await (await new TestClient(shop.url).get(`/product/${SLUG}/`)).text();
    expect(published).toMatch(
      new RegExp(`id="comment-${data.id}"[\\s\\S]*?Bea</strong> <em class="woocommerce-review__verified verified">\\(verified owner\\)</em>`),
    );
  });
});

describe("blog comments", () => {
  it("a post has a #comments section with its approved comments and a form; a new comment waits for moderation, shown to its author", async () => {
    const { client, html } = await visitor(`/blog/${postSlug}/`);
    expect(html).toContain('<section id="comments" class="comments-area"');
    expect(html).toContain(`name="comment_post_ID" value="${postId}"`);
    expect(html).not.toContain('name="rating"');
    const res = await client.post("/wp-comments-post.php", {
      comment_post_ID: String(postId),
      author: "Hiro",
      email: "hiro@example.com",
      comment: "Great read <3",
      rating: "2",
    });
    expect(res.status).toBe(302);
    const id = Number(new RegExp(`^/blog/${postSlug}/#comment-(\\d+)$`).exec(res.headers.get("location")!)![1]);
    const own = await (await client.get(`/blog/${postSlug}/`)).text();
    expect(own).toMatch(new RegExp(`id="comment-${id}"[\\s\\S]*?Your comment is awaiting moderation\\.[\\s\\S]*?Great read &lt;3`));
    expect(await (await new TestClient(shop.url).get(`/blog/${postSlug}/`)).text()).not.toContain(`id="comment-${id}"`);
    const stored = (await shop.services.db.query<{ rating: number | null; status: string }>("SELECT rating, status FROM comments WHERE id = $1", [id]))[0]!;
    expect(stored).toEqual({ rating: null, status: "pending" });
    await moderateComment(shop.services.db, id, "approve");
    expect(await (await new TestClient(shop.url).get(`/blog/${postSlug}/`)).text()).toContain(`id="comment-${id}"`);
  });
});

describe("by default only signed-in visitors may review or comment", () => {
  let strict: TestShop;
  beforeAll(async () => {
    strict = await startTestShop();
  });
  afterAll(async () => strict?.close());

  it("the page asks guests to log in instead of showing the form, and a guest's post is refused (403), storing nothing", async () => {
    const client = new TestClient(strict.url);
    const page = await (await client.get(`/product/${SLUG}/`)).text();
    expect(page).toContain('You must be <a href="/my-account/">logged in</a> <!-- -->to post a review.');
    expect(page).not.toContain('id="commentform"');
    const before = (await strict.services.db.query<{ n: number }>("SELECT count(*)::int AS n FROM comments"))[0]!.n;
    const res = await client.post("/wp-comments-post.php", review(), { headers: { accept: "application/json" } });
    expect(res.status).toBe(403);
    expect((await res.json()).data).toMatchObject({ code: "not_logged_in", message: COMMENT_MESSAGES.mustLogIn });
    expect((await strict.services.db.query<{ n: number }>("SELECT count(*)::int AS n FROM comments"))[0]!.n).toBe(before);
  });
});
