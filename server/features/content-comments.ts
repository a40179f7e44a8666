/**
 * `wp/v2/comments` over the blog's comments (docs/contract/rest/content.md 'Comments'): anyone reads the approved
 * comments of published posts; moderators (`moderate_comments`) see every status, reply, edit, moderate and delete.
 * Visitors comment through the storefront's form (rate limits, docs/contract/storefront.md §4 'Reviews and comments');
 * product reviews are WooCommerce's `products/reviews`.
 */
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, restNoRoute, type RestInput, type RestRouter, type RestUser } from "../http/rest.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { listArgs, pagedJson, pageOutOfRange, parseArgs, requestArgs, restBool, restIdList, restInt, type RestContext } from "../http/rest-args.ts";
import { audit } from "../http/rest-audit.ts";
import { roleCan } from "../../core/security/capabilities.ts";
import { normalizeSearch } from "../../core/domain/catalog/listing-query.ts";
import { escapeHtml } from "../../core/domain/text/html.ts";
import { plainText } from "../../core/domain/text/kses.ts";
import { COMMENT_LIMITS } from "../../core/domain/comments/comments.ts";
import { findCustomerProfile } from "../../core/db/repositories/customers.ts";
import { reviewableProduct } from "../../core/db/repositories/reviews.ts";
import {
  commentItem,
  deleteBlogComment,
  findBlogComment,
  findContent,
  insertBlogComment,
  listBlogComments,
  updateBlogComment,
  type BlogComment,
} from "../../core/db/repositories/content.ts";
import { readSiteOptions } from "../../core/commerce/site-options.ts";
import { localDate } from "./content-shapes.ts";

/** WordPress's REST names of the statuses (`hold` is our `pending`). */
const TO_REST: Record<string, string> = { approved: "approved", pending: "hold", spam: "spam", trash: "trash" };
const FROM_REST: Record<string, string> = {
  approved: "approved",
  approve: "approved",
  "1": "approved",
  hold: "pending",
  "0": "pending",
  spam: "spam",
  trash: "trash",
};

const origin = (input: RestInput) => `${input.req.protocol}://${input.req.get("host")}`;
const moderator = (user: RestUser | null) => Boolean(user && roleCan(user.role, "moderate_comments"));
const refuse = (user: RestUser | null, code: string, message: string) => restError(code, message, user ? 403 : 401);
const invalidComment = () => restError("rest_comment_invalid_id", "Invalid comment ID.", 404);

function commentShape(c: BlogComment, o: string, context: RestContext, timeZone: string): Record<string, unknown> {
  const rendered = `<p>${escapeHtml(c.content)}</p>\n`;
  const links = {
    self: [{ href: `${o}/wp-json/wp/v2/comments/${c.id}` }],
    collection: [{ href: `${o}/wp-json/wp/v2/comments` }],
    up: [
      c.postType === "product"
        ? { embeddable: true, post_type: "product", href: `${o}/wp-json/wc/v3/products/${c.postId}` }
        : { embeddable: true, post_type: "post", href: `${o}/wp-json/wp/v2/posts/${c.postId}` },
    ],
    ...(c.parentId ? { "in-reply-to": [{ embeddable: true, href: `${o}/wp-json/wp/v2/comments/${c.parentId}` }] } : {}),
  };
  const base = {
    id: c.id,
    author: c.customerId ?? 0,
    author_name: c.author,
    author_url: "",
    date: localDate(c.createdAt, timeZone),
    content: context === "edit" ? { raw: c.content, rendered } : { rendered },
    link: c.postType === "product" ? `${o}/product/${c.postSlug}/#comment-${c.id}` : `${o}/blog/${c.postSlug}/#comment-${c.id}`,
    type: "comment",
    author_avatar_urls: {},
  };
  if (context === "embed") return { ...base, parent: c.parentId ?? 0, _links: links };
  return {
    ...base,
    post: c.postId,
    parent: c.parentId ?? 0,
    ...(context === "edit" ? { author_email: c.email, author_ip: "", author_user_agent: "" } : {}),
    date_gmt: c.createdAt.toISOString().slice(0, 19),
    status: TO_REST[c.status] ?? c.status,
    meta: [],
    _links: links,
  };
}

const statusArg = () => z.string().refine((s) => s in FROM_REST, "is not one of approved, hold, spam, trash");

const listSchema = z.object({
  ...listArgs,
  orderby: z.enum(["date", "date_gmt", "id", "include", "post", "parent", "type"]).default("date_gmt"),
  include: restIdList().optional(),
  exclude: restIdList().optional(),
  post: restIdList().optional(),
  parent: z.preprocess((v) => (typeof v === "string" ? v.split(",") : v), z.array(restInt(0)).max(100)).optional(),
  author_email: z.email().max(254).optional(),
  status: z.enum(["approve", "approved", "hold", "spam", "trash", "all"]).default("approve"),
  type: z.literal("comment", { message: "is not comment (reviews are products/reviews)" }).default("comment"),
});

const writeSchema = z.object({
  post: restInt(1).optional(),
  parent: restInt(0).optional(),
  content: z.preprocess((v) => (v && typeof v === "object" && "raw" in v ? (v as { raw: unknown }).raw : v), z.string().max(COMMENT_LIMITS.content)).optional(),
  author_name: z.string().max(COMMENT_LIMITS.author).optional(),
  author_email: z.email().max(COMMENT_LIMITS.email).optional(),
  status: statusArg().optional(),
});

async function timeZone(input: RestInput) {
  return (await readSiteOptions(input.services.db, input.services.config)).timezone;
}

async function target(input: RestInput): Promise<BlogComment | Reply> {
  const raw = input.pathParams.id ?? "";
  if (!/^\d{1,9}$/.test(raw)) return restNoRoute();
  return (await findBlogComment(input.services.db, Number(raw))) ?? invalidComment();
}

async function list(input: RestInput): Promise<Reply> {
  const parsed = parseArgs(listSchema, requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  const args = parsed.data;
  const user = await input.user();
  const mod = moderator(user);
  if (args.context === "edit" && !mod) return refuse(user, "rest_forbidden_context", "Sorry, you are not allowed to edit comments.");
  if (!["approve", "approved"].includes(args.status) && !mod) return refuse(user, "rest_forbidden_param", "Query parameter not permitted: status");
  if (args.author_email && !mod) return refuse(user, "rest_forbidden_param", "Query parameter not permitted: author_email");
  if (args.orderby === "include" && !args.include?.length)
    return restError("rest_orderby_include_missing_include", "You need to define an include parameter to order by include.", 400);
  const statuses = args.status === "all" ? ["approved", "pending"] : [FROM_REST[args.status]!];
  const { items, total } = await listBlogComments(input.services.db, {
    statuses,
    publishedPostsOnly: !mod,
    search: normalizeSearch(args.search) ?? undefined,
    posts: args.post,
    parents: args.parent,
    include: args.include,
    exclude: args.exclude,
    authorEmail: args.author_email,
    orderby: args.orderby === "type" ? "date_gmt" : args.orderby,
    order: args.order,
    limit: args.per_page,
    offset: args.offset ?? (args.page - 1) * args.per_page,
  });
  const outOfRange = args.offset === undefined ? pageOutOfRange(total, args.page, args.per_page) : null;
  if (outOfRange) return outOfRange;
  const o = origin(input);
  const tz = await timeZone(input);
  return pagedJson(
    input.req,
    items.map((c) => commentShape(c, o, args.context, tz)),
    total,
    args.page,
    args.per_page,
  );
}

async function read(input: RestInput): Promise<Reply> {
  const parsed = parseArgs(z.object({ context: listArgs.context }), requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  const c = await target(input);
  if (isReply(c)) return c;
  const user = await input.user();
  const mod = moderator(user);
  if ((c.status !== "approved" || c.postStatus !== "publish") && !mod)
    return refuse(user, "rest_cannot_read", "Sorry, you are not allowed to read this comment.");
  if (parsed.data.context === "edit" && !mod) return refuse(user, "rest_forbidden_context", "Sorry, you are not allowed to edit comments.");
  return json(commentShape(c, origin(input), parsed.data.context, await timeZone(input)));
}

async function create(input: RestInput): Promise<Reply> {
  const user = await input.user();
  if (!user) return restError("rest_comment_login_required", "Sorry, you must be logged in to comment.", 401);
  const staff = await staffUser(input, "moderate_comments", { code: "rest_cannot_create", message: "Sorry, you are not allowed to create this comment." });
  if (isReply(staff)) return staff;
  const parsed = parseArgs(writeSchema.extend({ post: restInt(1), content: writeSchema.shape.content.unwrap() }), requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  const args = parsed.data;
  const db = input.services.db;
  // A blog post, or a product (products and posts share one id space, as in WordPress): on a product the comment is a
  // reply to one of its reviews (WooCommerce's reply from the admin), so it needs a parent there.
  const post = await findContent(db, args.post);
  const product = post ? null : await reviewableProduct(db, args.post);
  if (!product && (!post || post.type !== "post"))
    return restError("rest_comment_invalid_post_id", "Sorry, you are not allowed to create this comment without a post.", 403);
  const itemId = product ? product.id : post!.id;
  let parentId: number | null = null;
  if (args.parent) {
    const parent = await commentItem(db, args.parent);
    if (!parent || parent.itemId !== itemId || parent.onProduct !== Boolean(product))
      return restError("rest_comment_invalid_parent_id", "Invalid comment parent ID.", 400);
    parentId = parent.id;
  } else if (product) {
    return restError("rest_comment_invalid_parent_id", "A comment on a product is a reply to one of its reviews: give the review as its parent.", 400, {
      params: { parent: "parent is required for a comment on a product." },
    });
  }
  const content = plainText(args.content);
  if (!content) return restError("rest_comment_content_invalid", "Invalid comment content.", 400);
  const profile = await findCustomerProfile(db, staff.id);
  const values = {
    postId: itemId,
    onProduct: Boolean(product),
    parentId,
    customerId: staff.id,
    author:
      plainText(args.author_name ?? "") || profile?.displayName || [profile?.firstName, profile?.lastName].filter(Boolean).join(" ") || `user-${staff.id}`,
    email: args.author_email ?? profile?.email ?? "",
    content,
    status: args.status ? FROM_REST[args.status]! : "approved",
    at: input.services.now(),
  };
  const id = await db.transaction(async (trx) => {
    const id = await insertBlogComment(trx, values);
    await audit(
      input,
      staff,
      { action: "create", objectType: "comment", objectId: id, changes: { post: itemId, parent: parentId, status: values.status, content } },
      trx,
    );
    return id;
  });
  const created = (await findBlogComment(db, id))!;
  return json(commentShape(created, origin(input), "edit", await timeZone(input)), 201, { Location: `${origin(input)}/wp-json/wp/v2/comments/${id}` });
}

async function update(input: RestInput): Promise<Reply> {
  const staff = await staffUser(input, "moderate_comments", { code: "rest_cannot_edit", message: "Sorry, you are not allowed to edit this comment." });
  if (isReply(staff)) return staff;
  const c = await target(input);
  if (isReply(c)) return c;
  const parsed = parseArgs(writeSchema, requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  const args = parsed.data;
  if (args.post !== undefined && args.post !== c.postId)
    return restError("rest_comment_invalid_post_id", "Sorry, you are not allowed to move this comment to another post.", 403);
  if (args.parent !== undefined && args.parent !== (c.parentId ?? 0)) return restError("rest_comment_invalid_parent_id", "Invalid comment parent ID.", 400);
  const values: { status?: string; content?: string; author?: string; author_email?: string } = {};
  if (args.status !== undefined) values.status = FROM_REST[args.status]!;
  if (args.content !== undefined) {
    values.content = plainText(args.content);
    if (!values.content) return restError("rest_comment_content_invalid", "Invalid comment content.", 400);
  }
  if (args.author_name !== undefined) values.author = plainText(args.author_name);
  if (args.author_email !== undefined) values.author_email = args.author_email;
  const before: Record<string, unknown> = { status: c.status, content: c.content, author: c.author, author_email: c.email };
  const db = input.services.db;
  await db.transaction(async (trx) => {
    await updateBlogComment(trx, c.id, values);
    await audit(
      input,
      staff,
      {
        action: "update",
        objectType: "comment",
        objectId: c.id,
        changes: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { from: before[k], to: v }])),
      },
      trx,
    );
  });
  return json(commentShape((await findBlogComment(db, c.id))!, origin(input), "edit", await timeZone(input)));
}

async function remove(input: RestInput): Promise<Reply> {
  const staff = await staffUser(input, "moderate_comments", { code: "rest_cannot_delete", message: "Sorry, you are not allowed to delete this comment." });
  if (isReply(staff)) return staff;
  const c = await target(input);
  if (isReply(c)) return c;
  const parsed = parseArgs(z.object({ force: restBool().default(false) }), requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  const db = input.services.db;
  const o = origin(input);
  const tz = await timeZone(input);
  if (parsed.data.force) {
    const previous = commentShape(c, o, "edit", tz);
    await db.transaction(async (trx) => {
      await deleteBlogComment(trx, c.id);
      await audit(input, staff, { action: "delete", objectType: "comment", objectId: c.id, changes: { post: c.postId, status: c.status } }, trx);
    });
    return json({ deleted: true, previous });
  }
  if (c.status === "trash") return restError("rest_already_trashed", "The comment has already been trashed.", 410);
  await db.transaction(async (trx) => {
    await updateBlogComment(trx, c.id, { status: "trash" });
    await audit(input, staff, { action: "trash", objectType: "comment", objectId: c.id, changes: { status: { from: c.status, to: "trash" } } }, trx);
  });
  return json(commentShape((await findBlogComment(db, c.id))!, o, "edit", tz));
}

export function registerCommentRoutes(rest: RestRouter): void {
  rest.register("GET", "wp/v2/comments", list);
  rest.register("POST", "wp/v2/comments", create);
  rest.register("GET", "wp/v2/comments/:id", read);
  for (const method of ["POST", "PUT", "PATCH"]) rest.register(method, "wp/v2/comments/:id", update);
  rest.register("DELETE", "wp/v2/comments/:id", remove);
}
