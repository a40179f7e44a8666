/**
 * Menus over REST (docs/contract/rest/shop-v1.md 'Menus'): `shop/v1/menus` (GET list, POST create) and
 * `shop/v1/menus/{id}` (GET, PUT/PATCH/POST update, DELETE), the items nested in the menu's body. Validated by the
 * domain's schema (core/domain/menus), targets checked to exist, each write audited in its transaction. WordPress
 * guards menus with `edit_theme_options`, which WooCommerce gives shop managers too; the shop's capabilities have
 * no such entry, so `manage_woocommerce` (the same two roles) stands in.
 */
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput } from "../http/rest.ts";
import { invalidParams, listArgs, pagedJson, pageOutOfRange, parseArgs, requestArgs, restId } from "../http/rest-args.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import { bodyObject } from "../http/rest-write.ts";
import type { Feature } from "./feature.ts";
import { changeMenu, createMenu, removeMenu, type MenuWrite } from "../../core/commerce/menus.ts";
import { findMenu, listMenus, type MenuRecord } from "../../core/db/repositories/menus.ts";
import type { StoredMenuItem } from "../../core/domain/menus/menus.ts";
import type { Capability } from "../../core/security/capabilities.ts";

const CAPABILITY: Capability = "manage_woocommerce";

function itemView(item: StoredMenuItem, parent: number, position: number): Record<string, unknown> {
  const { id, children, ...rest } = item;
  return { id, parent, position, ...rest, children: (children as StoredMenuItem[]).map((c, i) => itemView(c, id, i)) };
}

const menuView = (m: MenuRecord) => ({
  id: m.id,
  name: m.name,
  slug: m.slug,
  location: m.location,
  modified_gmt: m.updatedAt.toISOString().slice(0, 19),
  items: m.items.map((item, i) => itemView(item, 0, i)),
});

/** An item's audit summary: the tree's size is enough; the full before/after would bloat the log. */
const auditSummary = (m: MenuRecord | null) => (m ? { name: m.name, slug: m.slug, location: m.location, items: countItems(m.items) } : null);
const countItems = (items: StoredMenuItem[]): number => items.reduce((n, i) => n + 1 + countItems(i.children), 0);

const invalidId = () => restError("rest_menu_invalid_id", "Invalid menu ID.", 404);

/** `items[0].children[2].object_id`: where a nested problem is. */
const pathText = (path: readonly PropertyKey[]) => path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");

/** WordPress's `rest_invalid_param`, naming the top-level parameter and, in its message, the nested field. */
function refusal(outcome: Exclude<MenuWrite, { ok: true }>, body: Record<string, unknown>): Reply {
  if (outcome.reason === "not_found") return invalidId();
  const issues =
    outcome.reason === "problem"
      ? [{ path: outcome.path, message: outcome.message }]
      : outcome.error.issues.map((i) => ({ path: i.code === "unrecognized_keys" ? [...i.path, i.keys[0]!] : i.path, message: i.message }));
  if (outcome.reason === "invalid" && issues.every((i) => i.path.length <= 1)) return invalidParams(outcome.error, body);
  const params: Record<string, string> = {};
  for (const issue of issues) params[String(issue.path[0] ?? "body")] ??= `${pathText(issue.path)} ${issue.message}`;
  return restError("rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, 400, { params });
}

const menuListArgs = z.object({ context: listArgs.context, page: listArgs.page, per_page: listArgs.per_page });
const idArg = z.object({ id: restId() });

async function menuId(input: RestInput): Promise<number | Reply> {
  const parsed = parseArgs(idArg, { id: input.pathParams.id });
  return parsed.ok ? parsed.data.id : invalidId();
}

export const menusFeature: Feature = {
  name: "menus",
  endpoints({ rest }) {
    rest.register("GET", "shop/v1/menus", async (input) => {
      const user = await staffUser(input, CAPABILITY);
      if (isReply(user)) return user;
      const args = parseArgs(menuListArgs, requestArgs(input));
      if (!args.ok) return args.reply;
      const { page, per_page } = args.data;
      const { menus, total } = await listMenus(input.services.db, { limit: per_page, offset: (page - 1) * per_page });
      return pageOutOfRange(total, page, per_page) ?? pagedJson(input.req, menus.map(menuView), total, page, per_page);
    });

    rest.register("POST", "shop/v1/menus", async (input) => {
      const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_create", message: "Sorry, you are not allowed to create resources." });
      if (isReply(user)) return user;
      const body = bodyObject(input);
      if (!body.ok) return body.reply;
      const outcome = await createMenu(input.services.db, body.body, (tx, _before, after) =>
        audit(input, user, { action: "create", objectType: "menu", objectId: after.id, changes: { after: auditSummary(after) } }, tx),
      );
      return outcome.ok ? json(menuView(outcome.menu), 201) : refusal(outcome, body.body);
    });

    rest.register("GET", "shop/v1/menus/:id", async (input) => {
      const user = await staffUser(input, CAPABILITY);
      if (isReply(user)) return user;
      const id = await menuId(input);
      if (isReply(id)) return id;
      const menu = await findMenu(input.services.db, id);
      return menu ? json(menuView(menu)) : invalidId();
    });

    const update = async (input: RestInput) => {
      const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_edit", message: "Sorry, you are not allowed to edit this resource." });
      if (isReply(user)) return user;
      const id = await menuId(input);
      if (isReply(id)) return id;
      const body = bodyObject(input);
      if (!body.ok) return body.reply;
      const outcome = await changeMenu(input.services.db, id, body.body, (tx, before, after) =>
        audit(input, user, { action: "update", objectType: "menu", objectId: id, changes: { before: auditSummary(before), after: auditSummary(after) } }, tx),
      );
      return outcome.ok ? json(menuView(outcome.menu)) : refusal(outcome, body.body);
    };
    for (const method of ["PUT", "PATCH", "POST"]) rest.register(method, "shop/v1/menus/:id", update);

    rest.register("DELETE", "shop/v1/menus/:id", async (input) => {
      const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_delete", message: "Sorry, you are not allowed to delete this resource." });
      if (isReply(user)) return user;
      const id = await menuId(input);
      if (isReply(id)) return id;
      const gone = await removeMenu(input.services.db, id, (tx, before) =>
        audit(input, user, { action: "delete", objectType: "menu", objectId: id, changes: { before: auditSummary(before) } }, tx),
      );
      return gone ? json({ deleted: true, previous: menuView(gone) }) : invalidId();
    });
  },
};
