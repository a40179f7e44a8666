/** Taking and giving back managed stock, and the ledger of what each order holds (order_stock). Only SQL lives here. */
import type { Queryable } from "../client.ts";
import { sql } from "../kysely.ts";
import type { StockNeed } from "../../domain/catalog/index.ts";

/**
 * Takes `need.quantity` units in one conditional UPDATE (never read-then-write): true when taken, false when the
 * stock is short, and then nothing changed. The row stays locked until the transaction ends.
 */
export async function takeUnits(tx: Queryable, need: StockNeed): Promise<boolean> {
  const rows = await sql(tx)
    .updateTable(need.table)
    .set((eb) => ({
      stock_quantity: eb("stock_quantity", "-", need.quantity),
      stock_status: eb
        .case()
        .when(eb("stock_quantity", "-", need.quantity), "<=", 0)
        .then("outofstock")
        .else(eb.ref("stock_status"))
        .end(),
    }))
    .where("id", "=", need.id)
    .where("stock_quantity", ">=", need.quantity)
    .returning("id")
    .execute();
  return rows.length > 0;
}

/** Units left of a stock item (0 when it is gone), for the refusal message. */
export async function unitsLeft(tx: Queryable, need: Pick<StockNeed, "table" | "id">): Promise<number> {
  const row = await sql(tx).selectFrom(need.table).select("stock_quantity as n").where("id", "=", need.id).executeTakeFirst();
  return Math.max(0, row?.n ?? 0);
}

export async function returnUnits(tx: Queryable, need: StockNeed): Promise<void> {
  await sql(tx)
    .updateTable(need.table)
    .set((eb) => ({ stock_quantity: eb("stock_quantity", "+", need.quantity), stock_status: "instock" }))
    .where("id", "=", need.id)
    .where("stock_quantity", "is not", null)
    .execute();
}

export async function recordOrderStock(tx: Queryable, orderId: number, needs: readonly StockNeed[]): Promise<void> {
  for (const n of needs) {
    await sql(tx).insertInto("order_stock").values({ order_id: orderId, item_table: n.table, item_id: n.id, quantity: n.quantity }).execute();
  }
}

/** What an order holds, in the same fixed order as `stockNeeds` (so locks are always taken in one order). */
export async function orderStock(tx: Queryable, orderId: number): Promise<StockNeed[]> {
  const rows = await sql(tx)
    .selectFrom("order_stock as s")
    .leftJoin("products as p", (j) => j.on("s.item_table", "=", "products").onRef("p.id", "=", "s.item_id"))
    .leftJoin("variations as v", (j) => j.on("s.item_table", "=", "variations").onRef("v.id", "=", "s.item_id"))
    .leftJoin("products as vp", "vp.id", "v.product_id")
    .select((eb) => ["s.item_table", "s.item_id", "s.quantity", eb.fn.coalesce("p.name", "vp.name").as("name")])
    .where("s.order_id", "=", orderId)
    .orderBy("s.item_table")
    .orderBy("s.item_id")
    .execute();
  return rows.map((r) => ({ table: r.item_table as StockNeed["table"], id: r.item_id, quantity: r.quantity, name: r.name ?? `#${r.item_id}` }));
}

/** Counts an order's units in its products' sales (`sign` 1), or takes them back at a release (-1, never below 0). */
export async function addOrderSales(tx: Queryable, orderId: number, sign: 1 | -1): Promise<void> {
  const db = sql(tx);
  const perProduct = db
    .selectFrom("order_lines")
    .select((eb) => ["product_id", eb.cast<number>(eb.fn.sum<number>("quantity"), "integer").as("n")])
    .where("order_id", "=", orderId)
    .groupBy("product_id");
  await db
    .updateTable("products as p")
    .from(perProduct.as("l"))
    .set((eb) => ({
      total_sales: sign === 1 ? eb("p.total_sales", "+", eb.ref("l.n")) : eb.fn<number>("greatest", [eb.lit(0), eb("p.total_sales", "-", eb.ref("l.n"))]),
    }))
    .whereRef("l.product_id", "=", "p.id")
    .execute();
}

/** Counts units just ordered in a product's sales. */
export async function addProductSales(tx: Queryable, productId: number, quantity: number): Promise<void> {
  await sql(tx)
    .updateTable("products")
    .set((eb) => ({ total_sales: eb("total_sales", "+", quantity) }))
    .where("id", "=", productId)
    .execute();
}

/** What the order still holds per stock item (taken and not given back), locked, in the fixed stock order. */
export async function unreturnedStock(tx: Queryable, orderId: number): Promise<(StockNeed & { left: number })[]> {
  const rows = await sql(tx)
    .selectFrom("order_stock")
    .select(["item_table", "item_id", "quantity", "restocked"])
    .where("order_id", "=", orderId)
    .orderBy("item_table")
    .orderBy("item_id")
    .forUpdate()
    .execute();
  return rows.map((r) => ({ table: r.item_table as StockNeed["table"], id: r.item_id, quantity: r.quantity, name: "", left: r.quantity - r.restocked }));
}

/**
 * Gives back `need.quantity` units the order holds of one stock item, through the same statement a failed or
 * cancelled order's release uses (`returnUnits`), and records them so no unit is returned twice.
 */
export async function returnOrderUnits(tx: Queryable, orderId: number, need: StockNeed): Promise<void> {
  if (need.quantity <= 0) return;
  await sql(tx)
    .updateTable("order_stock")
    .set((eb) => ({ restocked: eb("restocked", "+", need.quantity) }))
    .where("order_id", "=", orderId)
    .where("item_table", "=", need.table)
    .where("item_id", "=", need.id)
    .execute();
  await returnUnits(tx, need);
}

/** Records `need.quantity` more units an order holds of one stock item (already taken by the caller). */
export async function holdMoreOrderUnits(tx: Queryable, orderId: number, need: StockNeed): Promise<void> {
  if (need.quantity <= 0) return;
  await sql(tx)
    .insertInto("order_stock")
    .values({ order_id: orderId, item_table: need.table, item_id: need.id, quantity: need.quantity })
    .onConflict((oc) => oc.columns(["order_id", "item_table", "item_id"]).doUpdateSet((eb) => ({ quantity: eb("order_stock.quantity", "+", need.quantity) })))
    .execute();
}

/**
 * Gives back up to `need.quantity` units an order holds of one stock item and no longer needs (a line lowered or
 * removed by staff): never more than it holds and has not given back; its ledger row shrinks (or goes), so a later
 * release or cancellation gives back only what is left. Answers the units given back.
 */
export async function dropOrderUnits(tx: Queryable, orderId: number, need: StockNeed): Promise<number> {
  const row = await sql(tx)
    .selectFrom("order_stock")
    .select(["quantity", "restocked"])
    .where("order_id", "=", orderId)
    .where("item_table", "=", need.table)
    .where("item_id", "=", need.id)
    .forUpdate()
    .executeTakeFirst();
  const give = Math.min(need.quantity, row ? row.quantity - row.restocked : 0);
  if (!row || give <= 0) return 0;
  if (row.quantity === give) {
    await sql(tx).deleteFrom("order_stock").where("order_id", "=", orderId).where("item_table", "=", need.table).where("item_id", "=", need.id).execute();
  } else {
    await sql(tx)
      .updateTable("order_stock")
      .set({ quantity: row.quantity - give })
      .where("order_id", "=", orderId)
      .where("item_table", "=", need.table)
      .where("item_id", "=", need.id)
      .execute();
  }
  await returnUnits(tx, { ...need, quantity: give });
  return give;
}

/** Moves a product's sales count by `delta` units (never below 0). */
export async function moveProductSales(tx: Queryable, productId: number, delta: number): Promise<void> {
  if (delta === 0) return;
  await sql(tx)
    .updateTable("products")
    .set((eb) => ({ total_sales: eb.fn<number>("greatest", [eb.lit(0), eb("total_sales", "+", delta)]) }))
    .where("id", "=", productId)
    .execute();
}
