/** `menus` and `menu_items` (migration 0027): navigation menus as a tree of items (core/domain/menus). */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import { type MenuItem, type MenuPage, type MenuTargets, type StoredMenuItem } from "../../domain/menus/menus.ts";

export interface MenuRecord {
  id: number;
  name: string;
  slug: string;
  location: string | null;
  updatedAt: Date;
  items: StoredMenuItem[];
}

interface ItemRow {
  id: number;
  menu_id: number;
  parent_id: number | null;
  position: number;
  kind: string;
  object_id: number | null;
  target: string | null;
  title: string;
  options: unknown;
}

function toItem(row: ItemRow): StoredMenuItem {
  const options = (row.options ?? {}) as { mega?: boolean; featured?: boolean };
  const common = { id: row.id, title: row.title, mega: options.mega === true, featured: options.featured === true, children: [] as StoredMenuItem[] };
  switch (row.kind) {
    case "page":
      return { kind: "page", page: row.target as MenuPage, ...common };
    case "custom":
      return { kind: "custom", url: row.target ?? "", ...common };
    case "link_action":
      return { kind: "link_action", href: row.target ?? "", ...common };
    default:
      return { kind: row.kind as "product_cat" | "product" | "post", object_id: row.object_id ?? 0, ...common };
  }
}

/** The items of these menus as trees, by menu id. */
async function itemTrees(db: Queryable, menuIds: number[]): Promise<Map<number, StoredMenuItem[]>> {
  const trees = new Map<number, StoredMenuItem[]>(menuIds.map((id) => [id, []]));
  if (menuIds.length === 0) return trees;
  const rows = (await sql(db).selectFrom("menu_items").selectAll().where("menu_id", "in", menuIds).orderBy("position").orderBy("id").execute()) as ItemRow[];
  const byId = new Map(rows.map((r) => [r.id, toItem(r)]));
  for (const row of rows) {
    const item = byId.get(row.id)!;
    if (row.parent_id === null) trees.get(row.menu_id)!.push(item);
    else byId.get(row.parent_id)?.children.push(item);
  }
  return trees;
}

const menuColumns = ["id", "name", "slug", "location", "updated_at"] as const;
type MenuRow = { id: number; name: string; slug: string; location: string | null; updated_at: Date };

async function withItems(db: Queryable, rows: MenuRow[]): Promise<MenuRecord[]> {
  const trees = await itemTrees(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ id: r.id, name: r.name, slug: r.slug, location: r.location, updatedAt: r.updated_at, items: trees.get(r.id) ?? [] }));
}

export async function listMenus(db: Queryable, page: { limit: number; offset: number }): Promise<{ menus: MenuRecord[]; total: number }> {
  const b = sql(db);
  const [rows, count] = await Promise.all([
    b.selectFrom("menus").select(menuColumns).orderBy("id").limit(page.limit).offset(page.offset).execute(),
    b
      .selectFrom("menus")
      .select(raw<number>`count(*)::int`.as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { menus: await withItems(db, rows), total: count.n };
}

export async function findMenu(db: Queryable, id: number, forUpdate = false): Promise<MenuRecord | null> {
  let query = sql(db).selectFrom("menus").select(menuColumns).where("id", "=", id);
  if (forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? (await withItems(db, [row]))[0]! : null;
}

/** The menu at a location ('primary') or with that slug: what the header reads. */
export async function findMenuByPlace(db: Queryable, place: string): Promise<MenuRecord | null> {
  const row = await sql(db)
    .selectFrom("menus")
    .select(menuColumns)
    .where((eb) => eb.or([eb("location", "=", place), eb("slug", "=", place)]))
    .orderBy(raw`location IS NULL`)
    .limit(1)
    .executeTakeFirst();
  return row ? (await withItems(db, [row]))[0]! : null;
}

/** The menus at these locations, by location (one statement for the menus and one for their items, however many). */
export async function findMenusAtLocations(db: Queryable, locations: string[]): Promise<Map<string, MenuRecord>> {
  const rows = await sql(db).selectFrom("menus").select(menuColumns).where("location", "in", locations).execute();
  return new Map((await withItems(db, rows)).map((m) => [m.location!, m]));
}

/** Whether a slug is taken by another menu than `exceptId`. */
export async function menuSlugTaken(db: Queryable, slug: string, exceptId = 0): Promise<boolean> {
  const row = await sql(db).selectFrom("menus").select("id").where("slug", "=", slug).where("id", "<>", exceptId).executeTakeFirst();
  return row !== undefined;
}

/** A location belongs to one menu: giving it to this one takes it from the other (as WordPress's theme locations). */
async function claimLocation(db: Queryable, location: string | null | undefined, menuId: number): Promise<void> {
  if (location) await sql(db).updateTable("menus").set({ location: null }).where("location", "=", location).where("id", "<>", menuId).execute();
}

export async function insertMenu(db: Queryable, menu: { name: string; slug: string; location: string | null }): Promise<number> {
  await claimLocation(db, menu.location, 0);
  const row = await sql(db).insertInto("menus").values({ name: menu.name, slug: menu.slug, location: menu.location }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function updateMenu(db: Queryable, id: number, fields: { name?: string; slug?: string; location?: string | null }): Promise<void> {
  await claimLocation(db, fields.location, id);
  await sql(db)
    .updateTable("menus")
    .set({ ...fields, updated_at: raw`now()` })
    .where("id", "=", id)
    .execute();
}

/** Replaces a menu's items with this tree (positions are the order among siblings). */
export async function replaceMenuItems(db: Queryable, menuId: number, items: MenuItem[]): Promise<void> {
  await sql(db).deleteFrom("menu_items").where("menu_id", "=", menuId).execute();
  const insert = async (list: MenuItem[], parentId: number | null) => {
    for (const [position, item] of list.entries()) {
      const row = await sql(db)
        .insertInto("menu_items")
        .values({
          menu_id: menuId,
          parent_id: parentId,
          position,
          kind: item.kind,
          object_id: "object_id" in item ? item.object_id : null,
          target: item.kind === "page" ? item.page : item.kind === "custom" ? item.url : item.kind === "link_action" ? item.href : null,
          title: item.title,
          options: JSON.stringify({ ...(item.mega ? { mega: true } : {}), ...(item.featured ? { featured: true } : {}) }),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await insert(item.children, row.id);
    }
  };
  await insert(items, null);
}

export async function deleteMenu(db: Queryable, id: number): Promise<boolean> {
  const rows = await sql(db).deleteFrom("menus").where("id", "=", id).returning("id").execute();
  return rows.length > 0;
}

/** Which of the targets exist (any status: a draft product may be linked before it is published). */
export async function existingMenuTargets(db: Queryable, targets: MenuTargets): Promise<(kind: keyof MenuTargets, id: number) => boolean> {
  const b = sql(db);
  const ids = async (list: number[], query: (ids: number[]) => Promise<{ id: number }[]>) => new Set(list.length ? (await query(list)).map((r) => r.id) : []);
  const [cats, products, posts, popups] = await Promise.all([
    ids(targets.product_cat, (l) => b.selectFrom("terms").select("id").where("taxonomy", "=", "product_cat").where("id", "in", l).execute()),
    ids(targets.product, (l) => b.selectFrom("products").select("id").where("id", "in", l).execute()),
    ids(targets.post, (l) => b.selectFrom("posts").select("id").where("id", "in", l).execute()),
    ids(targets.popup, (l) => b.selectFrom("popups").select("id").where("id", "in", l).execute()),
  ]);
  const sets = { product_cat: cats, product: products, post: posts, popup: popups };
  return (kind, id) => sets[kind].has(id);
}

/** Names and addresses of the published targets (what the header may link to), by kind and id. */
export async function publishedMenuTargets(
  db: Queryable,
  targets: MenuTargets,
): Promise<{
  product_cat: Map<number, { name: string; href: string }>;
  product: Map<number, { name: string; href: string }>;
  post: Map<number, { name: string; href: string }>;
  popup: Set<number>;
}> {
  const b = sql(db);
  const [cats, products, posts, popups] = await Promise.all([
    targets.product_cat.length
      ? b.selectFrom("terms").select(["id", "name", "slug"]).where("taxonomy", "=", "product_cat").where("id", "in", targets.product_cat).execute()
      : [],
    targets.product.length
      ? b.selectFrom("products").select(["id", "name", "slug"]).where("status", "=", "publish").where("id", "in", targets.product).execute()
      : [],
    targets.post.length
      ? b.selectFrom("posts").select(["id", "title as name", "slug", "type"]).where("status", "=", "publish").where("id", "in", targets.post).execute()
      : [],
    targets.popup.length ? b.selectFrom("popups").select("id").where("id", "in", targets.popup).execute() : [],
  ]);
  const map = (rows: { id: number; name: string; slug: string }[], href: (slug: string) => string) =>
    new Map(rows.map((r) => [r.id, { name: r.name, href: href(encodeURIComponent(r.slug)) }]));
  return {
    product_cat: map(cats, (s) => `/product-category/${s}/`),
    product: map(products, (s) => `/product/${s}/`),
    // A post is on the blog; a page (wp/v2/pages) at its own slug (app/routes/page.tsx).
    post: new Map(
      posts.map((r) => [r.id, { name: r.name, href: r.type === "page" ? `/${encodeURIComponent(r.slug)}/` : `/blog/${encodeURIComponent(r.slug)}/` }]),
    ),
    popup: new Set(popups.map((r) => r.id)),
  };
}
