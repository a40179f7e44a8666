/**
 * The demo's navigation (issue 17 names it): a 'Shop' mega menu with category columns and a featured product,
 * then 'Masks', 'Mask and Tie Sets', 'Live scores', 'Blog' and 'Contact' (the Contact page); and the footer's
 * menu (location `footer`) of the shop's own pages (demo-pages.ts). Written as the REST API's input and parsed by the
 * same schema (core/domain/menus).
 */
import type { MenuInput } from "../../domain/menus/menus.ts";

export interface DemoMenuIds {
  category: (slug: string) => number;
  product: (slug: string) => number;
  /** A demo page (wp/v2/pages) by slug. */
  page: (slug: string) => number;
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
      { kind: "post", object_id: ids.page("contact"), title: "Contact" },
    ],
  };
  return [primary, demoFooterMenu(ids.page)];
}

/** The footer's 'Information' column: the shop's own pages, titled here so that a page's longer title stays on the page. */
export function demoFooterMenu(page: (slug: string) => number): unknown {
  return {
    name: "Footer menu",
    slug: "footer-menu",
    location: "footer",
    items: [
      { kind: "post", object_id: page("about"), title: "About" },
      { kind: "post", object_id: page("contact"), title: "Contact" },
      { kind: "post", object_id: page("shipping-returns"), title: "Shipping & returns" },
      { kind: "post", object_id: page("privacy-policy"), title: "Privacy policy" },
      { kind: "post", object_id: page("terms"), title: "Terms and conditions" },
    ],
  };
}
