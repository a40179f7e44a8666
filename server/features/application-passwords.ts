/**
 * WordPress's application passwords (docs/contract/rest/auth.md): the routes under
 * wp/v2/users/(me|{id})/application-passwords, and the HTTP Basic authenticator that accepts them on the REST API
 * (never on pages, never with the account's own password). A user manages their own; a user with `edit_users`
 * manages others' (a shop manager only customers', as WooCommerce lets them edit customers only).
 */
import type { Request } from "express";
import { z } from "zod";
import { json } from "../http/dispatch.ts";
import type { Reply } from "../http/dispatch.ts";
import { restError, type RestInput, type RestUser } from "../http/rest.ts";
import { parseArgs, requestArgs } from "../http/rest-args.ts";
import { audit } from "../http/rest-audit.ts";
import type { AppServices } from "../services.ts";
import type { Endpoints, Feature } from "./feature.ts";
import { roleCan } from "../../core/security/capabilities.ts";
import { findCustomerRole } from "../../core/db/repositories/customers.ts";
import { AUTH_LIMITS } from "../../core/commerce/accounts.ts";
import * as appPasswords from "../../core/commerce/application-passwords.ts";

export const applicationPasswordsFeature: Feature = { name: "application-passwords", endpoints: register };

const BASIC_ERRORS = {
  invalid_username: "<strong>Error:</strong> Unknown username. Check again or try your email address.",
  invalid_email: "<strong>Error:</strong> Unknown email address. Check again or try your username.",
  incorrect_password: "The provided password is an invalid application password.",
} as const;

/** `Authorization: Basic base64(login:password)` → the user of that application password, or WordPress's 401. */
async function basicAuthenticator(req: Request, services: AppServices): Promise<RestUser | Reply | null> {
  const header = req.get("Authorization") ?? "";
  const m = /^Basic\s+([A-Za-z0-9+/=_-]{0,2000})\s*$/i.exec(header);
  if (!/^Basic\b/i.test(header)) return null;
  const decoded = m ? Buffer.from(m[1]!, "base64").toString("utf8") : "";
  const colon = decoded.indexOf(":");
  const login = colon < 0 ? decoded : decoded.slice(0, colon);
  const password = colon < 0 ? "" : decoded.slice(colon + 1);
  const outcome = await appPasswords.authenticateBasic(services.db, { login, password, address: req.ip ?? "unknown", now: services.now() });
  if (outcome.ok) return { id: outcome.customerId, role: outcome.role, via: "application-password", applicationPassword: outcome.uuid };
  if (outcome.code === "too_many_attempts") return restError("too_many_attempts", AUTH_LIMITS.tooManyLoginsFromAddressMessage, 429);
  return restError(outcome.code, BASIC_ERRORS[outcome.code], 401);
}

/** WordPress's dates of application passwords: UTC without a zone ("2026-11-27T10:41:31"). */
const wpDate = (d: Date | null) => (d ? d.toISOString().slice(0, 19) : null);

function view(input: RestInput, userId: number, item: appPasswords.ApplicationPassword, password?: string) {
  const self = `${input.services.siteUrl}/wp-json/wp/v2/users/${userId}/application-passwords/${item.uuid}`;
  return {
    uuid: item.uuid,
    app_id: item.appId,
    name: item.name,
    created: wpDate(item.createdAt),
    last_used: wpDate(item.lastUsedAt),
    last_ip: item.lastIp,
    ...(password !== undefined ? { password } : {}),
    _links: { self: [{ href: self }] },
  };
}

type Action = "list" | "create" | "delete_all" | "read" | "edit" | "delete";

const DENIED: Record<Action, { code: string; message: string }> = {
  list: { code: "rest_cannot_list_application_passwords", message: "Sorry, you are not allowed to list application passwords for this user." },
  create: { code: "rest_cannot_create_application_passwords", message: "Sorry, you are not allowed to create application passwords for this user." },
  delete_all: { code: "rest_cannot_delete_application_passwords", message: "Sorry, you are not allowed to delete application passwords for this user." },
  read: { code: "rest_cannot_read_application_password", message: "Sorry, you are not allowed to read this application password." },
  edit: { code: "rest_cannot_edit_application_password", message: "Sorry, you are not allowed to edit this application password." },
  delete: { code: "rest_cannot_delete_application_password", message: "Sorry, you are not allowed to delete this application password." },
};

/**
 * The caller and the user the path names, when the caller may act on that user's passwords. A guest gets 401, a
 * caller without the right 403 whether or not the user exists (they learn nothing); only a caller who may manage
 * others learns that an id is unknown (`rest_user_invalid_id` 404).
 */
async function target(input: RestInput, action: Action): Promise<{ caller: RestUser; userId: number } | Reply> {
  const caller = await input.user();
  const raw = input.pathParams.user ?? "me";
  if (!caller)
    return raw === "me"
      ? restError("rest_not_logged_in", "You are not currently logged in.", 401)
      : restError(DENIED[action].code, DENIED[action].message, 401);
  if (raw === "me") return { caller, userId: caller.id };
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (id === caller.id) return { caller, userId: id };
  if (!roleCan(caller.role, "edit_users")) return restError(DENIED[action].code, DENIED[action].message, 403);
  const role = Number.isFinite(id) ? await findCustomerRole(input.services.db, id) : null;
  if (role === null) return restError("rest_user_invalid_id", "Invalid user ID.", 404);
  // WooCommerce: a shop manager edits customers only, never staff.
  if (caller.role !== "administrator" && role !== "customer") return restError(DENIED[action].code, DENIED[action].message, 403);
  return { caller, userId: id };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = () => restError("rest_application_password_not_found", "Application password not found.", 404);

const nameArg = z
  .string()
  .max(200)
  .transform((v) =>
    v
      .replace(/<[^>]*>?/g, "")
      .replace(/\p{Cc}+/gu, " ")
      .trim(),
  );
const createArgs = z.object({
  name: nameArg,
  app_id: z.union([z.literal(""), z.string().regex(UUID, "is not a valid UUID.")]).default(""),
});
const editArgs = z.object({ name: nameArg });

const emptyName = () => restError("application_password_empty_name", "An application name is required to create an application password.", 400);
const duplicateName = () => restError("application_password_duplicate_name", "Each application name should be unique.", 409);

function register({ rest }: Endpoints): void {
  rest.authenticate(basicAuthenticator);
  const base = "wp/v2/users/:user/application-passwords";

  rest.register("GET", base, async (input) => {
    const t = await target(input, "list");
    if ("kind" in t) return t;
    const items = await appPasswords.listApplicationPasswords(input.services.db, t.userId);
    return json(items.map((item) => view(input, t.userId, item)));
  });

  rest.register("POST", base, async (input) => {
    const t = await target(input, "create");
    if ("kind" in t) return t;
    const args = parseArgs(createArgs, requestArgs(input));
    if (!args.ok) return args.reply;
    if (!args.data.name) return emptyName();
    const made = await appPasswords.createApplicationPassword(input.services.db, {
      customerId: t.userId,
      name: args.data.name,
      appId: args.data.app_id,
      now: input.services.now(),
    });
    if (!made.ok) return duplicateName();
    await audit(input, t.caller, {
      action: "create",
      objectType: "application_password",
      objectId: made.item.uuid,
      changes: { user: t.userId, name: made.item.name },
    });
    return json(view(input, t.userId, made.item, made.password), 201);
  });

  rest.register("DELETE", base, async (input) => {
    const t = await target(input, "delete_all");
    if ("kind" in t) return t;
    const count = await appPasswords.deleteAllApplicationPasswords(input.services.db, t.userId);
    await audit(input, t.caller, { action: "delete", objectType: "application_password", objectId: `user:${t.userId}`, changes: { count } });
    return json({ deleted: true, count });
  });

  // Before `:uuid`, so "introspect" is not taken for an id.
  rest.register("GET", `${base}/introspect`, async (input) => {
    const t = await target(input, "read");
    if ("kind" in t) return t;
    if (t.userId !== t.caller.id)
      return restError(
        "rest_cannot_introspect_app_password_for_non_authenticated_user",
        "The authenticated application password can only be introspected for the current user.",
        403,
      );
    const uuid = t.caller.applicationPassword;
    const item = uuid ? await appPasswords.findApplicationPassword(input.services.db, t.userId, uuid) : null;
    if (!item) return restError("rest_no_authenticated_app_password", "Cannot introspect application password.", 404);
    return json(view(input, t.userId, item));
  });

  const one = async (input: RestInput, action: Action) => {
    const t = await target(input, action);
    if ("kind" in t) return t;
    const uuid = input.pathParams.uuid ?? "";
    if (!UUID.test(uuid)) return { t, item: null };
    return { t, item: await appPasswords.findApplicationPassword(input.services.db, t.userId, uuid) };
  };

  rest.register("GET", `${base}/:uuid`, async (input) => {
    const found = await one(input, "read");
    if ("kind" in found) return found;
    return found.item ? json(view(input, found.t.userId, found.item)) : notFound();
  });

  const edit = async (input: RestInput) => {
    const found = await one(input, "edit");
    if ("kind" in found) return found;
    if (!found.item) return notFound();
    const args = parseArgs(editArgs, requestArgs(input));
    if (!args.ok) return args.reply;
    if (!args.data.name) return emptyName();
    const renamed = await appPasswords.renameApplicationPassword(input.services.db, found.t.userId, found.item.uuid, args.data.name);
    if (!renamed.ok) return renamed.reason === "duplicate" ? duplicateName() : notFound();
    await audit(input, found.t.caller, {
      action: "update",
      objectType: "application_password",
      objectId: found.item.uuid,
      changes: { name: { from: found.item.name, to: renamed.item.name } },
    });
    return json(view(input, found.t.userId, renamed.item));
  };
  for (const method of ["POST", "PUT", "PATCH"]) rest.register(method, `${base}/:uuid`, edit);

  rest.register("DELETE", `${base}/:uuid`, async (input) => {
    const found = await one(input, "delete");
    if ("kind" in found) return found;
    const removed = found.item ? await appPasswords.deleteApplicationPassword(input.services.db, found.t.userId, found.item.uuid) : null;
    if (!removed) return notFound();
    await audit(input, found.t.caller, { action: "delete", objectType: "application_password", objectId: removed.uuid, changes: { user: found.t.userId } });
    return json({ deleted: true, previous: view(input, found.t.userId, removed) });
  });
}
