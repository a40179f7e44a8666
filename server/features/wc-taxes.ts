/**
 * `wc/v3/taxes` (docs/contract/rest/taxes.md), WooCommerce's tax rates endpoint, `manage_woocommerce` like
 * WooCommerce's: GET the rates (paged, `orderby` order|id|priority, `class` standard), POST one; GET, PUT/PATCH/POST
 * and DELETE (`force=true`, as WooCommerce asks) one by id. Rates are written as WooCommerce writes them ("20.0000"),
 * `postcode` and `postcodes` both; cities and tax classes other than standard are not built and are refused by name.
 * Every write is audited in its own transaction. Whether the rates are charged is Settings › Tax's switch.
 */
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput, type RestRouter } from "../http/rest.ts";
import { invalidParams, listArgs, pageOutOfRange, pagedJson, parseArgs, requestArgs, restBool } from "../http/rest-args.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import { bodyObject, changedFields, unknownFields } from "../http/rest-write.ts";
import type { Feature } from "./feature.ts";
import { WC_DENIED } from "./wc-orders.ts";
import {
  TAX_RATE_FIELDS,
  createRate,
  deleteRate,
  findRate,
  listRates,
  updateRate,
  type TaxRateRecord,
  type TaxRateWrite,
} from "../../core/commerce/tax-rates.ts";
import { formatRate } from "../../core/domain/pricing/tax.ts";

const CAPABILITY = "manage_woocommerce";

export function taxRateJson(r: TaxRateRecord) {
  return {
    id: r.id,
    country: r.country,
    state: r.state,
    postcode: r.postcodes.join("; "),
    city: "",
    postcodes: r.postcodes,
    cities: [],
    rate: formatRate(r.rate),
    name: r.name,
    priority: r.priority,
    compound: r.compound,
    shipping: r.shipping,
    order: r.order,
    class: "standard",
  };
}
const snapshot = (r: TaxRateRecord) => {
  const { id: _id, ...rest } = taxRateJson(r);
  return rest as Record<string, unknown>;
};

const invalidRate = () => restError("woocommerce_rest_invalid_id", "Invalid resource ID.", 404);
const rateId = (input: RestInput) => (/^\d{1,9}$/.test(input.pathParams.id ?? "") ? Number(input.pathParams.id) : 0);

const listQuery = z
  .object({
    ...listArgs,
    order: z.enum(["asc", "desc"]).default("asc"),
    orderby: z.enum(["id", "order", "priority"]).default("order"),
    class: z.literal("standard").optional(),
  })
  .loose();

function refusal(outcome: Exclude<TaxRateWrite, { ok: true }>, body: Record<string, unknown>): Reply {
  return outcome.reason === "invalid" ? invalidParams(outcome.error, body) : invalidRate();
}

/** The body without the answer-only `id` (a client may send back what it read). */
function fields(body: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = body;
  return rest;
}

function register(rest: RestRouter): void {
  rest.register("GET", "wc/v3/taxes", async (input) => {
    const user = await staffUser(input, CAPABILITY, WC_DENIED.list);
    if (isReply(user)) return user;
    const args = parseArgs(listQuery, requestArgs(input));
    if (!args.ok) return args.reply;
    const q = args.data;
    const all = await listRates(input.services.db);
    const key = (r: TaxRateRecord) => (q.orderby === "id" ? [r.id] : q.orderby === "priority" ? [r.priority, r.order, r.id] : [r.order, r.id]);
    const sorted = [...all].sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i]! - kb[i]!) * (q.order === "desc" ? -1 : 1);
      return 0;
    });
    const out = pageOutOfRange(sorted.length, q.page, q.per_page);
    if (out) return out;
    const start = q.offset ?? (q.page - 1) * q.per_page;
    return pagedJson(input.req, sorted.slice(start, start + q.per_page).map(taxRateJson), sorted.length, q.page, q.per_page);
  });

  rest.register("POST", "wc/v3/taxes", async (input) => {
    const user = await staffUser(input, CAPABILITY, WC_DENIED.create);
    if (isReply(user)) return user;
    const body = bodyObject(input);
    if (!body.ok) return body.reply;
    const unknown = unknownFields(body.body, TAX_RATE_FIELDS);
    if (unknown) return unknown;
    const outcome = await createRate(input.services.db, fields(body.body), (tx, _before, after) =>
      audit(input, user, { action: "create", objectType: "tax_rate", objectId: String(after.id), changes: changedFields(null, snapshot(after)) }, tx),
    );
    return outcome.ok ? json(taxRateJson(outcome.rate), 201) : refusal(outcome, body.body);
  });

  rest.register("GET", "wc/v3/taxes/:id(\\d+)", async (input) => {
    const user = await staffUser(input, CAPABILITY, WC_DENIED.view);
    if (isReply(user)) return user;
    const rate = await findRate(input.services.db, rateId(input));
    return rate ? json(taxRateJson(rate)) : invalidRate();
  });

  const update = async (input: RestInput) => {
    const user = await staffUser(input, CAPABILITY, WC_DENIED.edit);
    if (isReply(user)) return user;
    const body = bodyObject(input);
    if (!body.ok) return body.reply;
    const unknown = unknownFields(body.body, TAX_RATE_FIELDS);
    if (unknown) return unknown;
    const id = rateId(input);
    const outcome = await updateRate(input.services.db, id, fields(body.body), (tx, before, after) =>
      audit(
        input,
        user,
        { action: "update", objectType: "tax_rate", objectId: String(id), changes: changedFields(before && snapshot(before), snapshot(after)) },
        tx,
      ),
    );
    return outcome.ok ? json(taxRateJson(outcome.rate)) : refusal(outcome, body.body);
  };
  for (const method of ["PUT", "PATCH", "POST"]) rest.register(method, "wc/v3/taxes/:id(\\d+)", update);

  rest.register("DELETE", "wc/v3/taxes/:id(\\d+)", async (input) => {
    const user = await staffUser(input, CAPABILITY, WC_DENIED.delete);
    if (isReply(user)) return user;
    const args = parseArgs(z.object({ force: restBool().default(false) }).loose(), requestArgs(input));
    if (!args.ok) return args.reply;
    const id = rateId(input);
    if (!(await findRate(input.services.db, id))) return invalidRate();
    if (!args.data.force) return restError("woocommerce_rest_trash_not_supported", "Taxes do not support trashing.", 501);
    const gone = await deleteRate(input.services.db, id, (tx, before) =>
      audit(input, user, { action: "delete", objectType: "tax_rate", objectId: String(id), changes: changedFields(snapshot(before), {}) }, tx),
    );
    return gone ? json(taxRateJson(gone)) : invalidRate();
  });
}

export const wcTaxesFeature: Feature = {
  name: "wc-taxes",
  endpoints({ rest }) {
    register(rest);
  },
};
