/**
 * `shipping_zones` and the zone's rows of `shipping_methods` (migration 0033): values are the pricing engine's own
 * types (core/domain/pricing/zones.ts), checked with its zod schemas going in and coming out. Zone 0 is the rest of
 * the world. Writers hold zone 0's row lock (`lockZones`) for their transaction, so two owners' changes never
 * interleave (instance ids, positions).
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import { shippingMethodSchema, type ShippingMethod } from "../../domain/pricing/index.ts";
import { REST_OF_WORLD_ZONE_ID, zoneRegionSchema, type ShippingZone, type ShippingZoneSetup, type ZoneRegion } from "../../domain/pricing/zones.ts";

export interface ZoneRecord extends ShippingZone {
  updatedAt: Date;
}

function regionsOf(value: unknown): ZoneRegion[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((r) => {
    const parsed = zoneRegionSchema.safeParse(r);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Every zone with its methods (zone 0 included), in matching order; zone 0 last. */
export async function listZones(db: Queryable): Promise<ZoneRecord[]> {
  const b = sql(db);
  const [zones, methods] = await Promise.all([
    b.selectFrom("shipping_zones").select(["id", "name", "position", "regions", "updated_at"]).orderBy("position").orderBy("id").execute(),
    b.selectFrom("shipping_methods").select(["zone_id", "data"]).orderBy("position").orderBy("id").execute(),
  ]);
  const byZone = new Map<number, ShippingMethod[]>();
  for (const m of methods) {
    const list = byZone.get(m.zone_id) ?? byZone.set(m.zone_id, []).get(m.zone_id)!;
    list.push(shippingMethodSchema.parse(m.data) as ShippingMethod);
  }
  const records = zones.map((z) => ({
    id: z.id,
    name: z.name,
    order: z.position,
    regions: regionsOf(z.regions),
    methods: byZone.get(z.id) ?? [],
    updatedAt: z.updated_at,
  }));
  return [...records.filter((z) => z.id !== REST_OF_WORLD_ZONE_ID), ...records.filter((z) => z.id === REST_OF_WORLD_ZONE_ID)];
}

/** What the cart prices with: the zones in order and the rest of the world's methods. */
export async function loadZoneSetup(db: Queryable): Promise<ShippingZoneSetup> {
  const zones = await listZones(db);
  return {
    zones: zones.filter((z) => z.id !== REST_OF_WORLD_ZONE_ID),
    restOfWorld: zones.find((z) => z.id === REST_OF_WORLD_ZONE_ID)?.methods ?? [],
  };
}

export async function findZone(db: Queryable, id: number): Promise<ZoneRecord | null> {
  return (await listZones(db)).find((z) => z.id === id) ?? null;
}

/** Holds every zone writer off until this transaction ends (zone 0's row lock). */
export async function lockZones(tx: Queryable): Promise<void> {
  await sql(tx).selectFrom("shipping_zones").select("id").where("id", "=", REST_OF_WORLD_ZONE_ID).forUpdate().execute();
}

/** A new zone after the others; its id. */
export async function insertZone(tx: Queryable, zone: { name: string; regions: ZoneRegion[] }): Promise<number> {
  const last = await sql(tx)
    .selectFrom("shipping_zones")
    .select(raw<number>`coalesce(max(position), -1)::int`.as("p"))
    .where("id", "<>", REST_OF_WORLD_ZONE_ID)
    .executeTakeFirstOrThrow();
  const row = await sql(tx)
    .insertInto("shipping_zones")
    .values({ name: zone.name, regions: JSON.stringify(zone.regions), position: last.p + 1 })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateZone(tx: Queryable, id: number, zone: { name: string; regions: ZoneRegion[] }): Promise<void> {
  await sql(tx)
    .updateTable("shipping_zones")
    .set({ name: zone.name, regions: JSON.stringify(zone.regions), updated_at: raw`now()` })
    .where("id", "=", id)
    .execute();
}

/** The zones' matching order: `ids` first to last (zone 0 is never among them). */
export async function setZoneOrder(tx: Queryable, ids: readonly number[]): Promise<void> {
  for (const [position, id] of ids.entries())
    await sql(tx)
      .updateTable("shipping_zones")
      .set({ position, updated_at: raw`now()` })
      .where("id", "=", id)
      .execute();
}

export async function deleteZone(tx: Queryable, id: number): Promise<boolean> {
  const rows = await sql(tx).deleteFrom("shipping_zones").where("id", "=", id).where("id", "<>", REST_OF_WORLD_ZONE_ID).returning("id").execute();
  return rows.length > 0;
}

/** The zone each method id belongs to. */
export async function methodZones(tx: Queryable, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await sql(tx)
    .selectFrom("shipping_methods")
    .select(["id", "zone_id"])
    .where("id", "in", [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.zone_id]));
}

/** The next free instance number (the `7` of `flat_rate:7`), past every method's; call under `lockZones`. */
export async function nextInstanceId(tx: Queryable): Promise<number> {
  const row = await sql(tx)
    .selectFrom("shipping_methods")
    .select(raw<number>`coalesce(max((substring(id from ':(\\d+)$'))::int), 0)::int`.as("n"))
    .where(raw<boolean>`id ~ ':\\d+$'`)
    .executeTakeFirstOrThrow();
  return row.n + 1;
}

/** A zone's methods become exactly `methods`, in this order (the ones left out are deleted). */
export async function replaceZoneMethods(tx: Queryable, zoneId: number, methods: readonly ShippingMethod[]): Promise<void> {
  const keep = methods.map((m) => m.id);
  let del = sql(tx).deleteFrom("shipping_methods").where("zone_id", "=", zoneId);
  if (keep.length) del = del.where("id", "not in", keep);
  await del.execute();
  for (const [position, method] of methods.entries()) {
    const valid = shippingMethodSchema.parse(method);
    await sql(tx)
      .insertInto("shipping_methods")
      .values({ id: valid.id, zone_id: zoneId, position, data: JSON.stringify(valid) })
      .onConflict((oc) =>
        oc.column("id").doUpdateSet((eb) => ({ position: eb.ref("excluded.position"), data: eb.ref("excluded.data"), zone_id: eb.ref("excluded.zone_id") })),
      )
      .execute();
  }
  await sql(tx)
    .updateTable("shipping_zones")
    .set({ updated_at: raw`now()` })
    .where("id", "=", zoneId)
    .execute();
}
