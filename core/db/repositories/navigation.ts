/**
 * What every page's header and footer draw: the product categories, by name and slug only.
 * listCategories (catalog.ts) also counts each category's products, which the listing needs but the
 * navigation does not; on a large catalogue that count was most of every page's root loader.
 */
import type { Queryable } from "../client.ts";

export interface NavigationCategory {
  slug: string;
  name: string;
}

export async function navigationCategories(db: Queryable): Promise<NavigationCategory[]> {
  return db.query<NavigationCategory>(`SELECT slug, name FROM terms WHERE taxonomy = 'product_cat' ORDER BY menu_order, name`);
}
