/**
 * `tax_rates` (migration 0035): WooCommerce's standard rates as the pure rule reads them (core/domain/pricing/tax.ts).
 * The table is small (a shop has tens of rates): it is read whole, in matching order.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import type { TaxRate } from "../../domain/pricing/tax.ts";

export interface TaxRateRecord extends TaxRate {
  updatedAt: Date;
}

export type TaxRateFields = Omit<TaxRate, "id">;

const postcodesOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((p): p is string => typeof p === "string") : []);

/** Every rate, by priority, then the owner's order, then id. */
export async function listTaxRates(db: Queryable): Promise<TaxRateRecord[]> {
  const rows = await sql(db).selectFrom("tax_rates").selectAll().orderBy("priority").orderBy("position").orderBy("id").execute();
  return rows.map((r) => ({
    id: r.id,
    country: r.country,
    state: r.state,
    postcodes: postcodesOf(r.postcodes),
    rate: r.rate,
    name: r.name,
    priority: r.priority,
    compound: r.compound,
    shipping: r.shipping,
    order: r.position,
    updatedAt: r.updated_at,
  }));
}

export async function findTaxRate(db: Queryable, id: number): Promise<TaxRateRecord | null> {
  return (await listTaxRates(db)).find((r) => r.id === id) ?? null;
}

const columns = (r: TaxRateFields) => ({
  country: r.country,
  state: r.state,
  postcodes: JSON.stringify(r.postcodes),
  rate: r.rate,
  name: r.name,
  priority: r.priority,
  compound: r.compound,
  shipping: r.shipping,
  position: r.order,
});

export async function insertTaxRate(db: Queryable, rate: TaxRateFields): Promise<number> {
  const row = await sql(db).insertInto("tax_rates").values(columns(rate)).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTaxRate(db: Queryable, id: number, rate: TaxRateFields): Promise<boolean> {
  const rows = await sql(db)
    .updateTable("tax_rates")
    .set({ ...columns(rate), updated_at: raw`now()` })
    .where("id", "=", id)
    .returning("id")
    .execute();
  return rows.length > 0;
}

export async function deleteTaxRate(db: Queryable, id: number): Promise<boolean> {
  const rows = await sql(db).deleteFrom("tax_rates").where("id", "=", id).returning("id").execute();
  return rows.length > 0;
}

/** Holds other rate writers off until this transaction ends (a row lock on every rate is enough for a small table). */
export async function lockTaxRate(tx: Queryable, id: number): Promise<void> {
  await sql(tx).selectFrom("tax_rates").select("id").where("id", "=", id).forUpdate().execute();
}
