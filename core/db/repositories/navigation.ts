/**
 * What every page's header and footer draw: the product categories, by name and slug only.
 * listCategories (catalog.ts) also counts each category's products, which the listing needs but the
 * navigation does not; on a large catalogue that count was most of every page's root loader.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";

export interface NavigationCategory {
  slug: string;
  name: string;
}

export async function navigationCategories(db: Queryable): Promise<NavigationCategory[]> {
  return sql(db).selectFrom("terms").select(["slug", "name"]).where("taxonomy", "=", raw.lit("product_cat")).orderBy("menu_order").orderBy("name").execute();
}
