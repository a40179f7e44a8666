/**
 * WordPress's REST shapes of posts, pages, categories, tags, post types and taxonomies
 * (docs/contract/rest/content.md), with `context` (view, edit, embed) deciding the fields and `_embed` the embedded
 * author, featured image and terms.
 */
import type { RestContext } from "../http/rest-args.ts";
import type { ContentRow, MediaSummary, TermRow } from "../../core/db/repositories/content.ts";
import { escapeHtml } from "../../core/domain/text/html.ts";
import { sanitizePostHtml } from "../../core/domain/text/kses.ts";

export interface ShapeContext {
  origin: string;
  context: RestContext;
  timeZone: string;
}

const CURIES = [{ name: "wp", href: "https://api.w.org/{rel}", templated: true }];
const REST_BASE = { post: "posts", page: "pages" } as const;
const TERM_BASE = { category: "categories", post_tag: "tags" } as const;

/** WordPress's `date`: the site's local time without an offset; `date_gmt` the same in UTC. */
export function localDate(instant: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** A local wall-clock time in `timeZone` ("2026-05-01T10:00:00") as an instant. */
export function fromLocalDate(local: string, timeZone: string): Date {
  const asUtc = new Date(`${local.slice(0, 19)}Z`);
  const offset = new Date(`${localDate(asUtc, timeZone)}Z`).getTime() - asUtc.getTime();
  return new Date(asUtc.getTime() - offset);
}

const gmt = (d: Date) => d.toISOString().slice(0, 19);

/** The public address of a post or page (drafts have none yet: WordPress's `?p=` form). */
export function contentLink(row: Pick<ContentRow, "id" | "type" | "slug" | "status">, origin: string): string {
  if (row.status !== "publish") return `${origin}/?p=${row.id}`;
  return row.type === "post" ? `${origin}/blog/${row.slug}/` : `${origin}/${row.slug}/`;
}

export function postShape(row: ContentRow, ctx: ShapeContext): Record<string, unknown> {
  const { origin, context, timeZone } = ctx;
  const base = `${origin}/wp-json/wp/v2/${REST_BASE[row.type]}`;
  const rendered = sanitizePostHtml(row.content);
  const excerpt = { rendered: row.excerpt ? `<p>${escapeHtml(row.excerpt)}</p>\n` : "", protected: false };
  const title = { rendered: escapeHtml(row.title) };
  const author = row.authorId ?? 0;
  const featured = row.imageId ?? 0;
  const links: Record<string, unknown> = {
    self: [{ href: `${base}/${row.id}` }],
    collection: [{ href: base }],
    about: [{ href: `${origin}/wp-json/wp/v2/types/${row.type}` }],
    ...(author ? { author: [{ embeddable: true, href: `${origin}/wp-json/wp/v2/users/${author}` }] } : {}),
    replies: [{ embeddable: true, href: `${origin}/wp-json/wp/v2/comments?post=${row.id}` }],
    ...(featured ? { "wp:featuredmedia": [{ embeddable: true, href: `${origin}/wp-json/wp/v2/media/${featured}` }] } : {}),
    "wp:attachment": [{ href: `${origin}/wp-json/wp/v2/media?parent=${row.id}` }],
    ...(row.type === "post"
      ? {
          "wp:term": [
            { taxonomy: "category", embeddable: true, href: `${origin}/wp-json/wp/v2/categories?post=${row.id}` },
            { taxonomy: "post_tag", embeddable: true, href: `${origin}/wp-json/wp/v2/tags?post=${row.id}` },
          ],
        }
      : {}),
    ...(row.type === "page" && row.parentId ? { up: [{ embeddable: true, href: `${base}/${row.parentId}` }] } : {}),
    curies: CURIES,
  };
  const link = contentLink(row, origin);
  if (context === "embed") {
    return {
      id: row.id,
      date: localDate(row.publishedAt, timeZone),
      slug: row.slug,
      type: row.type,
      link,
      title,
      excerpt,
      author,
      featured_media: featured,
      ...(row.type === "page" ? { parent: row.parentId ?? 0 } : {}),
      _links: links,
    };
  }
  const edit = context === "edit";
  return {
    id: row.id,
    date: localDate(row.publishedAt, timeZone),
    date_gmt: gmt(row.publishedAt),
    guid: { rendered: `${origin}/?p=${row.id}`, ...(edit ? { raw: `${origin}/?p=${row.id}` } : {}) },
    modified: localDate(row.modifiedAt, timeZone),
    modified_gmt: gmt(row.modifiedAt),
    ...(edit ? { password: "" } : {}),
    slug: row.slug,
    status: row.status,
    type: row.type,
    link,
    title: edit ? { raw: row.title, ...title } : title,
    content: edit ? { raw: row.content, rendered, protected: false, block_version: 0 } : { rendered, protected: false },
    excerpt: edit ? { raw: row.excerpt, ...excerpt } : excerpt,
    author,
    featured_media: featured,
    ...(row.type === "page" ? { parent: row.parentId ?? 0, menu_order: row.menuOrder } : {}),
    comment_status: row.commentStatus,
    ping_status: row.pingStatus,
    ...(row.type === "post" ? { sticky: row.sticky } : {}),
    template: row.template,
    ...(row.type === "post" ? { format: row.format } : {}),
    meta: [],
    ...(row.type === "post" ? { categories: row.terms.category, tags: row.terms.post_tag } : {}),
    ...(edit
      ? {
          permalink_template: row.type === "post" ? `${origin}/blog/%postname%/` : `${origin}/%pagename%/`,
          generated_slug: row.slug,
        }
      : {}),
    _links: links,
  };
}

export function termShape(term: TermRow, ctx: Pick<ShapeContext, "origin" | "context">): Record<string, unknown> {
  const taxonomy = term.taxonomy as keyof typeof TERM_BASE;
  const base = `${ctx.origin}/wp-json/wp/v2/${TERM_BASE[taxonomy]}`;
  const link = `${ctx.origin}/${taxonomy === "category" ? "category" : "tag"}/${term.slug}/`;
  const links = {
    self: [{ href: `${base}/${term.id}` }],
    collection: [{ href: base }],
    about: [{ href: `${ctx.origin}/wp-json/wp/v2/taxonomies/${taxonomy}` }],
    ...(term.parentId ? { up: [{ embeddable: true, href: `${base}/${term.parentId}` }] } : {}),
    "wp:post_type": [{ href: `${ctx.origin}/wp-json/wp/v2/posts?${TERM_BASE[taxonomy]}=${term.id}` }],
    curies: CURIES,
  };
  if (ctx.context === "embed") return { id: term.id, link, name: term.name, slug: term.slug, taxonomy, _links: links };
  return {
    id: term.id,
    count: term.count,
    description: term.description,
    link,
    name: term.name,
    slug: term.slug,
    taxonomy,
    ...(taxonomy === "category" ? { parent: term.parentId ?? 0 } : {}),
    meta: [],
    _links: links,
  };
}

/** The embedded attachment of a featured image (the media rows the shop has). */
export function attachmentEmbed(media: MediaSummary, origin: string): Record<string, unknown> {
  const source = `${origin}/media/${media.slug}.svg`;
  return {
    id: media.id,
    date: null,
    slug: media.slug,
    type: "attachment",
    link: source,
    title: { rendered: escapeHtml(media.alt || media.slug) },
    author: 0,
    caption: { rendered: "" },
    alt_text: media.alt,
    media_type: "image",
    mime_type: media.mime,
    media_details: { width: media.width, height: media.height, file: `${media.slug}.svg`, sizes: {} },
    source_url: source,
    _links: { self: [{ href: `${origin}/wp-json/wp/v2/media/${media.id}` }] },
  };
}

/** A user as WordPress embeds an author (public fields only). */
export function authorEmbed(id: number, name: string, origin: string): Record<string, unknown> {
  return {
    id,
    name,
    url: "",
    description: "",
    link: `${origin}/blog/`,
    slug: `user-${id}`,
    avatar_urls: {},
    _links: { self: [{ href: `${origin}/wp-json/wp/v2/users/${id}` }] },
  };
}

// ---- post types and taxonomies (static: what the shop has) ----

interface TypeInfo {
  slug: string;
  name: string;
  singular: string;
  description: string;
  hierarchical: boolean;
  has_archive: boolean | string;
  icon: string | null;
  taxonomies: string[];
  rest_base: string;
  rest_namespace: string;
  supports: string[];
  capability: string;
}

const TYPES: TypeInfo[] = [
  {
    slug: "post",
    name: "Posts",
    singular: "Post",
    description: "",
    hierarchical: false,
    has_archive: false,
    icon: "dashicons-admin-post",
    taxonomies: ["category", "post_tag"],
    rest_base: "posts",
    rest_namespace: "wp/v2",
    supports: ["title", "editor", "author", "thumbnail", "excerpt", "comments", "post-formats"],
    capability: "post",
  },
  {
    slug: "page",
    name: "Pages",
    singular: "Page",
    description: "",
    hierarchical: true,
    has_archive: false,
    icon: "dashicons-admin-page",
    taxonomies: [],
    rest_base: "pages",
    rest_namespace: "wp/v2",
    supports: ["title", "editor", "author", "thumbnail", "page-attributes", "comments"],
    capability: "page",
  },
  {
    slug: "attachment",
    name: "Media",
    singular: "Media",
    description: "",
    hierarchical: false,
    has_archive: false,
    icon: "dashicons-admin-media",
    taxonomies: [],
    rest_base: "media",
    rest_namespace: "wp/v2",
    supports: ["title", "author", "comments"],
    capability: "post",
  },
  {
    slug: "product",
    name: "Products",
    singular: "Product",
    description: "This is where you can browse products in this store.",
    hierarchical: false,
    has_archive: "shop",
    icon: null,
    taxonomies: ["product_cat", "product_tag"],
    rest_base: "product",
    rest_namespace: "wp/v2",
    supports: ["title", "editor", "excerpt", "thumbnail", "custom-fields", "publicize", "wpcom-markdown"],
    capability: "product",
  },
];

interface TaxonomyInfo {
  slug: string;
  name: string;
  singular: string;
  description: string;
  types: string[];
  hierarchical: boolean;
  rest_base: string;
  rest_namespace: string;
}

const TAXONOMIES: TaxonomyInfo[] = [
  {
    slug: "category",
    name: "Categories",
    singular: "Category",
    description: "",
    types: ["post"],
    hierarchical: true,
    rest_base: "categories",
    rest_namespace: "wp/v2",
  },
  { slug: "post_tag", name: "Tags", singular: "Tag", description: "", types: ["post"], hierarchical: false, rest_base: "tags", rest_namespace: "wp/v2" },
  {
    slug: "product_cat",
    name: "Product categories",
    singular: "Category",
    description: "",
    types: ["product"],
    hierarchical: true,
    rest_base: "product_cat",
    rest_namespace: "wp/v2",
  },
  {
    slug: "product_tag",
    name: "Product tags",
    singular: "Tag",
    description: "",
    types: ["product"],
    hierarchical: false,
    rest_base: "product_tag",
    rest_namespace: "wp/v2",
  },
];

export const TYPE_SLUGS = TYPES.map((t) => t.slug);
export const TAXONOMY_SLUGS = TAXONOMIES.map((t) => t.slug);

export function typeShape(slug: string, context: RestContext, origin: string): Record<string, unknown> | null {
  const t = TYPES.find((x) => x.slug === slug);
  if (!t) return null;
  const links = {
    collection: [{ href: `${origin}/wp-json/wp/v2/types` }],
    "wp:items": [{ href: `${origin}/wp-json/${t.rest_namespace}/${t.rest_base}` }],
    curies: CURIES,
  };
  if (context === "embed")
    return {
      description: t.description,
      hierarchical: t.hierarchical,
      has_archive: t.has_archive,
      name: t.name,
      slug: t.slug,
      icon: t.icon,
      rest_base: t.rest_base,
      rest_namespace: t.rest_namespace,
      _links: links,
    };
  const view = {
    description: t.description,
    hierarchical: t.hierarchical,
    has_archive: t.has_archive,
    name: t.name,
    slug: t.slug,
    icon: t.icon,
    taxonomies: t.taxonomies,
    rest_base: t.rest_base,
    rest_namespace: t.rest_namespace,
  };
  if (context === "view") return { ...view, _links: links };
  const c = t.capability;
  const plural = c === "product" ? "products" : `${c}s`;
  return {
    capabilities: {
      edit_post: `edit_${c}`,
      read_post: `read_${c}`,
      delete_post: `delete_${c}`,
      edit_posts: `edit_${plural}`,
      edit_others_posts: `edit_others_${plural}`,
      delete_posts: `delete_${plural}`,
      publish_posts: `publish_${plural}`,
      read_private_posts: `read_private_${plural}`,
      read: "read",
      create_posts: `edit_${plural}`,
    },
    ...view,
    labels: {
      name: t.name,
      singular_name: t.singular,
      add_new: "Add New",
      add_new_item: `Add New ${t.singular}`,
      edit_item: `Edit ${t.singular}`,
      all_items: `All ${t.name}`,
    },
    supports: Object.fromEntries(t.supports.map((s) => [s, true])),
    viewable: true,
    visibility: { show_in_nav_menus: true, show_ui: true },
    _links: links,
  };
}

export function taxonomyShape(slug: string, context: RestContext, origin: string): Record<string, unknown> | null {
  const t = TAXONOMIES.find((x) => x.slug === slug);
  if (!t) return null;
  const links = {
    collection: [{ href: `${origin}/wp-json/wp/v2/taxonomies` }],
    "wp:items": [{ href: `${origin}/wp-json/${t.rest_namespace}/${t.rest_base}` }],
    curies: CURIES,
  };
  if (context === "embed") return { name: t.name, slug: t.slug, rest_base: t.rest_base, rest_namespace: t.rest_namespace, _links: links };
  const view = {
    name: t.name,
    slug: t.slug,
    description: t.description,
    types: t.types,
    hierarchical: t.hierarchical,
    rest_base: t.rest_base,
    rest_namespace: t.rest_namespace,
  };
  if (context === "view") return { ...view, _links: links };
  return {
    capabilities: { manage_terms: "manage_categories", edit_terms: "manage_categories", delete_terms: "manage_categories", assign_terms: "edit_posts" },
    ...view,
    labels: {
      name: t.name,
      singular_name: t.singular,
      search_items: `Search ${t.name}`,
      all_items: `All ${t.name}`,
      edit_item: `Edit ${t.singular}`,
      add_new_item: `Add New ${t.singular}`,
    },
    show_cloud: !t.hierarchical,
    visibility: { public: true, publicly_queryable: true, show_admin_column: true, show_in_nav_menus: true, show_in_quick_edit: true, show_ui: true },
    _links: links,
  };
}

/** The post types a taxonomy list may be filtered by (`?type=`). */
export function taxonomiesOfType(type: string | undefined): string[] {
  return TAXONOMIES.filter((t) => !type || t.types.includes(type)).map((t) => t.slug);
}
