/**
 * wc/v3/products/reviews (docs/contract/rest/taxonomies.md §Reviews): listing by status, product and e-mail;
 * creating, editing and moderating (approved/hold/spam/unspam/trash/untrash), trashing and deleting; the product's
 * rating average and count follow every change on the storefront at once; WooCommerce's refusals for guests,
 * customers and bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

let shop: TestShop;
let manager: SignedIn;
let customer: SignedIn;
let product: { id: number; slug: string };

beforeAll(async () => {
  shop = await startTestShop();
  manager = await signInAs(shop, "reviews-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "reviews-customer@example.com", "customer");
  [product] = (await shop.services.db.query<{ id: number; slug: string }>(
    `SELECT id, slug FROM products WHERE status = 'publish' AND type = 'simple' AND rating_count > 0 AND rating_average > 2 ORDER BY id LIMIT 1`,
  )) as [{ id: number; slug: string }];
});
afterAll(async () => shop?.close());

const R = "/wp-json/wc/v3/products/reviews";
type Json = Record<string, unknown> & { code?: string; data?: { status: number; params?: Record<string, string> | string[] } };

async function call(who: SignedIn | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json & Json[]; headers: Headers }> {
  const client = who?.client ?? new TestClient(shop.url);
  const res = await client.request(R + path, { method, headers: who ? { "X-WP-Nonce": who.nonce } : {}, ...(body === undefined ? {} : { json: body }) });
  return { status: res.status, body: (await res.json()) as Json & Json[], headers: res.headers };
}

/** What the storefront shows of the product's rating: the Store API's count and average, and the product page. */
async function storefrontRating() {
  const res = await new TestClient(shop.url).get(`/wp-json/wc/store/v1/products/${product.id}`);
  const body = (await res.json()) as { review_count: number; average_rating: string };
  const html = await (await new TestClient(shop.url).get(`/product/${product.slug}/`)).text();
  const shown = /Reviews \((?:<!-- -->)?(\d+)(?:<!-- -->)?\)/.exec(html)?.[1];
  return { count: body.review_count, average: body.average_rating, page: Number(shown), html };
}

const newReview = (extra: Record<string, unknown> = {}) => ({
  product_id: product.id,
  review: "Holds its shape after many washes.",
  reviewer: "Quinn Reviewer",
  reviewer_email: "quinn@example.com",
  rating: 1,
  ...extra,
});

describe("who may call", () => {
  it("answers a guest 401 and a customer 403 with WooCommerce's codes", async () => {
    const cases: [string, string, string, unknown?][] = [
      ["GET", "", "woocommerce_rest_cannot_view"],
      ["GET", "/1", "woocommerce_rest_cannot_view"],
      ["POST", "", "woocommerce_rest_cannot_create", newReview()],
      ["PUT", "/1", "woocommerce_rest_cannot_edit", { status: "spam" }],
      ["DELETE", "/1?force=true", "woocommerce_rest_cannot_delete"],
      ["POST", "/batch", "woocommerce_rest_cannot_batch", { delete: [1] }],
    ];
    for (const [method, path, code, body] of cases) {
      const guest = await call(null, method, path, body);
      expect([guest.status, guest.body.code], `guest ${method} ${path}`).toEqual([401, code]);
      const cust = await call(customer, method, path, body);
      expect([cust.status, cust.body.code], `customer ${method} ${path}`).toEqual([403, code]);
    }
    const rows = await shop.services.db.query(`SELECT 1 FROM comments WHERE author = 'Quinn Reviewer'`);
    expect(rows).toEqual([]);
  });
});

describe("products/reviews", () => {
  it("lists approved reviews by default with WooCommerce's shape and paging", async () => {
    const res = await call(manager, "GET", "?per_page=2");
    expect(res.status).toBe(200);
    expect(Number(res.headers.get("x-wp-total"))).toBeGreaterThan(2);
    expect(res.body).toHaveLength(2);
    const r = res.body[0]!;
    expect(Object.keys(r).sort()).toEqual(
      [
        "_links",
        "date_created",
        "date_created_gmt",
        "id",
        "product_id",
        "product_name",
        "product_permalink",
        "rating",
        "review",
        "reviewer",
        "reviewer_avatar_urls",
        "reviewer_email",
        "status",
        "verified",
      ].sort(),
    );
    expect(r.status).toBe("approved");
    expect(r.review).toMatch(/^<p>.*<\/p>\n$/s);
    expect(Object.keys(r.reviewer_avatar_urls as object)).toEqual(["24", "48", "96"]);
    expect(r.product_permalink).toMatch(/\/product\/[a-z0-9-]+\/$/);
    const ofProduct = await call(manager, "GET", `?product=${product.id}&per_page=100`);
    expect(ofProduct.body.every((x) => x.product_id === product.id)).toBe(true);
  });

  it("creates a review, and the product's rating count and average follow on the storefront", async () => {
    const before = await storefrontRating();
    expect(before.page).toBe(before.count);
    const made = await call(manager, "POST", "", newReview());
    expect(made.status).toBe(201);
    expect(made.headers.get("location")).toMatch(new RegExp(`/wp-json/wc/v3/products/reviews/${made.body.id}$`));
    expect(made.body).toMatchObject({ product_id: product.id, status: "approved", reviewer: "Quinn Reviewer", rating: 1, verified: false });
    expect(made.body.review).toBe("Holds its shape after many washes."); // edit context: the raw text
    const after = await storefrontRating();
    expect(after.count).toBe(before.count + 1);
    expect(after.page).toBe(before.count + 1);
    expect(Number(after.average)).toBeLessThan(Number(before.average));
    expect(after.html).toContain("Holds its shape after many washes.");

    const byEmail = await call(manager, "GET", "?reviewer_email=QUINN@example.com");
    expect(byEmail.body.map((x) => x.id)).toEqual([made.body.id]);
    const audit = await shop.services.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE object_type = 'product_review' AND object_id = $1`, [
      String(made.body.id),
    ]);
    expect(audit.map((a) => a.action)).toEqual(["create"]);
  });

  it("moderates: hold, spam, unspam and trash/untrash restore what was, and the rating follows each", async () => {
    const base = await storefrontRating();
    const made = await call(manager, "POST", "", newReview({ review: "Moderate me.", rating: 2, status: "hold" }));
    expect(made.body.status).toBe("hold");
    expect((await storefrontRating()).count).toBe(base.count);
    expect((await call(manager, "GET", `?status=hold&include=${made.body.id}`)).body.map((x) => x.id)).toEqual([made.body.id]);

    const approve = await call(manager, "PUT", `/${made.body.id}`, { status: "approved" });
    expect(approve.body.status).toBe("approved");
    expect((await storefrontRating()).count).toBe(base.count + 1);

    expect((await call(manager, "PUT", `/${made.body.id}`, { status: "spam" })).body.status).toBe("spam");
    expect((await storefrontRating()).count).toBe(base.count);
    expect((await call(manager, "PUT", `/${made.body.id}`, { status: "unspam" })).body.status).toBe("approved");
    expect((await storefrontRating()).page).toBe(base.count + 1);

    const trashed = await call(manager, "DELETE", `/${made.body.id}`);
    expect([trashed.status, trashed.body.status]).toEqual([200, "trash"]);
    expect((await storefrontRating()).count).toBe(base.count);
    const again = await call(manager, "DELETE", `/${made.body.id}`);
    expect([again.status, again.body.code]).toEqual([410, "woocommerce_rest_already_trashed"]);
    expect((await call(manager, "PUT", `/${made.body.id}`, { status: "untrash" })).body.status).toBe("approved");

    const edited = await call(manager, "PUT", `/${made.body.id}`, { rating: 5, review: "Changed my mind." });
    expect(edited.body).toMatchObject({ rating: 5, review: "Changed my mind." });
    const viewed = await call(manager, "GET", `/${made.body.id}`);
    expect(viewed.body.review).toBe("<p>Changed my mind.</p>\n");

    const gone = await call(manager, "DELETE", `/${made.body.id}?force=true`);
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ deleted: true, previous: { id: made.body.id, status: "approved" } });
    expect((await storefrontRating()).count).toBe(base.count);
    expect((await call(manager, "GET", `/${made.body.id}`)).body.code).toBe("woocommerce_rest_review_invalid_id");
    const actions = await shop.services.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE object_type = 'product_review' AND object_id = $1 ORDER BY id`,
      [String(made.body.id)],
    );
    expect(actions.map((a) => a.action)).toEqual(["create", "status", "status", "status", "trash", "status", "update", "delete"]);
  });

  it("refuses bad input naming the parameter, and stores nothing", async () => {
    const count = async () => (await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM comments`))[0]!.n;
    const n = await count();
    for (const [body, param] of [
      [newReview({ rating: 6 }), "rating"],
      [newReview({ rating: "five" }), "rating"],
      [newReview({ reviewer_email: "not-an-email" }), "reviewer_email"],
      [newReview({ status: "published" }), "status"],
      [newReview({ product_id: "abc" }), "product_id"],
      [newReview({ review: "x".repeat(5001) }), "review"],
      [newReview({ reviewer: "nul\u0000byte" }), "reviewer"],
    ] as const) {
      const res = await call(manager, "POST", "", body);
      expect([res.status, res.body.code], JSON.stringify(body).slice(0, 80)).toEqual([400, "rest_invalid_param"]);
      expect(Object.keys(res.body.data!.params as Record<string, string>)).toEqual([param]);
    }
    const missing = await call(manager, "POST", "", { review: "No product." });
    expect([missing.status, missing.body.code]).toEqual([400, "rest_missing_callback_param"]);
    expect(missing.body.data!.params).toEqual(expect.arrayContaining(["product_id", "reviewer", "reviewer_email", "rating"]));
    const empty = await call(manager, "POST", "", newReview({ review: "   " }));
    expect([empty.status, empty.body.code]).toEqual([400, "woocommerce_rest_review_content_invalid"]);
    const noProduct = await call(manager, "POST", "", newReview({ product_id: 999999 }));
    expect([noProduct.status, noProduct.body.code]).toEqual([404, "woocommerce_rest_product_invalid_id"]);
    const exists = await call(manager, "POST", "", newReview({ id: 5 }));
    expect([exists.status, exists.body.code]).toEqual([400, "woocommerce_rest_review_exists"]);
    expect(await count()).toBe(n);

    const dupFirst = await call(manager, "POST", "", newReview({ review: "Only once." }));
    expect(dupFirst.status).toBe(201);
    const dup = await call(manager, "POST", "", newReview({ review: "Only once." }));
    expect([dup.status, dup.body.code]).toEqual([409, "woocommerce_rest_comment_duplicate"]);

    for (const bad of ["status=pending", "per_page=500", "product=abc", "after=yesterday-ish", "after=%2B275760-09-13", "orderby=rating", "search=%00"]) {
      const res = await call(manager, "GET", `?${bad}`);
      expect([res.status, res.body.code], bad).toEqual([400, "rest_invalid_param"]);
    }
    const unknown = await call(manager, "PUT", "/999999", { status: "approved" });
    expect([unknown.status, unknown.body.code]).toEqual([404, "woocommerce_rest_review_invalid_id"]);
    const badUpdate = await call(manager, "PUT", `/${dupFirst.body.id}`, { rating: 0 });
    expect([badUpdate.status, badUpdate.body.code]).toEqual([400, "rest_invalid_param"]);
    const emptyUpdate = await call(manager, "PUT", `/${dupFirst.body.id}`, { review: "" });
    expect([emptyUpdate.status, emptyUpdate.body.code]).toEqual([400, "woocommerce_rest_review_content_invalid"]);
    const badForce = await call(manager, "DELETE", `/${dupFirst.body.id}?force=perhaps`);
    expect([badForce.status, badForce.body.code]).toEqual([400, "rest_invalid_param"]);
  });

  it("runs a batch of moderation", async () => {
    const a = (await call(manager, "POST", "", newReview({ review: "Batch A.", status: "hold" }))).body;
    const b = (await call(manager, "POST", "", newReview({ review: "Batch B.", status: "hold" }))).body;
    const res = await call(manager, "POST", "/batch", {
      update: [
        { id: a.id, status: "approved" },
        { id: 999999, status: "approved" },
      ],
      delete: [b.id],
    });
    expect(res.status).toBe(200);
    const body = res.body as unknown as { update: Json[]; delete: Json[] };
    expect(body.update[0]).toMatchObject({ id: a.id, status: "approved" });
    expect(body.update[1]).toMatchObject({ id: 999999, error: { code: "woocommerce_rest_review_invalid_id" } });
    expect(body.delete[0]).toMatchObject({ deleted: true, previous: { id: b.id } });
  });
});
