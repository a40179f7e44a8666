/**
 * Product terms (categories, tags, attribute terms: `terms`, `product_terms`) and global attributes
 * (`product_attributes`, migration 0024) as the staff REST API reads and writes them (docs/contract/rest/taxonomies.md).
 * The storefront reads the same rows (catalog.ts, navigation.ts), so a write here shows on the next page.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";

export interface TermRecord {
  id: number;
  taxonomy: string;
  slug: string;
  name: string;
  description: string;
  parentId: number | null;
  menuOrder: number;
  meta: Record<string, unknown>;
  /** Published products linked to the term (WordPress counts only published objects). */
  count: number;
}

export type TermOrder = "id" | "include" | "name" | "slug" | "term_group" | "description" | "count" | "menu_order" | "name_num";

export interface TermQuery {
  taxonomy: string;
  search?: string | undefined;
  include?: number[] | undefined;
  exclude?: number[] | undefined;
  /** null: top-level terms only */
  parent?: number | null | undefined;
  product?: number | undefined;
  slug?: string[] | undefined;
  hideEmpty?: boolean;
  orderby: TermOrder;
  order: "asc" | "desc";
  limit: number;
  offset: number;
}

/** Published products linked to the term, kept by triggers (0029_catalog_counts.sql). */
const countColumn = raw<number>`t.product_count`;

const termColumns = ["t.id", "t.taxonomy", "t.slug", "t.name", "t.description", "t.parent_id", "t.menu_order", "t.meta"] as const;

type TermRow = {
  id: number;
  taxonomy: string;
  slug: string;
  name: string;
  description: string;
  parent_id: number | null;
  menu_order: number;
  meta: unknown;
  count: number;
};

const toTerm = (r: TermRow): TermRecord => ({
  id: r.id,
  taxonomy: r.taxonomy,
  slug: r.slug,
  name: r.name,
  description: r.description,
  parentId: r.parent_id,
  menuOrder: r.menu_order,
  meta: (r.meta as Record<string, unknown> | null) ?? {},
  count: Number(r.count),
});

export async function listTerms(db: Queryable, q: TermQuery): Promise<{ rows: TermRecord[]; total: number }> {
  let query = sql(db).selectFrom("terms as t").where("t.taxonomy", "=", q.taxonomy);
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, "\\$&")}%`;
    query = query.where((eb) => eb.or([eb("t.name", "ilike", like), eb("t.slug", "ilike", like)]));
  }
  if (q.include?.length) query = query.where("t.id", "in", q.include);
  if (q.exclude?.length) query = query.where("t.id", "not in", q.exclude);
  if (q.parent === null) query = query.where("t.parent_id", "is", null);
  else if (q.parent !== undefined) query = query.where("t.parent_id", "=", q.parent);
  if (q.product !== undefined) {
    const product = q.product;
    query = query.where("t.id", "in", (eb) => eb.selectFrom("product_terms").select("term_id").where("product_id", "=", product));
  }
  if (q.slug?.length) query = query.where("t.slug", "in", q.slug);
  if (q.hideEmpty) query = query.where(countColumn, ">", 0);
  const total = await query.select(raw<number>`count(*)::int`.as("n")).executeTakeFirst();
  let page = query.select([...termColumns, countColumn.as("count")]);
  const dir = q.order;
  switch (q.orderby) {
    case "include":
      page = q.include?.length ? page.orderBy(raw`array_position(${q.include}::int[], t.id)`, dir) : page.orderBy("t.id", dir);
      break;
    case "count":
      page = page.orderBy("count", dir);
      break;
    case "menu_order":
      page = page.orderBy("t.menu_order", dir).orderBy("t.name", dir);
      break;
    case "name_num":
      page = page.orderBy(raw`nullif(substring(t.name from '^[0-9]+'), '')::numeric`, dir).orderBy("t.name", dir);
      break;
    case "term_group":
    case "id":
      page = page.orderBy("t.id", dir);
      break;
    default:
      page = page.orderBy(`t.${q.orderby}`, dir);
  }
  const rows = await page.orderBy("t.id", dir).limit(q.limit).offset(q.offset).execute();
  return { rows: rows.map(toTerm), total: total?.n ?? 0 };
}

export async function findTerm(db: Queryable, taxonomy: string, id: number): Promise<TermRecord | null> {
  const row = await sql(db)
    .selectFrom("terms as t")
    .select([...termColumns, countColumn.as("count")])
    .where("t.taxonomy", "=", taxonomy)
    .where("t.id", "=", id)
    .executeTakeFirst();
  return row ? toTerm(row) : null;
}

/** The term of this taxonomy with this slug, or (with `name`) this name under this parent: what wp_insert_term refuses. */
export async function findClashingTerm(
  db: Queryable,
  q: { taxonomy: string; slug: string; name?: string; parentId?: number | null; exceptId?: number },
): Promise<{ id: number; by: "slug" | "name" } | null> {
  const rows = await sql(db)
    .selectFrom("terms")
    .select(["id", "slug", "name", "parent_id"])
    .where("taxonomy", "=", q.taxonomy)
    .where((eb) => {
      const or = [eb("slug", "=", q.slug)];
      if (q.name !== undefined) or.push(eb(raw<string>`lower(name)`, "=", q.name.toLowerCase()));
      return eb.or(or);
    })
    .execute();
  for (const r of rows) {
    if (r.id === q.exceptId) continue;
    if (r.slug === q.slug) return { id: r.id, by: "slug" };
    if (q.name !== undefined && (r.parent_id ?? null) === (q.parentId ?? null)) return { id: r.id, by: "name" };
  }
  return null;
}

/** The ids from `id` up to its root (for refusing a parent that would make a loop). */
export async function ancestorIds(db: Queryable, id: number): Promise<number[]> {
  const out: number[] = [];
  let at: number | null = id;
  while (at !== null && out.length < 100 && !out.includes(at)) {
    out.push(at);
    const row: { parent_id: number | null } | undefined = await sql(db).selectFrom("terms").select("parent_id").where("id", "=", at).executeTakeFirst();
    at = row?.parent_id ?? null;
  }
  return out;
}

export interface TermValues {
  name: string;
  slug: string;
  description: string;
  parentId: number | null;
  menuOrder: number;
  meta: Record<string, unknown>;
}

export async function insertTerm(db: Queryable, taxonomy: string, v: TermValues): Promise<number> {
  const row = await sql(db)
    .insertInto("terms")
    .values({
      taxonomy,
      name: v.name,
      slug: v.slug,
      description: v.description,
      parent_id: v.parentId,
      menu_order: v.menuOrder,
      meta: JSON.stringify(v.meta),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTerm(db: Queryable, id: number, v: TermValues): Promise<void> {
  await sql(db)
    .updateTable("terms")
    .set({ name: v.name, slug: v.slug, description: v.description, parent_id: v.parentId, menu_order: v.menuOrder, meta: JSON.stringify(v.meta) })
    .where("id", "=", id)
    .execute();
}

/**
 * Deletes a term as wp_delete_term does: its children move up to its parent, its product links go (the foreign key
 * cascades). Returns the ids of the products that lost it.
 */
export async function deleteTerm(db: Queryable, id: number, parentId: number | null): Promise<number[]> {
  const b = sql(db);
  await b.updateTable("terms").set({ parent_id: parentId }).where("parent_id", "=", id).execute();
  const linked = await b.selectFrom("product_terms").select("product_id").where("term_id", "=", id).execute();
  await b.deleteFrom("terms").where("id", "=", id).execute();
  return linked.map((r) => r.product_id);
}

/** The media row behind a term's image (a category's thumbnail, a swatch's picture). */
export async function mediaById(db: Queryable, ids: number[]): Promise<Map<number, { id: number; slug: string; alt: string }>> {
  if (!ids.length) return new Map();
  const rows = await sql(db).selectFrom("media").select(["id", "slug", "alt"]).where("id", "in", ids).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

// ---------------------------------------------------------------------------------------------------
// Global attributes
// ---------------------------------------------------------------------------------------------------

export interface AttributeRecord {
  id: number;
  /** Without the pa_ prefix; the taxonomy of its terms is `pa_${slug}`. */
  slug: string;
  name: string;
  type: string;
  orderBy: string;
  hasArchives: boolean;
}

const toAttribute = (r: { id: number; slug: string; name: string; type: string; order_by: string; has_archives: boolean }): AttributeRecord => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  type: r.type,
  orderBy: r.order_by,
  hasArchives: r.has_archives,
});

const attributeColumns = ["id", "slug", "name", "type", "order_by", "has_archives"] as const;

export async function listAttributes(db: Queryable): Promise<AttributeRecord[]> {
  const rows = await sql(db).selectFrom("product_attributes").select(attributeColumns).orderBy("name").orderBy("id").execute();
  return rows.map(toAttribute);
}

export async function findAttribute(db: Queryable, id: number): Promise<AttributeRecord | null> {
  const row = await sql(db).selectFrom("product_attributes").select(attributeColumns).where("id", "=", id).executeTakeFirst();
  return row ? toAttribute(row) : null;
}

export async function attributeSlugTaken(db: Queryable, slug: string, exceptId?: number): Promise<boolean> {
  let q = sql(db).selectFrom("product_attributes").select("id").where("slug", "=", slug);
  if (exceptId !== undefined) q = q.where("id", "<>", exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export interface AttributeValues {
  slug: string;
  name: string;
  type: string;
  orderBy: string;
  hasArchives: boolean;
}

export async function insertAttribute(db: Queryable, v: AttributeValues): Promise<number> {
  const row = await sql(db)
    .insertInto("product_attributes")
    .values({ slug: v.slug, name: v.name, type: v.type, order_by: v.orderBy, has_archives: v.hasArchives })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Saves an attribute. A new slug renames its taxonomy everywhere, as wc_update_attribute does: the terms, the
 * products' attribute lists and the variations' `attribute_pa_*` keys.
 */
export async function updateAttribute(db: Queryable, id: number, before: AttributeRecord, v: AttributeValues): Promise<void> {
  const b = sql(db);
  await b
    .updateTable("product_attributes")
    .set({ slug: v.slug, name: v.name, type: v.type, order_by: v.orderBy, has_archives: v.hasArchives })
    .where("id", "=", id)
    .execute();
  if (v.slug === before.slug) return;
  const from = `pa_${before.slug}`;
  const to = `pa_${v.slug}`;
  await b.updateTable("terms").set({ taxonomy: to }).where("taxonomy", "=", from).execute();
  await raw`UPDATE products SET attributes = (
      SELECT jsonb_agg(CASE WHEN a ->> 'name' = ${from} THEN jsonb_set(a, '{name}', to_jsonb(${to}::text)) ELSE a END ORDER BY ord)
      FROM jsonb_array_elements(attributes) WITH ORDINALITY AS x(a, ord))
    WHERE attributes @> jsonb_build_array(jsonb_build_object('name', ${from}::text))`.execute(b);
  await raw`UPDATE variations SET attributes = (attributes - ${`attribute_${from}`}::text) || jsonb_build_object(${`attribute_${to}`}::text, attributes -> ${`attribute_${from}`}::text)
    WHERE attributes ? ${`attribute_${from}`}::text`.execute(b);
}

/** Deletes an attribute and its terms (their product links cascade), as wc_delete_attribute does. */
export async function deleteAttribute(db: Queryable, attribute: AttributeRecord): Promise<void> {
  const b = sql(db);
  const taxonomy = `pa_${attribute.slug}`;
  await b.updateTable("terms").set({ parent_id: null }).where("taxonomy", "=", taxonomy).execute();
  await b.deleteFrom("terms").where("taxonomy", "=", taxonomy).execute();
  await b.deleteFrom("product_attributes").where("id", "=", attribute.id).execute();
}

/** Global attribute labels by taxonomy (`pa_color` → "Color"): what the product page labels a pa_* attribute with. */
export async function attributeLabels(db: Queryable): Promise<Map<string, string>> {
  const rows = await sql(db).selectFrom("product_attributes").select(["slug", "name"]).execute();
  return new Map(rows.map((r) => [`pa_${r.slug}`, r.name]));
}
