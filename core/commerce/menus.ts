/**
 * Menus edited by staff and read by the header (docs/contract/rest/shop-v1.md 'Menus'). A write is validated by the
 * domain's schema (core/domain/menus), its targets must exist, and it runs in one transaction with its `onSaved`
 * step (the audit line); the items are replaced as a whole tree. `headerMenu` is what the header (issue 17) reads:
 * items whose target has gone are left out.
 */
import type { z } from "zod";
import type { Db, Queryable } from "../db/client.ts";
import { lockKey } from "../db/repositories/locks.ts";
import {
  MENU_PAGES,
  displayMenu,
  menuPatchSchema,
  menuSchema,
  menuSlug,
  menuTargets,
  missingTarget,
  type DisplayMenuItem,
  type MenuInput,
  type StoredMenuItem,
} from "../domain/menus/menus.ts";
import { parseLinkAction } from "../domain/popups/link-actions.ts";
import {
  deleteMenu,
  existingMenuTargets,
  findMenu,
  findMenuByPlace,
  findMenusAtLocations,
  insertMenu,
  menuSlugTaken,
  publishedMenuTargets,
  replaceMenuItems,
  updateMenu,
  type MenuRecord,
} from "../db/repositories/menus.ts";

/** A refusal: the zod error of the schema, or one problem at a path (a missing target, a taken slug). */
export type MenuWrite =
  | { ok: true; menu: MenuRecord; before: MenuRecord | null }
  | { ok: false; reason: "invalid"; error: z.ZodError }
  | { ok: false; reason: "problem"; path: (string | number)[]; message: string }
  | { ok: false; reason: "not_found" };

type OnSaved = (tx: Queryable, before: MenuRecord | null, after: MenuRecord) => Promise<void>;

async function uniqueSlug(tx: Queryable, base: string, exceptId: number): Promise<string> {
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base.slice(0, 60)}-${n}`;
    if (!(await menuSlugTaken(tx, slug, exceptId))) return slug;
  }
}

export async function createMenu(db: Db, input: unknown, onSaved: OnSaved): Promise<MenuWrite> {
  const parsed = menuSchema.safeParse(input);
  if (!parsed.success) return { ok: false, reason: "invalid", error: parsed.error };
  const menu: MenuInput = parsed.data;
  return db.transaction(async (tx): Promise<MenuWrite> => {
    const missing = missingTarget(menu.items, await existingMenuTargets(tx, menuTargets(menu.items)));
    if (missing) return { ok: false, reason: "problem", ...missing };
    await lockKey(tx, "menus.slug"); // the free slug and its insert, one writer at a time
    if (menu.slug && (await menuSlugTaken(tx, menu.slug))) return { ok: false, reason: "problem", path: ["slug"], message: "is taken by another menu" };
    const slug = menu.slug ?? (await uniqueSlug(tx, menuSlug(menu.name), 0));
    const id = await insertMenu(tx, { name: menu.name, slug, location: menu.location ?? null });
    await replaceMenuItems(tx, id, menu.items);
    const saved = (await findMenu(tx, id))!;
    await onSaved(tx, null, saved);
    return { ok: true, menu: saved, before: null };
  });
}

/** Changes the fields given; `items`, when given, replaces the whole tree. */
export async function changeMenu(db: Db, id: number, input: unknown, onSaved: OnSaved): Promise<MenuWrite> {
  const parsed = menuPatchSchema.safeParse(input);
  if (!parsed.success) return { ok: false, reason: "invalid", error: parsed.error };
  const patch = parsed.data;
  return db.transaction(async (tx): Promise<MenuWrite> => {
    const before = await findMenu(tx, id, true);
    if (!before) return { ok: false, reason: "not_found" };
    if (patch.items) {
      const missing = missingTarget(patch.items, await existingMenuTargets(tx, menuTargets(patch.items)));
      if (missing) return { ok: false, reason: "problem", ...missing };
    }
    if (patch.slug) await lockKey(tx, "menus.slug");
    if (patch.slug && (await menuSlugTaken(tx, patch.slug, id))) return { ok: false, reason: "problem", path: ["slug"], message: "is taken by another menu" };
    const { items, ...fields } = patch;
    await updateMenu(tx, id, fields);
    if (items) await replaceMenuItems(tx, id, items);
    const saved = (await findMenu(tx, id))!;
    await onSaved(tx, before, saved);
    return { ok: true, menu: saved, before };
  });
}

export async function removeMenu(db: Db, id: number, onDeleted: (tx: Queryable, before: MenuRecord) => Promise<void>): Promise<MenuRecord | null> {
  return db.transaction(async (tx) => {
    const before = await findMenu(tx, id, true);
    if (!before || !(await deleteMenu(tx, id))) return null;
    await onDeleted(tx, before);
    return before;
  });
}

/**
 * The menu at a location or with a slug, as the header draws it: titles filled from the targets, addresses made,
 * and every item whose target is gone (deleted, unpublished, a popup removed) left out with what is under it.
 */
export async function headerMenu(db: Queryable, place: string): Promise<{ name: string; items: DisplayMenuItem[] } | null> {
  const menu = await findMenuByPlace(db, place);
  if (!menu) return null;
  return resolveMenu(menu, await publishedMenuTargets(db, menuTargets(menu.items)));
}

/**
 * The menus at these locations as `headerMenu` makes them (the header's and the footer's, read by every page), in a
 * fixed number of statements whatever the count: one for the menus, one for their items, one per kind of target.
 */
export async function menusAtLocations(db: Queryable, locations: string[]): Promise<Map<string, { name: string; items: DisplayMenuItem[] }>> {
  const menus = await findMenusAtLocations(db, locations);
  if (menus.size === 0) return new Map();
  const published = await publishedMenuTargets(db, menuTargets([...menus.values()].flatMap((m) => m.items)));
  return new Map([...menus].map(([location, menu]) => [location, resolveMenu(menu, published)]));
}

function resolveMenu(menu: MenuRecord, published: Awaited<ReturnType<typeof publishedMenuTargets>>): { name: string; items: DisplayMenuItem[] } {
  const resolve = (item: StoredMenuItem) => {
    switch (item.kind) {
      case "page":
        return MENU_PAGES[item.page] ?? null;
      case "custom":
        return { name: item.url, href: item.url };
      case "link_action": {
        const action = parseLinkAction(item.href);
        if (action?.action === "popup:open" && !published.popup.has(action.id)) return null;
        return { name: "", href: item.href };
      }
      default:
        return published[item.kind].get(item.object_id) ?? null;
    }
  };
  return { name: menu.name, items: displayMenu(menu.items, resolve) };
}
