/**
 * WooCommerce's `wc/v3/products/reviews` (docs/contract/rest/taxonomies.md §Reviews): list, read, create, edit,
 * moderate (status approved/hold/spam/unspam/trash/untrash), trash and delete product reviews, plus `batch`.
 * Moderators only (`moderate_comments`); every write is audited and recounts the product's rating at once.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput, type RestRouter } from "../http/rest.ts";
import { listArgs, pagedJson, pageOutOfRange, parseArgs, requestArgs, restBool, restIdList, restInt } from "../http/rest-args.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import type { Feature } from "./feature.ts";
import { restText } from "./rest-taxonomies.ts";
import { COMMENT_LIMITS, type CommentStatus } from "../../core/domain/comments/comments.ts";
import { findReview, listReviews, type ReviewRecord } from "../../core/db/repositories/reviews.ts";
import { createReview, editReview, removeReview, REVIEW_STATUS_ACTIONS } from "../../core/commerce/product-reviews.ts";
import { autop } from "../../core/domain/text/kses.ts";

const NS = "wc/v3";
const BASE = "products/reviews";
const CAP = "moderate_comments" as const;

/** WC_REST_Product_Reviews_Controller's permission refusals (401 for a guest, 403 for anyone else). */
const DENIED = {
  list: { code: "woocommerce_rest_cannot_view", message: "Sorry, you cannot list resources." },
  view: { code: "woocommerce_rest_cannot_view", message: "Sorry, you cannot view this resource." },
  create: { code: "woocommerce_rest_cannot_create", message: "Sorry, you are not allowed to create resources." },
  edit: { code: "woocommerce_rest_cannot_edit", message: "Sorry, you cannot edit this resource." },
  delete: { code: "woocommerce_rest_cannot_delete", message: "Sorry, you cannot delete this resource." },
  batch: { code: "woocommerce_rest_cannot_batch", message: "Sorry, you are not allowed to batch manipulate this resource." },
} as const;

const WIRE_STATUS: Record<CommentStatus, string> = { approved: "approved", pending: "hold", spam: "spam", trash: "trash" };
const LIST_STATUS = { all: null, approved: "approved", hold: "pending", spam: "spam", trash: "trash" } as const;

const invalidId = () => restError("woocommerce_rest_review_invalid_id", "Invalid review ID.", 404);

/** WordPress's date without a zone (the site's time; the shop runs on UTC) and its _gmt twin. */
const wpDate = (d: Date) => d.toISOString().slice(0, 19);

/** rest_get_avatar_urls: Gravatar addresses by the e-mail's MD5, at WordPress's three sizes. */
const avatarUrls = (email: string) => {
  const hash = createHash("md5").update(email.trim().toLowerCase()).digest("hex");
  return Object.fromEntries([24, 48, 96].map((s) => [String(s), `https://secure.gravatar.com/avatar/${hash}?s=${s}&d=mm&r=g`]));
};

function shape(input: RestInput, r: ReviewRecord, context: "view" | "edit" | "embed") {
  const site = input.services.siteUrl.replace(/\/$/, "");
  const root = `${site}/wp-json/${NS}/${BASE}`;
  return {
    id: r.id,
    date_created: wpDate(r.createdAt),
    date_created_gmt: wpDate(r.createdAt),
    product_id: r.productId,
    product_name: r.productName,
    product_permalink: `${site}/product/${r.productSlug}/`,
    status: WIRE_STATUS[r.status],
    reviewer: r.author,
    reviewer_email: r.email,
    review: context === "edit" ? r.content : autop(r.content),
    rating: r.rating ?? 0,
    verified: r.verified,
    reviewer_avatar_urls: avatarUrls(r.email),
    _links: {
      self: [{ href: `${root}/${r.id}` }],
      collection: [{ href: root }],
      up: [{ href: `${site}/wp-json/${NS}/products/${r.productId}` }],
    },
  };
}

const isoDate = z.preprocess(
  (v) => (typeof v === "string" ? new Date(v) : v),
  z.date().refine((d) => !Number.isNaN(d.getTime()) && d.getUTCFullYear() >= 1000 && d.getUTCFullYear() <= 9999, "must be a date"),
);

const listSchema = z.object({
  context: listArgs.context,
  page: listArgs.page,
  per_page: listArgs.per_page,
  offset: listArgs.offset,
  search: restText(200).optional(),
  after: isoDate.optional(),
  before: isoDate.optional(),
  exclude: restIdList().optional(),
  include: restIdList().optional(),
  order: listArgs.order,
  orderby: z.enum(["date", "date_gmt", "id", "include", "product"]).default("date_gmt"),
  reviewer: restIdList().optional(),
  reviewer_exclude: restIdList().optional(),
  reviewer_email: restText(COMMENT_LIMITS.email).optional(),
  product: restIdList().optional(),
  status: z.enum(["all", "hold", "approved", "spam", "trash"]).default("approved"),
});

const fields = {
  product_id: restInt(1),
  review: restText(COMMENT_LIMITS.content),
  reviewer: restText(COMMENT_LIMITS.author).pipe(z.string().min(1)),
  reviewer_email: z.string().max(COMMENT_LIMITS.email).pipe(z.email()),
  rating: restInt(1, 5),
  status: z.enum(REVIEW_STATUS_ACTIONS),
};
const createSchema = z.object({ ...fields, status: fields.status.optional(), id: z.unknown().optional() });
const updateSchema = z.object({
  product_id: fields.product_id.optional(),
  review: fields.review.optional(),
  reviewer: fields.reviewer.optional(),
  reviewer_email: fields.reviewer_email.optional(),
  rating: fields.rating.optional(),
  status: fields.status.optional(),
  context: listArgs.context,
});

const reviewId = (input: RestInput) => {
  const id = Number(input.pathParams.id);
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
};

async function list(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, CAP, DENIED.list);
  if (isReply(user)) return user;
  const args = parseArgs(listSchema, requestArgs(input));
  if (!args.ok) return args.reply;
  const a = args.data;
  const { rows, total } = await listReviews(input.services.db, {
    status: LIST_STATUS[a.status],
    products: a.product,
    include: a.include,
    exclude: a.exclude,
    reviewers: a.reviewer,
    reviewersExclude: a.reviewer_exclude,
    reviewerEmail: a.reviewer_email,
    search: a.search,
    after: a.after,
    before: a.before,
    orderby: a.orderby === "date_gmt" ? "date" : a.orderby,
    order: a.order,
    limit: a.per_page,
    offset: a.offset ?? (a.page - 1) * a.per_page,
  });
  const out = pageOutOfRange(total, a.page, a.per_page);
  if (out) return out;
  return pagedJson(
    input.req,
    rows.map((r) => shape(input, r, a.context)),
    total,
    a.page,
    a.per_page,
  );
}

async function get(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, CAP, DENIED.view);
  if (isReply(user)) return user;
  const args = parseArgs(z.object({ context: listArgs.context }), requestArgs(input));
  if (!args.ok) return args.reply;
  const id = reviewId(input);
  const r = id === null ? null : await findReview(input.services.db, id);
  return r ? json(shape(input, r, args.data.context)) : invalidId();
}

const contentInvalid = () => restError("woocommerce_rest_review_content_invalid", "Invalid review content.", 400);

async function create(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, CAP, DENIED.create);
  if (isReply(user)) return user;
  const args = parseArgs(createSchema, requestArgs(input));
  if (!args.ok) return args.reply;
  const a = args.data;
  if (a.id !== undefined && a.id !== null && a.id !== "" && a.id !== 0)
    return restError("woocommerce_rest_review_exists", "Cannot create existing product review.", 400);
  const content = a.review.trim();
  if (!content) return contentInvalid();
  const made = await createReview(input.services.db, {
    productId: a.product_id,
    author: a.reviewer.trim(),
    email: a.reviewer_email,
    content,
    rating: a.rating,
    status: a.status,
    at: input.services.now(),
  });
  if (!made.ok) return restError(made.code, made.message, made.status);
  const r = (await findReview(input.services.db, made.id))!;
  await audit(input, user, {
    action: "create",
    objectType: "product_review",
    objectId: r.id,
    changes: { product_id: r.productId, reviewer: r.author, rating: r.rating, status: WIRE_STATUS[r.status] },
  });
  const body = shape(input, r, "edit");
  return json(body, 201, { Location: body._links.self[0]!.href });
}

async function update(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, CAP, DENIED.edit);
  if (isReply(user)) return user;
  const id = reviewId(input);
  if (id === null) return invalidId();
  const args = parseArgs(updateSchema, requestArgs(input));
  if (!args.ok) return args.reply;
  const a = args.data;
  const content = a.review?.trim();
  if (content === "") return contentInvalid();
  const edited = await editReview(input.services.db, id, {
    productId: a.product_id,
    author: a.reviewer?.trim(),
    email: a.reviewer_email,
    content,
    rating: a.rating,
    status: a.status,
  });
  if (!edited.ok) return restError(edited.code, edited.message, edited.status);
  const r = (await findReview(input.services.db, id))!;
  const changes: Record<string, unknown> = {};
  const b = edited.before;
  const pairs: [string, unknown, unknown][] = [
    ["product_id", b.productId, r.productId],
    ["reviewer", b.author, r.author],
    ["reviewer_email", b.email, r.email],
    ["review", b.content, r.content],
    ["rating", b.rating, r.rating],
    ["status", WIRE_STATUS[b.status], WIRE_STATUS[r.status]],
  ];
  for (const [k, from, to] of pairs) if (from !== to) changes[k] = { from, to };
  await audit(input, user, {
    action: a.status && Object.keys(changes).join() === "status" ? "status" : "update",
    objectType: "product_review",
    objectId: id,
    changes,
  });
  return json(shape(input, r, "edit"));
}

async function remove(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, CAP, DENIED.delete);
  if (isReply(user)) return user;
  const id = reviewId(input);
  if (id === null) return invalidId();
  const args = parseArgs(z.object({ force: restBool().default(false) }), requestArgs(input));
  if (!args.ok) return args.reply;
  const removed = await removeReview(input.services.db, id, args.data.force);
  if (!removed.ok) return restError(removed.code, removed.message, removed.status);
  await audit(input, user, {
    action: args.data.force ? "delete" : "trash",
    objectType: "product_review",
    objectId: id,
    changes: { product_id: removed.before.productId, status: { from: WIRE_STATUS[removed.before.status], to: args.data.force ? null : "trash" } },
  });
  if (args.data.force) return json({ deleted: true, previous: shape(input, removed.before, "edit") });
  return json(shape(input, (await findReview(input.services.db, id))!, "edit"));
}

const BATCH_LIMIT = 100;
const batchSchema = z.object({
  create: z.array(z.record(z.string(), z.unknown())).optional(),
  update: z.array(z.record(z.string(), z.unknown())).optional(),
  delete: z.array(restInt(1)).optional(),
});

async function batch(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, CAP, DENIED.batch);
  if (isReply(user)) return user;
  const args = parseArgs(batchSchema, input.body ?? {});
  if (!args.ok) return args.reply;
  const { create: c = [], update: u = [], delete: d = [] } = args.data;
  if (c.length + u.length + d.length > BATCH_LIMIT)
    return restError("woocommerce_rest_request_entity_too_large", `Unable to accept more than ${BATCH_LIMIT} items for this request.`, 413);
  const one = async (handler: (i: RestInput) => Promise<Reply>, body: Record<string, unknown>, id?: number) => {
    const reply = await handler({ ...input, method: "POST", query: {}, body, pathParams: id ? { id: String(id) } : {} });
    if (reply.kind === "json" && (reply.status ?? 200) < 400) return reply.body;
    const err = (reply.kind === "json" ? reply.body : {}) as { code?: string; message?: string; data?: unknown };
    return { id: id ?? 0, error: { code: err.code, message: err.message, data: err.data } };
  };
  const out: Record<string, unknown[]> = {};
  if (c.length) out.create = [];
  for (const item of c) out.create!.push(await one(create, item));
  if (u.length) out.update = [];
  for (const item of u) out.update!.push(await one(update, item, Number(item.id) || undefined));
  if (d.length) out.delete = [];
  for (const id of d) out.delete!.push(await one(remove, { force: true }, id));
  return json(out);
}

function register(rest: RestRouter) {
  const path = `${NS}/${BASE}`;
  for (const m of ["POST", "PUT", "PATCH"]) rest.register(m, `${path}/batch`, batch);
  rest.register("GET", path, list);
  rest.register("POST", path, create);
  rest.register("GET", `${path}/:id`, get);
  for (const m of ["POST", "PUT", "PATCH"]) rest.register(m, `${path}/:id`, update);
  rest.register("DELETE", `${path}/:id`, remove);
}

export const restReviewsFeature: Feature = {
  name: "rest-reviews",
  endpoints({ rest }) {
    if (!rest.namespaces.includes(NS)) rest.namespaces.push(NS);
    register(rest);
  },
};
