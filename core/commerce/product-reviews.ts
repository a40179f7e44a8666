/**
 * Staff writes to product reviews (`wc/v3/products/reviews`, docs/contract/rest/taxonomies.md): create, edit,
 * moderate, trash and delete, each in one transaction that recounts the product's rating average and count (what the
 * listing sorts by and the product page shows), so the storefront is right on the next page.
 */
import type { Db } from "../db/client.ts";
import * as comments from "../db/repositories/comments.ts";
import * as reviews from "../db/repositories/reviews.ts";
import { COMMENT_MESSAGES, type CommentStatus } from "../domain/comments/comments.ts";

/** WooCommerce's review statuses a write may send; unspam and untrash restore the status before. */
export const REVIEW_STATUS_ACTIONS = ["approved", "hold", "spam", "unspam", "trash", "untrash"] as const;
export type ReviewStatusAction = (typeof REVIEW_STATUS_ACTIONS)[number];

type Refusal = { ok: false; code: string; message: string; status: number };
const refuse = (code: string, message: string, status: number): Refusal => ({ ok: false, code, message, status });

const invalidId = () => refuse("woocommerce_rest_review_invalid_id", "Invalid review ID.", 404);
const invalidProduct = () => refuse("woocommerce_rest_product_invalid_id", "Invalid product ID.", 404);

/** The status and remembered status after a WooCommerce status action (handle_status_param). */
function applyStatus(current: { status: CommentStatus; statusBefore: CommentStatus | null }, action: ReviewStatusAction) {
  switch (action) {
    case "approved":
      return { status: "approved" as const, statusBefore: null };
    case "hold":
      return { status: "pending" as const, statusBefore: null };
    case "spam":
    case "trash": {
      const status = action;
      return current.status === status ? current : { status, statusBefore: current.status };
    }
    case "unspam":
    case "untrash":
      // wp_unspam_comment / wp_untrash_comment: the status before, else pending.
      if (current.status !== (action === "unspam" ? "spam" : "trash")) return current;
      return { status: current.statusBefore ?? "pending", statusBefore: null };
  }
}

export interface NewReview {
  productId: number;
  author: string;
  email: string;
  content: string;
  rating: number;
  status: ReviewStatusAction | undefined;
  at: Date;
}

export async function createReview(db: Db, r: NewReview): Promise<{ ok: true; id: number } | Refusal> {
  return db.transaction(async (tx) => {
    if (!(await reviews.reviewableProduct(tx, r.productId))) return invalidProduct();
    await reviews.lockProductsForRating(tx, [r.productId]);
    if (
      await comments.isDuplicateComment(tx, { targetId: r.productId, kind: "review", customerId: null, author: r.author, email: r.email, content: r.content })
    )
      return refuse("woocommerce_rest_comment_duplicate", COMMENT_MESSAGES.duplicate, 409);
    const verified = await comments.customerBoughtProduct(tx, { customerId: null, email: r.email }, r.productId);
    // A moderator's review is approved unless the request says otherwise (wp_allow_comment for moderate_comments).
    const next = applyStatus({ status: "approved", statusBefore: null }, r.status ?? "approved");
    const id = await comments.insertComment(tx, {
      kind: "review",
      targetId: r.productId,
      customerId: null,
      author: r.author,
      email: r.email,
      content: r.content,
      rating: r.rating,
      verified,
      status: next.status,
      at: r.at,
    });
    if (next.statusBefore) await reviews.updateReview(tx, id, { statusBefore: next.statusBefore });
    await comments.recountProductRating(tx, r.productId);
    return { ok: true as const, id };
  });
}

export interface ReviewEdit {
  productId?: number | undefined;
  author?: string | undefined;
  email?: string | undefined;
  content?: string | undefined;
  rating?: number | undefined;
  status?: ReviewStatusAction | undefined;
}

/** Edits and/or moderates a review; both products' ratings are recounted when it moves. */
export async function editReview(db: Db, id: number, e: ReviewEdit): Promise<{ ok: true; before: reviews.ReviewRecord } | Refusal> {
  return db.transaction(async (tx) => {
    const found = await reviews.findReview(tx, id);
    if (!found) return invalidId();
    if (e.productId !== undefined && e.productId !== found.productId && !(await reviews.reviewableProduct(tx, e.productId))) return invalidProduct();
    await reviews.lockProductsForRating(tx, [found.productId, e.productId ?? found.productId]);
    // Read again under the lock: a concurrent moderation may have changed the status meanwhile.
    const before = await reviews.findReview(tx, id);
    if (!before) return invalidId();
    const next = e.status ? applyStatus(before, e.status) : null;
    await reviews.updateReview(tx, id, {
      ...(e.productId !== undefined ? { productId: e.productId } : {}),
      ...(e.author !== undefined ? { author: e.author } : {}),
      ...(e.email !== undefined ? { email: e.email } : {}),
      ...(e.content !== undefined ? { content: e.content } : {}),
      ...(e.rating !== undefined ? { rating: e.rating } : {}),
      ...(next ? { status: next.status, statusBefore: next.statusBefore } : {}),
    });
    await comments.recountProductRating(tx, e.productId ?? before.productId);
    if (e.productId !== undefined && e.productId !== before.productId) await comments.recountProductRating(tx, before.productId);
    return { ok: true as const, before };
  });
}

/** Deletes a review for good (force), or moves it to the trash. */
export async function removeReview(db: Db, id: number, force: boolean): Promise<{ ok: true; before: reviews.ReviewRecord } | Refusal> {
  return db.transaction(async (tx) => {
    const found = await reviews.findReview(tx, id);
    if (!found) return invalidId();
    await reviews.lockProductsForRating(tx, [found.productId]);
    const before = await reviews.findReview(tx, id);
    if (!before) return invalidId();
    if (force) await reviews.deleteReview(tx, id);
    else {
      if (before.status === "trash") return refuse("woocommerce_rest_already_trashed", "The object has already been trashed.", 410);
      await reviews.updateReview(tx, id, { status: "trash", statusBefore: before.status });
    }
    await comments.recountProductRating(tx, before.productId);
    return { ok: true as const, before };
  });
}
