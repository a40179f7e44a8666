/**
 * Posts and pages (one table, `type` 'post' or 'page', migration 0021) and the blog's terms (`category`,
 * `post_tag`) as the staff REST API reads and writes them (docs/contract/rest/content.md). The storefront's own
 * reads of published posts stay in catalog.ts.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";

export type ContentType = "post" | "page";
export type BlogTaxonomy = "category" | "post_tag";

export interface ContentRow {
  id: number;
  type: ContentType;
  slug: string;
  title: string;
  excerpt: string;
  content: string;
  authorName: string;
  authorId: number | null;
  status: string;
  imageId: number | null;
  publishedAt: Date;
  modifiedAt: Date;
  commentStatus: string;
  pingStatus: string;
  parentId: number | null;
  menuOrder: number;
  sticky: boolean;
  format: string;
  template: string;
  /** Term ids by taxonomy. */
  terms: Record<BlogTaxonomy, number[]>;
}

export interface ContentQuery {
  type: ContentType;
  statuses: string[];
  search?: string | undefined;
  include?: number[] | undefined;
  exclude?: number[] | undefined;
  slugs?: string[] | undefined;
  authors?: number[] | undefined;
  parents?: number[] | undefined;
  /** Any of these term ids (categories, tags); `excludeTerms` none of them. */
  termSets?: number[][];
  excludeTerms?: number[];
  sticky?: boolean | undefined;
  menuOrder?: number | undefined;
  after?: Date | undefined;
  before?: Date | undefined;
  orderby: "date" | "id" | "title" | "slug" | "modified" | "include" | "relevance" | "menu_order" | "author" | "parent" | "include_slugs";
  order: "asc" | "desc";
  limit: number;
  offset: number;
}

const COLUMNS = [
  "p.id",
  "p.type",
  "p.slug",
  "p.title",
  "p.excerpt",
  "p.content",
  "p.author",
  "p.author_id",
  "p.status",
  "p.image_id",
  "p.published_at",
  "p.modified_at",
  "p.comment_status",
  "p.ping_status",
  "p.parent_id",
  "p.menu_order",
  "p.sticky",
  "p.format",
  "p.template",
] as const;

type Row = {
  id: number;
  type: string;
  slug: string;
  title: string;
  excerpt: string;
  content: string;
  author: string;
  author_id: number | null;
  status: string;
  image_id: number | null;
  published_at: Date | string;
  modified_at: Date | string;
  comment_status: string;
  ping_status: string;
  parent_id: number | null;
  menu_order: number;
  sticky: boolean;
  format: string;
  template: string;
};

const likePattern = (text: string) => `%${text.replace(/[%_\\]/g, "\\$&")}%`;

async function withTerms(db: Queryable, rows: Row[]): Promise<ContentRow[]> {
  const ids = rows.map((r) => r.id);
  const links = ids.length
    ? await sql(db)
        .selectFrom("post_terms as pt")
        .innerJoin("terms as t", "t.id", "pt.term_id")
        .select(["pt.post_id", "t.id", "t.taxonomy"])
        .where("pt.post_id", "in", ids)
        .orderBy("t.id")
        .execute()
    : [];
  return rows.map((r) => {
    const mine = links.filter((l) => l.post_id === r.id);
    return {
      id: r.id,
      type: r.type as ContentType,
      slug: r.slug,
      title: r.title,
      excerpt: r.excerpt,
      content: r.content,
      authorName: r.author,
      authorId: r.author_id,
      status: r.status,
      imageId: r.image_id,
      publishedAt: new Date(r.published_at),
      modifiedAt: new Date(r.modified_at),
      commentStatus: r.comment_status,
      pingStatus: r.ping_status,
      parentId: r.parent_id,
      menuOrder: r.menu_order,
      sticky: r.sticky,
      format: r.format,
      template: r.template,
      terms: {
        category: mine.filter((l) => l.taxonomy === "category").map((l) => l.id),
        post_tag: mine.filter((l) => l.taxonomy === "post_tag").map((l) => l.id),
      },
    };
  });
}

/** One page of posts or pages matching `q`, with the number of all that match. */
export async function listContent(db: Queryable, q: ContentQuery): Promise<{ items: ContentRow[]; total: number }> {
  const pattern = q.search ? likePattern(q.search) : null;
  const filtered = () => {
    let query = sql(db).selectFrom("posts as p").where("p.type", "=", q.type).where("p.status", "in", q.statuses);
    // The storefront's search rule (docs/contract/wire.md §2.5): title or excerpt, matched literally.
    if (pattern !== null) query = query.where((eb) => eb.or([eb("p.title", "ilike", pattern), eb("p.excerpt", "ilike", pattern)]));
    if (q.include?.length) query = query.where("p.id", "in", q.include);
    if (q.exclude?.length) query = query.where("p.id", "not in", q.exclude);
    if (q.slugs?.length) query = query.where("p.slug", "in", q.slugs);
    if (q.authors?.length) query = query.where("p.author_id", "in", q.authors);
    if (q.parents?.length)
      query = query.where((eb) =>
        q.parents!.includes(0) ? eb.or([eb("p.parent_id", "in", q.parents!), eb("p.parent_id", "is", null)]) : eb("p.parent_id", "in", q.parents!),
      );
    if (q.sticky !== undefined) query = query.where("p.sticky", "=", q.sticky);
    if (q.menuOrder !== undefined) query = query.where("p.menu_order", "=", q.menuOrder);
    if (q.after) query = query.where("p.published_at", ">", q.after);
    if (q.before) query = query.where("p.published_at", "<", q.before);
    for (const set of q.termSets ?? []) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom("post_terms as pt")
            .select("pt.post_id")
            .whereRef("pt.post_id", "=", "p.id")
            .where("pt.term_id", "in", set.length ? set : [0]),
        ),
      );
    }
    if (q.excludeTerms?.length) {
      const ex = q.excludeTerms;
      query = query.where((eb) =>
        eb.not(eb.exists(eb.selectFrom("post_terms as pt").select("pt.post_id").whereRef("pt.post_id", "=", "p.id").where("pt.term_id", "in", ex))),
      );
    }
    return query;
  };
  const direction = q.order === "asc" ? raw`asc` : raw`desc`;
  let listed = filtered().select([...COLUMNS, raw<number>`count(*) OVER ()::int`.as("total")]);
  switch (q.orderby) {
    case "include":
      listed = listed.orderBy(raw`array_position(${raw.val(q.include ?? [])}::int[], p.id)`);
      break;
    case "include_slugs":
      listed = listed.orderBy(raw`array_position(${raw.val(q.slugs ?? [])}::text[], p.slug)`);
      break;
    case "relevance":
      // WordPress ranks a title match above an excerpt-only match, then by date.
      listed = listed.orderBy(raw`(p.title ilike ${pattern ?? "%"}) desc`).orderBy("p.published_at", "desc");
      break;
    default: {
      const column = {
        date: "p.published_at",
        id: "p.id",
        title: "p.title",
        slug: "p.slug",
        modified: "p.modified_at",
        menu_order: "p.menu_order",
        author: "p.author_id",
        parent: "p.parent_id",
      }[q.orderby];
      listed = listed.orderBy(raw`${raw.ref(column)} ${direction}`);
    }
  }
  const rows = await listed
    .orderBy(raw`p.id ${direction}`)
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  // The window count rides on the rows; a page past the end has none, so count on its own.
  const total = rows.length
    ? rows[0]!.total
    : ((
        await filtered()
          .select(raw<number>`count(*)::int`.as("total"))
          .executeTakeFirst()
      )?.total ?? 0);
  return { items: await withTerms(db, rows as Row[]), total };
}

/** A post or page by id (any status), or null. */
export async function findContent(db: Queryable, id: number): Promise<ContentRow | null> {
  const row = await sql(db).selectFrom("posts as p").select(COLUMNS).where("p.id", "=", id).executeTakeFirst();
  return row ? (await withTerms(db, [row as Row]))[0]! : null;
}

/** The post's modified time, its row locked until the transaction ends (an editor's version check and write, as one). */
export async function lockContentModified(trx: Queryable, id: number): Promise<Date | null> {
  const row = await sql(trx).selectFrom("posts").select("modified_at").where("id", "=", id).forUpdate().executeTakeFirst();
  return row ? new Date(row.modified_at) : null;
}

/** `base`, or `base-2`, `base-3` … : the first slug no other post or page uses (WordPress's wp_unique_post_slug). */
export async function uniquePostSlug(db: Queryable, base: string, exceptId?: number): Promise<string> {
  const taken = new Set(
    (
      await sql(db)
        .selectFrom("posts")
        .select("slug")
        .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", `${base.replace(/[%_\\]/g, "\\$&")}-%`)]))
        .where("id", "!=", exceptId ?? 0)
        .execute()
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export interface ContentValues {
  slug: string;
  title: string;
  excerpt: string;
  content: string;
  author: string;
  author_id: number | null;
  status: string;
  image_id: number | null;
  published_at: Date;
  modified_at: Date;
  comment_status: string;
  ping_status: string;
  parent_id: number | null;
  menu_order: number;
  sticky: boolean;
  format: string;
  template: string;
}

export async function insertContent(db: Queryable, type: ContentType, values: ContentValues): Promise<number> {
  const row = await sql(db)
    .insertInto("posts")
    .values({ ...values, type })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateContent(db: Queryable, id: number, values: Partial<ContentValues>): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await sql(db).updateTable("posts").set(values).where("id", "=", id).execute();
}

export async function deleteContent(db: Queryable, id: number): Promise<void> {
  await sql(db).deleteFrom("posts").where("id", "=", id).execute();
}

/** Replaces the post's terms of one taxonomy. */
export async function setContentTerms(db: Queryable, postId: number, taxonomy: BlogTaxonomy, termIds: number[]): Promise<void> {
  await sql(db)
    .deleteFrom("post_terms")
    .where("post_id", "=", postId)
    .where("term_id", "in", (eb) => eb.selectFrom("terms").select("id").where("taxonomy", "=", taxonomy))
    .execute();
  if (termIds.length) {
    await sql(db)
      .insertInto("post_terms")
      .values([...new Set(termIds)].map((term_id) => ({ post_id: postId, term_id })))
      .execute();
  }
}

/** The display names of these accounts (authors); an unknown id is absent. */
export async function authorNames(db: Queryable, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await sql(db).selectFrom("customers").select(["id", "display_name", "first_name", "last_name"]).where("id", "in", ids).execute();
  return new Map(rows.map((r) => [r.id, r.display_name || [r.first_name, r.last_name].filter(Boolean).join(" ") || `user-${r.id}`]));
}

export interface MediaSummary {
  id: number;
  slug: string;
  mime: string;
  alt: string;
  width: number;
  height: number;
}

/** The media rows of these ids (featured images). */
export async function mediaByIds(db: Queryable, ids: number[]): Promise<MediaSummary[]> {
  if (!ids.length) return [];
  return sql(db).selectFrom("media").select(["id", "slug", "mime", "alt", "width", "height"]).where("id", "in", ids).execute();
}

// ---- terms (category, post_tag) ----

export interface TermRow {
  id: number;
  taxonomy: string;
  slug: string;
  name: string;
  description: string;
  parentId: number | null;
  /** Published posts in the term (WordPress's count). */
  count: number;
}

export interface TermQuery {
  taxonomy: BlogTaxonomy;
  search?: string | undefined;
  include?: number[] | undefined;
  exclude?: number[] | undefined;
  slugs?: string[] | undefined;
  parent?: number | undefined;
  post?: number | undefined;
  hideEmpty?: boolean | undefined;
  orderby: "id" | "include" | "name" | "slug" | "include_slugs" | "term_group" | "description" | "count";
  order: "asc" | "desc";
  limit: number;
  offset: number;
}

const termCount = raw<number>`(SELECT count(*)::int FROM post_terms pt JOIN posts p ON p.id = pt.post_id WHERE pt.term_id = t.id AND p.status = 'publish')`;

const toTerm = (r: { id: number; taxonomy: string; slug: string; name: string; description: string; parent_id: number | null; count: number }): TermRow => ({
  id: r.id,
  taxonomy: r.taxonomy,
  slug: r.slug,
  name: r.name,
  description: r.description,
  parentId: r.parent_id,
  count: r.count,
});

export async function listTerms(db: Queryable, q: TermQuery): Promise<{ items: TermRow[]; total: number }> {
  const filtered = () => {
    let query = sql(db).selectFrom("terms as t").where("t.taxonomy", "=", q.taxonomy);
    if (q.search) query = query.where((eb) => eb.or([eb("t.name", "ilike", likePattern(q.search!)), eb("t.slug", "ilike", likePattern(q.search!))]));
    if (q.include?.length) query = query.where("t.id", "in", q.include);
    if (q.exclude?.length) query = query.where("t.id", "not in", q.exclude);
    if (q.slugs?.length) query = query.where("t.slug", "in", q.slugs);
    if (q.parent !== undefined) query = q.parent === 0 ? query.where("t.parent_id", "is", null) : query.where("t.parent_id", "=", q.parent);
    if (q.post !== undefined) {
      const post = q.post;
      query = query.where((eb) =>
        eb.exists(eb.selectFrom("post_terms as pt").select("pt.term_id").whereRef("pt.term_id", "=", "t.id").where("pt.post_id", "=", post)),
      );
    }
    if (q.hideEmpty) query = query.where(raw<boolean>`${termCount} > 0`);
    return query;
  };
  const direction = q.order === "asc" ? raw`asc` : raw`desc`;
  let listed = filtered().select([
    "t.id",
    "t.taxonomy",
    "t.slug",
    "t.name",
    "t.description",
    "t.parent_id",
    termCount.as("count"),
    raw<number>`count(*) OVER ()::int`.as("total"),
  ]);
  if (q.orderby === "include") listed = listed.orderBy(raw`array_position(${raw.val(q.include ?? [])}::int[], t.id)`);
  else if (q.orderby === "include_slugs") listed = listed.orderBy(raw`array_position(${raw.val(q.slugs ?? [])}::text[], t.slug)`);
  else {
    const column = { id: "t.id", name: "t.name", slug: "t.slug", term_group: "t.menu_order", description: "t.description", count: "count" }[q.orderby];
    listed = listed.orderBy(raw`${raw.ref(column)} ${direction}`);
  }
  const rows = await listed
    .orderBy(raw`t.id ${direction}`)
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  const total = rows.length
    ? rows[0]!.total
    : ((
        await filtered()
          .select(raw<number>`count(*)::int`.as("total"))
          .executeTakeFirst()
      )?.total ?? 0);
  return { items: rows.map(toTerm), total };
}

export async function findTerm(db: Queryable, taxonomy: BlogTaxonomy, id: number): Promise<TermRow | null> {
  const row = await sql(db)
    .selectFrom("terms as t")
    .select(["t.id", "t.taxonomy", "t.slug", "t.name", "t.description", "t.parent_id", termCount.as("count")])
    .where("t.taxonomy", "=", taxonomy)
    .where("t.id", "=", id)
    .executeTakeFirst();
  return row ? toTerm(row) : null;
}

/** The terms of a taxonomy among `ids` (to check that what a post names exists). */
export async function existingTermIds(db: Queryable, taxonomy: BlogTaxonomy, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  return (await sql(db).selectFrom("terms").select("id").where("taxonomy", "=", taxonomy).where("id", "in", ids).execute()).map((r) => r.id);
}

/** The term of this taxonomy with this slug, or with this name under this parent (WordPress's term_exists). */
export async function findTermBy(
  db: Queryable,
  taxonomy: BlogTaxonomy,
  by: { slug: string } | { name: string; parentId: number | null },
): Promise<number | null> {
  let query = sql(db).selectFrom("terms").select("id").where("taxonomy", "=", taxonomy);
  if ("slug" in by) query = query.where("slug", "=", by.slug);
  else
    query = query
      .where(raw<boolean>`lower(name) = lower(${by.name})`)
      .where((eb) => (by.parentId === null ? eb("parent_id", "is", null) : eb("parent_id", "=", by.parentId)));
  return (await query.executeTakeFirst())?.id ?? null;
}

export interface TermValues {
  slug: string;
  name: string;
  description: string;
  parent_id: number | null;
}

export async function insertTerm(db: Queryable, taxonomy: BlogTaxonomy, values: TermValues): Promise<number> {
  return (
    await sql(db)
      .insertInto("terms")
      .values({ ...values, taxonomy })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

export async function updateTerm(db: Queryable, id: number, values: Partial<TermValues>): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await sql(db).updateTable("terms").set(values).where("id", "=", id).execute();
}

/** Deletes a term; its children move up to its parent, as WordPress does. */
export async function deleteTerm(db: Queryable, id: number, parentId: number | null): Promise<void> {
  await sql(db).updateTable("terms").set({ parent_id: parentId }).where("parent_id", "=", id).execute();
  await sql(db).deleteFrom("terms").where("id", "=", id).execute();
}

/** A published page by its slug, for the storefront's page route (`/{slug}/`). */
export async function findPublishedPage(
  db: Queryable,
  slug: string,
): Promise<{ id: number; slug: string; title: string; excerpt: string; content: string } | null> {
  const row = await sql(db)
    .selectFrom("posts")
    .select(["id", "slug", "title", "excerpt", "content"])
    .where("type", "=", "page")
    .where("status", "=", "publish")
    .where("slug", "=", slug)
    .executeTakeFirst();
  return row ?? null;
}

// ---- comments (the `comments` rows of type 'comment': on blog posts, and replies to product reviews on products,
// migration 0034; reviews themselves are WooCommerce's products/reviews) ----

export interface BlogComment {
  id: number;
  /** The post's or, for a reply to a review, the product's id (one id space). */
  postId: number;
  postType: "post" | "product";
  postSlug: string;
  postStatus: string;
  parentId: number | null;
  customerId: number | null;
  author: string;
  email: string;
  content: string;
  status: string;
  createdAt: Date;
}

export interface CommentQuery {
  statuses: string[];
  /** Only comments on published posts (what a visitor may read). */
  publishedPostsOnly: boolean;
  search?: string | undefined;
  posts?: number[] | undefined;
  parents?: number[] | undefined;
  include?: number[] | undefined;
  exclude?: number[] | undefined;
  authorEmail?: string | undefined;
  orderby: "date" | "date_gmt" | "id" | "include" | "post" | "parent";
  order: "asc" | "desc";
  limit: number;
  offset: number;
}

const commentColumns = [
  "c.id",
  raw<number>`coalesce(c.post_id, c.product_id)`.as("post_id"),
  raw<string>`CASE WHEN c.product_id IS NULL THEN 'post' ELSE 'product' END`.as("post_type"),
  raw<string>`coalesce(p.slug, pr.slug)`.as("post_slug"),
  raw<string>`coalesce(p.status, pr.status)`.as("post_status"),
  "c.parent_id",
  "c.customer_id",
  "c.author",
  "c.author_email",
  "c.content",
  "c.status",
  "c.created_at",
] as const;

const toComment = (r: {
  id: number;
  post_id: number | null;
  post_type: string;
  post_slug: string;
  post_status: string;
  parent_id: number | null;
  customer_id: number | null;
  author: string;
  author_email: string;
  content: string;
  status: string;
  created_at: Date | string;
}): BlogComment => ({
  id: r.id,
  postId: r.post_id!,
  postType: r.post_type === "product" ? "product" : "post",
  postSlug: r.post_slug,
  postStatus: r.post_status,
  parentId: r.parent_id,
  customerId: r.customer_id,
  author: r.author,
  email: r.author_email,
  content: r.content,
  status: r.status,
  createdAt: new Date(r.created_at),
});

export async function listBlogComments(db: Queryable, q: CommentQuery): Promise<{ items: BlogComment[]; total: number }> {
  const filtered = () => {
    let query = commentsWithItem(db).where("c.status", "in", q.statuses);
    if (q.publishedPostsOnly) query = query.where(raw`coalesce(p.status, pr.status)`, "=", "publish");
    if (q.search) {
      const pattern = likePattern(q.search);
      query = query.where((eb) => eb.or([eb("c.content", "ilike", pattern), eb("c.author", "ilike", pattern)]));
    }
    if (q.posts?.length) query = query.where(raw`coalesce(c.post_id, c.product_id)`, "in", q.posts);
    if (q.parents?.length)
      query = query.where((eb) =>
        q.parents!.includes(0) ? eb.or([eb("c.parent_id", "in", q.parents!), eb("c.parent_id", "is", null)]) : eb("c.parent_id", "in", q.parents!),
      );
    if (q.include?.length) query = query.where("c.id", "in", q.include);
    if (q.exclude?.length) query = query.where("c.id", "not in", q.exclude);
    if (q.authorEmail) query = query.where(raw<boolean>`lower(c.author_email) = lower(${q.authorEmail})`);
    return query;
  };
  const direction = q.order === "asc" ? raw`asc` : raw`desc`;
  let listed = filtered().select([...commentColumns, raw<number>`count(*) OVER ()::int`.as("total")]);
  if (q.orderby === "include") listed = listed.orderBy(raw`array_position(${raw.val(q.include ?? [])}::int[], c.id)`);
  else {
    const column = {
      date: raw`c.created_at`,
      date_gmt: raw`c.created_at`,
      id: raw`c.id`,
      post: raw`coalesce(c.post_id, c.product_id)`,
      parent: raw`c.parent_id`,
    }[q.orderby];
    listed = listed.orderBy(raw`${column} ${direction}`);
  }
  const rows = await listed
    .orderBy(raw`c.id ${direction}`)
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  const total = rows.length
    ? rows[0]!.total
    : ((
        await filtered()
          .select(raw<number>`count(*)::int`.as("total"))
          .executeTakeFirst()
      )?.total ?? 0);
  return { items: rows.map(toComment), total };
}

/** Comments of type 'comment' with the post or product they are on (a product's are replies to its reviews). */
const commentsWithItem = (db: Queryable) =>
  sql(db)
    .selectFrom("comments as c")
    .leftJoin("posts as p", "p.id", "c.post_id")
    .leftJoin("products as pr", "pr.id", "c.product_id")
    .where("c.type", "=", "comment")
    .where((eb) => eb.or([eb("p.id", "is not", null), eb("pr.id", "is not", null)]));

export async function findBlogComment(db: Queryable, id: number): Promise<BlogComment | null> {
  const row = await commentsWithItem(db).select(commentColumns).where("c.id", "=", id).executeTakeFirst();
  return row ? toComment(row) : null;
}

/** Where any comment (a review too) sits: the product's or post's id, for a reply's parent check; null if none. */
export async function commentItem(db: Queryable, id: number): Promise<{ id: number; itemId: number; onProduct: boolean } | null> {
  const row = await sql(db).selectFrom("comments").select(["id", "post_id", "product_id"]).where("id", "=", id).executeTakeFirst();
  return row ? { id: row.id, itemId: (row.product_id ?? row.post_id)!, onProduct: row.product_id !== null } : null;
}

export async function updateBlogComment(
  db: Queryable,
  id: number,
  values: { status?: string; content?: string; author?: string; author_email?: string },
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await sql(db).updateTable("comments").set(values).where("id", "=", id).execute();
}

export async function insertBlogComment(
  db: Queryable,
  c: {
    postId: number;
    /** A reply to a product's review: the id is the product's. */
    onProduct?: boolean;
    parentId: number | null;
    customerId: number;
    author: string;
    email: string;
    content: string;
    status: string;
    at: Date;
  },
): Promise<number> {
  const row = await sql(db)
    .insertInto("comments")
    .values({
      type: "comment",
      post_id: c.onProduct ? null : c.postId,
      product_id: c.onProduct ? c.postId : null,
      parent_id: c.parentId,
      customer_id: c.customerId,
      author: c.author,
      author_email: c.email,
      content: c.content,
      status: c.status,
      created_at: c.at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Deletes a comment (its replies go with it, as the table cascades). */
export async function deleteBlogComment(db: Queryable, id: number): Promise<void> {
  await sql(db).deleteFrom("comments").where("id", "=", id).execute();
}

/** Whether a statement failed on a unique index (two writers took the same slug at once). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23505";
}

/** Publishes the scheduled (`future`) posts and pages whose date has come (WordPress's publish_future_post); their ids. */
export async function publishDueContent(db: Queryable, now: Date): Promise<number[]> {
  const rows = await sql(db)
    .updateTable("posts")
    .set({ status: "publish" })
    .where("status", "=", "future")
    .where("published_at", "<=", now)
    .returning("id")
    .execute();
  return rows.map((r) => r.id);
}
