/**
 * The shop's own staff routes for what the storefront reads (docs/contract/rest/shop-v1.md):
 * - `shop/v1/discount-rules` and `shop/v1/discount-rules/{code}`: the pricing engine's rules, written through its
 *   own schema (core/domain/pricing/schema.ts), `manage_woocommerce`;
 * - `shop/v1/settings/{store-notice|coming-soon|attribution|consent}`: GET, PUT/POST/PATCH (the fields given),
 *   DELETE (back to SHOP_SETTINGS and the defaults), through core/config/editable-settings.ts's schemas; each
 *   answer carries the section's version (`ETag`), and a write with a stale `If-Match` is refused (412);
 * - `shop/v1/settings/{checkout|accounts|payments|emails}`: the checkout's layout and texts, accounts at checkout, the
 *   card gateway's options, the e-mails' sender and which e-mails are sent (decision 0032), the same way;
 * - `shop/v1/settings/general`: the store's address and where it sells and ships (its answers also show the fixed
 *   currency, read-only).
 * Every write is audited in its own transaction; the storefront shows it from the next request on.
 */
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput, type RestRouter } from "../http/rest.ts";
import { ifMatchOf, listArgs, nestedInvalidParams, pagedJson, pageOutOfRange, parseArgs, requestArgs } from "../http/rest-args.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import { bodyObject, changedFields, unknownFields } from "../http/rest-write.ts";
import type { Feature } from "./feature.ts";
import { RULE_FIELDS, createDiscountRule, deleteDiscountRule, ruleVersion, updateDiscountRule, type RuleWrite } from "../../core/commerce/discount-rules.ts";
import { simulatePromotion } from "../../core/commerce/promotion-simulator.ts";
import type { PricedCart } from "../../core/commerce/cart.ts";
import { discountRuleSchema, type DiscountRule } from "../../core/domain/pricing/index.ts";
import { readSection, resetSection, saveSection, sectionVersion } from "../../core/commerce/site-settings.ts";
import { listRuleRows, findRuleRow, type RuleRow } from "../../core/db/repositories/discounts.ts";
import { EDITABLE_SETTINGS, type EditableSection } from "../../core/config/editable-settings.ts";
import type { Capability } from "../../core/security/capabilities.ts";

// ---------------------------------------------------------------------------------------------------
// Discount rules
// ---------------------------------------------------------------------------------------------------

const ruleView = (row: RuleRow) => ({ id: row.rule.code, ...row.rule, modified_gmt: row.updatedAt.toISOString().slice(0, 19) });
const versionHeader = (row: RuleRow) => ({ ETag: `"${ruleVersion(row)}"` });
const invalidRule = () => restError("rest_discount_rule_invalid_id", "Invalid discount rule code.", 404);
const ruleListArgs = z.object({ context: listArgs.context, page: listArgs.page, per_page: listArgs.per_page });

function ruleRefusal(outcome: Exclude<RuleWrite, { ok: true }>, body: Record<string, unknown>): Reply {
  switch (outcome.reason) {
    case "invalid":
      return nestedInvalidParams(outcome.error, body);
    case "changed":
      return restError(
        "rest_discount_rule_changed",
        "This discount rule was changed since you opened it. Reload it to see the changes, then make yours again.",
        412,
      );
    case "exists":
      return restError("rest_discount_rule_exists", "A discount rule with this code already exists.", 400, { params: { code: "code is taken" } });
    case "code_changed":
      return restError("rest_invalid_param", "Invalid parameter(s): code", 400, { params: { code: "code cannot change: it is the rule's identity" } });
    case "not_found":
      return invalidRule();
  }
}

function registerDiscountRules(rest: RestRouter): void {
  const capability: Capability = "manage_woocommerce";

  rest.register("GET", "shop/v1/discount-rules", async (input) => {
    const user = await staffUser(input, capability);
    if (isReply(user)) return user;
    const args = parseArgs(ruleListArgs, requestArgs(input));
    if (!args.ok) return args.reply;
    const { page, per_page } = args.data;
    const { rows, total } = await listRuleRows(input.services.db, { limit: per_page, offset: (page - 1) * per_page });
    return pageOutOfRange(total, page, per_page) ?? pagedJson(input.req, rows.map(ruleView), total, page, per_page);
  });

  rest.register("POST", "shop/v1/discount-rules", async (input) => {
    const user = await staffUser(input, capability, { code: "rest_cannot_create", message: "Sorry, you are not allowed to create resources." });
    if (isReply(user)) return user;
    const body = bodyObject(input);
    if (!body.ok) return body.reply;
    const unknown = unknownFields(body.body, RULE_FIELDS);
    if (unknown) return unknown;
    const { id: _id, ...fields } = body.body;
    const outcome = await createDiscountRule(input.services.db, fields, (tx, _before, after) =>
      audit(input, user, { action: "create", objectType: "discount_rule", objectId: after.code, changes: changedFields(null, { ...after }) }, tx),
    );
    return outcome.ok ? json(ruleView(outcome.row), 201, versionHeader(outcome.row)) : ruleRefusal(outcome, body.body);
  });

  rest.register("GET", "shop/v1/discount-rules/:code", async (input) => {
    const user = await staffUser(input, capability);
    if (isReply(user)) return user;
    const row = await findRuleRow(input.services.db, input.pathParams.code!.slice(0, 200));
    return row ? json(ruleView(row), 200, versionHeader(row)) : invalidRule();
  });

  const update = async (input: RestInput) => {
    const user = await staffUser(input, capability, { code: "rest_cannot_edit", message: "Sorry, you are not allowed to edit this resource." });
    if (isReply(user)) return user;
    const body = bodyObject(input);
    if (!body.ok) return body.reply;
    const unknown = unknownFields(body.body, RULE_FIELDS);
    if (unknown) return unknown;
    const { id: _id, ...fields } = body.body;
    const code = input.pathParams.code!.slice(0, 200);
    const outcome = await updateDiscountRule(
      input.services.db,
      code,
      fields,
      (tx, before, after) =>
        audit(input, user, { action: "update", objectType: "discount_rule", objectId: code, changes: changedFields({ ...before }, { ...after }) }, tx),
      ifMatchOf(input.req),
    );
    return outcome.ok ? json(ruleView(outcome.row), 200, versionHeader(outcome.row)) : ruleRefusal(outcome, body.body);
  };
  for (const method of ["PUT", "PATCH", "POST"]) rest.register(method, "shop/v1/discount-rules/:code", update);

  rest.register("DELETE", "shop/v1/discount-rules/:code", async (input) => {
    const user = await staffUser(input, capability, { code: "rest_cannot_delete", message: "Sorry, you are not allowed to delete this resource." });
    if (isReply(user)) return user;
    const code = input.pathParams.code!.slice(0, 200);
    const gone = await deleteDiscountRule(input.services.db, code, (tx, before) =>
      audit(input, user, { action: "delete", objectType: "discount_rule", objectId: code, changes: changedFields({ ...before }, {}) }, tx),
    );
    return gone ? json({ deleted: true, previous: ruleView(gone) }) : invalidRule();
  });
}

// ---------------------------------------------------------------------------------------------------
// Promotion simulator
// ---------------------------------------------------------------------------------------------------

const simulationArgs = (maxQuantity: number) =>
  z.strictObject({
    items: z
      .array(z.strictObject({ product_id: z.number().int().min(1).max(2_147_483_647), quantity: z.number().int().min(1).max(maxQuantity) }))
      .min(1)
      .max(50),
    coupons: z.array(z.string().trim().min(1).max(100)).max(10).default([]),
    customer_id: z.number().int().min(1).max(2_147_483_647).nullable().default(null),
    rule: z.record(z.string(), z.unknown()).optional(),
    date: z
      .string()
      .refine((v) => !Number.isNaN(Date.parse(v)), "must be a date-time like 2026-11-27T12:00:00Z")
      .optional(),
  });

/** The draft rule, checked as a save checks it (unknown fields refused, then the engine's schema); problems under `rule`. */
function draftRule(body: Record<string, unknown> | undefined): DiscountRule | null | Reply {
  if (body === undefined) return null;
  const { id: _id, ...fields } = body;
  const unknown = Object.keys(fields).filter((k) => !RULE_FIELDS.includes(k));
  if (unknown.length)
    return restError("rest_invalid_param", "Invalid parameter(s): rule", 400, { params: { rule: `rule.${unknown[0]} is not a known field` } });
  const parsed = discountRuleSchema.safeParse(fields);
  return parsed.success ? (parsed.data as DiscountRule) : nestedInvalidParams(parsed.error, fields, ["rule"]);
}

/** A priced cart as the simulator answers it (amounts in cents, as the rules keep them). */
function simulatedCartView(cart: PricedCart) {
  const priced = new Map(cart.result.lines.map((l) => [l.key, l]));
  const t = cart.result.totals;
  return {
    lines: cart.lines.map((l) => ({
      product_id: l.variationId || l.productId,
      name: l.name,
      details: l.details,
      quantity: l.quantity,
      free_item: l.freeItem !== null,
      regular_unit_price: l.regularUnitPrice,
      unit_price: l.unitPrice,
      subtotal: l.subtotal,
      total: l.total,
      discounts: (priced.get(l.key)?.discounts ?? []).map((d) => ({ source: d.source, code: d.code, title: d.title, amount: d.amount })),
    })),
    totals: {
      subtotal: t.subtotal,
      product_discount: t.productDiscount,
      cart_rule_discount: t.cartRuleDiscount,
      coupon_discount: t.couponDiscount,
      discount_total: t.discountTotal,
      items_total: t.itemsTotal,
      shipping: t.shipping,
      total: t.grandTotal,
    },
    applied_rules: cart.result.appliedRules.map((r) => ({ code: r.code, title: r.title, kind: r.kind, discount: r.discount })),
    coupons: {
      applied: cart.result.coupons.applied.map((c) => ({ code: c.code, discount: c.discount })),
      refused: cart.result.coupons.refused.map((c) => ({ code: c.code, message: c.message })),
    },
    free_shipping_by: cart.result.shipping.freeShippingGrantedBy.map((g) => g.code),
    nudges: cart.result.nudges.map((n) => n.message),
  };
}

function registerSimulator(rest: RestRouter): void {
  rest.register("POST", "shop/v1/discount-simulations", async (input) => {
    const user = await staffUser(input, "manage_woocommerce");
    if (isReply(user)) return user;
    const body = bodyObject(input);
    if (!body.ok) return body.reply;
    const args = parseArgs(simulationArgs(input.services.config.discounts.maxQuantity), body.body);
    if (!args.ok) return args.reply;
    const draft = draftRule(args.data.rule);
    if (isReply(draft)) return draft;
    const now = args.data.date ? new Date(args.data.date) : input.services.now();
    const outcome = await simulatePromotion(input.services.db, {
      items: args.data.items.map((i) => ({ productId: i.product_id, quantity: i.quantity })),
      coupons: args.data.coupons,
      customerId: args.data.customer_id,
      draft,
      now,
      currencyFormat: input.services.config.currency.format,
    });
    if (!outcome.ok)
      return nestedInvalidParams(
        new z.ZodError(outcome.problems.map((p) => ({ code: "custom", path: p.path, message: p.message, input: undefined }))),
        body.body,
      );
    return json({
      date: now.toISOString(),
      current: simulatedCartView(outcome.current),
      draft: outcome.draft ? simulatedCartView(outcome.draft) : null,
    });
  });
}

// ---------------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------------

/**
 * Who may change each section, as WordPress and WooCommerce decide it: the store notice, the coming-soon banner and
 * order attribution are WooCommerce settings (WooCommerce's settings routes and its Site visibility page ask
 * `manage_woocommerce`, which a shop manager has); consent is the site's privacy setting, which WordPress keeps
 * for administrators (`manage_privacy_options` maps to `manage_options`).
 */
const SECTION_CAPABILITY: Record<EditableSection, Capability> = {
  "store-notice": "manage_woocommerce",
  "coming-soon": "manage_woocommerce",
  attribution: "manage_woocommerce",
  consent: "manage_options",
  checkout: "manage_woocommerce",
  accounts: "manage_woocommerce",
  payments: "manage_woocommerce",
  // WooCommerce's Settings › Emails is a WooCommerce setting.
  emails: "manage_woocommerce",
  general: "manage_woocommerce",
  tax: "manage_woocommerce",
};

/**
 * A section's values with its version. General also shows the shop's currency, read-only: it is fixed for the shop's
 * life (`currency` of the configuration: every stored amount is in it), so it is no field of the section, and a
 * write naming it is refused as an unknown field.
 */
const sectionReply = (values: unknown, name?: EditableSection, services?: RestInput["services"]) =>
  json(
    name === "general" && services
      ? { ...(values as object), currency: { code: services.config.currency.code, symbol: services.config.currency.format.symbol, editable: false } }
      : values,
    200,
    { ETag: `"${sectionVersion(values)}"` },
  );

function registerSettings(rest: RestRouter): void {
  for (const name of Object.keys(EDITABLE_SETTINGS) as EditableSection[]) {
    const path = `shop/v1/settings/${name}`;
    const capability = SECTION_CAPABILITY[name];

    rest.register("GET", path, async (input) => {
      const user = await staffUser(input, capability);
      if (isReply(user)) return user;
      return sectionReply(await readSection(input.services, name), name, input.services);
    });

    const save = async (input: RestInput) => {
      const user = await staffUser(input, capability, { code: "rest_cannot_edit", message: "Sorry, you are not allowed to edit this resource." });
      if (isReply(user)) return user;
      const body = bodyObject(input);
      if (!body.ok) return body.reply;
      const outcome = await saveSection(
        input.services,
        name,
        body.body,
        (tx, before, after) => audit(input, user, { action: "update", objectType: "setting", objectId: name, changes: changedFields(before, after) }, tx),
        ifMatchOf(input.req),
      );
      if (outcome.ok) return sectionReply(outcome.after, name, input.services);
      if ("changed" in outcome)
        return restError(
          "rest_setting_changed",
          "These settings were changed since you opened them. Reload them to see the changes, then make yours again.",
          412,
        );
      return nestedInvalidParams(outcome.error, body.body);
    };
    for (const method of ["PUT", "PATCH", "POST"]) rest.register(method, path, save);

    rest.register("DELETE", path, async (input) => {
      const user = await staffUser(input, capability, { code: "rest_cannot_delete", message: "Sorry, you are not allowed to delete this resource." });
      if (isReply(user)) return user;
      await resetSection(input.services, name, (tx, before) =>
        audit(input, user, { action: "reset", objectType: "setting", objectId: name, changes: { before: before as Record<string, unknown> } }, tx),
      );
      return sectionReply(await readSection(input.services, name), name, input.services);
    });
  }
}

export const shopSettingsFeature: Feature = {
  name: "shop-settings",
  endpoints({ rest }) {
    registerDiscountRules(rest);
    registerSimulator(rest);
    registerSettings(rest);
  },
};
