/**
 * Navigation menus as data (docs/contract/rest/shop-v1.md 'Menus'): a named menu with a tree of items at most
 * MENU_MAX_DEPTH deep. An item points to a storefront page (by key), a product category, a product or a post (by
 * id), a custom address, or a link action of the popups (`#popup:open:{id}`, … core/domain/popups/link-actions.ts).
 * The schema is the one source of truth for a menu: the REST API validates writes with it, the seed goes through
 * it, and the header (issue 17) reads what `displayMenu` makes of it. Pure: no I/O.
 */
import { z } from "zod";
import { parseLinkAction } from "../popups/link-actions.ts";

export const MENU_MAX_DEPTH = 3;
export const MENU_MAX_ITEMS = 500;

/** The storefront's own pages a menu may name, with their default titles and addresses (app/routes.ts). */
export const MENU_PAGES = {
  home: { name: "Home", href: "/" },
  shop: { name: "Shop", href: "/shop/" },
  cart: { name: "Cart", href: "/cart/" },
  checkout: { name: "Checkout", href: "/checkout/" },
  "my-account": { name: "My account", href: "/my-account/" },
  blog: { name: "Blog", href: "/blog/" },
  live: { name: "Live scores", href: "/live/" },
} as const;
export type MenuPage = keyof typeof MENU_PAGES;

export const MENU_ITEM_KINDS = ["page", "product_cat", "product", "post", "custom", "link_action"] as const;
export type MenuItemKind = (typeof MENU_ITEM_KINDS)[number];

/** What an item points at; the kind decides which field carries it. */
export type MenuTarget =
  | { kind: "page"; page: MenuPage }
  | { kind: "product_cat" | "product" | "post"; object_id: number }
  | { kind: "custom"; url: string }
  | { kind: "link_action"; href: string };

export type MenuItem = MenuTarget & {
  /** Empty: the target's own name (a category's, a product's, a post's title). */
  title: string;
  /** A top-level item whose children are shown as columns of a mega menu. */
  mega: boolean;
  /** Shown as a featured card (a product in the 'Shop' mega menu). */
  featured: boolean;
  children: MenuItem[];
};

export interface MenuInput {
  name: string;
  slug?: string;
  location?: string | null;
  items: MenuItem[];
}

const objectId = z.number().int().min(1).max(2_147_483_647);
/** An absolute http(s) address, a path on this site, or mailto:/tel:. Nothing that runs script. */
/** Whether `u` may be a custom item's address (the admin's menu editor asks the same before sending it). */
export const isMenuCustomUrl = (u: string): boolean => /^(https?:\/\/[^\s]+|\/(?!\/)[^\s]*|mailto:[^\s]+|tel:[+0-9 ()-]+)$/i.test(u);
const customUrl = z.string().trim().min(1).max(2000).refine(isMenuCustomUrl, "must be an http(s) address, a path starting with '/', mailto: or tel:");
const linkActionHref = z
  .string()
  .max(2000)
  .refine((h) => parseLinkAction(h) !== null, "is not a link action (#popup:open:{id}, #popup:close, #off_canvas:…, #reload-page)");

const itemFields = {
  /** Accepted so that what GET answers can be sent back; the server numbers items itself, and the tree says the parent. */
  id: z.number().int().optional(),
  parent: z.number().int().optional(),
  /** Order among siblings; without it, the order in the array. */
  position: z.number().int().min(0).max(10_000).optional(),
  title: z.string().trim().max(200).default(""),
  mega: z.boolean().default(false),
  featured: z.boolean().default(false),
  children: z
    .array(z.lazy(() => menuItemSchema))
    .max(100)
    .default([]),
};

/** An item as the schema leaves it (before `normalise` orders siblings and drops the input's ids). */
type ParsedItem = MenuTarget & { id?: number; parent?: number; position?: number; title: string; mega: boolean; featured: boolean; children: ParsedItem[] };

export const menuItemSchema: z.ZodType<ParsedItem, unknown> = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("page"), page: z.enum(Object.keys(MENU_PAGES) as [MenuPage, ...MenuPage[]]), ...itemFields }),
  z.strictObject({ kind: z.literal("product_cat"), object_id: objectId, ...itemFields }),
  z.strictObject({ kind: z.literal("product"), object_id: objectId, ...itemFields }),
  z.strictObject({ kind: z.literal("post"), object_id: objectId, ...itemFields }),
  z.strictObject({ kind: z.literal("custom"), url: customUrl, ...itemFields }),
  z.strictObject({ kind: z.literal("link_action"), href: linkActionHref, ...itemFields }),
]);

/** Siblings in their positions (stable: equal or missing positions keep the array's order), without the input's ids. */
function normalise(items: ParsedItem[]): MenuItem[] {
  return items
    .map((item, index) => ({ item, at: item.position ?? index, index }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ item }) => {
      const { id: _id, parent: _parent, position: _position, children, ...rest } = item;
      return { ...rest, children: normalise(children) } as MenuItem;
    });
}

/** Where the tree breaks the depth rule or the item cap, as a path for the error (null when it does not). */
function shapeProblem(items: ParsedItem[]): { path: (string | number)[]; message: string } | null {
  let count = 0;
  const walk = (list: ParsedItem[], depth: number, path: (string | number)[]): { path: (string | number)[]; message: string } | null => {
    for (const [i, item] of list.entries()) {
      count++;
      if (count > MENU_MAX_ITEMS) return { path: [...path, i], message: `a menu holds at most ${MENU_MAX_ITEMS} items` };
      if (item.children.length > 0 && depth >= MENU_MAX_DEPTH)
        return { path: [...path, i, "children"], message: `menus nest at most ${MENU_MAX_DEPTH} levels deep` };
      const deeper = walk(item.children, depth + 1, [...path, i, "children"]);
      if (deeper) return deeper;
    }
    return null;
  };
  return walk(items, 1, ["items"]);
}

const slug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, "a lower-case slug");

/** A whole menu as written (create); `menuPatchSchema` for an update of some of its fields. */
export const menuSchema = z
  .strictObject({
    // Read-only fields of what GET answers, accepted and ignored so that it can be sent back.
    id: z.number().int().optional(),
    modified_gmt: z.string().max(40).optional(),
    name: z.string().trim().min(1).max(100),
    slug: slug.optional(),
    location: z
      .string()
      .regex(/^[a-z0-9_-]{1,40}$/, "a location name like 'primary'")
      .nullable()
      .optional(),
    items: z.array(menuItemSchema).max(100).default([]),
  })
  .superRefine((menu, ctx) => {
    const problem = shapeProblem(menu.items);
    if (problem) ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
  })
  .transform((menu): MenuInput => ({ name: menu.name, slug: menu.slug, location: menu.location, items: normalise(menu.items) }));

export const menuPatchSchema = z
  .strictObject({
    id: z.number().int().optional(),
    modified_gmt: z.string().max(40).optional(),
    name: z.string().trim().min(1).max(100).optional(),
    slug: slug.optional(),
    location: z
      .string()
      .regex(/^[a-z0-9_-]{1,40}$/, "a location name like 'primary'")
      .nullable()
      .optional(),
    items: z.array(menuItemSchema).max(100).optional(),
  })
  .superRefine((menu, ctx) => {
    const problem = menu.items ? shapeProblem(menu.items) : null;
    if (problem) ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
  })
  .transform((menu): Partial<MenuInput> => {
    const out: Partial<MenuInput> = {};
    if (menu.name !== undefined) out.name = menu.name;
    if (menu.slug !== undefined) out.slug = menu.slug;
    if (menu.location !== undefined) out.location = menu.location;
    if (menu.items !== undefined) out.items = normalise(menu.items);
    return out;
  });

/** A slug from a menu's name ('Main menu' → 'main-menu'). */
export function menuSlug(name: string): string {
  const s = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
  return s || "menu";
}

/** The ids a menu's items point at, by kind, to check they exist (popups: the ids `#popup:open:{id}` names). */
export interface MenuTargets {
  product_cat: number[];
  product: number[];
  post: number[];
  popup: number[];
}

export function menuTargets(items: MenuItem[]): MenuTargets {
  const out: MenuTargets = { product_cat: [], product: [], post: [], popup: [] };
  const walk = (list: MenuItem[]) => {
    for (const item of list) {
      if (item.kind === "product_cat" || item.kind === "product" || item.kind === "post") out[item.kind].push(item.object_id);
      if (item.kind === "link_action") {
        const action = parseLinkAction(item.href);
        if (action?.action === "popup:open") out.popup.push(action.id);
      }
      walk(item.children);
    }
  };
  walk(items);
  return out;
}

/** The first item (as an error path) whose target is not among the existing ones, or null. */
export function missingTarget(
  items: MenuItem[],
  exists: (kind: keyof MenuTargets, id: number) => boolean,
): { path: (string | number)[]; message: string } | null {
  const walk = (list: MenuItem[], path: (string | number)[]): { path: (string | number)[]; message: string } | null => {
    for (const [i, item] of list.entries()) {
      const at = [...path, i];
      if ((item.kind === "product_cat" || item.kind === "product" || item.kind === "post") && !exists(item.kind, item.object_id)) {
        return { path: [...at, "object_id"], message: `no ${item.kind === "product_cat" ? "product category" : item.kind} has id ${item.object_id}` };
      }
      if (item.kind === "link_action") {
        const action = parseLinkAction(item.href);
        if (action?.action === "popup:open" && !exists("popup", action.id)) return { path: [...at, "href"], message: `no popup has id ${action.id}` };
      }
      const deeper = walk(item.children, [...at, "children"]);
      if (deeper) return deeper;
    }
    return null;
  };
  return walk(items, ["items"]);
}

/** A target as the header shows it: its name and address, or null when it is gone (deleted, unpublished). */
export interface ResolvedTarget {
  name: string;
  href: string;
}

export interface DisplayMenuItem {
  id: number;
  title: string;
  href: string;
  kind: MenuItemKind;
  mega: boolean;
  featured: boolean;
  /** For a featured product: its id, so the header can draw its card. */
  object_id: number | null;
  children: DisplayMenuItem[];
}

/** A stored item with its id, as the repository reads it. */
export type StoredMenuItem = MenuItem & { id: number; children: StoredMenuItem[] };

/**
 * What the header draws: each item with its title and address; an item whose target is gone is left out with
 * everything under it (docs: issue 17, 'a menu item pointing to a deleted page disappears').
 */
export function displayMenu(items: StoredMenuItem[], resolve: (item: StoredMenuItem) => ResolvedTarget | null): DisplayMenuItem[] {
  const out: DisplayMenuItem[] = [];
  for (const item of items) {
    const target = resolve(item);
    if (!target) continue;
    out.push({
      id: item.id,
      title: item.title || target.name,
      href: target.href,
      kind: item.kind,
      mega: item.mega,
      featured: item.featured,
      object_id: "object_id" in item ? item.object_id : null,
      children: displayMenu(item.children, resolve),
    });
  }
  return out;
}
