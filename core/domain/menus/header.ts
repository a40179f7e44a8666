/**
 * What the header needs beyond the menu tree (docs/contract/header-menus.md): the featured products' ids, to draw
 * their cards in the mega menu, and the card's shape. Pure: no I/O.
 */
import type { DisplayMenuItem } from "./menus.ts";

export interface HeaderFeatured {
  id: number;
  name: string;
  href: string;
  image: string;
  price: { regular: number | null; sale: number | null; min: number | null; max: number | null };
}

/** The products marked `featured` anywhere in the tree, each once, in tree order. */
export function featuredProductIds(items: DisplayMenuItem[]): number[] {
  const ids: number[] = [];
  const walk = (list: DisplayMenuItem[]) => {
    for (const item of list) {
      if (item.featured && item.kind === "product" && item.object_id !== null && !ids.includes(item.object_id)) ids.push(item.object_id);
      walk(item.children);
    }
  };
  walk(items);
  return ids;
}
