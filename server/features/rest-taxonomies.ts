/**
 * WooCommerce's REST routes for product terms and global attributes (docs/contract/rest/taxonomies.md):
 * `wc/v3/products/categories`, `products/tags`, `products/attributes` and `products/attributes/{id}/terms`, each with
 * its `batch` route. Staff only (manage_product_terms for terms, manage_woocommerce for attributes), WooCommerce's
 * shapes and error codes; every write is audited and shows on the storefront at once (it reads the same rows).
 */
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput, type RestRouter, type RestUser } from "../http/rest.ts";
import { listArgs, pagedJson, pageOutOfRange, parseArgs, requestArgs, restBool, restIdList, restInt } from "../http/rest-args.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import type { Feature } from "./feature.ts";
import type { Capability } from "../../core/security/capabilities.ts";
import * as repo from "../../core/db/repositories/taxonomies.ts";
import { removeAttribute, removeTerm, saveAttribute, saveTerm, type Refusal, type TermInput } from "../../core/commerce/taxonomies.ts";

const NS = "wc/v3";

/** WooCommerce's permission refusals (WC_REST_Terms_Controller), 401 for a guest, 403 for anyone else. */
const WC_DENIED = {
  list: { code: "woocommerce_rest_cannot_view", message: "Sorry, you cannot list resources." },
  view: { code: "woocommerce_rest_cannot_view", message: "Sorry, you cannot view this resource." },
  create: { code: "woocommerce_rest_cannot_create", message: "Sorry, you are not allowed to create resources." },
  edit: { code: "woocommerce_rest_cannot_edit", message: "Sorry, you are not allowed to edit this resource." },
  delete: { code: "woocommerce_rest_cannot_delete", message: "Sorry, you are not allowed to delete this resource." },
  batch: { code: "woocommerce_rest_cannot_batch", message: "Sorry, you are not allowed to batch manipulate this resource." },
} as const;
type Action = keyof typeof WC_DENIED;

/** WooCommerce's cap on one batch request (woocommerce_rest_batch_items_limit). */
const BATCH_LIMIT = 100;

const refusal = (r: Refusal): Reply =>
  r.param ? restError(r.code, r.message, r.status, { params: { [r.param]: r.message } }) : restError(r.code, r.message, r.status, r.data ?? {});

const notFound = () => restError("woocommerce_rest_term_invalid", "Resource does not exist.", 404);
const trashNotSupported = () => restError("woocommerce_rest_trash_not_supported", "Resource does not support trashing.", 501);

// ---------------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------------

/** A string PostgreSQL can store: a NUL byte is a client's mistake, not a 500. */
export const restText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !v.includes("\u0000"), "must not contain NUL characters");
const text = restText;
const hexColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "must be a hex colour like #b91c1c");
const imageRef = z.union([z.null(), z.object({ id: restInt(0) }).passthrough()]);

const termListArgs = (hierarchical: boolean) =>
  z.object({
    context: listArgs.context,
    page: listArgs.page,
    per_page: listArgs.per_page,
    offset: listArgs.offset,
    search: text(200).optional(),
    exclude: restIdList().optional(),
    include: restIdList().optional(),
    order: z.enum(["asc", "desc"]).default("asc"),
    orderby: z.enum(["id", "include", "name", "slug", "term_group", "description", "count"]).default("name"),
    hide_empty: restBool().default(false),
    ...(hierarchical ? { parent: restInt(0).optional() } : {}),
    product: restInt(1).optional(),
    slug: z.preprocess((v) => (typeof v === "string" ? v.split(",").filter(Boolean) : v), z.array(text(200)).max(100)).optional(),
  });

interface Kind {
  /** Route base under wc/v3 (":attribute_id" for attribute terms). */
  base: string;
  /** Audit object type. */
  objectType: string;
  capability: Capability;
  hierarchical: boolean;
  /** The taxonomy named by the request (attribute terms: by the attribute id), or the refusal. */
  taxonomy(input: RestInput): Promise<{ taxonomy: string; attribute: repo.AttributeRecord | null } | Reply>;
  /** Extra fields of the write schema. */
  fields: z.ZodRawShape;
  /** The write's extra fields as meta changes. */
  meta(data: Record<string, unknown>): Record<string, unknown> | undefined;
  /** The media ids the term's shape needs. */
  mediaIds(t: repo.TermRecord): number[];
  shape(t: repo.TermRecord, media: Map<number, { id: number; slug: string; alt: string }>, input: RestInput, base: string): Record<string, unknown>;
}

const mediaSrc = (input: RestInput, slug: string) => `${input.services.siteUrl.replace(/\/$/, "")}/media/${slug}.svg`;
const imageShape = (input: RestInput, media: Map<number, { id: number; slug: string; alt: string }>, id: unknown) => {
  const m = typeof id === "number" ? media.get(id) : undefined;
  return m ? { id: m.id, src: mediaSrc(input, m.slug), name: m.slug, alt: m.alt } : null;
};
const links = (input: RestInput, base: string, t: repo.TermRecord) => {
  const root = `${input.services.siteUrl.replace(/\/$/, "")}/wp-json/${NS}/${base}`;
  return {
    self: [{ href: `${root}/${t.id}` }],
    collection: [{ href: root }],
    ...(t.parentId ? { up: [{ href: `${root}/${t.parentId}` }] } : {}),
  };
};

const DISPLAY = ["default", "products", "subcategories", "both"] as const;

const fixed = (taxonomy: string) => async (): Promise<{ taxonomy: string; attribute: null }> => ({ taxonomy, attribute: null });

const CATEGORIES: Kind = {
  base: "products/categories",
  objectType: "product_cat",
  capability: "manage_product_terms",
  hierarchical: true,
  taxonomy: fixed("product_cat"),
  fields: {
    parent: restInt(0).optional(),
    display: z.enum(DISPLAY).optional(),
    image: imageRef.optional(),
    menu_order: restInt(-1_000_000, 1_000_000).optional(),
  },
  meta: (d) => ({
    ...(d.display !== undefined ? { display: d.display === "default" ? null : d.display } : {}),
    ...(d.image !== undefined ? { thumbnail_id: (d.image as { id: number } | null)?.id || null } : {}),
  }),
  mediaIds: (t) => (typeof t.meta.thumbnail_id === "number" ? [t.meta.thumbnail_id] : []),
  shape: (t, media, input, base) => ({
    id: t.id,
    name: t.name,
    slug: t.slug,
    parent: t.parentId ?? 0,
    description: t.description,
    display: typeof t.meta.display === "string" ? t.meta.display : "default",
    image: imageShape(input, media, t.meta.thumbnail_id),
    menu_order: t.menuOrder,
    count: t.count,
    _links: links(input, base, t),
  }),
};

const TAGS: Kind = {
  base: "products/tags",
  objectType: "product_tag",
  capability: "manage_product_terms",
  hierarchical: false,
  taxonomy: fixed("product_tag"),
  fields: {},
  meta: () => undefined,
  mediaIds: () => [],
  shape: (t, _media, input, base) => ({ id: t.id, name: t.name, slug: t.slug, description: t.description, count: t.count, _links: links(input, base, t) }),
};

const swatchArg = z
  .object({
    color: z.union([z.null(), z.literal(""), hexColor]).optional(),
    image: imageRef.optional(),
    label: z.union([z.null(), text(60)]).optional(),
  })
  .strict();

const ATTRIBUTE_TERMS: Kind = {
  base: "products/attributes/:attribute_id/terms",
  objectType: "attribute_term",
  capability: "manage_product_terms",
  hierarchical: false,
  async taxonomy(input) {
    const id = Number(input.pathParams.attribute_id);
    const attribute = Number.isInteger(id) && id > 0 ? await repo.findAttribute(input.services.db, id) : null;
    if (!attribute) return restError("woocommerce_rest_taxonomy_invalid", "Taxonomy does not exist.", 404);
    return { taxonomy: `pa_${attribute.slug}`, attribute };
  },
  fields: { menu_order: restInt(-1_000_000, 1_000_000).optional(), swatch: swatchArg.optional() },
  meta: (d) => {
    const s = d.swatch as z.infer<typeof swatchArg> | undefined;
    if (!s) return undefined;
    return {
      // `color` is what the storefront's swatches have always read (terms.meta.color).
      ...(s.color !== undefined ? { color: s.color || null } : {}),
      ...(s.image !== undefined ? { image_id: s.image?.id || null } : {}),
      ...(s.label !== undefined ? { label: s.label || null } : {}),
    };
  },
  mediaIds: (t) => (typeof t.meta.image_id === "number" ? [t.meta.image_id] : []),
  shape: (t, media, input, base) => ({
    id: t.id,
    name: t.name,
    slug: t.slug,
    description: t.description,
    menu_order: t.menuOrder,
    count: t.count,
    swatch: {
      color: typeof t.meta.color === "string" ? t.meta.color : null,
      image: imageShape(input, media, t.meta.image_id),
      label: typeof t.meta.label === "string" ? t.meta.label : null,
    },
    _links: links(input, base, t),
  }),
};

const termWriteArgs = (kind: Kind, create: boolean) =>
  z.object({
    name: create ? text(200) : text(200).optional(),
    slug: text(200).optional(),
    description: text(10_000).optional(),
    ...kind.fields,
  });

// ---------------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------------

async function shapeTerms(kind: Kind, input: RestInput, terms: repo.TermRecord[], base: string) {
  const media = await repo.mediaById(input.services.db, [...new Set(terms.flatMap((t) => kind.mediaIds(t)))]);
  return terms.map((t) => kind.shape(t, media, input, base));
}

const basePath = (kind: Kind, input: RestInput) => kind.base.replace(":attribute_id", input.pathParams.attribute_id ?? "");

async function gate(
  kind: Kind,
  input: RestInput,
  action: Action,
): Promise<{ user: RestUser; taxonomy: string; attribute: repo.AttributeRecord | null } | Reply> {
  const user = await staffUser(input, kind.capability, WC_DENIED[action]);
  if (isReply(user)) return user;
  const tax = await kind.taxonomy(input);
  if (isReply(tax)) return tax;
  return { user, ...tax };
}

const termId = (input: RestInput) => {
  const id = Number(input.pathParams.id);
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
};

function termInput(kind: Kind, d: Record<string, unknown>): TermInput {
  return {
    name: d.name as string | undefined,
    slug: d.slug as string | undefined,
    description: d.description as string | undefined,
    parent: d.parent as number | undefined,
    menuOrder: d.menu_order as number | undefined,
    meta: kind.meta(d),
  };
}

/** The media a write names must exist (WooCommerce: woocommerce_product_invalid_image_id). */
async function checkMedia(input: RestInput, meta: Record<string, unknown> | undefined): Promise<Reply | null> {
  for (const key of ["thumbnail_id", "image_id"]) {
    const id = meta?.[key];
    if (typeof id === "number" && !(await repo.mediaById(input.services.db, [id])).has(id))
      return restError("woocommerce_product_invalid_image_id", `#${id} is an invalid image ID.`, 400);
  }
  return null;
}

const changed = (before: repo.TermRecord | null, after: repo.TermRecord) => {
  const out: Record<string, unknown> = {};
  for (const key of ["name", "slug", "description", "parentId", "menuOrder", "meta"] as const) {
    if (JSON.stringify(before?.[key]) !== JSON.stringify(after[key])) out[key] = before ? { from: before[key], to: after[key] } : after[key];
  }
  return out;
};

function termHandlers(kind: Kind) {
  const list = async (input: RestInput): Promise<Reply> => {
    const g = await gate(kind, input, "list");
    if (isReply(g)) return g;
    const args = parseArgs(termListArgs(kind.hierarchical), requestArgs(input));
    if (!args.ok) return args.reply;
    const a = args.data;
    const parent = (a as { parent?: number }).parent;
    // WooCommerce sorts categories and attribute terms by their menu order where "name" is asked (its sortable
    // taxonomies); an attribute's own order_by decides for its terms.
    const sortable = kind.objectType !== "product_tag" && a.orderby === "name";
    const orderby: repo.TermOrder = sortable ? ((g.attribute?.orderBy as repo.TermOrder | undefined) ?? "menu_order") : a.orderby;
    const offset = a.offset ?? (a.page - 1) * a.per_page;
    const { rows, total } = await repo.listTerms(input.services.db, {
      taxonomy: g.taxonomy,
      search: a.search,
      include: a.include,
      exclude: a.exclude,
      parent: parent === undefined ? undefined : parent === 0 ? null : parent,
      product: a.product,
      slug: a.slug,
      hideEmpty: a.hide_empty,
      orderby,
      order: a.order,
      limit: a.per_page,
      offset,
    });
    const out = pageOutOfRange(total, a.page, a.per_page);
    if (out) return out;
    return pagedJson(input.req, await shapeTerms(kind, input, rows, basePath(kind, input)), total, a.page, a.per_page);
  };

  const get = async (input: RestInput): Promise<Reply> => {
    const g = await gate(kind, input, "view");
    if (isReply(g)) return g;
    const id = termId(input);
    const term = id === null ? null : await repo.findTerm(input.services.db, g.taxonomy, id);
    if (!term) return notFound();
    return json((await shapeTerms(kind, input, [term], basePath(kind, input)))[0]);
  };

  const write = async (input: RestInput, create: boolean): Promise<Reply> => {
    const g = await gate(kind, input, create ? "create" : "edit");
    if (isReply(g)) return g;
    const id = create ? null : termId(input);
    if (!create && id === null) return notFound();
    const raw = requestArgs(input);
    if (!kind.hierarchical && raw.parent !== undefined && raw.parent !== null && raw.parent !== "" && Number(raw.parent) !== 0)
      return restError("woocommerce_rest_taxonomy_not_hierarchical", "Can not set resource parent, taxonomy is not hierarchical.", 400);
    const args = parseArgs(termWriteArgs(kind, create), raw);
    if (!args.ok) return args.reply;
    const data = termInput(kind, args.data);
    const badMedia = await checkMedia(input, data.meta);
    if (badMedia) return badMedia;
    const saved = await saveTerm(input.services.db, g.taxonomy, id, data);
    if (!saved.ok) return refusal(saved);
    const term = (await repo.findTerm(input.services.db, g.taxonomy, saved.id))!;
    await audit(input, g.user, {
      action: create ? "create" : "update",
      objectType: kind.objectType,
      objectId: term.id,
      changes: { taxonomy: g.taxonomy, ...changed(saved.before, term) },
    });
    const base = basePath(kind, input);
    const body = (await shapeTerms(kind, input, [term], base))[0];
    const location = `${input.services.siteUrl.replace(/\/$/, "")}/wp-json/${NS}/${base}/${term.id}`;
    return create ? json(body, 201, { Location: location }) : json(body);
  };

  const remove = async (input: RestInput): Promise<Reply> => {
    const g = await gate(kind, input, "delete");
    if (isReply(g)) return g;
    const args = parseArgs(z.object({ force: restBool().default(false) }), requestArgs(input));
    if (!args.ok) return args.reply;
    const id = termId(input);
    if (id === null || !(await repo.findTerm(input.services.db, g.taxonomy, id))) return notFound();
    if (!args.data.force) return trashNotSupported();
    const before = (await repo.findTerm(input.services.db, g.taxonomy, id))!;
    const body = (await shapeTerms(kind, input, [before], basePath(kind, input)))[0];
    const removed = await removeTerm(input.services.db, g.taxonomy, id);
    if (!removed.ok) return refusal(removed);
    await audit(input, g.user, {
      action: "delete",
      objectType: kind.objectType,
      objectId: id,
      changes: { taxonomy: g.taxonomy, name: before.name, slug: before.slug, children_moved_to: before.parentId ?? 0, products_unlinked: removed.products },
    });
    // WooCommerce answers a deleted term with the term as it was.
    return json(body);
  };

  return { list, get, create: (i: RestInput) => write(i, true), update: (i: RestInput) => write(i, false), remove };
}

// ---------------------------------------------------------------------------------------------------
// Batch (WC_REST_Controller::batch_items): create, update and delete lists, each item answered or refused alone
// ---------------------------------------------------------------------------------------------------

interface Crud {
  create: (i: RestInput) => Promise<Reply>;
  update: (i: RestInput) => Promise<Reply>;
  remove: (i: RestInput) => Promise<Reply>;
}

const batchArgs = z.object({
  create: z.array(z.record(z.string(), z.unknown())).optional(),
  update: z.array(z.record(z.string(), z.unknown())).optional(),
  delete: z.array(restInt(1)).optional(),
});

function batchHandler(capability: Capability, crud: Crud) {
  return async (input: RestInput): Promise<Reply> => {
    const user = await staffUser(input, capability, WC_DENIED.batch);
    if (isReply(user)) return user;
    const args = parseArgs(batchArgs, input.body ?? {});
    if (!args.ok) return args.reply;
    const { create = [], update = [], delete: del = [] } = args.data;
    if (create.length + update.length + del.length > BATCH_LIMIT)
      return restError("woocommerce_rest_request_entity_too_large", `Unable to accept more than ${BATCH_LIMIT} items for this request.`, 413);
    const one = async (handler: (i: RestInput) => Promise<Reply>, body: Record<string, unknown>, id?: number) => {
      const reply = await handler({ ...input, method: "POST", query: {}, body, pathParams: { ...input.pathParams, ...(id ? { id: String(id) } : {}) } });
      const ok = reply.kind === "json" && (reply.status ?? 200) < 400;
      if (ok) return reply.body;
      const err = (reply.kind === "json" ? reply.body : {}) as { code?: string; message?: string; data?: unknown };
      return { id: id ?? 0, error: { code: err.code, message: err.message, data: err.data } };
    };
    const out: Record<string, unknown[]> = {};
    if (create.length) out.create = [];
    for (const item of create) out.create!.push(await one(crud.create, item));
    if (update.length) out.update = [];
    for (const item of update) {
      const id = Number(item.id);
      out.update!.push(
        Number.isInteger(id) && id > 0
          ? await one(crud.update, item, id)
          : { id: 0, error: { code: "woocommerce_rest_term_invalid", message: "Resource does not exist.", data: { status: 404 } } },
      );
    }
    if (del.length) out.delete = [];
    for (const id of del) out.delete!.push(await one(crud.remove, { force: true }, id));
    return json(out);
  };
}

function registerTerms(rest: RestRouter, kind: Kind) {
  const h = termHandlers(kind);
  const path = `${NS}/${kind.base}`;
  rest.register("POST", `${path}/batch`, batchHandler(kind.capability, h));
  rest.register("PUT", `${path}/batch`, batchHandler(kind.capability, h));
  rest.register("PATCH", `${path}/batch`, batchHandler(kind.capability, h));
  rest.register("GET", path, h.list);
  rest.register("POST", path, h.create);
  rest.register("GET", `${path}/:id`, h.get);
  for (const m of ["POST", "PUT", "PATCH"]) rest.register(m, `${path}/:id`, h.update);
  rest.register("DELETE", `${path}/:id`, h.remove);
}

// ---------------------------------------------------------------------------------------------------
// Global attributes (WC_REST_Product_Attributes_Controller)
// ---------------------------------------------------------------------------------------------------

const attributeShape = (input: RestInput, a: repo.AttributeRecord) => {
  const root = `${input.services.siteUrl.replace(/\/$/, "")}/wp-json/${NS}/products/attributes`;
  return {
    id: a.id,
    name: a.name,
    slug: `pa_${a.slug}`,
    type: a.type,
    order_by: a.orderBy,
    has_archives: a.hasArchives,
    _links: { self: [{ href: `${root}/${a.id}` }], collection: [{ href: root }] },
  };
};

const attributeWriteArgs = (create: boolean) =>
  z.object({
    name: create ? text(200) : text(200).optional(),
    slug: text(200).optional(),
    type: z.enum(["select"]).optional(),
    order_by: z.enum(["menu_order", "name", "name_num", "id"]).optional(),
    has_archives: restBool().optional(),
  });

const attributeNotFound = () => restError("woocommerce_rest_attribute_invalid", "Resource does not exist.", 404);

function attributeHandlers() {
  const cap: Capability = "manage_woocommerce";
  const findById = async (input: RestInput) => {
    const id = termId(input);
    return id === null ? null : repo.findAttribute(input.services.db, id);
  };
  const list = async (input: RestInput): Promise<Reply> => {
    const user = await staffUser(input, cap, WC_DENIED.list);
    if (isReply(user)) return user;
    const args = parseArgs(z.object({ context: listArgs.context }), requestArgs(input));
    if (!args.ok) return args.reply;
    // WooCommerce answers every attribute at once, without paging.
    return json((await repo.listAttributes(input.services.db)).map((a) => attributeShape(input, a)));
  };
  const get = async (input: RestInput): Promise<Reply> => {
    const user = await staffUser(input, cap, WC_DENIED.view);
    if (isReply(user)) return user;
    const a = await findById(input);
    return a ? json(attributeShape(input, a)) : attributeNotFound();
  };
  const write = async (input: RestInput, create: boolean): Promise<Reply> => {
    const user = await staffUser(input, cap, create ? WC_DENIED.create : WC_DENIED.edit);
    if (isReply(user)) return user;
    const id = create ? null : termId(input);
    if (!create && id === null) return attributeNotFound();
    const args = parseArgs(attributeWriteArgs(create), requestArgs(input));
    if (!args.ok) return args.reply;
    const d = args.data;
    const saved = await saveAttribute(input.services.db, id, { name: d.name, slug: d.slug, type: d.type, orderBy: d.order_by, hasArchives: d.has_archives });
    if (!saved.ok) return refusal(saved);
    const after = (await repo.findAttribute(input.services.db, saved.id))!;
    const changes: Record<string, unknown> = {};
    for (const key of ["name", "slug", "type", "orderBy", "hasArchives"] as const)
      if (saved.before?.[key] !== after[key]) changes[key] = saved.before ? { from: saved.before[key], to: after[key] } : after[key];
    await audit(input, user, { action: create ? "create" : "update", objectType: "product_attribute", objectId: after.id, changes });
    const body = attributeShape(input, after);
    return create ? json(body, 201, { Location: body._links.self[0]!.href }) : json(body);
  };
  const remove = async (input: RestInput): Promise<Reply> => {
    const user = await staffUser(input, cap, WC_DENIED.delete);
    if (isReply(user)) return user;
    const args = parseArgs(z.object({ force: restBool().default(false) }), requestArgs(input));
    if (!args.ok) return args.reply;
    const a = await findById(input);
    if (!a) return attributeNotFound();
    if (!args.data.force) return trashNotSupported();
    const removed = await removeAttribute(input.services.db, a.id);
    if (!removed.ok) return refusal(removed);
    await audit(input, user, { action: "delete", objectType: "product_attribute", objectId: a.id, changes: { name: a.name, slug: `pa_${a.slug}` } });
    return json(attributeShape(input, a));
  };
  return { list, get, create: (i: RestInput) => write(i, true), update: (i: RestInput) => write(i, false), remove, cap };
}

export const restTaxonomiesFeature: Feature = {
  name: "rest-taxonomies",
  endpoints({ rest }) {
    if (!rest.namespaces.includes(NS)) rest.namespaces.push(NS);
    // Terms first: their paths are longer than products/attributes/:id's.
    registerTerms(rest, ATTRIBUTE_TERMS);
    registerTerms(rest, CATEGORIES);
    registerTerms(rest, TAGS);
    const a = attributeHandlers();
    const path = `${NS}/products/attributes`;
    rest.register("POST", `${path}/batch`, batchHandler(a.cap, a));
    rest.register("PUT", `${path}/batch`, batchHandler(a.cap, a));
    rest.register("PATCH", `${path}/batch`, batchHandler(a.cap, a));
    rest.register("GET", path, a.list);
    rest.register("POST", path, a.create);
    rest.register("GET", `${path}/:id`, a.get);
    for (const m of ["POST", "PUT", "PATCH"]) rest.register(m, `${path}/:id`, a.update);
    rest.register("DELETE", `${path}/:id`, a.remove);
  },
};
