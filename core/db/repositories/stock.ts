/** Taking and giving back managed stock, and the ledger of what each order holds (order_stock). Only SQL lives here. */
import type { Queryable } from "../client.ts";
import type { StockNeed } from "../../domain/catalog/index.ts";

/**
 * Takes `need.quantity` units in one conditional UPDATE (never read-then-write): true when taken, false when the
 * stock is short, and then nothing changed. The row stays locked until the transaction ends.
 */
export async function takeUnits(tx: Queryable, need: StockNeed): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE ${need.table} SET stock_quantity = stock_quantity - $2,
       stock_status = CASE WHEN stock_quantity - $2 <= 0 THEN 'outofstock' ELSE stock_status END
     WHERE id = $1 AND stock_quantity >= $2 RETURNING id`,
    [need.id, need.quantity],
  );
  return rows.length > 0;
}

/** Units left of a stock item (0 when it is gone), for the refusal message. */
export async function unitsLeft(tx: Queryable, need: Pick<StockNeed, "table" | "id">): Promise<number> {
  const [row] = await tx.query<{ n: number | null }>(`SELECT stock_quantity AS n FROM ${need.table} WHERE id = $1`, [need.id]);
  return Math.max(0, row?.n ?? 0);
}

export async function returnUnits(tx: Queryable, need: StockNeed): Promise<void> {
  await tx.query(`UPDATE ${need.table} SET stock_quantity = stock_quantity + $2, stock_status = 'instock' WHERE id = $1 AND stock_quantity IS NOT NULL`, [need.id, need.quantity]);
}

export async function recordOrderStock(tx: Queryable, orderId: number, needs: readonly StockNeed[]): Promise<void> {
  for (const n of needs) {
    await tx.query(`INSERT INTO order_stock (order_id, item_table, item_id, quantity) VALUES ($1, $2, $3, $4)`, [orderId, n.table, n.id, n.quantity]);
  }
}

/** What an order holds, in the same fixed order as `stockNeeds` (so locks are always taken in one order). */
export async function orderStock(tx: Queryable, orderId: number): Promise<StockNeed[]> {
  const rows = await tx.query<{ item_table: "products" | "variations"; item_id: number; quantity: number; name: string | null }>(
    `SELECT s.item_table, s.item_id, s.quantity, coalesce(p.name, vp.name) AS name
     FROM order_stock s
     LEFT JOIN products p ON s.item_table = 'products' AND p.id = s.item_id
     LEFT JOIN variations v ON s.item_table = 'variations' AND v.id = s.item_id
     LEFT JOIN products vp ON vp.id = v.product_id
     WHERE s.order_id = $1
     ORDER BY s.item_table, s.item_id`,
    [orderId],
  );
  return rows.map((r) => ({ table: r.item_table, id: r.item_id, quantity: r.quantity, name: r.name ?? `#${r.item_id}` }));
}
