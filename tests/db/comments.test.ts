// Reviews and comments against a real database (a copy of the migrated template): the submission use case's rules
// that need rows (verified owner, duplicates, closed items, floods) and the moderation function the REST API and
// the admin will call, which keeps the product's rating columns true. The pure rules: core/domain/comments.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, openPostgres, type Db } from "../../core/db/client.ts";
import { migrate } from "../../core/db/migrate.ts";
import { copyTemplateDatabase, tempDir, type TestDatabase } from "../support/database.ts";
import { moderateComment, submitComment, type CommentSubmission } from "../../core/commerce/comments.ts";
import { commentsByStatus, setCommentsOpen } from "../../core/db/repositories/comments.ts";
import { SITE_CONFIG } from "../../core/config/site-config.ts";
import { COMMENT_MESSAGES } from "../../core/domain/comments/comments.ts";

let folder: ReturnType<typeof tempDir>;
let copy: TestDatabase;
let db: Db;
let productId: number;
let postId: number;
let customerId: number;

const settings = { ...SITE_CONFIG.comments, allowGuests: true };
let clients = 0;
/** A fresh client each time (its own flood window), unless one is given. */
const submission = (over: Partial<CommentSubmission> & { form?: CommentSubmission["form"] }): CommentSubmission => ({
  targetId: productId,
  form: { author: "Ada", email: "ada@example.com", comment: `Great ${Math.random()}`, rating: "5" },
  customerId: null,
  client: { key: `test:${++clients}`, address: "192.0.2.1" },
  now: new Date(),
  settings,
  ...over,
});

async function productRating(): Promise<{ rating_average: number; rating_count: number }> {
  const rows = await db.query<{ rating_average: string; rating_count: number }>("SELECT rating_average, rating_count FROM products WHERE id = $1", [productId]);
  return { rating_average: Number(rows[0]!.rating_average), rating_count: rows[0]!.rating_count };
}

beforeAll(async () => {
  folder = tempDir("comments-test-");
  copy = await copyTemplateDatabase(path.join(folder.dir, "pglite"));
  db = copy.databaseUrl ? await openPostgres(copy.databaseUrl, 4) : await openDatabase({ dataDir: copy.pgliteDir });
  await migrate(db);
  productId = (
    await db.query<{ id: number }>("INSERT INTO products (type, slug, name, regular_price) VALUES ('simple', 'mask', 'Mask', 1000) RETURNING id")
  )[0]!.id;
  postId = (await db.query<{ id: number }>("INSERT INTO posts (slug, title, content, author) VALUES ('hello', 'Hello', 'Body', 'Staff') RETURNING id"))[0]!.id;
  customerId = (await db.query<{ id: number }>("INSERT INTO customers (email, display_name) VALUES ('buyer@example.com', 'Bea Buyer') RETURNING id"))[0]!.id;
  const order = await db.query<{ id: number }>(
    `INSERT INTO orders (order_key, status, customer_id, billing_email, currency, subtotal, discount_total, shipping_total, total, payment_method)
     VALUES ('wc_order_t1', 'completed', $1, 'buyer@example.com', 'USD', 1000, 0, 0, 1000, 'cod') RETURNING id`,
    [customerId],
  );
  await db.query("INSERT INTO order_lines (order_id, product_id, name, quantity, subtotal, total) VALUES ($1, $2, 'Mask', 1, 1000, 1000)", [
    order[0]!.id,
    productId,
  ]);
}, 60_000);
afterAll(async () => {
  await db?.close();
  await copy?.drop();
  folder?.remove();
});

describe("submitting", () => {
  it("posts and products share one id space, so comment_post_ID names exactly one item", async () => {
    expect(postId).not.toBe(productId);
    const onPost = await submitComment(db, submission({ targetId: postId, form: { author: "Ada", email: "ada@example.com", comment: "Hi" } }));
    expect(onPost.ok && onPost.target.kind).toBe("comment");
  });

  it("stores a review as pending, marked verified only when the reviewer bought the product", async () => {
    const guest = await submitComment(db, submission({}));
    expect(guest).toMatchObject({ ok: true, verified: false });
    const buyer = await submitComment(db, submission({ customerId, form: { comment: "Fits well", rating: "4" } }));
    expect(buyer).toMatchObject({ ok: true, verified: true });
    const guestWithBuyersEmail = await submitComment(db, submission({ form: { author: "Bea", email: "BUYER@example.com", comment: "Again", rating: "4" } }));
    expect(guestWithBuyersEmail).toMatchObject({ ok: true, verified: true });
    const pending = await commentsByStatus(db, "pending");
    const mine = pending.find((c) => buyer.ok && c.id === buyer.id)!;
    expect(mine).toMatchObject({
      kind: "review",
      targetId: productId,
      author: "Bea Buyer",
      email: "buyer@example.com",
      rating: 4,
      status: "pending",
      verified: true,
    });
    // Pending reviews do not count.
    expect(await productRating()).toEqual({ rating_average: 0, rating_count: 0 });
  });

  it("refuses, storing nothing: unknown item, closed item, guests when not allowed, verified-only, duplicates, floods", async () => {
    const before = (await commentsByStatus(db, "pending")).length;
    expect(await submitComment(db, submission({ targetId: 999_999 }))).toMatchObject({ ok: false, code: "comment_id_not_found", status: 404 });
    expect(await submitComment(db, submission({ targetId: null }))).toMatchObject({ ok: false, code: "comment_id_not_found" });
    expect(await submitComment(db, submission({ settings: { ...settings, allowGuests: false } }))).toMatchObject({
      ok: false,
      code: "not_logged_in",
      status: 403,
      message: COMMENT_MESSAGES.mustLogIn,
    });
    const verifiedOnly = { ...settings, reviewsVerifiedOnly: true };
    expect(await submitComment(db, submission({ settings: verifiedOnly }))).toMatchObject({
      ok: false,
      code: "not_verified",
      message: COMMENT_MESSAGES.verifiedOnly,
    });
    expect(await submitComment(db, submission({ form: { author: "Ada", email: "ada@example.com", comment: "x", rating: "7" } }))).toMatchObject({
      ok: false,
      code: "invalid",
      status: 400,
      field: "rating",
    });
    await setCommentsOpen(db, { kind: "review", id: productId }, false);
    expect(await submitComment(db, submission({}))).toMatchObject({ ok: false, code: "comment_closed", status: 403, message: COMMENT_MESSAGES.closed });
    await setCommentsOpen(db, { kind: "review", id: productId }, true);
    expect((await commentsByStatus(db, "pending")).length).toBe(before);

    const form = { author: "Dup", email: "dup@example.com", comment: "Same words", rating: "3" };
    expect(await submitComment(db, submission({ form }))).toMatchObject({ ok: true });
    // The same words from the same person (by e-mail here, under another name) are a duplicate, whatever the client.
    expect(await submitComment(db, submission({ form: { ...form, author: "Dupe" } }))).toMatchObject({
      ok: false,
      code: "comment_duplicate",
      status: 409,
      message: COMMENT_MESSAGES.duplicate,
    });
    // One client posting again within the flood interval is slowed down.
    const client = { key: "test:flood", address: "192.0.2.9" };
    expect(await submitComment(db, submission({ client }))).toMatchObject({ ok: true });
    expect(await submitComment(db, submission({ client }))).toMatchObject({ ok: false, code: "comment_flood", status: 429, message: COMMENT_MESSAGES.flood });
    const later = new Date(Date.now() + settings.floodSeconds * 1000 + 1000);
    expect(await submitComment(db, submission({ client, now: later }))).toMatchObject({ ok: true });
  });
});

describe("moderation", () => {
  it("approve, unapprove, spam and trash set the status and keep the product's average rating and count true", async () => {
    const a = await submitComment(db, submission({ form: { author: "A", email: "a@example.com", comment: "Five", rating: "5" } }));
    const b = await submitComment(db, submission({ form: { author: "B", email: "b@example.com", comment: "Two", rating: "2" } }));
    const c = await submitComment(db, submission({ form: { author: "C", email: "c@example.com", comment: "Four", rating: "4" } }));
    if (!a.ok || !b.ok || !c.ok) throw new Error("submissions refused");
    expect(await moderateComment(db, a.id, "approve")).toMatchObject({ id: a.id, status: "approved" });
    expect(await productRating()).toEqual({ rating_average: 5, rating_count: 1 });
    await moderateComment(db, b.id, "approve");
    await moderateComment(db, c.id, "approve");
    expect(await productRating()).toEqual({ rating_average: 3.67, rating_count: 3 });
    await moderateComment(db, b.id, "spam");
    expect(await productRating()).toEqual({ rating_average: 4.5, rating_count: 2 });
    await moderateComment(db, c.id, "trash");
    expect(await productRating()).toEqual({ rating_average: 5, rating_count: 1 });
    await moderateComment(db, a.id, "unapprove");
    expect(await productRating()).toEqual({ rating_average: 0, rating_count: 0 });
    expect((await commentsByStatus(db, "spam")).map((r) => r.id)).toContain(b.id);
    expect((await commentsByStatus(db, "trash")).map((r) => r.id)).toContain(c.id);
    expect(await moderateComment(db, 987_654, "approve")).toBeNull();
  });

  it("a trashed comment no longer counts as a duplicate, so the same words may be said again", async () => {
    const form = { author: "T", email: "t@example.com", comment: "Said once", rating: "3" };
    const first = await submitComment(db, submission({ form }));
    if (!first.ok) throw new Error("refused");
    expect(await submitComment(db, submission({ form }))).toMatchObject({ code: "comment_duplicate" });
    await moderateComment(db, first.id, "trash");
    expect(await submitComment(db, submission({ form }))).toMatchObject({ ok: true });
  });
});

describe("migration 0012 on a shop with data", () => {
  it("moves the seeded reviews over (approved or not) and renumbers posts into the catalogue's id space in their old order", async () => {
    const { PGlite } = await import("@electric-sql/pglite");
    const { readdirSync, readFileSync } = await import("node:fs");
    const dir = path.resolve("core/db/migrations");
    const pg = new PGlite();
    try {
      for (const f of readdirSync(dir).sort()) if (f < "0012") await pg.exec(readFileSync(path.join(dir, f), "utf8"));
      await pg.exec(`INSERT INTO products (type, slug, name) VALUES ('simple', 'p1', 'P1'), ('simple', 'p2', 'P2');
        INSERT INTO posts (slug, title, content, author) VALUES ('a', 'A', 'x', 's'), ('b', 'B', 'x', 's'), ('c', 'C', 'x', 's');
        INSERT INTO reviews (product_id, author, rating, content, approved) VALUES (1, 'Ann', 5, 'good', true), (2, 'Bob', 2, 'meh', false);`);
      await pg.exec(readFileSync(path.join(dir, "0012_comments.sql"), "utf8"));
      const posts = (await pg.query<{ id: number; slug: string }>("SELECT id, slug FROM posts ORDER BY id")).rows;
      expect(posts.map((p) => p.slug)).toEqual(["a", "b", "c"]);
      expect(posts.every((p) => p.id > 2)).toBe(true);
      expect((await pg.query("SELECT type, product_id, author, rating, status FROM comments ORDER BY id")).rows).toEqual([
        { type: "review", product_id: 1, author: "Ann", rating: 5, status: "approved" },
        { type: "review", product_id: 2, author: "Bob", rating: 2, status: "pending" },
      ]);
      await pg.exec(
        "INSERT INTO posts (slug, title, content, author) VALUES ('d', 'D', 'x', 's'); INSERT INTO products (type, slug, name) VALUES ('simple', 'p3', 'P3');",
      );
      const ids = (await pg.query<{ id: number }>("SELECT id FROM posts UNION ALL SELECT id FROM products")).rows.map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      await pg.close();
    }
  });
});
