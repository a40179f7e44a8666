/**
 * Cart storage: one cart per guest session or per customer, lines keyed by
 * cart_item_key. Only SQL lives here; the rules are in core/commerce/cart.ts.
 */
import type { ExpressionBuilder } from "kysely";
import type { Queryable } from "../client.ts";
import { raw, sql, type DB } from "../kysely.ts";
import type { Media, Products, Variations } from "../schema.ts";
import type { CartItemData, CartOwner } from "../../domain/cart/types.ts";
import type { ProductKind } from "../../domain/catalog/index.ts";
import { shopPrice } from "../../domain/catalog/product-kinds.ts";

export interface CartRecord {
  id: number;
  coupons: string[];
  shippingMethod: string | null;
  createdAt: Date;
}

export interface CartItemRecord {
  key: string;
  productId: number;
  variationId: number;
  variation: Record<string, string>;
  itemData: CartItemData;
  quantity: number;
}

/** The carts row of an owner: `customer_id` or `session_id`. */
const ownerColumn = (owner: CartOwner) =>
  "customerId" in owner ? ({ column: "customer_id", value: owner.customerId } as const) : ({ column: "session_id", value: owner.sessionId } as const);

interface CartRow {
  id: number;
  coupons: string[] | null;
  shipping_method: string | null;
  created_at: Date | string;
}
const toCart = (r: CartRow): CartRecord => ({ id: r.id, coupons: r.coupons ?? [], shippingMethod: r.shipping_method, createdAt: new Date(r.created_at) });

export async function findCart(db: Queryable, owner: CartOwner, lock = false): Promise<CartRecord | null> {
  const { column, value } = ownerColumn(owner);
  const row = await sql(db)
    .selectFrom("carts")
    .select(["id", "coupons", "shipping_method", "created_at"])
    .where(column, "=", value)
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();
  return row ? toCart(row) : null;
}

/** The owner's cart, created if missing, locked for the rest of the transaction. */
export async function lockOrCreateCart(tx: Queryable, owner: CartOwner): Promise<CartRecord> {
  // Most changes find the cart: one query. A first add inserts (a racing insert waits on the unique key, then does nothing).
  const found = await findCart(tx, owner, true);
  if (found) return found;
  const { column, value } = ownerColumn(owner);
  await sql(tx)
    .insertInto("carts")
    .values(column === "customer_id" ? { customer_id: value as number } : { session_id: value as string })
    .onConflict((oc) => oc.column(column).doNothing())
    .execute();
  const cart = await findCart(tx, owner, true);
  if (!cart) throw new Error("cart vanished while being created");
  return cart;
}

interface ItemRow {
  item_key: string;
  product_id: number;
  variation_id: number;
  variation: unknown;
  item_data: unknown;
  quantity: number;
}
const toItem = (r: ItemRow): CartItemRecord => ({
  key: r.item_key,
  productId: r.product_id,
  variationId: r.variation_id,
  variation: (r.variation as Record<string, string> | null) ?? {},
  itemData: (r.item_data as CartItemData | null) ?? {},
  quantity: r.quantity,
});

export async function cartItems(db: Queryable, cartId: number): Promise<CartItemRecord[]> {
  const rows = await sql(db)
    .selectFrom("cart_items")
    .select(["item_key", "product_id", "variation_id", "variation", "item_data", "quantity"])
    .where("cart_id", "=", cartId)
    .orderBy("position")
    .execute();
  return rows.map(toItem);
}

/**
 * A live session by id with its guest cart's lines, in one query: what the page cache reads per hit of a shopper with
 * a cart (core/commerce/kept-pages.ts). null when there is no such session (or it expired). A signed-in customer's
 * cart is not read (`lines` empty): their session never fits a kept page.
 */
export async function sessionWithGuestCartLines(
  db: Queryable,
  sessionId: string,
  now: Date,
): Promise<{ customerId: number | null; data: Record<string, unknown>; lines: CartItemRecord[] } | null> {
  const rows = await sql(db)
    .selectFrom("sessions as s")
    .leftJoin("carts as c", "c.session_id", "s.id")
    .leftJoin("cart_items as ci", "ci.cart_id", "c.id")
    .select(["s.customer_id", "s.data", "ci.item_key", "ci.product_id", "ci.variation_id", "ci.variation", "ci.item_data", "ci.quantity"])
    .where("s.id", "=", sessionId)
    .where("s.expires_at", ">", now)
    .orderBy("ci.position")
    .execute();
  const first = rows[0];
  if (!first) return null;
  const lines: CartItemRecord[] = [];
  for (const r of rows)
    if (r.item_key !== null)
      lines.push(
        toItem({
          item_key: r.item_key,
          product_id: r.product_id!,
          variation_id: r.variation_id!,
          variation: r.variation,
          item_data: r.item_data,
          quantity: r.quantity!,
        }),
      );
  return { customerId: first.customer_id, data: (first.data as Record<string, unknown> | null) ?? {}, lines };
}

/** Adds quantity atomically: a second add of the same line sums, never overwrites. Returns the new quantity. */
export async function addItem(tx: Queryable, cartId: number, item: CartItemRecord): Promise<number> {
  // The upsert and the cart's updated_at in one statement.
  const row = await sql(tx)
    .with("up", (db) =>
      db
        .insertInto("cart_items")
        .values({
          cart_id: cartId,
          item_key: item.key,
          product_id: item.productId,
          variation_id: item.variationId,
          variation: JSON.stringify(item.variation),
          item_data: JSON.stringify(item.itemData),
          quantity: item.quantity,
        })
        .onConflict((oc) =>
          oc.columns(["cart_id", "item_key"]).doUpdateSet((eb) => ({ quantity: eb("cart_items.quantity", "+", eb.ref("excluded.quantity")) })),
        )
        .returning("quantity"),
    )
    .with("touched", (db) =>
      db
        .updateTable("carts")
        .set({ updated_at: raw`now()` })
        .where("id", "=", cartId)
        .returning("id"),
    )
    .selectFrom("up")
    .select("quantity")
    .executeTakeFirstOrThrow();
  return row.quantity;
}

export async function setItemQuantity(tx: Queryable, cartId: number, key: string, quantity: number): Promise<boolean> {
  const db = sql(tx);
  const rows =
    quantity <= 0
      ? await db.deleteFrom("cart_items").where("cart_id", "=", cartId).where("item_key", "=", key).returning("item_key").execute()
      : await db.updateTable("cart_items").set({ quantity }).where("cart_id", "=", cartId).where("item_key", "=", key).returning("item_key").execute();
  await touch(tx, cartId);
  return rows.length > 0;
}

export async function deleteItem(tx: Queryable, cartId: number, key: string): Promise<boolean> {
  return setItemQuantity(tx, cartId, key, 0);
}

export async function deleteAllItems(tx: Queryable, cartId: number): Promise<void> {
  await sql(tx).deleteFrom("cart_items").where("cart_id", "=", cartId).execute();
  await sql(tx)
    .updateTable("carts")
    .set({ coupons: raw`'{}'`, updated_at: raw`now()` })
    .where("id", "=", cartId)
    .execute();
}

export async function setCoupons(tx: Queryable, cartId: number, coupons: string[]): Promise<void> {
  await sql(tx)
    .updateTable("carts")
    .set({ coupons, updated_at: raw`now()` })
    .where("id", "=", cartId)
    .execute();
}

export async function setShippingMethod(tx: Queryable, cartId: number, methodId: string): Promise<void> {
  await sql(tx)
    .updateTable("carts")
    .set({ shipping_method: methodId, updated_at: raw`now()` })
    .where("id", "=", cartId)
    .execute();
}

export async function deleteCart(tx: Queryable, cartId: number): Promise<void> {
  await sql(tx).deleteFrom("carts").where("id", "=", cartId).execute();
}

async function touch(tx: Queryable, cartId: number): Promise<void> {
  await sql(tx)
    .updateTable("carts")
    .set({ updated_at: raw`now()` })
    .where("id", "=", cartId)
    .execute();
}

// ---------------------------------------------------------------------------------------------------
// What the cart needs to know about its products (one query for all lines)
// ---------------------------------------------------------------------------------------------------

export interface SellableRecord {
  productId: number;
  variationId: number;
  type: ProductKind;
  slug: string;
  name: string;
  sku: string;
  published: boolean;
  regularPrice: number | null;
  salePrice: number | null;
  stockQuantity: number | null;
  stockStatus: "instock" | "outofstock" | "onbackorder";
  imageSlug: string | null;
  details: Record<string, unknown>;
  categorySlugs: string[];
  categoryIds: number[];
  /** Variations: the variation's own attributes ('' = any). */
  variationAttributes: Record<string, string> | null;
  /** The product's attributes and their option slugs. */
  attributes: { name: string; options: string[] }[];
  /** WooCommerce's `virtual` (the product's, or the variation's own): nothing to ship. */
  virtual: boolean;
}

type Nullable<T> = { [K in keyof T]: T[K] | null };
/** The tables a sellable row is read from: the product `p`, its variation `v` (if any), the variation's image `vm`, and `cats`. */
type SellableScope = DB & {
  p: Nullable<Products>;
  v: Nullable<Variations>;
  vm: Nullable<Media>;
  cats: { cat_slugs: string[] | null; cat_ids: number[] | null };
};

/** The product's categories, as a lateral join named `cats` (one pass for both arrays). */
const categoriesOf = (eb: ExpressionBuilder<DB & { p: Nullable<Products> }, "p">) =>
  eb
    .selectFrom("product_terms as pt")
    .innerJoin("terms as t", "t.id", "pt.term_id")
    .select((e) => [e.fn.agg<string[] | null>("array_agg", ["t.slug"]).as("cat_slugs"), e.fn.agg<number[] | null>("array_agg", ["t.id"]).as("cat_ids")])
    .whereRef("pt.product_id", "=", "p.id")
    .where("t.taxonomy", "=", "product_cat")
    .as("cats");

/**
 * What the cart needs of a product or variation row (`p`, `v`, `vm` and `cats` in the FROM clause). The callers'
 * scopes differ in which of those are outer-joined, hence the widening cast at each call.
 */
function sellableColumns(eb: ExpressionBuilder<SellableScope, "p" | "v" | "vm" | "cats">) {
  return [
    "p.id as product_id",
    "v.id as variation_id",
    "p.type",
    "p.slug",
    "p.name",
    "p.sku",
    "v.sku as v_sku",
    "p.status",
    "v.status as v_status",
    eb.case().when("v.id", "is", null).then(eb.ref("p.regular_price")).else(eb.ref("v.regular_price")).end().as("regular_price"),
    eb.case().when("v.id", "is", null).then(eb.ref("p.sale_price")).else(eb.ref("v.sale_price")).end().as("sale_price"),
    eb.case().when("v.id", "is", null).then(eb.ref("p.stock_quantity")).else(eb.ref("v.stock_quantity")).end().as("stock_quantity"),
    eb.case().when("v.id", "is", null).then(eb.ref("p.stock_status")).else(eb.ref("v.stock_status")).end().as("stock_status"),
    "v.attributes as v_attributes",
    "p.attributes",
    "p.details",
    eb.fn
      .coalesce(
        "vm.slug",
        eb
          .selectFrom("media as m")
          .select("m.slug")
          .where("m.id", "=", raw<number>`${eb.ref("p.image_ids")}[1]`),
      )
      .as("image_slug"),
    "cats.cat_slugs",
    "cats.cat_ids",
    raw<boolean>`coalesce((coalesce(${eb.ref("v.rest_fields")}, ${eb.ref("p.rest_fields")}) ->> 'virtual')::boolean, false)`.as("virtual"),
  ] as const;
}

interface SellableRow {
  product_id: number | null;
  variation_id: number | null;
  type: string | null;
  slug: string | null;
  name: string | null;
  sku: string | null;
  v_sku: string | null;
  status: string | null;
  v_status: string | null;
  regular_price: number | null;
  sale_price: number | null;
  stock_quantity: number | null;
  stock_status: string | null;
  v_attributes: unknown;
  attributes: unknown;
  image_slug: string | null;
  details: unknown;
  cat_slugs: string[] | null;
  cat_ids: number[] | null;
  virtual: boolean;
}

function toSellable(r: SellableRow): SellableRecord {
  return {
    productId: r.product_id!,
    variationId: r.variation_id ?? 0,
    type: r.type as ProductKind,
    slug: r.slug!,
    name: r.name!,
    sku: r.v_sku ?? r.sku ?? "",
    published: r.status === "publish" && (r.variation_id === null || r.v_status === "publish"),
    regularPrice: r.regular_price,
    salePrice: r.sale_price,
    stockQuantity: r.stock_quantity,
    stockStatus: r.stock_status as SellableRecord["stockStatus"],
    imageSlug: r.image_slug,
    details: (r.details as Record<string, unknown> | null) ?? {},
    categorySlugs: r.cat_slugs ?? [],
    categoryIds: r.cat_ids ?? [],
    variationAttributes: r.v_attributes as Record<string, string> | null,
    attributes: (r.attributes as { name: string; options: string[] }[] | null) ?? [],
    virtual: r.virtual === true,
  };
}

/** Widens a query's expression builder to the sellable scope (same aliases, outer-joined or not). */
const asSellableScope = (eb: unknown) => eb as ExpressionBuilder<SellableScope, "p" | "v" | "vm" | "cats">;

/**
 * Products and variations by (product id, variation id or 0). A variation row carries its own price,
 * stock and image, falling back to the parent's image.
 */
export async function sellables(db: Queryable, pairs: readonly { productId: number; variationId: number }[]): Promise<Map<string, SellableRecord>> {
  const out = new Map<string, SellableRecord>();
  if (pairs.length === 0) return out;
  const productIds = pairs.map((p) => p.productId);
  const variationIds = pairs.map((p) => p.variationId);
  const rows = await sql(db)
    .selectFrom(raw<{ pid: number; vid: number }>`unnest(${productIds}::int[], ${variationIds}::int[])`.as<"want">(raw`want(pid, vid)`))
    .innerJoin("products as p", "p.id", "want.pid")
    .leftJoin("variations as v", (j) => j.onRef("v.id", "=", "want.vid").onRef("v.product_id", "=", "p.id"))
    .leftJoin("media as vm", "vm.id", "v.image_id")
    .leftJoinLateral(categoriesOf, (j) => j.onTrue())
    .select((eb) => sellableColumns(asSellableScope(eb)))
    .where((eb) => eb.or([eb("want.vid", "=", 0), eb("v.id", "is not", null)]))
    .execute();
  for (const r of rows) {
    const rec = toSellable(r);
    out.set(`${rec.productId}:${rec.variationId}`, rec);
  }
  return out;
}

export interface CartSnapshot {
  cart: CartRecord;
  items: CartItemRecord[];
  /** By `${productId}:${variationId}`; a line whose product or variation is gone has no entry. */
  sellables: Map<string, SellableRecord>;
  /** Names of the lines' attribute terms, as termNames() gives them: `${taxonomy}:${slug}` → name. */
  termNames: Map<string, string>;
}

/**
 * The owner's cart, its lines and their products in ONE query: what every page's header and every
 * fragment refresh reads. null when the owner has no cart.
 */
export async function cartSnapshot(db: Queryable, owner: CartOwner): Promise<CartSnapshot | null> {
  const { column, value } = ownerColumn(owner);
  const rows = await sql(db)
    .selectFrom("carts as c")
    .leftJoin("cart_items as ci", "ci.cart_id", "c.id")
    .leftJoin("products as p", "p.id", "ci.product_id")
    .leftJoin("variations as v", (j) => j.onRef("v.id", "=", "ci.variation_id").on("ci.variation_id", "<>", 0).onRef("v.product_id", "=", "p.id"))
    .leftJoin("media as vm", "vm.id", "v.image_id")
    .leftJoinLateral(categoriesOf, (j) => j.onTrue())
    .select((eb) => [
      "c.id",
      "c.coupons",
      "c.shipping_method",
      "c.created_at",
      "ci.item_key",
      "ci.product_id as item_product_id",
      "ci.variation_id as item_variation_id",
      "ci.variation",
      "ci.item_data",
      "ci.quantity",
      // The names of the line's attribute terms, by attribute field.
      eb
        .selectFrom(raw<{ key: string; value: string }>`jsonb_each_text(${eb.ref("ci.variation")})`.as("a"))
        .innerJoin("terms as t", (j) =>
          j.on("t.taxonomy", "=", (e) => e.fn("replace", ["a.key", e.val("attribute_"), e.val("")])).onRef("t.slug", "=", "a.value"),
        )
        .select((e) => e.fn.agg<Record<string, string> | null>("jsonb_object_agg", ["a.key", "t.name"]).as("term_names"))
        .as("term_names"),
      eb.and([eb("p.id", "is not", null), eb.or([eb("ci.variation_id", "=", 0), eb("v.id", "is not", null)])]).as("has_product"),
      ...sellableColumns(asSellableScope(eb)),
    ])
    .where(`c.${column}`, "=", value)
    .orderBy("ci.position")
    .execute();
  const first = rows[0];
  if (!first) return null;
  const items: CartItemRecord[] = [];
  const sellablesOut = new Map<string, SellableRecord>();
  const names = new Map<string, string>();
  for (const r of rows) {
    if (!r.item_key) continue;
    const variation = (r.variation as Record<string, string> | null) ?? {};
    for (const [field, name] of Object.entries(r.term_names ?? {})) names.set(`${field.replace(/^attribute_/, "")}:${variation[field]}`, name);
    items.push(
      toItem({
        item_key: r.item_key,
        product_id: r.item_product_id!,
        variation_id: r.item_variation_id!,
        variation: r.variation,
        item_data: r.item_data,
        quantity: r.quantity!,
      }),
    );
    if (r.has_product) {
      const rec = toSellable(r);
      sellablesOut.set(`${rec.productId}:${rec.variationId}`, rec);
    }
  }
  return { cart: toCart(first), items, sellables: sellablesOut, termNames: names };
}

/** A product id that may be a variation: its parent and attributes (WooCommerce resolves add_to_cart of a variation id). */
export async function resolveVariationId(db: Queryable, id: number): Promise<{ productId: number; attributes: Record<string, string> } | null> {
  const row = await sql(db).selectFrom("variations").select(["product_id", "attributes"]).where("id", "=", id).executeTakeFirst();
  return row ? { productId: row.product_id, attributes: row.attributes as Record<string, string> } : null;
}

export async function variationsOf(
  db: Queryable,
  productId: number,
): Promise<{ id: number; attributes: Record<string, string>; inStock: boolean; stockQuantity: number | null; published: boolean }[]> {
  const rows = await sql(db)
    .selectFrom("variations")
    .select(["id", "attributes", "stock_status", "stock_quantity", "status"])
    .where("product_id", "=", productId)
    .orderBy("menu_order")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    attributes: r.attributes as Record<string, string>,
    inStock: r.stock_status !== "outofstock",
    stockQuantity: r.stock_quantity,
    published: r.status === "publish",
  }));
}

export async function productIdByDownloadId(db: Queryable, downloadId: number): Promise<number | null> {
  const row = await sql(db)
    .selectFrom("products")
    .select("id")
    .where("type", "=", "downloadable")
    .where(raw<string>`details->>'downloadId'`, "=", String(downloadId))
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Name, shopper price and managed stock (null = not managed) of products by slug: a bundle's contents. */
export async function productPricesBySlug(
  db: Queryable,
  slugs: string[],
): Promise<Map<string, { id: number; name: string; price: number; stockQuantity: number | null }>> {
  if (!slugs.length) return new Map();
  const rows = await sql(db)
    .selectFrom("products")
    .select(["id", "slug", "name", "regular_price", "sale_price", "stock_quantity"])
    .where("slug", "in", slugs)
    .execute();
  return new Map(
    rows.map((r) => [
      r.slug,
      {
        id: r.id,
        name: r.name,
        price: shopPrice(r.regular_price, r.sale_price),
        stockQuantity: r.stock_quantity,
      },
    ]),
  );
}

export async function groupedChildIds(db: Queryable, productId: number): Promise<number[]> {
  const rows = await sql(db)
    .selectFrom("product_links")
    .select("linked_id")
    .where("product_id", "=", productId)
    .where("kind", "=", "grouped_child")
    .orderBy("position")
    .execute();
  return rows.map((r) => r.linked_id);
}

export async function crossSellIds(db: Queryable, productIds: number[]): Promise<number[]> {
  if (!productIds.length) return [];
  const rows = await sql(db)
    .selectFrom("product_links")
    .select("linked_id")
    .distinct()
    .where("product_id", "in", productIds)
    .where("kind", "=", "cross_sell")
    .where("linked_id", "not in", productIds)
    .execute();
  return rows.map((r) => r.linked_id);
}

export async function termNames(db: Queryable, pairs: { taxonomy: string; slug: string }[]): Promise<Map<string, string>> {
  if (!pairs.length) return new Map();
  const taxonomies = pairs.map((p) => p.taxonomy);
  const slugs = pairs.map((p) => p.slug);
  const rows = await sql(db)
    .selectFrom("terms as t")
    .innerJoin(raw<{ tax: string; slug: string }>`unnest(${taxonomies}::text[], ${slugs}::text[])`.as<"w">(raw`w(tax, slug)`), (j) =>
      j.onRef("t.taxonomy", "=", "w.tax").onRef("t.slug", "=", "w.slug"),
    )
    .select(["t.taxonomy", "t.slug", "t.name"])
    .execute();
  return new Map(rows.map((r) => [`${r.taxonomy}:${r.slug}`, r.name]));
}

/** Labels for free-item choices by product or variation id ("Velvet Bow Tie – Red"). */
export async function productChoiceLabels(db: Queryable, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const q = sql(db);
  const rows = await q
    .selectFrom("variations as v")
    .innerJoin("products as p", "p.id", "v.product_id")
    .select((eb) => [
      "v.id",
      eb(
        eb("p.name", "||", eb.val(" – ")),
        "||",
        eb.fn.coalesce(
          eb
            .selectFrom(raw<{ key: string; value: string }>`jsonb_each_text(${eb.ref("v.attributes")})`.as("a"))
            .leftJoin("terms as t", (j) =>
              j.on("t.taxonomy", "=", (e) => e.fn("replace", ["a.key", e.val("attribute_"), e.val("")])).onRef("t.slug", "=", "a.value"),
            )
            .select((e) => e.fn.agg<string>("string_agg", [e.fn.coalesce("t.name", "a.value"), e.val(", ")]).as("names"))
            .where("a.value", "<>", ""),
          eb.val(""),
        ),
      ).as("label"),
    ])
    .where("v.id", "in", ids)
    .unionAll(q.selectFrom("products").select(["id", "name as label"]).where("id", "in", ids))
    .execute();
  return new Map(rows.map((r) => [r.id, r.label as string]));
}
