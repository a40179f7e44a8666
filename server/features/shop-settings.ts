/**
 * The shop's own staff routes for what the storefront reads (docs/contract/rest/shop-v1.md):
 * - `shop/v1/discount-rules` and `shop/v1/discount-rules/{code}`: the pricing engine's rules, written through its
 *   own schema (core/domain/pricing/schema.ts), `manage_woocommerce`;
 * - `shop/v1/settings/{store-notice|coming-soon|attribution|consent}`: GET, PUT/POST/PATCH (the fields given),
 *   DELETE (back to SHOP_SETTINGS and the defaults), through core/config/editable-settings.ts's schemas.
 * Every write is audited in its own transaction; the storefront shows it from the next request on.
 */
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput, type RestRouter } from "../http/rest.ts";
import { invalidParams, listArgs, pagedJson, pageOutOfRange, parseArgs, requestArgs } from "../http/rest-args.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import { bodyObject, changedFields, unknownFields } from "../http/rest-write.ts";
import type { Feature } from "./feature.ts";
import { RULE_FIELDS, createDiscountRule, deleteDiscountRule, updateDiscountRule, type RuleWrite } from "../../core/commerce/discount-rules.ts";
import { readSection, resetSection, saveSection } from "../../core/commerce/site-settings.ts";
import { listRuleRows, findRuleRow, type RuleRow } from "../../core/db/repositories/discounts.ts";
import { EDITABLE_SETTINGS, type EditableSection } from "../../core/config/editable-settings.ts";
import type { Capability } from "../../core/security/capabilities.ts";

// ---------------------------------------------------------------------------------------------------
// Discount rules
// ---------------------------------------------------------------------------------------------------

const ruleView = (row: RuleRow) => ({ id: row.rule.code, ...row.rule, modified_gmt: row.updatedAt.toISOString().slice(0, 19) });
const invalidRule = () => restError("rest_discount_rule_invalid_id", "Invalid discount rule code.", 404);
const ruleListArgs = z.object({ context: listArgs.context, page: listArgs.page, per_page: listArgs.per_page });

function ruleRefusal(outcome: Exclude<RuleWrite, { ok: true }>, body: Record<string, unknown>): Reply {
  switch (outcome.reason) {
    case "invalid":
      return invalidParams(outcome.error, body);
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
    return outcome.ok ? json(ruleView(outcome.row), 201) : ruleRefusal(outcome, body.body);
  });

  rest.register("GET", "shop/v1/discount-rules/:code", async (input) => {
    const user = await staffUser(input, capability);
    if (isReply(user)) return user;
    const row = await findRuleRow(input.services.db, input.pathParams.code!.slice(0, 200));
    return row ? json(ruleView(row)) : invalidRule();
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
    const outcome = await updateDiscountRule(input.services.db, code, fields, (tx, before, after) =>
      audit(input, user, { action: "update", objectType: "discount_rule", objectId: code, changes: changedFields({ ...before }, { ...after }) }, tx),
    );
    return outcome.ok ? json(ruleView(outcome.row)) : ruleRefusal(outcome, body.body);
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
};

function registerSettings(rest: RestRouter): void {
  for (const name of Object.keys(EDITABLE_SETTINGS) as EditableSection[]) {
    const path = `shop/v1/settings/${name}`;
    const capability = SECTION_CAPABILITY[name];

    rest.register("GET", path, async (input) => {
      const user = await staffUser(input, capability);
      if (isReply(user)) return user;
      return json(await readSection(input.services, name));
    });

    const save = async (input: RestInput) => {
      const user = await staffUser(input, capability, { code: "rest_cannot_edit", message: "Sorry, you are not allowed to edit this resource." });
      if (isReply(user)) return user;
      const body = bodyObject(input);
      if (!body.ok) return body.reply;
      const outcome = await saveSection(input.services, name, body.body, (tx, before, after) =>
        audit(input, user, { action: "update", objectType: "setting", objectId: name, changes: changedFields(before, after) }, tx),
      );
      return outcome.ok ? json(outcome.after) : invalidParams(outcome.error, body.body);
    };
    for (const method of ["PUT", "PATCH", "POST"]) rest.register(method, path, save);

    rest.register("DELETE", path, async (input) => {
      const user = await staffUser(input, capability, { code: "rest_cannot_delete", message: "Sorry, you are not allowed to delete this resource." });
      if (isReply(user)) return user;
      await resetSection(input.services, name, (tx, before) =>
        audit(input, user, { action: "reset", objectType: "setting", objectId: name, changes: { before: before as Record<string, unknown> } }, tx),
      );
      return json(await readSection(input.services, name));
    });
  }
}

export const shopSettingsFeature: Feature = {
  name: "shop-settings",
  endpoints({ rest }) {
    registerDiscountRules(rest);
    registerSettings(rest);
  },
};
