/**
 * What /wp-admin/post.php and the admin's edit screens need to know about an object (docs/contract/rest/auth.md):
 * whether a product or a post with an id exists, whatever its status, and its title. Products and posts have
 * separate id spaces (products share `catalog_ids` with variations; posts are serial).
 */
import type { Queryable } from "../client.ts";
import { sql } from "../kysely.ts";

export interface EditTarget {
  kind: "product" | "post" | "page";
  id: number;
  title: string;
  slug: string;
}

export async function findProductEditTarget(db: Queryable, id: number): Promise<EditTarget | null> {
  const row = await sql(db).selectFrom("products").select(["id", "name", "slug"]).where("id", "=", id).executeTakeFirst();
  return row ? { kind: "product", id: row.id, title: row.name, slug: row.slug } : null;
}

/** A post or a page (`posts.type`, migration 0021). */
export async function findPostEditTarget(db: Queryable, id: number): Promise<EditTarget | null> {
  const row = await sql(db).selectFrom("posts").select(["id", "title", "slug", "type"]).where("id", "=", id).executeTakeFirst();
  return row ? { kind: row.type === "page" ? "page" : "post", id: row.id, title: row.title, slug: row.slug } : null;
}
