/**
 * The blog and site content over WordPress's REST routes (docs/contract/rest/content.md): `wp/v2/posts`,
 * `wp/v2/pages`, `wp/v2/categories`, `wp/v2/tags`, `wp/v2/types`, `wp/v2/taxonomies`, `wp/v2/settings` and
 * `wp/v2/comments` (content-comments.ts).
 * Anyone reads what is published; staff (edit_posts, manage_categories, manage_options) see drafts, `context=edit`
 * and write. Every write is audited and shows on the storefront at once (it reads the same rows).
 */
import { ancestorIds } from "../../core/db/repositories/taxonomies.ts";
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, restNoRoute, type RestInput, type RestUser } from "../http/rest.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { ifMatchOf, listArgs, pagedJson, pageOutOfRange, parseArgs, requestArgs, restBool, restInt, restIdList, type RestContext } from "../http/rest-args.ts";
import { audit } from "../http/rest-audit.ts";
import type { Endpoints, Feature } from "./feature.ts";
import { roleCan, type Capability } from "../../core/security/capabilities.ts";
import { normalizeSearch } from "../../core/domain/catalog/listing-query.ts";
import { plainText, sanitizePostHtml, slugify } from "../../core/domain/text/kses.ts";
import { readSiteOptions, siteOptionsSchema, writeSiteOptions, type SiteOptions } from "../../core/commerce/site-options.ts";
import {
  authorNames,
  deleteContent,
  deleteTerm,
  existingTermIds,
  findContent,
  findTerm,
  findTermBy,
  insertContent,
  insertTerm,
  isUniqueViolation,
  listContent,
  listTerms,
  lockContentModified,
  mediaByIds,
  publishDueContent,
  setContentTerms,
  uniquePostSlug,
  updateContent,
  updateTerm,
  type BlogTaxonomy,
  type ContentRow,
  type ContentType,
  type ContentValues,
  type TermValues,
} from "../../core/db/repositories/content.ts";
import { lockKey } from "../../core/db/repositories/locks.ts";
import type { Queryable } from "../../core/db/client.ts";
import {
  attachmentEmbed,
  authorEmbed,
  fromLocalDate,
  postShape,
  taxonomiesOfType,
  taxonomyShape,
  termShape,
  TAXONOMY_SLUGS,
  TYPE_SLUGS,
  typeShape,
  type ShapeContext,
} from "./content-shapes.ts";
import type { AppServices } from "../services.ts";
import { registerCommentRoutes } from "./content-comments.ts";

export const contentFeature: Feature = {
  name: "content",
  endpoints: registerContentEndpoints,
  start: async ({ services }) => scheduleFuturePublishing(services),
};

/** How often scheduled posts are looked at: a `future` post shows at most this late (WordPress's cron is per request). */
const PUBLISH_DUE_EVERY_MS = 10_000;

/** Publishes scheduled posts when their date comes; every process runs it (the UPDATE is idempotent). */
function scheduleFuturePublishing(services: AppServices): () => Promise<void> {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = publishDueContent(services.db, services.now())
      .then((ids) => {
        if (ids.length) services.logger.info("scheduled posts published", { ids });
      })
      .catch((error: unknown) => services.logger.warn("publishing scheduled posts failed", { error: (error as Error).message }))
      .finally(() => (running = null));
  }, PUBLISH_DUE_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

const STATUSES = ["publish", "future", "draft", "pending", "private", "trash"] as const;
const FORMATS = ["standard", "aside", "chat", "gallery", "link", "image", "quote", "status", "video", "audio"] as const;
const REST_BASE: Record<ContentType, string> = { post: "posts", page: "pages" };
const EDIT_CAP: Record<ContentType, Capability> = { post: "edit_posts", page: "edit_pages" };
/** The storefront's own first path segments (app/routes.ts, the server's entry points): a page there could never be reached. */
const RESERVED_PAGE_SLUGS = new Set([
  "shop",
  "cart",
  "checkout",
  "my-account",
  "blog",
  "live",
  "product",
  "product-category",
  "change-country",
  "newsletter",
  "media",
  "page",
]);

const origin = (input: RestInput) => `${input.req.protocol}://${input.req.get("host")}`;
const invalidPost = () => restError("rest_post_invalid_id", "Invalid post ID.", 404);
const can = (user: RestUser | null, capability: Capability) => Boolean(user && roleCan(user.role, capability));
/** WordPress's status for a refusal: 401 to a guest, 403 to a signed-in user. */
const refuse = (user: RestUser | null, code: string, message: string) => restError(code, message, user ? 403 : 401);

/** `a,b` or `a[]=..`: a list of short strings. */
const stringList = (max = 100) =>
  z.preprocess(
    (v) => (typeof v === "string" ? (v === "" ? [] : v.split(",")) : v),
    z
      .array(
        z
          .string()
          .trim()
          .min(1)
          .max(200)
          .regex(/^\P{Cc}*$/u, "must not contain control characters"),
      )
      .max(max),
  );
const idList0 = () => z.preprocess((v) => (typeof v === "string" ? (v === "" ? [] : v.split(",")) : v), z.array(restInt(0)).max(100));
const isoDate = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/, "is not a valid date")
    .refine((s) => !Number.isNaN(new Date(s.replace(" ", "T")).getTime()), "is not a valid date");
/** `{raw: "…"}` or a string, as WordPress takes title, content and excerpt. */
const rawText = (max: number) =>
  z.preprocess((v) => (v && typeof v === "object" && !Array.isArray(v) && "raw" in v ? (v as { raw: unknown }).raw : v), z.string().max(max));

/** The `_embed` request: absent, everything, or the named relations. */
function embedRels(input: RestInput): Set<string> | "all" | null {
  const raw = input.query._embed;
  if (raw === undefined) return null;
  const names = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === "string" ? v.split(",") : [])).filter((v) => v && v !== "1" && v !== "true");
  return names.length ? new Set(names) : "all";
}

function splitDate(args: { date?: string | null | undefined; date_gmt?: string | null | undefined }, timeZone: string): Date | undefined {
  const hasOffset = (s: string) => /(Z|[+-]\d{2}:?\d{2})$/.test(s);
  if (args.date_gmt) return new Date(hasOffset(args.date_gmt) ? args.date_gmt.replace(" ", "T") : `${args.date_gmt.replace(" ", "T")}Z`);
  if (args.date) return hasOffset(args.date) ? new Date(args.date.replace(" ", "T")) : fromLocalDate(args.date.replace(" ", "T"), timeZone);
  return undefined;
}

// ---- posts and pages ----

function contentListSchema(type: ContentType) {
  return z.object({
    ...listArgs,
    orderby: z
      .enum([
        "author",
        "date",
        "id",
        "include",
        "modified",
        "parent",
        "relevance",
        "slug",
        "include_slugs",
        "title",
        ...(type === "page" ? (["menu_order"] as const) : []),
      ])
      .default("date"),
    include: restIdList().optional(),
    exclude: restIdList().optional(),
    slug: stringList().optional(),
    status: z.preprocess((v) => (typeof v === "string" ? v.split(",") : v), z.array(z.enum([...STATUSES, "any"])).min(1)).default(["publish"]),
    author: restIdList().optional(),
    after: isoDate().optional(),
    before: isoDate().optional(),
    ...(type === "post"
      ? {
          categories: restIdList().optional(),
          categories_exclude: restIdList().optional(),
          tags: restIdList().optional(),
          tags_exclude: restIdList().optional(),
          sticky: restBool().optional(),
        }
      : { parent: idList0().optional(), menu_order: restInt(-1_000_000, 1_000_000).optional() }),
  });
}

function contentWriteSchema(type: ContentType) {
  return z.object({
    id: restInt(0).optional(),
    title: rawText(1000).optional(),
    content: rawText(900_000).optional(),
    excerpt: rawText(5000).optional(),
    status: z.enum(["publish", "future", "draft", "pending", "private"]).optional(),
    slug: z.string().max(200).optional(),
    date: isoDate().nullable().optional(),
    date_gmt: isoDate().nullable().optional(),
    author: restInt(1).optional(),
    featured_media: restInt(0).optional(),
    comment_status: z.enum(["open", "closed"]).optional(),
    ping_status: z.enum(["open", "closed"]).optional(),
    template: z.literal("", { message: "is not a template of the theme" }).optional(),
    password: z.literal("", { message: "is not supported (password-protected content)" }).optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
    ...(type === "post"
      ? {
          sticky: restBool().optional(),
          format: z.enum(FORMATS).optional(),
          categories: restIdList(1000).optional(),
          tags: restIdList(1000).optional(),
        }
      : { parent: restInt(0).optional(), menu_order: restInt(-1_000_000, 1_000_000).optional() }),
  });
}
type ContentWrite = z.output<ReturnType<typeof contentWriteSchema>> & {
  sticky?: boolean;
  format?: string;
  categories?: number[];
  tags?: number[];
  parent?: number;
  menu_order?: number;
};

interface ContentCtx {
  input: RestInput;
  type: ContentType;
  options: SiteOptions;
}

async function shapeAll(ctx: ContentCtx, rows: ContentRow[], context: RestContext): Promise<Record<string, unknown>[]> {
  const { input, options } = ctx;
  const shapeCtx: ShapeContext = { origin: origin(input), context, timeZone: options.timezone };
  const shaped = rows.map((r) => postShape(r, shapeCtx));
  const rels = embedRels(input);
  if (!rels) return shaped;
  const wants = (rel: string) => rels === "all" || rels.has(rel);
  const db = input.services.db;
  const [names, media] = await Promise.all([
    wants("author") ? authorNames(db, [...new Set(rows.flatMap((r) => (r.authorId ? [r.authorId] : [])))]) : new Map<number, string>(),
    wants("wp:featuredmedia") ? mediaByIds(db, [...new Set(rows.flatMap((r) => (r.imageId ? [r.imageId] : [])))]) : [],
  ]);
  const termIds = wants("wp:term") ? [...new Set(rows.flatMap((r) => [...r.terms.category, ...r.terms.post_tag]))] : [];
  const terms = termIds.length
    ? [
        ...(await listTerms(db, { taxonomy: "category", include: termIds, orderby: "name", order: "asc", limit: 1000, offset: 0 })).items,
        ...(await listTerms(db, { taxonomy: "post_tag", include: termIds, orderby: "name", order: "asc", limit: 1000, offset: 0 })).items,
      ]
    : [];
  const o = origin(input);
  return rows.map((row, i) => {
    const embedded: Record<string, unknown> = {};
    if (row.authorId && names.has(row.authorId)) embedded.author = [authorEmbed(row.authorId, names.get(row.authorId)!, o)];
    const image = media.find((m) => m.id === row.imageId);
    if (image) embedded["wp:featuredmedia"] = [attachmentEmbed(image, o)];
    if (row.type === "post" && wants("wp:term")) {
      embedded["wp:term"] = (["category", "post_tag"] as const).map((tax) =>
        terms.filter((t) => t.taxonomy === tax && row.terms[tax].includes(t.id)).map((t) => termShape(t, { origin: o, context: "embed" })),
      );
    }
    return Object.keys(embedded).length ? { ...shaped[i]!, _embedded: embedded } : shaped[i]!;
  });
}

async function listContentRoute(input: RestInput, type: ContentType): Promise<Reply> {
  const parsed = parseArgs(contentListSchema(type), requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  const args = parsed.data as z.output<ReturnType<typeof contentListSchema>> & Record<string, unknown>;
  const user = await input.user();
  const editor = can(user, EDIT_CAP[type]);
  if (args.context === "edit" && !editor) return refuse(user, "rest_forbidden_context", "Sorry, you are not allowed to edit posts in this post type.");
  let statuses: string[] = args.status.includes("any") ? ["publish", "future", "draft", "pending", "private"] : args.status;
  if (statuses.some((s) => s !== "publish") && !editor) return refuse(user, "rest_forbidden_status", "Status is forbidden.");
  statuses = [...new Set(statuses)];
  // The listing's search rule: control characters (PostgreSQL refuses NUL) and runs of white space go.
  const search = normalizeSearch(args.search) ?? undefined;
  if (args.orderby === "relevance" && !search) return restError("rest_no_search_term_defined", "You need to define a search term to order by relevance.", 400);
  if (args.orderby === "include" && !args.include?.length)
    return restError("rest_orderby_include_missing_include", "You need to define an include parameter to order by include.", 400);
  const termSets: number[][] = [];
  const excludeTerms: number[] = [];
  if (type === "post") {
    if (Array.isArray(args.categories) && args.categories.length) termSets.push(args.categories as number[]);
    if (Array.isArray(args.tags) && args.tags.length) termSets.push(args.tags as number[]);
    excludeTerms.push(...((args.categories_exclude as number[] | undefined) ?? []), ...((args.tags_exclude as number[] | undefined) ?? []));
  }
  const offset = args.offset ?? (args.page - 1) * args.per_page;
  const { items, total } = await listContent(input.services.db, {
    type,
    statuses,
    search,
    include: args.include,
    exclude: args.exclude,
    slugs: args.slug,
    authors: args.author,
    parents: type === "page" ? (args.parent as number[] | undefined) : undefined,
    termSets,
    excludeTerms,
    sticky: type === "post" ? (args.sticky as boolean | undefined) : undefined,
    menuOrder: type === "page" ? (args.menu_order as number | undefined) : undefined,
    after: args.after ? new Date(args.after.replace(" ", "T")) : undefined,
    before: args.before ? new Date(args.before.replace(" ", "T")) : undefined,
    orderby: args.orderby,
    order: args.order,
    limit: args.per_page,
    offset,
  });
  const outOfRange = args.offset === undefined ? pageOutOfRange(total, args.page, args.per_page) : null;
  if (outOfRange) return outOfRange;
  const options = await readSiteOptions(input.services.db, input.services.config);
  return pagedJson(input.req, await shapeAll({ input, type, options }, items, args.context), total, args.page, args.per_page);
}

/** The post or page the path names, or WordPress's answer: no route for a non-number, 404 for an unknown id. */
async function targetContent(input: RestInput, type: ContentType): Promise<ContentRow | Reply> {
  const raw = input.pathParams.id ?? "";
  if (!/^\d{1,10}$/.test(raw)) return restNoRoute();
  const row = Number(raw) <= 2_147_483_647 ? await findContent(input.services.db, Number(raw)) : null;
  return row && row.type === type ? row : invalidPost();
}

/**
 * A post's or page's version: its modified time (ms). Answered as `ETag` by a single read and a write; an update sent
 * with `If-Match` and an older version is refused (412 `rest_post_changed`): two editors never overwrite each other
 * (docs/contract/rest/content.md 'Two editors').
 */
const contentVersion = (modified: Date) => String(modified.getTime());
const versionHeader = (row: { modifiedAt: Date }) => ({ ETag: `"${contentVersion(row.modifiedAt)}"` });
class ContentChanged extends Error {}

async function getContentRoute(input: RestInput, type: ContentType): Promise<Reply> {
  const parsed = parseArgs(z.object({ context: listArgs.context }), requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  const row = await targetContent(input, type);
  if (isReply(row)) return row;
  const user = await input.user();
  const editor = can(user, EDIT_CAP[type]);
  // Drafts, private and trashed posts are for staff only (WordPress's check_read_permission).
  if (row.status !== "publish" && !editor) return refuse(user, "rest_forbidden", "Sorry, you are not allowed to do that.");
  if (parsed.data.context === "edit" && !editor) return refuse(user, "rest_forbidden_context", "Sorry, you are not allowed to edit this post.");
  const options = await readSiteOptions(input.services.db, input.services.config);
  return json((await shapeAll({ input, type, options }, [row], parsed.data.context))[0], 200, editor ? versionHeader(row) : undefined);
}

/** Checks what a write names (author, image, terms, parent) and turns it into column values. */
async function contentValues(
  ctx: ContentCtx,
  user: RestUser,
  args: ContentWrite,
  current: ContentRow | null,
): Promise<{ values: Partial<ContentValues>; slugWanted?: string; categories?: number[]; tags?: number[] } | Reply> {
  const { input, type, options } = ctx;
  const db = input.services.db;
  const values: Partial<ContentValues> = {};
  const invalid = (name: string, message: string) => restError("rest_invalid_param", `Invalid parameter(s): ${name}`, 400, { params: { [name]: message } });
  if (args.title !== undefined) values.title = plainText(args.title);
  if (args.content !== undefined) values.content = sanitizePostHtml(args.content);
  if (args.excerpt !== undefined) values.excerpt = plainText(args.excerpt);
  if (!current && !values.title && !values.content && !values.excerpt) return restError("empty_content", "Content, title, and excerpt are empty.", 400);
  if (args.status !== undefined) {
    if (["publish", "future", "private"].includes(args.status) && args.status !== current?.status && !can(user, "publish_posts"))
      return refuse(user, "rest_cannot_publish", "Sorry, you are not allowed to publish posts in this post type.");
    values.status = args.status;
  }
  if (args.author !== undefined && args.author !== (current?.authorId ?? user.id)) {
    if (!can(user, "edit_others_posts")) return refuse(user, "rest_cannot_edit_others", "Sorry, you are not allowed to update posts as this user.");
    const names = await authorNames(db, [args.author]);
    if (!names.has(args.author)) return restError("rest_invalid_author", "Invalid author ID.", 400);
    values.author_id = args.author;
    values.author = names.get(args.author)!;
  }
  if (args.featured_media !== undefined) {
    if (args.featured_media === 0) values.image_id = null;
    else if ((await mediaByIds(db, [args.featured_media])).length === 0) return restError("rest_invalid_featured_media", "Invalid featured media ID.", 400);
    else values.image_id = args.featured_media;
  }
  if (args.comment_status !== undefined) values.comment_status = args.comment_status;
  if (args.ping_status !== undefined) values.ping_status = args.ping_status;
  if (args.template !== undefined) values.template = args.template;
  const date = splitDate(args, options.timezone);
  if (date) values.published_at = date;
  let categories: number[] | undefined;
  let tags: number[] | undefined;
  if (type === "post") {
    if (args.sticky !== undefined) values.sticky = args.sticky;
    if (args.format !== undefined) values.format = args.format;
    for (const [name, taxonomy] of [
      ["categories", "category"],
      ["tags", "post_tag"],
    ] as const) {
      const ids = args[name];
      if (ids === undefined) continue;
      const found = await existingTermIds(db, taxonomy, ids);
      const missing = ids.filter((id) => !found.includes(id));
      if (missing.length) return invalid(name, `${name}[${ids.indexOf(missing[0]!)}] is not a term of ${taxonomy}`);
      if (name === "categories") categories = ids;
      else tags = ids;
    }
  } else {
    if (args.menu_order !== undefined) values.menu_order = args.menu_order;
    if (args.parent !== undefined) {
      if (args.parent === 0) values.parent_id = null;
      else {
        // A parent must be another page, and not one of this page's descendants.
        let at: ContentRow | null = await findContent(db, args.parent);
        if (!at || at.type !== "page") return restError("rest_post_invalid_id", "Invalid post parent ID.", 400);
        for (let depth = 0; at && depth < 100; depth++) {
          if (current && at.id === current.id) return restError("rest_post_invalid_id", "Invalid post parent ID.", 400);
          at = at.parentId ? await findContent(db, at.parentId) : null;
        }
        values.parent_id = args.parent;
      }
    }
  }
  // WordPress's scheduling: published with a date to come is `future` (shown when the date comes), a `future` date
  // already past is published.
  if (values.status !== undefined || values.published_at !== undefined) {
    const now = input.services.now();
    const status = values.status ?? current?.status ?? "draft";
    const when = values.published_at ?? current?.publishedAt ?? now;
    if (status === "publish" && when > now) values.status = "future";
    else if (status === "future" && when <= now) values.status = "publish";
  }
  // A slug is unique among posts and pages; one from the title when none is given (wp_unique_post_slug).
  // The free one is chosen again inside the write's transaction, under a lock (chooseSlug): two writers at once.
  let slugWanted: string | undefined;
  if (args.slug !== undefined || !current) {
    const wanted = slugify(args.slug ?? "") || slugify(values.title ?? current?.title ?? "") || (current?.slug ?? type);
    slugWanted = type === "page" && RESERVED_PAGE_SLUGS.has(wanted) ? `${wanted}-2` : wanted;
    values.slug = slugWanted;
  }
  return { values, ...(slugWanted ? { slugWanted } : {}), ...(categories ? { categories } : {}), ...(tags ? { tags } : {}) };
}

/**
 * `wanted`, or the first free `wanted-2`, `wanted-3` …, chosen inside the writing transaction under one lock for all
 * post and page slugs, so writers at the same moment each get their own (the unique index stays the backstop).
 */
async function chooseSlug(trx: Queryable, wanted: string, exceptId?: number): Promise<string> {
  await lockKey(trx, "posts.slug");
  return uniquePostSlug(trx, wanted, exceptId);
}

const changesOf = (before: Record<string, unknown> | null, after: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(after).map((k) => [k, before ? { from: before[k] ?? null, to: after[k] } : after[k]]));

async function createContentRoute(input: RestInput, type: ContentType): Promise<Reply> {
  const user = await staffUser(input, EDIT_CAP[type], { code: "rest_cannot_create", message: "Sorry, you are not allowed to create posts as this user." });
  if (isReply(user)) return user;
  const parsed = parseArgs(contentWriteSchema(type), requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  const args = parsed.data as ContentWrite;
  if (args.id) return restError("rest_post_exists", "Cannot create existing post.", 400);
  const { db, config } = input.services;
  const options = await readSiteOptions(db, config);
  const ctx: ContentCtx = { input, type, options };
  const checked = await contentValues(ctx, user, args, null);
  if (isReply(checked)) return checked;
  const now = input.services.now();
  const author = checked.values.author ?? (await authorNames(db, [user.id])).get(user.id) ?? `user-${user.id}`;
  const values: ContentValues = {
    slug: checked.values.slug!,
    title: checked.values.title ?? "",
    excerpt: checked.values.excerpt ?? "",
    content: checked.values.content ?? "",
    author,
    author_id: checked.values.author_id ?? user.id,
    status: checked.values.status ?? "draft",
    image_id: checked.values.image_id ?? null,
    published_at: checked.values.published_at ?? now,
    modified_at: now,
    comment_status: checked.values.comment_status ?? options.default_comment_status,
    ping_status: checked.values.ping_status ?? options.default_ping_status,
    parent_id: checked.values.parent_id ?? null,
    menu_order: checked.values.menu_order ?? 0,
    sticky: checked.values.sticky ?? false,
    format: checked.values.format ?? "standard",
    template: checked.values.template ?? "",
  };
  // A post is always in a category: the site's default one when none is named (WordPress's default_category).
  const categories = type === "post" ? (checked.categories?.length ? checked.categories : await defaultCategory(input.services, options)) : undefined;
  return insertNewContent(input, ctx, user, values, categories, checked.tags);
}

async function insertNewContent(
  input: RestInput,
  ctx: ContentCtx,
  user: RestUser,
  values: ContentValues,
  categories: number[] | undefined,
  tags: number[] | undefined,
): Promise<Reply> {
  const { type } = ctx;
  const db = input.services.db;
  const id = await db.transaction(async (trx) => {
    values.slug = await chooseSlug(trx, values.slug);
    const id = await insertContent(trx, type, values);
    if (categories) await setContentTerms(trx, id, "category", categories);
    if (tags) await setContentTerms(trx, id, "post_tag", tags);
    await audit(input, user, { action: "create", objectType: type, objectId: id, changes: { ...values, categories, tags } }, trx);
    return id;
  });
  const row = (await findContent(db, id))!;
  const body = (await shapeAll(ctx, [row], "edit"))[0];
  return json(body, 201, { Location: `${origin(input)}/wp-json/wp/v2/${REST_BASE[type]}/${id}` });
}

async function defaultCategory(services: AppServices, options: SiteOptions): Promise<number[]> {
  if (options.default_category && (await existingTermIds(services.db, "category", [options.default_category])).length) return [options.default_category];
  const id = await findTermBy(services.db, "category", { slug: "uncategorized" });
  return id ? [id] : [];
}

async function updateContentRoute(input: RestInput, type: ContentType): Promise<Reply> {
  const user = await staffUser(input, EDIT_CAP[type], { code: "rest_cannot_edit", message: "Sorry, you are not allowed to edit this post." });
  if (isReply(user)) return user;
  const row = await targetContent(input, type);
  if (isReply(row)) return row;
  const parsed = parseArgs(contentWriteSchema(type), requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  const { db, config } = input.services;
  const options = await readSiteOptions(db, config);
  const ctx: ContentCtx = { input, type, options };
  const checked = await contentValues(ctx, user, parsed.data as ContentWrite, row);
  if (isReply(checked)) return checked;
  const values = { ...checked.values, modified_at: input.services.now() };
  const before: Record<string, unknown> = {
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    content: row.content,
    status: row.status,
    author_id: row.authorId,
    image_id: row.imageId,
    comment_status: row.commentStatus,
    ping_status: row.pingStatus,
    sticky: row.sticky,
    format: row.format,
    parent_id: row.parentId,
    menu_order: row.menuOrder,
    published_at: row.publishedAt,
    categories: row.terms.category,
    tags: row.terms.post_tag,
  };
  const ifMatch = ifMatchOf(input.req);
  try {
    await db.transaction(async (trx) => {
      // The version check and the write under the row's lock: of two saves from the same version, the second is refused.
      if (ifMatch !== undefined) {
        const modified = await lockContentModified(trx, row.id);
        if (!modified || contentVersion(modified) !== ifMatch) throw new ContentChanged();
      }
      if (checked.slugWanted) values.slug = checked.values.slug = await chooseSlug(trx, checked.slugWanted, row.id);
      await updateContent(trx, row.id, values);
      if (checked.categories) await setContentTerms(trx, row.id, "category", checked.categories);
      if (checked.tags) await setContentTerms(trx, row.id, "post_tag", checked.tags);
      const after = { ...checked.values, ...(checked.categories ? { categories: checked.categories } : {}), ...(checked.tags ? { tags: checked.tags } : {}) };
      await audit(input, user, { action: "update", objectType: type, objectId: row.id, changes: changesOf(before, after) }, trx);
    });
  } catch (error) {
    if (!(error instanceof ContentChanged)) throw error;
    const thing = type === "page" ? "page" : "post";
    return restError("rest_post_changed", `This ${thing} was changed since you opened it. Reload it to see the changes, then make yours again.`, 412);
  }
  const saved = (await findContent(db, row.id))!;
  return json((await shapeAll(ctx, [saved], "edit"))[0], 200, versionHeader(saved));
}

async function deleteContentRoute(input: RestInput, type: ContentType): Promise<Reply> {
  const user = await staffUser(input, "delete_posts", { code: "rest_cannot_delete", message: "Sorry, you are not allowed to delete this post." });
  if (isReply(user)) return user;
  const row = await targetContent(input, type);
  if (isReply(row)) return row;
  const parsed = parseArgs(z.object({ force: restBool().default(false) }), requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  const { db, config } = input.services;
  const options = await readSiteOptions(db, config);
  const ctx: ContentCtx = { input, type, options };
  const previous = (await shapeAll(ctx, [row], "edit"))[0];
  if (parsed.data.force) {
    await db.transaction(async (trx) => {
      await deleteContent(trx, row.id);
      await audit(
        input,
        user,
        { action: "delete", objectType: type, objectId: row.id, changes: { slug: row.slug, title: row.title, status: row.status } },
        trx,
      );
    });
    return json({ deleted: true, previous });
  }
  // Without force, WordPress moves posts and pages to the trash (status `trash`; the storefront shows only published ones).
  if (row.status === "trash") return restError("rest_already_trashed", "The post has already been deleted.", 410);
  await db.transaction(async (trx) => {
    await updateContent(trx, row.id, { status: "trash", modified_at: input.services.now() });
    await audit(input, user, { action: "trash", objectType: type, objectId: row.id, changes: { status: { from: row.status, to: "trash" } } }, trx);
  });
  return json((await shapeAll(ctx, [(await findContent(db, row.id))!], "edit"))[0]);
}

// ---- categories and tags ----

const TERM_BASE: Record<BlogTaxonomy, string> = { category: "categories", post_tag: "tags" };

function termListSchema(taxonomy: BlogTaxonomy) {
  return z.object({
    ...listArgs,
    order: z.enum(["asc", "desc"]).default("asc"),
    orderby: z.enum(["id", "include", "name", "slug", "include_slugs", "term_group", "description", "count"]).default("name"),
    include: restIdList().optional(),
    exclude: restIdList().optional(),
    slug: stringList().optional(),
    hide_empty: restBool().default(false),
    post: restInt(1).optional(),
    ...(taxonomy === "category" ? { parent: restInt(0).optional() } : {}),
  });
}

function termWriteSchema(taxonomy: BlogTaxonomy, creating: boolean) {
  return z.object({
    name: creating ? z.string().max(200) : z.string().max(200).optional(),
    description: z.string().max(5000).optional(),
    slug: z.string().max(200).optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
    ...(taxonomy === "category" ? { parent: restInt(0).optional() } : {}),
  });
}

async function targetTerm(input: RestInput, taxonomy: BlogTaxonomy) {
  const raw = input.pathParams.id ?? "";
  if (!/^\d{1,10}$/.test(raw)) return restNoRoute();
  const term = Number(raw) <= 2_147_483_647 ? await findTerm(input.services.db, taxonomy, Number(raw)) : null;
  return term ?? restError("rest_term_invalid", "Term does not exist.", 404);
}

async function listTermsRoute(input: RestInput, taxonomy: BlogTaxonomy): Promise<Reply> {
  const parsed = parseArgs(termListSchema(taxonomy), requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  const args = parsed.data as z.output<ReturnType<typeof termListSchema>> & { parent?: number };
  const user = await input.user();
  if (args.context === "edit" && !can(user, "manage_categories"))
    return refuse(user, "rest_forbidden_context", "Sorry, you are not allowed to edit terms in this taxonomy.");
  if (args.post !== undefined) {
    // Terms of a post the caller may not read answer as WordPress does.
    const post = await findContent(input.services.db, args.post);
    if (!post) return restError("rest_post_invalid_id", "Invalid post ID.", 400);
    if (post.status !== "publish" && !can(user, "edit_posts"))
      return refuse(user, "rest_forbidden_context", "Sorry, you are not allowed to view terms for this post.");
  }
  if (args.orderby === "include" && !args.include?.length)
    return restError("rest_orderby_include_missing_include", "You need to define an include parameter to order by include.", 400);
  const { items, total } = await listTerms(input.services.db, {
    taxonomy,
    search: normalizeSearch(args.search) ?? undefined,
    include: args.include,
    exclude: args.exclude,
    slugs: args.slug,
    parent: args.parent,
    post: args.post,
    hideEmpty: args.hide_empty,
    orderby: args.orderby,
    order: args.order,
    limit: args.per_page,
    offset: args.offset ?? (args.page - 1) * args.per_page,
  });
  const outOfRange = args.offset === undefined ? pageOutOfRange(total, args.page, args.per_page) : null;
  if (outOfRange) return outOfRange;
  const o = origin(input);
  return pagedJson(
    input.req,
    items.map((t) => termShape(t, { origin: o, context: args.context })),
    total,
    args.page,
    args.per_page,
  );
}

async function getTermRoute(input: RestInput, taxonomy: BlogTaxonomy): Promise<Reply> {
  const parsed = parseArgs(z.object({ context: listArgs.context }), requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  const term = await targetTerm(input, taxonomy);
  if (isReply(term)) return term;
  const user = await input.user();
  if (parsed.data.context === "edit" && !can(user, "manage_categories"))
    return refuse(user, "rest_forbidden_context", "Sorry, you are not allowed to edit this term.");
  return json(termShape(term, { origin: origin(input), context: parsed.data.context }));
}

interface TermWrite {
  name?: string | undefined;
  description?: string | undefined;
  slug?: string | undefined;
  parent?: number | undefined;
}

async function termValues(input: RestInput, taxonomy: BlogTaxonomy, args: TermWrite, current: { id: number; name: string; parentId: number | null } | null) {
  const db = input.services.db;
  const values: Partial<TermValues> = {};
  if (args.name !== undefined) {
    values.name = plainText(args.name);
    if (!values.name) return restError("rest_invalid_param", "Invalid parameter(s): name", 400, { params: { name: "name must not be empty" } });
  }
  if (args.description !== undefined) values.description = plainText(args.description);
  if (args.parent !== undefined) {
    if (args.parent === 0) values.parent_id = null;
    else {
      const parent = await findTerm(db, taxonomy, args.parent);
      if (!parent || (current && (await ancestorIds(db, args.parent)).includes(current.id)))
        return restError("rest_term_invalid", "Parent term does not exist.", 400);
      values.parent_id = args.parent;
    }
  }
  // WordPress's term_exists: the same name under the same parent is refused, and so is a slug in use.
  const name = values.name ?? current?.name;
  const parentId = values.parent_id !== undefined ? values.parent_id : (current?.parentId ?? null);
  if (name && (values.name !== undefined || values.parent_id !== undefined)) {
    const same = await findTermBy(db, taxonomy, { name, parentId });
    if (same !== null && same !== current?.id)
      return restError("term_exists", "A term with the name provided already exists with this parent.", 400, { term_id: same });
  }
  if (args.slug !== undefined || !current) {
    const explicit = slugify(args.slug ?? "");
    const base = explicit || slugify(name ?? "") || "term";
    let slug = base;
    for (let n = 2; ; n++) {
      const holder = await findTermBy(db, taxonomy, { slug });
      if (holder === null || holder === current?.id) break;
      if (explicit) return restError("duplicate_term_slug", `The slug “${explicit}” is already in use by another term.`, 400);
      slug = `${base}-${n}`;
    }
    values.slug = slug;
  }
  return values;
}

async function createTermRoute(input: RestInput, taxonomy: BlogTaxonomy): Promise<Reply> {
  const user = await staffUser(input, "manage_categories", {
    code: "rest_cannot_create",
    message: "Sorry, you are not allowed to create terms in this taxonomy.",
  });
  if (isReply(user)) return user;
  const parsed = parseArgs(termWriteSchema(taxonomy, true), requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  const values = await termValues(input, taxonomy, parsed.data as TermWrite, null);
  if (isReply(values)) return values;
  const full: TermValues = { name: values.name!, slug: values.slug!, description: values.description ?? "", parent_id: values.parent_id ?? null };
  const db = input.services.db;
  let id: number;
  try {
    id = await db.transaction(async (trx) => {
      const id = await insertTerm(trx, taxonomy, full);
      await audit(input, user, { action: "create", objectType: taxonomy, objectId: id, changes: { ...full } }, trx);
      return id;
    });
  } catch (error) {
    // Another writer took the slug between the check and the insert.
    if (!isUniqueViolation(error)) throw error;
    return restError("duplicate_term_slug", `The slug “${full.slug}” is already in use by another term.`, 400);
  }
  const term = (await findTerm(db, taxonomy, id))!;
  return json(termShape(term, { origin: origin(input), context: "edit" }), 201, { Location: `${origin(input)}/wp-json/wp/v2/${TERM_BASE[taxonomy]}/${id}` });
}

async function updateTermRoute(input: RestInput, taxonomy: BlogTaxonomy): Promise<Reply> {
  const user = await staffUser(input, "manage_categories", { code: "rest_cannot_update", message: "Sorry, you are not allowed to edit this term." });
  if (isReply(user)) return user;
  const term = await targetTerm(input, taxonomy);
  if (isReply(term)) return term;
  const parsed = parseArgs(termWriteSchema(taxonomy, false), requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  const values = await termValues(input, taxonomy, parsed.data as TermWrite, term);
  if (isReply(values)) return values;
  const db = input.services.db;
  const before: Record<string, unknown> = { name: term.name, slug: term.slug, description: term.description, parent_id: term.parentId };
  await db.transaction(async (trx) => {
    await updateTerm(trx, term.id, values);
    await audit(input, user, { action: "update", objectType: taxonomy, objectId: term.id, changes: changesOf(before, values) }, trx);
  });
  return json(termShape((await findTerm(db, taxonomy, term.id))!, { origin: origin(input), context: "edit" }));
}

async function deleteTermRoute(input: RestInput, taxonomy: BlogTaxonomy): Promise<Reply> {
  const user = await staffUser(input, "manage_categories", { code: "rest_cannot_delete", message: "Sorry, you are not allowed to delete this term." });
  if (isReply(user)) return user;
  const term = await targetTerm(input, taxonomy);
  if (isReply(term)) return term;
  const parsed = parseArgs(z.object({ force: restBool().default(false) }), requestArgs(input));
  if (!parsed.ok) return parsed.reply;
  if (!parsed.data.force) return restError("rest_trash_not_supported", "Terms do not support trashing. Set 'force' to true to delete.", 501);
  const db = input.services.db;
  if (taxonomy === "category") {
    const options = await readSiteOptions(db, input.services.config);
    if ((await defaultCategory(input.services, options)).includes(term.id)) return restError("rest_cannot_delete", "The term cannot be deleted.", 403);
  }
  const previous = termShape(term, { origin: origin(input), context: "edit" });
  await db.transaction(async (trx) => {
    await deleteTerm(trx, term.id, term.parentId);
    await audit(input, user, { action: "delete", objectType: taxonomy, objectId: term.id, changes: { name: term.name, slug: term.slug } }, trx);
  });
  return json({ deleted: true, previous });
}

// ---- types, taxonomies ----

async function typesRoute(input: RestInput, one: boolean, kind: "types" | "taxonomies"): Promise<Reply> {
  const parsed = parseArgs(z.object({ context: listArgs.context, type: z.string().max(50).optional() }), requestArgs({ ...input, pathParams: {} }));
  if (!parsed.ok) return parsed.reply;
  const { context } = parsed.data;
  const user = await input.user();
  if (context === "edit" && !can(user, "edit_posts"))
    return refuse(
      user,
      kind === "types" ? "rest_cannot_view" : "rest_forbidden_context",
      kind === "types" ? "Sorry, you are not allowed to edit posts in this post type." : "Sorry, you are not allowed to manage terms in this taxonomy.",
    );
  const o = origin(input);
  const shape = kind === "types" ? typeShape : taxonomyShape;
  if (one) {
    const body = shape(input.pathParams.slug ?? "", context, o);
    if (body) return json(body);
    return kind === "types" ? restError("rest_type_invalid", "Invalid post type.", 404) : restError("rest_taxonomy_invalid", "Invalid taxonomy.", 404);
  }
  const slugs = kind === "types" ? TYPE_SLUGS : parsed.data.type ? taxonomiesOfType(parsed.data.type) : TAXONOMY_SLUGS;
  return json(Object.fromEntries(slugs.map((s) => [s, shape(s, context, o)])));
}

// ---- settings ----

async function settingsView(input: RestInput, options: SiteOptions): Promise<Record<string, unknown>> {
  const [category] = await defaultCategory(input.services, options);
  return { ...options, url: input.services.siteUrl, default_category: options.default_category || (category ?? 0) };
}

async function getSettingsRoute(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, "manage_options");
  if (isReply(user)) return user;
  return json(await settingsView(input, await readSiteOptions(input.services.db, input.services.config)));
}

async function updateSettingsRoute(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, "manage_options");
  if (isReply(user)) return user;
  const body = input.body && typeof input.body === "object" && !Array.isArray(input.body) ? (input.body as Record<string, unknown>) : {};
  // The site address is the SITE_URL the server was started with; saying the same again is harmless.
  const { url, ...change } = body;
  if (url !== undefined && url !== input.services.siteUrl)
    return restError("rest_invalid_param", "Invalid parameter(s): url", 400, { params: { url: "url is the server's SITE_URL and cannot be changed here" } });
  const parsed = parseArgs(siteOptionsSchema, change);
  if (!parsed.ok) return parsed.reply;
  const { db, config } = input.services;
  if (parsed.data.default_category !== undefined && !(await existingTermIds(db, "category", [parsed.data.default_category])).length)
    return restError("rest_invalid_param", "Invalid parameter(s): default_category", 400, {
      params: { default_category: "default_category is not a category" },
    });
  for (const key of ["page_on_front", "page_for_posts"] as const) {
    const id = parsed.data[key];
    if (id) {
      const page = await findContent(db, id);
      if (!page || page.type !== "page")
        return restError("rest_invalid_param", `Invalid parameter(s): ${key}`, 400, { params: { [key]: `${key} is not a page` } });
    }
  }
  const result = await db.transaction(async (trx) => {
    const { before, after } = await writeSiteOptions(trx, config, parsed.data);
    const changed = Object.keys(parsed.data).filter((k) => JSON.stringify(before[k as keyof SiteOptions]) !== JSON.stringify(after[k as keyof SiteOptions]));
    await audit(
      input,
      user,
      {
        action: "update",
        objectType: "setting",
        objectId: "site_options",
        changes: Object.fromEntries(changed.map((k) => [k, { from: before[k as keyof SiteOptions], to: after[k as keyof SiteOptions] }])),
      },
      trx,
    );
    return after;
  });
  return json(await settingsView(input, result));
}

function registerContentEndpoints({ rest }: Endpoints): void {
  const EDITABLE = ["POST", "PUT", "PATCH"];
  for (const type of ["post", "page"] as const) {
    const base = `wp/v2/${REST_BASE[type]}`;
    rest.register("GET", base, (input) => listContentRoute(input, type));
    rest.register("POST", base, (input) => createContentRoute(input, type));
    rest.register("GET", `${base}/:id`, (input) => getContentRoute(input, type));
    for (const method of EDITABLE) rest.register(method, `${base}/:id`, (input) => updateContentRoute(input, type));
    rest.register("DELETE", `${base}/:id`, (input) => deleteContentRoute(input, type));
  }
  for (const taxonomy of ["category", "post_tag"] as const) {
    const base = `wp/v2/${TERM_BASE[taxonomy]}`;
    rest.register("GET", base, (input) => listTermsRoute(input, taxonomy));
    rest.register("POST", base, (input) => createTermRoute(input, taxonomy));
    rest.register("GET", `${base}/:id`, (input) => getTermRoute(input, taxonomy));
    for (const method of EDITABLE) rest.register(method, `${base}/:id`, (input) => updateTermRoute(input, taxonomy));
    rest.register("DELETE", `${base}/:id`, (input) => deleteTermRoute(input, taxonomy));
  }
  rest.register("GET", "wp/v2/types", (input) => typesRoute(input, false, "types"));
  rest.register("GET", "wp/v2/types/:slug", (input) => typesRoute(input, true, "types"));
  rest.register("GET", "wp/v2/taxonomies", (input) => typesRoute(input, false, "taxonomies"));
  rest.register("GET", "wp/v2/taxonomies/:slug", (input) => typesRoute(input, true, "taxonomies"));
  rest.register("GET", "wp/v2/settings", getSettingsRoute);
  for (const method of EDITABLE) rest.register(method, "wp/v2/settings", updateSettingsRoute);
  registerCommentRoutes(rest);
}
