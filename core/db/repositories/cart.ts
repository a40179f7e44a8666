/**
 * Cart storage: one cart per guest session or per customer, lines keyed by
 * cart_item_key. Only SQL lives here; the rules are in core/commerce/cart.ts.
 */
import type { Queryable } from "../client.ts";

/** Whose cart: a customer's (signed in) or a guest session's. */
export type CartOwner = { customerId: number } | { sessionId: string };

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

/** What makes two lines of the same product different. */
export interface CartItemData {
  /** Bundle: ticked optional bundled_item_ids, sorted. */
  bundleOptional?: number[];
  /** Downloadable with several prices: the chosen price option. */
  priceIndex?: number;
  /** A free item given by a buy-X-get-Y rule. */
  freeItem?: string;
}

const ownerWhere = (owner: CartOwner): [string, unknown] =>
  "customerId" in owner ? ["customer_id = $1", owner.customerId] : ["session_id = $1", owner.sessionId];

interface CartRow {
  id: number;
  coupons: string[];
  shipping_method: string | null;
  created_at: Date | string;
}
const toCart = (r: CartRow): CartRecord => ({ id: r.id, coupons: r.coupons ?? [], shippingMethod: r.shipping_method, createdAt: new Date(r.created_at) });

export async function findCart(db: Queryable, owner: CartOwner, lock = false): Promise<CartRecord | null> {
  const [where, value] = ownerWhere(owner);
  const [row] = await db.query<CartRow>(`SELECT id, coupons, shipping_method, created_at FROM carts WHERE ${where}${lock ? " FOR UPDATE" : ""}`, [value]);
  return row ? toCart(row) : null;
}

/** The owner's cart, created if missing, locked for the rest of the transaction. */
export async function lockOrCreateCart(tx: Queryable, owner: CartOwner): Promise<CartRecord> {
  // Most changes find the cart: one query. A first add inserts (a racing insert waits on the unique key, then does nothing).
  const found = await findCart(tx, owner, true);
  if (found) return found;
  const column = "customerId" in owner ? "customer_id" : "session_id";
  const value = "customerId" in owner ? owner.customerId : owner.sessionId;
  await tx.query(`INSERT INTO carts (${column}) VALUES ($1) ON CONFLICT (${column}) DO NOTHING`, [value]);
  const cart = await findCart(tx, owner, true);
  if (!cart) throw new Error("cart vanished while being created");
  return cart;
}

interface ItemRow {
  item_key: string;
  product_id: number;
  variation_id: number;
  variation: Record<string, string>;
  item_data: CartItemData;
  quantity: number;
}
const toItem = (r: ItemRow): CartItemRecord => ({
  key: r.item_key,
  productId: r.product_id,
  variationId: r.variation_id,
  variation: r.variation ?? {},
  itemData: r.item_data ?? {},
  quantity: r.quantity,
});

export async function cartItems(db: Queryable, cartId: number): Promise<CartItemRecord[]> {
  const rows = await db.query<ItemRow>(`SELECT item_key, product_id, variation_id, variation, item_data, quantity FROM cart_items WHERE cart_id = $1 ORDER BY position`, [cartId]);
  return rows.map(toItem);
}

/** Adds quantity atomically: a second add of the same line sums, never overwrites. Returns the new quantity. */
export async function addItem(tx: Queryable, cartId: number, item: CartItemRecord): Promise<number> {
  // The upsert and the cart's updated_at in one statement.
  const [row] = await tx.query<{ quantity: number }>(
    `WITH up AS (
       INSERT INTO cart_items (cart_id, item_key, product_id, variation_id, variation, item_data, quantity)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (cart_id, item_key) DO UPDATE SET quantity = cart_items.quantity + EXCLUDED.quantity
       RETURNING quantity
     ), touched AS (UPDATE carts SET updated_at = now() WHERE id = $1)
     SELECT quantity FROM up`,
    [cartId, item.key, item.productId, item.variationId, JSON.stringify(item.variation), JSON.stringify(item.itemData), item.quantity],
  );
  return row!.quantity;
}

export async function setItemQuantity(tx: Queryable, cartId: number, key: string, quantity: number): Promise<boolean> {
  const rows = quantity <= 0
    ? await tx.query(`DELETE FROM cart_items WHERE cart_id = $1 AND item_key = $2 RETURNING item_key`, [cartId, key])
    : await tx.query(`UPDATE cart_items SET quantity = $3 WHERE cart_id = $1 AND item_key = $2 RETURNING item_key`, [cartId, key, quantity]);
  await touch(tx, cartId);
  return rows.length > 0;
}

export async function deleteItem(tx: Queryable, cartId: number, key: string): Promise<boolean> {
  return setItemQuantity(tx, cartId, key, 0);
}

export async function deleteAllItems(tx: Queryable, cartId: number): Promise<void> {
  await tx.query(`DELETE FROM cart_items WHERE cart_id = $1`, [cartId]);
  await tx.query(`UPDATE carts SET coupons = '{}', updated_at = now() WHERE id = $1`, [cartId]);
}

export async function setCoupons(tx: Queryable, cartId: number, coupons: string[]): Promise<void> {
  await tx.query(`UPDATE carts SET coupons = $2, updated_at = now() WHERE id = $1`, [cartId, coupons]);
}

export async function setShippingMethod(tx: Queryable, cartId: number, methodId: string): Promise<void> {
  await tx.query(`UPDATE carts SET shipping_method = $2, updated_at = now() WHERE id = $1`, [cartId, methodId]);
}

export async function deleteCart(tx: Queryable, cartId: number): Promise<void> {
  await tx.query(`DELETE FROM carts WHERE id = $1`, [cartId]);
}

async function touch(tx: Queryable, cartId: number): Promise<void> {
  await tx.query(`UPDATE carts SET updated_at = now() WHERE id = $1`, [cartId]);
}

// ---------------------------------------------------------------------------------------------------
// What the cart needs to know about its products (one query for all lines)
// ---------------------------------------------------------------------------------------------------

export interface SellableRecord {
  productId: number;
  variationId: number;
  type: "simple" | "variable" | "grouped" | "bundle" | "external" | "downloadable";
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
}

interface SellableRow {
  product_id: number;
  variation_id: number | null;
  type: SellableRecord["type"];
  slug: string;
  name: string;
  sku: string | null;
  v_sku: string | null;
  status: string;
  v_status: string | null;
  regular_price: number | null;
  sale_price: number | null;
  stock_quantity: number | null;
  stock_status: SellableRecord["stockStatus"];
  v_attributes: Record<string, string> | null;
  attributes: { name: string; options: string[] }[] | null;
  image_slug: string | null;
  details: Record<string, unknown>;
  cat_slugs: string[] | null;
  cat_ids: number[] | null;
}

/**
 * Products and variations by (product id, variation id or 0). A variation row carries its own price,
 * stock and image, falling back to the parent's image.
 */
export async function sellables(db: Queryable, pairs: readonly { productId: number; variationId: number }[]): Promise<Map<string, SellableRecord>> {
  const out = new Map<string, SellableRecord>();
  if (pairs.length === 0) return out;
  const productIds = pairs.map((p) => p.productId);
  const variationIds = pairs.map((p) => p.variationId);
  const rows = await db.query<SellableRow>(
    `SELECT ${SELLABLE_COLUMNS}
     FROM unnest($1::int[], $2::int[]) AS want(pid, vid)
     JOIN products p ON p.id = want.pid
     LEFT JOIN variations v ON v.id = want.vid AND v.product_id = p.id
     LEFT JOIN media vm ON vm.id = v.image_id
     ${CATEGORIES_JOIN}
     WHERE want.vid = 0 OR v.id IS NOT NULL`,
    [productIds, variationIds],
  );
  for (const r of rows) {
    const rec = toSellable(r);
    out.set(`${rec.productId}:${rec.variationId}`, rec);
  }
  return out;
}

/** What the cart needs of a product or variation row (`p`, `v`, `vm` in the FROM clause). */
const SELLABLE_COLUMNS = `p.id AS product_id, v.id AS variation_id, p.type, p.slug, p.name, p.sku, v.sku AS v_sku, p.status, v.status AS v_status,
       CASE WHEN v.id IS NULL THEN p.regular_price ELSE v.regular_price END AS regular_price,
       CASE WHEN v.id IS NULL THEN p.sale_price ELSE v.sale_price END AS sale_price,
       CASE WHEN v.id IS NULL THEN p.stock_quantity ELSE v.stock_quantity END AS stock_quantity,
       CASE WHEN v.id IS NULL THEN p.stock_status ELSE v.stock_status END AS stock_status,
       v.attributes AS v_attributes, p.attributes, p.details,
       coalesce(vm.slug, (SELECT m.slug FROM media m WHERE m.id = p.image_ids[1])) AS image_slug,
       cats.cat_slugs, cats.cat_ids`;
/** The product's categories, as a lateral join named `cats` (one pass for both arrays). */
const CATEGORIES_JOIN = `LEFT JOIN LATERAL (SELECT array_agg(t.slug) AS cat_slugs, array_agg(t.id) AS cat_ids FROM product_terms pt JOIN terms t ON t.id = pt.term_id
       WHERE pt.product_id = p.id AND t.taxonomy = 'product_cat') cats ON true`;

function toSellable(r: SellableRow): SellableRecord {
  return {
    productId: r.product_id,
    variationId: r.variation_id ?? 0,
    type: r.type,
    slug: r.slug,
    name: r.name,
    sku: r.v_sku ?? r.sku ?? "",
    published: r.status === "publish" && (r.variation_id === null || r.v_status === "publish"),
    regularPrice: r.regular_price,
    salePrice: r.sale_price,
    stockQuantity: r.stock_quantity,
    stockStatus: r.stock_status,
    imageSlug: r.image_slug,
    details: r.details ?? {},
    categorySlugs: r.cat_slugs ?? [],
    categoryIds: r.cat_ids ?? [],
    variationAttributes: r.v_attributes,
    attributes: r.attributes ?? [],
  };
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
  const [where, value] = ownerWhere(owner);
  const rows = await db.query<CartRow & Partial<ItemRow> & { has_product: boolean; term_names: Record<string, string> | null } & SellableRow>(
    `SELECT c.id, c.coupons, c.shipping_method, c.created_at,
       ci.item_key, ci.product_id AS item_product_id, ci.variation_id AS item_variation_id, ci.variation, ci.item_data, ci.quantity,
       (SELECT jsonb_object_agg(a.key, t.name) FROM jsonb_each_text(ci.variation) a
          JOIN terms t ON t.taxonomy = replace(a.key, 'attribute_', '') AND t.slug = a.value) AS term_names,
       (p.id IS NOT NULL AND (ci.variation_id = 0 OR v.id IS NOT NULL)) AS has_product,
       ${SELLABLE_COLUMNS}
     FROM carts c
     LEFT JOIN cart_items ci ON ci.cart_id = c.id
     LEFT JOIN products p ON p.id = ci.product_id
     LEFT JOIN variations v ON v.id = ci.variation_id AND ci.variation_id <> 0 AND v.product_id = p.id
     LEFT JOIN media vm ON vm.id = v.image_id
     ${CATEGORIES_JOIN}
     WHERE c.${where}
     ORDER BY ci.position`,
    [value],
  );
  const first = rows[0];
  if (!first) return null;
  const items: CartItemRecord[] = [];
  const sellablesOut = new Map<string, SellableRecord>();
  const names = new Map<string, string>();
  for (const r of rows) {
    if (!r.item_key) continue;
    for (const [field, name] of Object.entries(r.term_names ?? {})) names.set(`${field.replace(/^attribute_/, "")}:${r.variation![field]}`, name);
    const row = r as unknown as { item_product_id: number; item_variation_id: number };
    items.push(toItem({ item_key: r.item_key, product_id: row.item_product_id, variation_id: row.item_variation_id, variation: r.variation!, item_data: r.item_data!, quantity: r.quantity! }));
    if (r.has_product) {
      const rec = toSellable(r);
      sellablesOut.set(`${rec.productId}:${rec.variationId}`, rec);
    }
  }
  return { cart: toCart(first), items, sellables: sellablesOut, termNames: names };
}

/** A product id that may be a variation: its parent and attributes (WooCommerce resolves add_to_cart of a variation id). */
export async function resolveVariationId(db: Queryable, id: number): Promise<{ productId: number; attributes: Record<string, string> } | null> {
  const [row] = await db.query<{ product_id: number; attributes: Record<string, string> }>(`SELECT product_id, attributes FROM variations WHERE id = $1`, [id]);
  return row ? { productId: row.product_id, attributes: row.attributes } : null;
}

export async function variationsOf(db: Queryable, productId: number): Promise<{ id: number; attributes: Record<string, string>; inStock: boolean; stockQuantity: number | null; published: boolean }[]> {
  const rows = await db.query<{ id: number; attributes: Record<string, string>; stock_status: string; stock_quantity: number | null; status: string }>(
    `SELECT id, attributes, stock_status, stock_quantity, status FROM variations WHERE product_id = $1 ORDER BY menu_order, id`,
    [productId],
  );
  return rows.map((r) => ({ id: r.id, attributes: r.attributes, inStock: r.stock_status !== "outofstock", stockQuantity: r.stock_quantity, published: r.status === "publish" }));
}

export async function productIdByDownloadId(db: Queryable, downloadId: number): Promise<number | null> {
  const [row] = await db.query<{ id: number }>(`SELECT id FROM products WHERE type = 'downloadable' AND details->>'downloadId' = $1`, [String(downloadId)]);
  return row?.id ?? null;
}

/** Name, shopper price and managed stock (null = not managed) of products by slug: a bundle's contents. */
export async function productPricesBySlug(db: Queryable, slugs: string[]): Promise<Map<string, { id: number; name: string; price: number; stockQuantity: number | null }>> {
  const rows = await db.query<{ id: number; slug: string; name: string; regular_price: number | null; sale_price: number | null; stock_quantity: number | null }>(
    `SELECT id, slug, name, regular_price, sale_price, stock_quantity FROM products WHERE slug = ANY($1::text[])`,
    [slugs],
  );
  return new Map(
    rows.map((r) => [
      r.slug,
      { id: r.id, name: r.name, price: r.sale_price !== null && r.regular_price !== null && r.sale_price < r.regular_price ? r.sale_price : (r.regular_price ?? 0), stockQuantity: r.stock_quantity },
    ]),
  );
}

export async function groupedChildIds(db: Queryable, productId: number): Promise<number[]> {
  const rows = await db.query<{ linked_id: number }>(`SELECT linked_id FROM product_links WHERE product_id = $1 AND kind = 'grouped_child' ORDER BY position`, [productId]);
  return rows.map((r) => r.linked_id);
}

export async function crossSellIds(db: Queryable, productIds: number[]): Promise<number[]> {
  if (!productIds.length) return [];
  const rows = await db.query<{ linked_id: number }>(
    `SELECT DISTINCT linked_id FROM product_links WHERE product_id = ANY($1::int[]) AND kind = 'cross_sell' AND linked_id <> ALL($1::int[])`,
    [productIds],
  );
  return rows.map((r) => r.linked_id);
}

export async function termNames(db: Queryable, pairs: { taxonomy: string; slug: string }[]): Promise<Map<string, string>> {
  if (!pairs.length) return new Map();
  const rows = await db.query<{ taxonomy: string; slug: string; name: string }>(
    `SELECT t.taxonomy, t.slug, t.name FROM terms t JOIN unnest($1::text[], $2::text[]) AS w(tax, slug) ON t.taxonomy = w.tax AND t.slug = w.slug`,
    [pairs.map((p) => p.taxonomy), pairs.map((p) => p.slug)],
  );
  return new Map(rows.map((r) => [`${r.taxonomy}:${r.slug}`, r.name]));
}
