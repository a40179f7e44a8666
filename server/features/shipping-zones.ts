/**
 * `shop/v1/shipping-zones` (docs/contract/rest/shop-v1.md 'Shipping zones'), `manage_woocommerce` (WooCommerce's
 * shipping zone routes ask the same):
 * - GET the zones in matching order, the rest of the world (id 0, "Locations not covered by your other zones") last;
 * - POST a zone `{name, regions, methods}`; GET, PUT/PATCH/POST (the fields given, each whole) and DELETE one by id,
 *   versioned (`ETag`; a stale `If-Match` is 412 `rest_shipping_zone_changed`); zone 0 cannot be renamed, given
 *   regions or deleted;
 * - PUT `shop/v1/shipping-zones/order` `{ids}`: the matching order.
 * Costs are in cents, as the pricing engine keeps them. Every write is audited in its own transaction.
 */
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput, type RestRouter } from "../http/rest.ts";
import { ifMatchOf, nestedInvalidParams, parseArgs } from "../http/rest-args.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import { bodyObject, changedFields, unknownFields } from "../http/rest-write.ts";
import type { Feature } from "./feature.ts";
import {
  ZONE_FIELDS,
  createShippingZone,
  deleteShippingZone,
  findShippingZone,
  listShippingZones,
  reorderShippingZones,
  updateShippingZone,
  zoneVersion,
  type ZoneRecord,
  type ZoneWrite,
} from "../../core/commerce/shipping-zones.ts";
import { REST_OF_WORLD_ZONE_ID } from "../../core/domain/pricing/zones.ts";

const CAPABILITY = "manage_woocommerce";

const zoneView = (z: ZoneRecord) => ({
  id: z.id,
  name: z.name,
  order: z.id === REST_OF_WORLD_ZONE_ID ? null : z.order,
  rest_of_world: z.id === REST_OF_WORLD_ZONE_ID,
  regions: z.regions,
  methods: z.methods,
  modified_gmt: z.updatedAt.toISOString().slice(0, 19),
  version: zoneVersion(z),
});
const zoneReply = (z: ZoneRecord, status = 200) => json(zoneView(z), status, { ETag: `"${zoneVersion(z)}"` });
const invalidZone = () => restError("rest_shipping_zone_invalid_id", "Invalid shipping zone ID.", 404);
const zoneId = (input: RestInput) => Number(input.pathParams.id);
const snapshot = (z: ZoneRecord | null) => (z ? { name: z.name, order: z.order, regions: z.regions, methods: z.methods } : null);

function refusal(outcome: Exclude<ZoneWrite, { ok: true }>, body: Record<string, unknown>): Reply {
  switch (outcome.reason) {
    case "invalid":
      return nestedInvalidParams(outcome.error, body);
    case "changed":
      return restError(
        "rest_shipping_zone_changed",
        "This shipping zone was changed since you opened it. Reload it to see the changes, then make yours again.",
        412,
      );
    case "not_found":
      return invalidZone();
  }
}

/** The body's zone fields (`id`, `order`, `rest_of_world`, `modified_gmt` and `version` are answers, not fields). */
function writableFields(body: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, order: _order, rest_of_world: _r, modified_gmt: _m, version: _v, ...fields } = body;
  return fields;
}

const orderBody = z.strictObject({ ids: z.array(z.number().int().min(1).max(2_147_483_647)).max(500) });

function register(rest: RestRouter): void {
  rest.register("GET", "shop/v1/shipping-zones", async (input) => {
    const user = await staffUser(input, CAPABILITY);
    if (isReply(user)) return user;
    return json((await listShippingZones(input.services.db)).map(zoneView));
  });

  rest.register("POST", "shop/v1/shipping-zones", async (input) => {
    const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_create", message: "Sorry, you are not allowed to create resources." });
    if (isReply(user)) return user;
    const body = bodyObject(input);
    if (!body.ok) return body.reply;
    const unknown = unknownFields(body.body, [...ZONE_FIELDS, "rest_of_world", "modified_gmt", "version"]);
    if (unknown) return unknown;
    const outcome = await createShippingZone(input.services.db, writableFields(body.body), (tx, _before, after) =>
      audit(input, user, { action: "create", objectType: "shipping_zone", objectId: String(after.id), changes: changedFields(null, snapshot(after)!) }, tx),
    );
    return outcome.ok ? zoneReply(outcome.zone, 201) : refusal(outcome, body.body);
  });

  rest.register("PUT", "shop/v1/shipping-zones/order", async (input) => {
    const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_edit", message: "Sorry, you are not allowed to edit this resource." });
    if (isReply(user)) return user;
    const body = bodyObject(input);
    if (!body.ok) return body.reply;
    const args = parseArgs(orderBody, body.body);
    if (!args.ok) return args.reply;
    const outcome = await reorderShippingZones(input.services.db, args.data.ids, (tx, before, after) =>
      audit(input, user, { action: "update", objectType: "shipping_zone", objectId: "order", changes: changedFields({ order: before }, { order: after }) }, tx),
    );
    return outcome.ok ? json(outcome.zones.map(zoneView)) : nestedInvalidParams(outcome.error, body.body);
  });

  rest.register("GET", "shop/v1/shipping-zones/:id(\\d+)", async (input) => {
    const user = await staffUser(input, CAPABILITY);
    if (isReply(user)) return user;
    const zone = await findShippingZone(input.services.db, zoneId(input));
    return zone ? zoneReply(zone) : invalidZone();
  });

  const update = async (input: RestInput) => {
    const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_edit", message: "Sorry, you are not allowed to edit this resource." });
    if (isReply(user)) return user;
    const body = bodyObject(input);
    if (!body.ok) return body.reply;
    const unknown = unknownFields(body.body, [...ZONE_FIELDS, "rest_of_world", "modified_gmt", "version"]);
    if (unknown) return unknown;
    const id = zoneId(input);
    const outcome = await updateShippingZone(
      input.services.db,
      id,
      writableFields(body.body),
      (tx, before, after) =>
        audit(
          input,
          user,
          { action: "update", objectType: "shipping_zone", objectId: String(id), changes: changedFields(snapshot(before), snapshot(after)!) },
          tx,
        ),
      ifMatchOf(input.req),
    );
    return outcome.ok ? zoneReply(outcome.zone) : refusal(outcome, body.body);
  };
  for (const method of ["PUT", "PATCH", "POST"]) rest.register(method, "shop/v1/shipping-zones/:id(\\d+)", update);

  rest.register("DELETE", "shop/v1/shipping-zones/:id(\\d+)", async (input) => {
    const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_delete", message: "Sorry, you are not allowed to delete this resource." });
    if (isReply(user)) return user;
    const id = zoneId(input);
    if (id === REST_OF_WORLD_ZONE_ID)
      return restError("rest_shipping_zone_cannot_delete", "The zone for locations not covered by your other zones cannot be deleted.", 400);
    const gone = await deleteShippingZone(input.services.db, id, (tx, before) =>
      audit(input, user, { action: "delete", objectType: "shipping_zone", objectId: String(id), changes: changedFields(snapshot(before), {}) }, tx),
    );
    return gone ? json({ deleted: true, previous: zoneView(gone) }) : invalidZone();
  });
}

export const shippingZonesFeature: Feature = {
  name: "shipping-zones",
  endpoints({ rest }) {
    register(rest);
  },
};
