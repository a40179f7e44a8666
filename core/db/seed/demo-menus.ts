/**
 * The demo's navigation (issue 17 names it): a 'Shop' mega menu with category columns and a featured product,
 * then 'Masks', 'Mask and Tie Sets', 'Live scores', 'Blog' and 'Contact'. Written as the REST API's input and
 * parsed by the same schema (core/domain/menus). The shop has no contact page, so 'Contact' is a mail link.
 */
import type { MenuInput } from "../../domain/menus/menus.ts";

export interface DemoMenuIds {
  category: (slug: string) => number;
  product: (slug: string) => number;
  /** The 'Size guide' popup, opened by a link action from the masks column. */
  sizeGuidePopup: number | null;
}

export function demoMenus(ids: DemoMenuIds): unknown[] {
  const cat = (slug: string, extra: Record<string, unknown> = {}) => ({ kind: "product_cat", object_id: ids.category(slug), ...extra });
  const primary: Omit<MenuInput, "items"> & { items: unknown[] } = {
    name: "Main menu",
    slug: "main-menu",
    location: "primary",
    items: [
      {
        kind: "page",
        page: "shop",
        mega: true,
        children: [
          cat("face-masks", {
            children: ids.sizeGuidePopup === null ? [] : [{ kind: "link_action", href: `#popup:open:${ids.sizeGuidePopup}`, title: "Mask size guide" }],
          }),
          cat("ties", { children: [cat("bow-ties")] }),
          cat("mask-and-tie-sets", { children: [cat("gift-sets"), cat("accessories")] }),
          cat("sewing-patterns"),
          { kind: "product", object_id: ids.product("cotton-face-mask"), featured: true },
        ],
      },
      cat("face-masks", { title: "Masks" }),
      cat("mask-and-tie-sets"),
      { kind: "page", page: "live" },
      { kind: "page", page: "blog" },
      { kind: "custom", url: "mailto:hello@maskerade.example", title: "Contact" },
    ],
  };
  return [primary];
}
