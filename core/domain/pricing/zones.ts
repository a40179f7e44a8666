/**
 * Shipping zones (WooCommerce's model): a zone is a name, the regions it covers and its ordered shipping methods.
 * A shipping address gets the methods of the FIRST zone (in the owner's order) one of whose regions it is in; an
 * address in no zone gets the methods of the zone "Locations not covered by your other zones" (the rest of the
 * world, id 0). Pure: the cart (core/commerce/cart.ts) picks the methods here and hands them to computeShipping.
 *
 * Regions, like WooCommerce's zone locations:
 * - `country` `GB`; `state` `US:CA` (country and state code);
 * - `postcode` `SW1A 1AA` (exact), `SW1*` (prefix, with `*`), `90210...90299` (a numeric range).
 * A zone's country/state regions say where it is; its postcode regions narrow that down: an address matches when it
 * is in one of the country/state regions (or the zone has none) AND its postcode matches one of the postcode regions
 * (or the zone has none). A zone without any region matches nothing (as in WooCommerce).
 */
import { z } from "zod";
import { postcodeMatches } from "./postcodes.ts";
import type { ShippingMethod } from "./types.ts";

/** The id of the zone for locations not covered by the other zones. */
export const REST_OF_WORLD_ZONE_ID = 0;
export const REST_OF_WORLD_ZONE_NAME = "Locations not covered by your other zones";

export type ZoneRegionType = "country" | "state" | "postcode";

export interface ZoneRegion {
  type: ZoneRegionType;
  /** `GB`; `US:CA`; a postcode, a `prefix*` or a `low...high` range. */
  code: string;
}

export interface ShippingZone {
  id: number;
  name: string;
  /** Matching order: lower first. */
  order: number;
  regions: ZoneRegion[];
  methods: ShippingMethod[];
}

export interface ShippingDestination {
  country: string;
  state?: string;
  postcode?: string;
}

/** What the cart needs of the zones: the ordered zones and the rest of the world's methods. */
export interface ShippingZoneSetup {
  zones: ShippingZone[];
  restOfWorld: ShippingMethod[];
}

const POSTCODE_REGION = /^[A-Za-z0-9 -]{1,20}\*?$|^\d{1,10}\.\.\.\d{1,10}$/;

export const zoneRegionSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("country"), code: z.string().regex(/^[A-Z]{2}$/, "a two-letter country code like GB") }),
  z.strictObject({ type: z.literal("state"), code: z.string().regex(/^[A-Z]{2}:[A-Za-z0-9-]{1,10}$/, "a country and state code like US:CA") }),
  z.strictObject({
    type: z.literal("postcode"),
    code: z
      .string()
      .trim()
      .regex(POSTCODE_REGION, "a postcode, a prefix ending in * (SW1*) or a range (90210...90299)")
      .refine((c) => {
        const range = /^(\d+)\.\.\.(\d+)$/.exec(c);
        return !range || Number(range[1]) <= Number(range[2]);
      }, "a range's first postcode must not be above its last"),
  }),
]);

/** Whether an address is in a zone (see the module's comment). */
export function zoneMatches(zone: Pick<ShippingZone, "regions">, to: ShippingDestination): boolean {
  const places = zone.regions.filter((r) => r.type !== "postcode");
  const postcodes = zone.regions.filter((r) => r.type === "postcode");
  if (places.length === 0 && postcodes.length === 0) return false;
  const country = to.country.toUpperCase();
  const state = (to.state ?? "").toUpperCase();
  const inPlace =
    places.length === 0 || places.some((r) => (r.type === "country" ? r.code === country : state !== "" && r.code.toUpperCase() === `${country}:${state}`));
  if (!inPlace) return false;
  return postcodes.length === 0 || postcodes.some((r) => postcodeMatches(r.code, to.postcode ?? ""));
}

/** The first zone (by order, then id) the address is in; null: none, the rest of the world applies. */
export function matchZone<Z extends Pick<ShippingZone, "id" | "order" | "regions">>(zones: readonly Z[], to: ShippingDestination): Z | null {
  const ordered = [...zones].filter((z) => z.id !== REST_OF_WORLD_ZONE_ID).sort((a, b) => a.order - b.order || a.id - b.id);
  return ordered.find((z) => zoneMatches(z, to)) ?? null;
}

/**
 * The shipping methods for an address: its zone's, else the rest of the world's. No address known: the rest of the
 * world's. `shippable` false (a country the shop does not ship to): none.
 */
export function methodsForDestination(setup: ShippingZoneSetup, to: ShippingDestination | null, shippable = true): ShippingMethod[] {
  if (!shippable) return [];
  if (!to) return setup.restOfWorld;
  return matchZone(setup.zones, to)?.methods ?? setup.restOfWorld;
}

/** Every method of every zone (the ids a cart may choose). */
export function allZoneMethods(setup: ShippingZoneSetup): ShippingMethod[] {
  return [...setup.restOfWorld, ...setup.zones.flatMap((z) => z.methods)];
}
