/**
 * Writing product terms (categories, tags, attribute terms) and global attributes, each in one transaction, with
 * WordPress's and WooCommerce's refusals (docs/contract/rest/taxonomies.md). The storefront reads the same rows,
 * so a saved name, parent or swatch colour shows on the next page; there is no cache to clear.
 */
import type { Db } from "../db/client.ts";
import * as repo from "../db/repositories/taxonomies.ts";
import { attributeSlugProblem, plainName, sanitizeSlug } from "../domain/catalog/term-slug.ts";

export interface Refusal {
  ok: false;
  code: string;
  message: string;
  status: number;
  data?: Record<string, unknown>;
  /** For rest_invalid_param: the parameter refused. */
  param?: string;
}
type Result<T> = ({ ok: true } & T) | Refusal;

const refuse = (code: string, message: string, status: number, extra: Partial<Refusal> = {}): Refusal => ({ ok: false, code, message, status, ...extra });

const isUniqueViolation = (error: unknown) => typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";

export interface TermInput {
  name?: string | undefined;
  slug?: string | undefined;
  description?: string | undefined;
  /** 0 = top level */
  parent?: number | undefined;
  menuOrder?: number | undefined;
  /** Merged over the term's meta (a key set to null is removed). */
  meta?: Record<string, unknown> | undefined;
}

/** The parent, checked: it must be a term of the same taxonomy and not the term itself or one of its descendants. */
async function checkParent(tx: Parameters<typeof repo.findTerm>[0], taxonomy: string, id: number | null, parent: number): Promise<Refusal | null> {
  if (parent === 0) return null;
  const found = await repo.findTerm(tx, taxonomy, parent);
  if (!found) return refuse("woocommerce_rest_term_invalid", "Parent resource does not exist.", 404);
  if (id !== null && (await repo.ancestorIds(tx, parent)).includes(id))
    return refuse("rest_invalid_param", "Invalid parameter(s): parent", 400, { param: "parent", message: "parent would make the term its own ancestor" });
  return null;
}

/** wp_insert_term / wp_update_term: creates (id null) or updates a term. */
export async function saveTerm(db: Db, taxonomy: string, id: number | null, input: TermInput): Promise<Result<{ id: number; before: repo.TermRecord | null }>> {
  try {
    return await db.transaction(async (tx) => {
      const before = id === null ? null : await repo.findTerm(tx, taxonomy, id);
      if (id !== null && !before) return refuse("woocommerce_rest_term_invalid", "Resource does not exist.", 404);
      const name = input.name !== undefined ? plainName(input.name) : (before?.name ?? "");
      if (!name) return refuse("rest_invalid_param", "Invalid parameter(s): name", 400, { param: "name", message: "name must not be empty" });
      const slugProvided = input.slug !== undefined && input.slug !== "";
      // wp_update_term keeps the slug when only the name changes.
      const slug = slugProvided ? sanitizeSlug(input.slug!) : before ? before.slug : sanitizeSlug(name);
      if (!slug)
        return refuse("rest_invalid_param", "Invalid parameter(s): slug", 400, { param: slugProvided ? "slug" : "name", message: "no slug can be made of it" });
      const parentId = input.parent !== undefined ? input.parent || null : (before?.parentId ?? null);
      if (input.parent !== undefined) {
        const bad = await checkParent(tx, taxonomy, id, input.parent);
        if (bad) return bad;
      }
      if (before === null) {
        const clash = await repo.findClashingTerm(tx, { taxonomy, slug, name, parentId });
        if (clash) return termExists(taxonomy, clash.id);
      } else if (slug !== before.slug && (await repo.findClashingTerm(tx, { taxonomy, slug, exceptId: before.id }))) {
        return refuse("duplicate_term_slug", `The slug “${slug}” is already in use by another term.`, 400);
      }
      const meta = { ...(before?.meta ?? {}) };
      for (const [k, v] of Object.entries(input.meta ?? {})) {
        if (v === null || v === undefined) delete meta[k];
        else meta[k] = v;
      }
      const values: repo.TermValues = {
        name,
        slug,
        description: input.description ?? before?.description ?? "",
        parentId,
        menuOrder: input.menuOrder ?? before?.menuOrder ?? 0,
        meta,
      };
      const saved = id === null ? await repo.insertTerm(tx, taxonomy, values) : (await repo.updateTerm(tx, id, values), id);
      return { ok: true as const, id: saved, before };
    });
  } catch (error) {
    // Two writers raced for one slug: the unique index answers as the check would have.
    if (isUniqueViolation(error)) return refuse("term_exists", termExistsMessage(taxonomy), 400);
    throw error;
  }
}

const termExistsMessage = (taxonomy: string) =>
  taxonomy === "product_cat"
    ? "A term with the name provided already exists with this parent."
    : "A term with the name provided already exists in this taxonomy.";

const termExists = (taxonomy: string, existing: number): Refusal =>
  refuse("term_exists", termExistsMessage(taxonomy), 400, { data: { resource_id: existing } });

/** wp_delete_term: the children move to the term's parent, its product links go. */
export async function removeTerm(db: Db, taxonomy: string, id: number): Promise<Result<{ before: repo.TermRecord; products: number[] }>> {
  return db.transaction(async (tx) => {
    const before = await repo.findTerm(tx, taxonomy, id);
    if (!before) return refuse("woocommerce_rest_term_invalid", "Resource does not exist.", 404);
    const products = await repo.deleteTerm(tx, id, before.parentId);
    return { ok: true as const, before, products };
  });
}

// ---------------------------------------------------------------------------------------------------
// Global attributes
// ---------------------------------------------------------------------------------------------------

export interface AttributeInput {
  name?: string | undefined;
  slug?: string | undefined;
  type?: string | undefined;
  orderBy?: string | undefined;
  hasArchives?: boolean | undefined;
}

/** wc_create_attribute / wc_update_attribute (their refusals come back as woocommerce_rest_cannot_create / _edit, 400). */
export async function saveAttribute(db: Db, id: number | null, input: AttributeInput): Promise<Result<{ id: number; before: repo.AttributeRecord | null }>> {
  const failCode = id === null ? "woocommerce_rest_cannot_create" : "woocommerce_rest_cannot_edit";
  try {
    return await db.transaction(async (tx) => {
      const before = id === null ? null : await repo.findAttribute(tx, id);
      if (id !== null && !before) return refuse("woocommerce_rest_attribute_invalid", "Resource does not exist.", 404);
      const name = input.name !== undefined ? plainName(input.name) : (before?.name ?? "");
      if (!name) return refuse(failCode, "Please, provide an attribute name.", 400);
      const slug = sanitizeSlug((input.slug || (before && input.slug === undefined ? before.slug : name)).replace(/^pa_/, ""));
      if (!slug) return refuse(failCode, "Please, provide an attribute slug.", 400);
      const problem = attributeSlugProblem(slug);
      if (problem) return refuse(failCode, problem, 400);
      if (await repo.attributeSlugTaken(tx, slug, id ?? undefined)) return refuse(failCode, `Slug "${slug}" is already in use. Change it, please.`, 400);
      const values: repo.AttributeValues = {
        name,
        slug,
        type: input.type ?? before?.type ?? "select",
        orderBy: input.orderBy ?? before?.orderBy ?? "menu_order",
        hasArchives: input.hasArchives ?? before?.hasArchives ?? false,
      };
      if (before === null) return { ok: true as const, id: await repo.insertAttribute(tx, values), before };
      await repo.updateAttribute(tx, before.id, before, values);
      return { ok: true as const, id: before.id, before };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return refuse(failCode, `Slug "${input.slug ?? ""}" is already in use. Change it, please.`, 400);
    throw error;
  }
}

export async function removeAttribute(db: Db, id: number): Promise<Result<{ before: repo.AttributeRecord }>> {
  return db.transaction(async (tx) => {
    const before = await repo.findAttribute(tx, id);
    if (!before) return refuse("woocommerce_rest_attribute_invalid", "Resource does not exist.", 404);
    await repo.deleteAttribute(tx, before);
    return { ok: true as const, before };
  });
}
