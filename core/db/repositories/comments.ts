/**
 * `comments`: product reviews and blog comments (migration 0012), and the product's rating columns they feed.
 * Only SQL lives here; the submission rules are core/domain/comments, the use case core/commerce/comments.ts.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import type { CommentKind, CommentStatus, CommentView } from "../../domain/comments/comments.ts";
import { ratingSummary } from "../../domain/comments/comments.ts";

/** What a comment_post_ID names: a published product (reviews) or post (comments). */
export interface CommentTarget {
  kind: CommentKind;
  id: number;
  slug: string;
  title: string;
  open: boolean;
  /** Where the item's page is, for the redirect back. */
  path: string;
}

/** The published product or post with this id (they share one id space), or null. */
export async function findCommentTarget(db: Queryable, id: number): Promise<CommentTarget | null> {
  const b = sql(db);
  const product = await b
    .selectFrom("products")
    .select(["id", "slug", "name", "comment_status"])
    .where("id", "=", id)
    .where("status", "=", raw.lit("publish"))
    .executeTakeFirst();
  if (product)
    return {
      kind: "review",
      id: product.id,
      slug: product.slug,
      title: product.name,
      open: product.comment_status === "open",
      path: `/product/${product.slug}/`,
    };
  const post = await b
    .selectFrom("posts")
    .select(["id", "slug", "title", "comment_status"])
    .where("id", "=", id)
    .where("type", "=", raw.lit("post"))
    .where("status", "=", raw.lit("publish"))
    .executeTakeFirst();
  return post ? { kind: "comment", id: post.id, slug: post.slug, title: post.title, open: post.comment_status === "open", path: `/blog/${post.slug}/` } : null;
}

/** Opens or closes an item to new comments (WordPress's comment_status). */
export async function setCommentsOpen(db: Queryable, target: Pick<CommentTarget, "kind" | "id">, open: boolean): Promise<void> {
  const status = open ? "open" : "closed";
  if (target.kind === "review") await sql(db).updateTable("products").set({ comment_status: status }).where("id", "=", target.id).execute();
  else await sql(db).updateTable("posts").set({ comment_status: status }).where("id", "=", target.id).execute();
}

/**
 * WooCommerce's wc_customer_bought_product: a paid order (processing or completed) of this customer, or placed with
 * this e-mail, has a line of the product (or of one of its variations).
 */
export async function customerBoughtProduct(db: Queryable, who: { customerId: number | null; email: string }, productId: number): Promise<boolean> {
  const row = await sql(db)
    .selectFrom("orders as o")
    .innerJoin("order_lines as l", "l.order_id", "o.id")
    .select("o.id")
    .where("o.status", "in", [raw.lit("processing"), raw.lit("completed")])
    .where("l.product_id", "=", productId)
    .where((eb) => {
      const whose = [eb(raw<string>`lower(o.billing_email)`, "=", who.email.toLowerCase())];
      if (who.customerId) whose.push(eb("o.customer_id", "=", who.customerId));
      return eb.or(whose);
    })
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** WordPress's duplicate check: the same text on the same item by the same account, name or e-mail, not in the trash. */
export async function isDuplicateComment(
  db: Queryable,
  q: { targetId: number; kind: CommentKind; customerId: number | null; author: string; email: string; content: string },
): Promise<boolean> {
  const row = await sql(db)
    .selectFrom("comments")
    .select("id")
    .where(q.kind === "review" ? "product_id" : "post_id", "=", q.targetId)
    .where("status", "<>", raw.lit("trash"))
    .where("content", "=", q.content)
    .where((eb) => {
      const who = [eb("author", "=", q.author)];
      if (q.email) who.push(eb(raw<string>`lower(author_email)`, "=", q.email.toLowerCase()));
      if (q.customerId) who.push(eb("customer_id", "=", q.customerId));
      return eb.or(who);
    })
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export interface NewComment {
  kind: CommentKind;
  targetId: number;
  customerId: number | null;
  author: string;
  email: string;
  content: string;
  rating: number | null;
  verified: boolean;
  status: CommentStatus;
  at: Date;
}

export async function insertComment(db: Queryable, c: NewComment): Promise<number> {
  const row = await sql(db)
    .insertInto("comments")
    .values({
      type: c.kind,
      product_id: c.kind === "review" ? c.targetId : null,
      post_id: c.kind === "comment" ? c.targetId : null,
      customer_id: c.customerId,
      author: c.author,
      author_email: c.email,
      rating: c.rating,
      content: c.content,
      status: c.status,
      verified: c.verified,
      created_at: c.at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The comments a visitor sees on an item: the approved ones, plus their own pending ones (by account, or by the ids
 * their session remembers), as WordPress shows a comment awaiting moderation to its author only. Reviews newest first,
 * blog comments in the order they were written; replies (to a review or a comment) are among them, with their parent
 * (core/domain/comments threadComments puts them under it).
 */
export async function visibleComments(
  db: Queryable,
  target: Pick<CommentTarget, "kind" | "id">,
  viewer: { customerId: number | null; ownIds: readonly number[] },
  limit = 50,
): Promise<CommentView[]> {
  const rows = await sql(db)
    .selectFrom("comments")
    .select(["id", "parent_id", "author", "content", "rating", "verified", "status", "created_at"])
    .where(target.kind === "review" ? "product_id" : "post_id", "=", target.id)
    .where((eb) => {
      const visible = [eb("status", "=", raw.lit("approved"))];
      const mine = [];
      if (viewer.customerId) mine.push(eb("customer_id", "=", viewer.customerId));
      if (viewer.ownIds.length) mine.push(eb("id", "in", [...viewer.ownIds]));
      if (mine.length) visible.push(eb.and([eb("status", "=", raw.lit("pending")), eb.or(mine)]));
      return eb.or(visible);
    })
    .orderBy("created_at", target.kind === "review" ? "desc" : "asc")
    .orderBy("id", target.kind === "review" ? "desc" : "asc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    parentId: r.parent_id,
    author: r.author,
    content: r.content,
    rating: r.rating,
    verified: r.verified,
    pending: r.status === "pending",
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

export interface ModerationRow {
  id: number;
  kind: CommentKind;
  targetId: number;
  author: string;
  email: string;
  content: string;
  rating: number | null;
  verified: boolean;
  status: CommentStatus;
  createdAt: Date;
}

const toModerationRow = (r: {
  id: number;
  type: string;
  product_id: number | null;
  post_id: number | null;
  author: string;
  author_email: string;
  content: string;
  rating: number | null;
  verified: boolean;
  status: string;
  created_at: Date | string;
}): ModerationRow => ({
  id: r.id,
  kind: r.type as CommentKind,
  targetId: (r.product_id ?? r.post_id)!,
  author: r.author,
  email: r.author_email,
  content: r.content,
  rating: r.rating,
  verified: r.verified,
  status: r.status as CommentStatus,
  createdAt: new Date(r.created_at),
});

const moderationColumns = ["id", "type", "product_id", "post_id", "author", "author_email", "content", "rating", "verified", "status", "created_at"] as const;

/** The moderation queue: comments of one status, oldest first (what the admin's Pending tab lists). */
export async function commentsByStatus(db: Queryable, status: CommentStatus, limit = 100): Promise<ModerationRow[]> {
  const rows = await sql(db)
    .selectFrom("comments")
    .select(moderationColumns)
    .where("status", "=", status)
    .orderBy("created_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(toModerationRow);
}

/** Sets a comment's status; returns the comment as it now is, or null when there is no such comment. */
export async function updateCommentStatus(db: Queryable, id: number, status: CommentStatus): Promise<ModerationRow | null> {
  const row = await sql(db).updateTable("comments").set({ status }).where("id", "=", id).returning(moderationColumns).executeTakeFirst();
  return row ? toModerationRow(row) : null;
}

/**
 * Recomputes a product's rating_average and rating_count from its approved, rated reviews (what the listing sorts
 * by, the stars and the structured data show). Run after anything that changes which reviews are approved.
 */
export async function recountProductRating(db: Queryable, productId: number): Promise<{ average: number; count: number }> {
  const rows = await sql(db)
    .selectFrom("comments")
    .select("rating")
    .where("product_id", "=", productId)
    .where("status", "=", raw.lit("approved"))
    .where("rating", "is not", null)
    .execute();
  const summary = ratingSummary(rows.map((r) => r.rating!));
  await sql(db).updateTable("products").set({ rating_average: summary.average, rating_count: summary.count }).where("id", "=", productId).execute();
  return summary;
}
