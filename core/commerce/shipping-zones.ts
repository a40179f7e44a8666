/**
 * Shipping zones edited by staff (docs/contract/rest/shop-v1.md 'Shipping zones', Settings › Shipping): a zone's
 * name, regions and ordered methods are written together, checked with the pricing engine's own schemas (the ones
 * the cart reads them with), in one transaction with its `onSaved` step (the audit line); the pricing cache is
 * cleared after the commit, so the next cart prices with the change. The rest-of-the-world zone (id 0) keeps its name
 * and has no regions; its methods are edited like any zone's. A method keeps its id (`flat_rate:3`, the cart's chosen
 * rate) while it stays in its zone; a new one takes the next instance number.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { Db, Queryable } from "../db/client.ts";
import { invalidatePricingSetupCache } from "../db/repositories/discounts.ts";
import * as repo from "../db/repositories/shipping-zones.ts";
import type { ZoneRecord } from "../db/repositories/shipping-zones.ts";
import type { ShippingMethod } from "../domain/pricing/index.ts";
import { REST_OF_WORLD_ZONE_ID, REST_OF_WORLD_ZONE_NAME, zoneRegionSchema, type ZoneRegion } from "../domain/pricing/zones.ts";

export type { ZoneRecord } from "../db/repositories/shipping-zones.ts";

const cents = z.number().int("whole cents").min(0).max(100_000_000);

/** A method as a write sends it: without `id` it is new. Costs in cents, as the engine keeps them. */
const methodInput = z
  .strictObject({
    id: z
      .string()
      .regex(/^[a-z_]+:\d{1,9}$/, "method:instance, like flat_rate:3")
      .optional(),
    kind: z.enum(["flat_rate", "free_shipping", "local_pickup"]),
    title: z.string().trim().min(1, "a title is needed").max(100),
    cost: cents.optional(),
    costPerItem: cents.optional(),
    requires: z.enum(["none", "grant", "min_amount", "either", "both"]).optional(),
    minAmount: cents.optional(),
    ignoreCouponDiscounts: z.boolean().optional(),
  })
  .superRefine((m, ctx) => {
    if (m.id && !m.id.startsWith(`${m.kind}:`)) ctx.addIssue({ code: "custom", path: ["kind"], message: `cannot change: ${m.id} is a ${m.id.split(":")[0]}` });
    if (m.kind === "free_shipping" && ["min_amount", "either", "both"].includes(m.requires ?? "none") && m.minAmount === undefined)
      ctx.addIssue({ code: "custom", path: ["minAmount"], message: "is needed when free shipping requires a minimum order amount" });
    if (m.kind !== "flat_rate" && m.costPerItem !== undefined) ctx.addIssue({ code: "custom", path: ["costPerItem"], message: "is for flat rates only" });
    if (m.kind === "free_shipping" && m.cost !== undefined) ctx.addIssue({ code: "custom", path: ["cost"], message: "free shipping costs nothing" });
  });

const regionsInput = z
  .array(zoneRegionSchema)
  .max(500)
  .refine((rs) => new Set(rs.map((r) => `${r.type}:${r.code.toUpperCase()}`)).size === rs.length, "a region is listed twice");

export const zoneInputSchema = z.strictObject({
  name: z.string().trim().min(1, "a zone needs a name").max(200),
  regions: regionsInput,
  methods: z
    .array(methodInput)
    .max(20)
    .refine((ms) => new Set(ms.filter((m) => m.id).map((m) => m.id)).size === ms.filter((m) => m.id).length, "a method is listed twice"),
});
export const ZONE_FIELDS = [...Object.keys(zoneInputSchema.shape), "id", "order"];

/** The zone's version (`ETag`): a digest of what it is, so any change (by anyone) changes it. */
export function zoneVersion(zone: ZoneRecord): string {
  const { updatedAt: _u, ...value } = zone;
  return createHash("md5").update(JSON.stringify(value)).digest("hex").slice(0, 16);
}

export type ZoneWrite =
  | { ok: true; zone: ZoneRecord; before: ZoneRecord | null }
  | { ok: false; reason: "invalid"; error: z.ZodError }
  | { ok: false; reason: "not_found" | "changed" };

type OnSaved = (tx: Queryable, before: ZoneRecord | null, after: ZoneRecord) => Promise<void>;

async function committed<T>(db: Db, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      await repo.lockZones(tx);
      return fn(tx);
    });
  } finally {
    invalidatePricingSetupCache();
  }
}

const issue = (path: PropertyKey[], message: string) => new z.ZodError([{ code: "custom", path, message, input: undefined }]);

/** The methods to store: given ids kept (they must be this zone's), new ones numbered. */
async function methodsToStore(
  tx: Queryable,
  zoneId: number | null,
  methods: z.output<typeof methodInput>[],
): Promise<{ ok: true; methods: ShippingMethod[] } | { ok: false; error: z.ZodError }> {
  const owners = await repo.methodZones(
    tx,
    methods.flatMap((m) => (m.id ? [m.id] : [])),
  );
  let next = await repo.nextInstanceId(tx);
  const out: ShippingMethod[] = [];
  for (const [i, m] of methods.entries()) {
    if (m.id && owners.get(m.id) !== zoneId) return { ok: false, error: issue(["methods", i, "id"], `${m.id} is not a method of this zone`) };
    const { id, ...rest } = m;
    const method: ShippingMethod = { ...rest, id: id ?? `${m.kind}:${next++}` };
    if (m.kind === "free_shipping" && method.requires === undefined) method.requires = "none";
    out.push(method);
  }
  return { ok: true, methods: out };
}

export async function listShippingZones(db: Queryable): Promise<ZoneRecord[]> {
  return repo.listZones(db);
}

export async function findShippingZone(db: Queryable, id: number): Promise<ZoneRecord | null> {
  return repo.findZone(db, id);
}

export async function createShippingZone(db: Db, input: unknown, onSaved: OnSaved): Promise<ZoneWrite> {
  const parsed = zoneInputSchema.safeParse({ regions: [], methods: [], ...(input as object) });
  if (!parsed.success) return { ok: false, reason: "invalid", error: parsed.error };
  return committed(db, async (tx): Promise<ZoneWrite> => {
    const methods = await methodsToStore(tx, null, parsed.data.methods);
    if (!methods.ok) return { ok: false, reason: "invalid", error: methods.error };
    const id = await repo.insertZone(tx, { name: parsed.data.name, regions: parsed.data.regions as ZoneRegion[] });
    await repo.replaceZoneMethods(tx, id, methods.methods);
    const zone = (await repo.findZone(tx, id))!;
    await onSaved(tx, null, zone);
    return { ok: true, zone, before: null };
  });
}

/**
 * Changes the fields given (name, regions, methods: each whole); the rest stay. With `expectedVersion`, refused as
 * `changed` when the zone is no longer that version (checked under the zones' lock).
 */
export async function updateShippingZone(db: Db, id: number, changes: Record<string, unknown>, onSaved: OnSaved, expectedVersion?: string): Promise<ZoneWrite> {
  return committed(db, async (tx): Promise<ZoneWrite> => {
    const current = await repo.findZone(tx, id);
    if (!current) return { ok: false, reason: "not_found" };
    if (expectedVersion !== undefined && expectedVersion !== zoneVersion(current)) return { ok: false, reason: "changed" };
    if (id === REST_OF_WORLD_ZONE_ID) {
      if (changes.name !== undefined && changes.name !== REST_OF_WORLD_ZONE_NAME)
        return { ok: false, reason: "invalid", error: issue(["name"], "cannot change: this zone is every location the other zones do not cover") };
      if (Array.isArray(changes.regions) && changes.regions.length > 0)
        return { ok: false, reason: "invalid", error: issue(["regions"], "cannot be set: this zone is every location the other zones do not cover") };
    }
    const parsed = zoneInputSchema.safeParse({
      name: current.name,
      regions: current.regions,
      methods: current.methods,
      ...changes,
    });
    if (!parsed.success) return { ok: false, reason: "invalid", error: parsed.error };
    const methods = await methodsToStore(tx, id, parsed.data.methods);
    if (!methods.ok) return { ok: false, reason: "invalid", error: methods.error };
    await repo.updateZone(tx, id, { name: parsed.data.name, regions: parsed.data.regions as ZoneRegion[] });
    await repo.replaceZoneMethods(tx, id, methods.methods);
    const zone = (await repo.findZone(tx, id))!;
    await onSaved(tx, current, zone);
    return { ok: true, zone, before: current };
  });
}

export async function deleteShippingZone(db: Db, id: number, onDeleted: (tx: Queryable, before: ZoneRecord) => Promise<void>): Promise<ZoneRecord | null> {
  if (id === REST_OF_WORLD_ZONE_ID) return null;
  return committed(db, async (tx) => {
    const current = await repo.findZone(tx, id);
    if (!current || !(await repo.deleteZone(tx, id))) return null;
    await onDeleted(tx, current);
    return current;
  });
}

/** The zones' matching order: `ids` must be every zone but the rest of the world's, once each. */
export async function reorderShippingZones(
  db: Db,
  ids: readonly number[],
  onSaved: (tx: Queryable, before: number[], after: number[]) => Promise<void>,
): Promise<{ ok: true; zones: ZoneRecord[] } | { ok: false; error: z.ZodError }> {
  return committed(db, async (tx) => {
    const before = (await repo.listZones(tx)).filter((z) => z.id !== REST_OF_WORLD_ZONE_ID).map((z) => z.id);
    const same = ids.length === before.length && new Set(ids).size === ids.length && ids.every((id) => before.includes(id));
    if (!same)
      return {
        ok: false as const,
        error: issue(["ids"], `must list every zone once (${before.join(", ") || "none"}); the rest-of-the-world zone (0) is always last and is not listed`),
      };
    await repo.setZoneOrder(tx, ids);
    await onSaved(tx, before, [...ids]);
    return { ok: true as const, zones: await repo.listZones(tx) };
  });
}
