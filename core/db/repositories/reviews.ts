/**
 * Product reviews (`comments` rows of type 'review', migration 0012) as the staff REST API lists and edits them
 * (`wc/v3/products/reviews`, docs/contract/rest/taxonomies.md). The product's rating columns are kept true by the
 * use case (core/commerce/product-reviews.ts) through comments.ts's recountProductRating.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import type { CommentStatus } from "../../domain/comments/comments.ts";

export interface ReviewRecord {
  id: number;
  productId: number;
  productName: string;
  productSlug: string;
  customerId: number | null;
  author: string;
  email: string;
  content: string;
  rating: number | null;
  verified: boolean;
  status: CommentStatus;
  statusBefore: CommentStatus | null;
  createdAt: Date;
}

export interface ReviewQuery {
  /** null: every status */
  status: CommentStatus | null;
  products?: number[] | undefined;
  include?: number[] | undefined;
  exclude?: number[] | undefined;
  reviewers?: number[] | undefined;
  reviewersExclude?: number[] | undefined;
  reviewerEmail?: string | undefined;
  search?: string | undefined;
  after?: Date | undefined;
  before?: Date | undefined;
  orderby: "date" | "date_gmt" | "id" | "include" | "product";
  order: "asc" | "desc";
  limit: number;
  offset: number;
}

const columns = [
  "c.id",
  "c.product_id",
  "p.name as product_name",
  "p.slug as product_slug",
  "c.customer_id",
  "c.author",
  "c.author_email",
  "c.content",
  "c.rating",
  "c.verified",
  "c.status",
  "c.status_before",
  "c.created_at",
] as const;

type Row = {
  id: number;
  product_id: number | null;
  product_name: string;
  product_slug: string;
  customer_id: number | null;
  author: string;
  author_email: string;
  content: string;
  rating: number | null;
  verified: boolean;
  status: string;
  status_before: string | null;
  created_at: Date | string;
};

const toReview = (r: Row): ReviewRecord => ({
  id: r.id,
  productId: r.product_id!,
  productName: r.product_name,
  productSlug: r.product_slug,
  customerId: r.customer_id,
  author: r.author,
  email: r.author_email,
  content: r.content,
  rating: r.rating,
  verified: r.verified,
  status: r.status as CommentStatus,
  statusBefore: r.status_before as CommentStatus | null,
  createdAt: new Date(r.created_at),
});

const reviews = (db: Queryable) =>
  sql(db).selectFrom("comments as c").innerJoin("products as p", "p.id", "c.product_id").where("c.type", "=", raw.lit("review"));

export async function listReviews(db: Queryable, q: ReviewQuery): Promise<{ rows: ReviewRecord[]; total: number }> {
  let query = reviews(db);
  if (q.status) query = query.where("c.status", "=", q.status);
  if (q.products?.length) query = query.where("c.product_id", "in", q.products);
  if (q.include?.length) query = query.where("c.id", "in", q.include);
  if (q.exclude?.length) query = query.where("c.id", "not in", q.exclude);
  if (q.reviewers?.length) query = query.where("c.customer_id", "in", q.reviewers);
  if (q.reviewersExclude?.length) {
    const ex = q.reviewersExclude;
    query = query.where((eb) => eb.or([eb("c.customer_id", "is", null), eb("c.customer_id", "not in", ex)]));
  }
  if (q.reviewerEmail) query = query.where(raw<string>`lower(c.author_email)`, "=", q.reviewerEmail.toLowerCase());
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, "\\$&")}%`;
    query = query.where((eb) => eb.or([eb("c.content", "ilike", like), eb("c.author", "ilike", like), eb("c.author_email", "ilike", like)]));
  }
  if (q.after) query = query.where("c.created_at", ">", q.after);
  if (q.before) query = query.where("c.created_at", "<", q.before);
  const total = await query.select(raw<number>`count(*)::int`.as("n")).executeTakeFirst();
  let page = query.select(columns);
  switch (q.orderby) {
    case "include":
      page = q.include?.length ? page.orderBy(raw`array_position(${q.include}::int[], c.id)`, q.order) : page.orderBy("c.created_at", q.order);
      break;
    case "id":
      page = page.orderBy("c.id", q.order);
      break;
    case "product":
      page = page.orderBy("c.product_id", q.order);
      break;
    default:
      page = page.orderBy("c.created_at", q.order);
  }
  const rows = await page.orderBy("c.id", q.order).limit(q.limit).offset(q.offset).execute();
  return { rows: rows.map(toReview), total: total?.n ?? 0 };
}

export async function findReview(db: Queryable, id: number): Promise<ReviewRecord | null> {
  const row = await reviews(db).select(columns).where("c.id", "=", id).executeTakeFirst();
  return row ? toReview(row) : null;
}

export interface ReviewPatch {
  productId?: number;
  author?: string;
  email?: string;
  content?: string;
  rating?: number;
  verified?: boolean;
  status?: CommentStatus;
  statusBefore?: CommentStatus | null;
}

export async function updateReview(db: Queryable, id: number, p: ReviewPatch): Promise<void> {
  const set = {
    ...(p.productId !== undefined ? { product_id: p.productId } : {}),
    ...(p.author !== undefined ? { author: p.author } : {}),
    ...(p.email !== undefined ? { author_email: p.email } : {}),
    ...(p.content !== undefined ? { content: p.content } : {}),
    ...(p.rating !== undefined ? { rating: p.rating } : {}),
    ...(p.verified !== undefined ? { verified: p.verified } : {}),
    ...(p.status !== undefined ? { status: p.status } : {}),
    ...(p.statusBefore !== undefined ? { status_before: p.statusBefore } : {}),
  };
  if (Object.keys(set).length === 0) return;
  await sql(db).updateTable("comments").set(set).where("id", "=", id).execute();
}

/** Deletes a review for good; its replies go with it (the foreign key cascades). */
export async function deleteReview(db: Queryable, id: number): Promise<void> {
  await sql(db).deleteFrom("comments").where("id", "=", id).execute();
}

/** A product of any status with this id (WooCommerce accepts a review of any product post). */
export async function reviewableProduct(db: Queryable, id: number): Promise<{ id: number } | null> {
  const row = await sql(db).selectFrom("products").select("id").where("id", "=", id).executeTakeFirst();
  return row ?? null;
}

/**
 * Locks products' rows until the transaction ends (in id order, so two writers never deadlock): a review write takes
 * it before changing reviews, so concurrent recounts of one product's rating run one after the other and the last
 * one sees every change (PostgreSQL's READ COMMITTED would otherwise let a recount miss a concurrent one).
 */
export async function lockProductsForRating(db: Queryable, productIds: number[]): Promise<void> {
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  if (ids.length) await sql(db).selectFrom("products").select("id").where("id", "in", ids).orderBy("id").forUpdate().execute();
}
