import { describe, expect, it } from "vitest";
import { REST_OF_WORLD_ZONE_ID, matchZone, methodsForDestination, zoneMatches, zoneRegionSchema, type ShippingZone, type ShippingZoneSetup } from "./zones.ts";
import type { ShippingMethod } from "./types.ts";

const flat = (id: string, cost: number): ShippingMethod => ({ id, kind: "flat_rate", title: id, cost });
const zone = (id: number, order: number, regions: ShippingZone["regions"], methods: ShippingMethod[] = [flat(`flat_rate:${id}`, id * 100)]): ShippingZone => ({
  id,
  name: `Zone ${id}`,
  order,
  regions,
  methods,
});

describe("zoneMatches", () => {
  it("a country region takes every address in that country, whatever its state or postcode", () => {
    const z = zone(1, 0, [{ type: "country", code: "GB" }]);
    expect(zoneMatches(z, { country: "GB" })).toBe(true);
    expect(zoneMatches(z, { country: "gb", postcode: "SW1A 1AA" })).toBe(true);
    expect(zoneMatches(z, { country: "IE" })).toBe(false);
  });

  it("a state region takes only that state of its country", () => {
    const z = zone(1, 0, [{ type: "state", code: "US:CA" }]);
    expect(zoneMatches(z, { country: "US", state: "CA" })).toBe(true);
    expect(zoneMatches(z, { country: "US", state: "ca" })).toBe(true);
    expect(zoneMatches(z, { country: "US", state: "NY" })).toBe(false);
    expect(zoneMatches(z, { country: "US" })).toBe(false);
    expect(zoneMatches(z, { country: "CA", state: "CA" })).toBe(false);
  });

  it("postcodes narrow the places down: exact, prefix with * and numeric ranges, spaces and case ignored", () => {
    const z = zone(1, 0, [
      { type: "country", code: "US" },
      { type: "postcode", code: "90210...90299" },
      { type: "postcode", code: "100*" },
    ]);
    expect(zoneMatches(z, { country: "US", postcode: "90250" })).toBe(true);
    expect(zoneMatches(z, { country: "US", postcode: "90300" })).toBe(false);
    expect(zoneMatches(z, { country: "US", postcode: "10001" })).toBe(true);
    expect(zoneMatches(z, { country: "US", postcode: "" })).toBe(false);
    expect(zoneMatches(z, { country: "CA", postcode: "10001" })).toBe(false);
    const london = zone(2, 0, [{ type: "postcode", code: "sw1a 1aa" }]);
    expect(zoneMatches(london, { country: "GB", postcode: "SW1A1AA" })).toBe(true);
    expect(zoneMatches(london, { country: "GB", postcode: "SW1A 2AA" })).toBe(false);
  });

  it("a zone without regions matches nothing", () => {
    expect(zoneMatches(zone(1, 0, []), { country: "US" })).toBe(false);
  });
});

describe("matchZone and methodsForDestination", () => {
  const europe = zone(3, 1, [
    { type: "country", code: "DE" },
    { type: "country", code: "FR" },
    { type: "country", code: "GB" },
  ]);
  const uk = zone(4, 0, [{ type: "country", code: "GB" }]);
  const restOfWorld = [flat("flat_rate:1", 500)];
  const setup: ShippingZoneSetup = { zones: [europe, uk], restOfWorld };

  it("the first zone in the owner's order wins, not the first stored or the most specific", () => {
    expect(matchZone(setup.zones, { country: "GB" })?.id).toBe(4);
    expect(matchZone([{ ...uk, order: 2 }, europe], { country: "GB" })?.id).toBe(3);
    // Same order: the older zone (lower id) first.
    expect(matchZone([{ ...uk, order: 1 }, europe], { country: "GB" })?.id).toBe(3);
  });

  it("an address in no zone, or no address, gets the rest of the world's methods", () => {
    expect(methodsForDestination(setup, { country: "US" })).toBe(restOfWorld);
    expect(methodsForDestination(setup, null)).toBe(restOfWorld);
    expect(methodsForDestination(setup, { country: "FR" })).toEqual(europe.methods);
  });

  it("the rest-of-the-world zone is never matched as a zone, and a country not shipped to gets no methods", () => {
    const withZero = [{ ...zone(REST_OF_WORLD_ZONE_ID, -1, [{ type: "country", code: "US" }]) }, uk];
    expect(matchZone(withZero, { country: "US" })).toBeNull();
    expect(methodsForDestination(setup, { country: "GB" }, false)).toEqual([]);
  });

  it("a matched zone without methods offers none (it does not fall through to the rest of the world)", () => {
    const empty = zone(5, 0, [{ type: "country", code: "NZ" }], []);
    expect(methodsForDestination({ zones: [empty], restOfWorld }, { country: "NZ" })).toEqual([]);
  });
});

describe("zoneRegionSchema", () => {
  it("accepts WooCommerce's location codes and refuses malformed ones", () => {
    expect(zoneRegionSchema.safeParse({ type: "country", code: "GB" }).success).toBe(true);
    expect(zoneRegionSchema.safeParse({ type: "state", code: "US:CA" }).success).toBe(true);
    expect(zoneRegionSchema.safeParse({ type: "postcode", code: "SW1*" }).success).toBe(true);
    expect(zoneRegionSchema.safeParse({ type: "country", code: "Britain" }).success).toBe(false);
    expect(zoneRegionSchema.safeParse({ type: "postcode", code: "90299...90210" }).success).toBe(false);
    expect(zoneRegionSchema.safeParse({ type: "continent", code: "EU" }).success).toBe(false);
  });
});
