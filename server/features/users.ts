/**
 * `wp/v2/users` in WordPress's shape (docs/contract/rest/people.md, docs/contract/wire.md §2.8): the list (a caller
 * without `list_users` sees only authors of published posts), one user, `me`, create, update (oneself, or
 * `edit_users`; roles only with `promote_users`; a shop manager edits customers only) and delete (`delete_users`,
 * `force=true` and `reassign` required). The registered `meta` (core/domain/users/meta.ts) is how the coming-soon
 * banner's dismissal is stored. A cookie counts only with a valid X-WP-Nonce, as in WordPress.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput, type RestUser } from "../http/rest.ts";
import { listArgs, pagedJson, pageOutOfRange, parseArgs, requestArgs, restBool, restIdList, restInt, CONTEXTS, type RestContext } from "../http/rest-args.ts";
import { audit } from "../http/rest-audit.ts";
import { findUser, hasPublishedPosts, listUsers, type UserRecord } from "../../core/db/repositories/customers.ts";
import { readUserMeta } from "../../core/db/repositories/user-meta.ts";
import { parseUserMetaUpdate, userMetaView } from "../../core/domain/users/meta.ts";
import { isRole, roleCan, roleCapabilities, type Capability } from "../../core/security/capabilities.ts";
import { createUser, deleteUser, updateUser, type PeopleRefusal, type UserInput } from "../../core/commerce/people.ts";
import { canDeleteUser, canEditUser, plainText } from "../../core/domain/users/access.ts";
import type { Endpoints, Feature } from "./feature.ts";

export const usersFeature: Feature = { name: "users", endpoints: registerUsersEndpoints };

// ---------------------------------------------------------------------------------------------------------------
// Who may do what: the rules are core/domain/users/access.ts; these answer them in WordPress's words
// ---------------------------------------------------------------------------------------------------------------

const can = (user: RestUser | null, capability: Capability) => !!user && roleCan(user.role, capability);

/** WordPress's rest_authorization_required_code(): 401 for a guest, 403 for someone signed in. */
const authCode = (user: RestUser | null) => (user ? 403 : 401);

const invalidId = () => restError("rest_user_invalid_id", "Invalid user ID.", 404);
const notLoggedIn = () => restError("rest_not_logged_in", "You are not currently logged in.", 401);

/** A parameter refused by its own check, in the shape WordPress wraps a sanitize callback's error. */
function paramError(name: string, code: string, message: string): Reply {
  return restError("rest_invalid_param", `Invalid parameter(s): ${name}`, 400, {
    params: { [name]: message },
    details: { [name]: { code, message, data: null } },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The shape
// ---------------------------------------------------------------------------------------------------------------

/** Gravatar addresses as WordPress's rest_get_avatar_urls gives them (sizes 24, 48, 96; "mystery person" default). */
export function avatarUrl(email: string, size: number): string {
  const hash = createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
  return `https://secure.gravatar.com/avatar/${hash}?s=${size}&d=mm&r=g`;
}

const userSlug = (u: UserRecord) => u.nicename ?? `user-${u.id}`;
export const userLogin = (u: UserRecord) => u.username ?? u.email;

const EMBED_FIELDS = ["id", "name", "url", "description", "link", "slug", "avatar_urls"] as const;
const VIEW_FIELDS = [...EMBED_FIELDS, "meta"] as const;

async function userJson(input: RestInput, u: UserRecord, context: RestContext): Promise<Record<string, unknown>> {
  const { siteUrl, db } = input.services;
  const full: Record<string, unknown> = {
    id: u.id,
    username: userLogin(u),
    name: u.displayName,
    first_name: u.firstName,
    last_name: u.lastName,
    email: u.email,
    url: u.url,
    description: u.description,
    // The shop has no author archive yet: WordPress's plain-permalink author address.
    link: `${siteUrl}/?author=${u.id}`,
    locale: u.locale || "en_US",
    nickname: u.nickname || userLogin(u),
    slug: userSlug(u),
    roles: [u.role],
    registered_date: u.createdAt.toISOString().replace(/\.\d{3}Z$/, "+00:00"),
    capabilities: { ...roleCapabilities(u.role), [u.role]: true },
    extra_capabilities: { [u.role]: true },
    avatar_urls: Object.fromEntries([24, 48, 96].map((s) => [String(s), avatarUrl(u.email, s)])),
    meta: userMetaView(await readUserMeta(db, u.id)),
  };
  const keep: readonly string[] = context === "edit" ? Object.keys(full) : context === "view" ? VIEW_FIELDS : EMBED_FIELDS;
  const out: Record<string, unknown> = Object.fromEntries(keep.map((k) => [k, full[k]]));
  out._links = {
    self: [{ href: `${siteUrl}/wp-json/wp/v2/users/${u.id}` }],
    collection: [{ href: `${siteUrl}/wp-json/wp/v2/users` }],
  };
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------------------------

/** `roles=a,b` or `roles[]=a`: the names only; whether each exists is checked after (rest_user_invalid_role). */
const stringList = (max: number, item: z.ZodString) =>
  z.preprocess((v) => (typeof v === "string" ? (v === "" ? [] : v.split(",").map((s) => s.trim())) : v), z.array(item).max(max));

const listSchema = z.object({
  context: listArgs.context,
  page: listArgs.page,
  per_page: listArgs.per_page,
  offset: listArgs.offset,
  search: listArgs.search,
  order: z.enum(["asc", "desc"]).default("asc"),
  orderby: z.enum(["id", "include", "name", "registered_date", "slug", "include_slugs", "email", "url"]).default("name"),
  include: restIdList().default([]),
  exclude: restIdList().default([]),
  roles: stringList(10, z.string().max(40)).optional(),
  slug: stringList(100, z.string().max(50)).optional(),
  who: z.enum(["authors"]).optional(),
});

const contextSchema = z.object({ context: z.enum(CONTEXTS).default("view") });

/** WordPress's validate_username (strict): letters, digits, space and `_.-@`. */
const USERNAME = /^[A-Za-z0-9 _.@-]+$/;

const text = (max: number) => z.string().max(max).transform(plainText);
const userFields = {
  username: z.string().trim().min(1).max(60).regex(USERNAME, "Username contains invalid characters."),
  email: z.string().trim().toLowerCase().max(100).email("Invalid email address."),
  name: text(250),
  first_name: text(100),
  last_name: text(100),
  nickname: text(250),
  description: z
    .string()
    .max(5000)
    .transform((v) => v.replace(/<[^>]*>?/g, "").trim()),
  url: z.union([z.literal(""), z.url({ protocol: /^https?$/ }).max(100)]),
  locale: z.enum(["", "en_US"]),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9_-]{1,50}$/),
  roles: stringList(1, z.string().max(40)),
  meta: z.unknown(),
  password: z.unknown(),
};

const createSchema = z.object({ ...userFields, username: userFields.username, email: userFields.email }).partial({
  name: true,
  first_name: true,
  last_name: true,
  nickname: true,
  description: true,
  url: true,
  locale: true,
  slug: true,
  roles: true,
  meta: true,
});
const updateSchema = z.object(userFields).partial();

/** WordPress's check_user_password, and the shop's own minimum (docs/contract/rest/people.md 'Passwords'). */
export function checkPassword(value: unknown, name = "password"): string | Reply {
  const bad = (message: string) => paramError(name, "rest_user_invalid_password", message);
  if (typeof value !== "string") return bad(`${name} is not of type string.`);
  if (value === "") return bad("Passwords cannot be empty.");
  if (value.includes("\\")) return bad('Passwords cannot contain the "\\" character.');
  if (value.length < 8) return bad("Please use a password of at least 8 characters.");
  if (value.length > 200) return bad("That password is too long.");
  return value;
}

/** The one role a request names (our accounts hold one), or the refusal. */
function checkRoles(roles: string[] | undefined): string | undefined | Reply {
  if (roles === undefined || roles.length === 0) return undefined;
  const role = roles[0]!;
  if (!isRole(role)) return restError("rest_user_invalid_role", `The role ${role} does not exist.`, 400);
  return role;
}

function checkMeta(meta: unknown): Record<string, string> | undefined | Reply {
  if (meta === undefined) return undefined;
  const parsed = parseUserMetaUpdate(meta);
  return parsed.ok
    ? parsed.values
    : restError("rest_invalid_param", `Invalid parameter(s): ${parsed.param}`, 400, { params: { [parsed.param]: parsed.message } });
}

const isReplyValue = (v: unknown): v is Reply => typeof v === "object" && v !== null && "kind" in v;

/** What the audit log keeps of a change: each field's before and after, never a password. */
export function auditChanges(before: UserRecord | null, after: UserRecord | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const fields = ["email", "username", "firstName", "lastName", "displayName", "nicename", "url", "description", "nickname", "locale", "role"] as const;
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const a = before?.[f] ?? null;
    const b = after?.[f] ?? null;
    if (a !== b) out[f] = { from: a, to: b };
  }
  return { ...out, ...extra };
}

function refusal(reason: PeopleRefusal, creating: boolean): Reply {
  switch (reason) {
    case "email":
      return creating
        ? restError("existing_user_email", "Sorry, that email address is already used!", 400)
        : restError("rest_user_invalid_email", "Invalid email address.", 400);
    case "username":
      return restError("existing_user_login", "Sorry, that username already exists!", 400);
    case "slug":
      return creating
        ? restError("existing_user_nicename", "Sorry, that slug is already used.", 400)
        : restError("rest_user_invalid_slug", "Invalid slug.", 400);
    case "last_administrator":
      return restError("rest_user_invalid_role", "The shop must keep at least one administrator.", 400);
    case "missing":
      return invalidId();
    case "changed": // users keep no If-Match (the later save wins); only wc/v3/customers sends one
      return restError("rest_user_changed", "This user was changed since you opened it.", 412);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------------------------

/** The id the path names (`me` is the caller), the account, or the refusal. */
async function target(input: RestInput): Promise<{ caller: RestUser | null; user: UserRecord } | Reply> {
  const caller = await input.user();
  const raw = input.pathParams.id ?? "me";
  if (raw === "me") {
    if (!caller) return notLoggedIn();
    const user = await findUser(input.services.db, caller.id);
    return user ? { caller, user } : notLoggedIn();
  }
  if (!/^\d{1,9}$/.test(raw)) return invalidId();
  const user = await findUser(input.services.db, Number(raw));
  return user ? { caller, user } : invalidId();
}

async function list(input: RestInput): Promise<Reply> {
  const caller = await input.user();
  const listUsersCap = can(caller, "list_users");
  const args = parseArgs(listSchema, requestArgs(input));
  if (!args.ok) return args.reply;
  const a = args.data;
  if (a.roles && a.roles.length > 0 && !listUsersCap)
    return restError("rest_user_cannot_view", "Sorry, you are not allowed to filter users by role.", authCode(caller));
  if (a.context === "edit" && !listUsersCap) return restError("rest_forbidden_context", "Sorry, you are not allowed to list users.", authCode(caller));
  if ((a.orderby === "email" || a.orderby === "registered_date") && !listUsersCap)
    return restError("rest_forbidden_orderby", "Sorry, you are not allowed to order users by this parameter.", authCode(caller));
  if (a.who === "authors" && !can(caller, "edit_posts"))
    return restError("rest_forbidden_who", "Sorry, you are not allowed to query users by this parameter.", authCode(caller));
  const { rows, total } = await listUsers(input.services.db, {
    search: a.search,
    // WordPress: a caller without list_users may not search by e-mail address or login (it would reveal them).
    searchPublicOnly: !listUsersCap,
    include: a.include,
    exclude: a.exclude,
    roles: a.roles,
    slugs: a.slug,
    authorsOnly: a.who === "authors" || !listUsersCap,
    orderby: a.orderby === "include_slugs" ? "slug" : a.orderby,
    order: a.order,
    limit: a.per_page,
    offset: a.offset ?? (a.page - 1) * a.per_page,
  });
  const outOfRange = a.offset === undefined ? pageOutOfRange(total, a.page, a.per_page) : null;
  if (outOfRange) return outOfRange;
  const items = [];
  for (const u of rows) items.push(await userJson(input, u, a.context));
  return pagedJson(input.req, items, total, a.page, a.per_page);
}

async function read(input: RestInput): Promise<Reply> {
  const found = await target(input);
  if (isReplyValue(found)) return found;
  const { caller, user } = found;
  const args = parseArgs(contextSchema, requestArgs(input));
  if (!args.ok) return args.reply;
  const context = args.data.context;
  if (caller?.id !== user.id) {
    const cannotView = () => restError("rest_user_cannot_view", "Sorry, you are not allowed to list users.", authCode(caller));
    if (context === "edit" && !can(caller, "list_users")) return cannotView();
    if (!can(caller, "list_users") && !canEditUser(caller, user) && !(await hasPublishedPosts(input.services.db, user.id))) return cannotView();
  }
  return json(await userJson(input, user, context));
}

/** Request fields → the use case's input (undefined where the request was silent). */
function toInput(d: z.infer<typeof updateSchema>, role: string | undefined, meta: Record<string, string> | undefined, password: string | undefined): UserInput {
  return {
    email: d.email,
    username: d.username,
    firstName: d.first_name,
    lastName: d.last_name,
    displayName: d.name,
    nickname: d.nickname,
    description: d.description,
    url: d.url,
    locale: d.locale,
    nicename: d.slug,
    role,
    meta,
    password,
  };
}

async function create(input: RestInput): Promise<Reply> {
  const caller = await input.user();
  if (!caller || !can(caller, "create_users")) return restError("rest_cannot_create_user", "Sorry, you are not allowed to create new users.", authCode(caller));
  const body = requestArgs(input);
  if (body.id !== undefined && body.id !== "" && body.id !== 0) return restError("rest_user_exists", "Cannot create existing user.", 400);
  const args = parseArgs(createSchema, body);
  if (!args.ok) return args.reply;
  if (body.password === undefined) return restError("rest_missing_callback_param", "Missing parameter(s): password", 400, { params: ["password"] });
  const password = checkPassword(body.password);
  if (isReplyValue(password)) return password;
  const role = checkRoles(args.data.roles);
  if (isReplyValue(role)) return role;
  const meta = checkMeta(args.data.meta);
  if (isReplyValue(meta)) return meta;
  const fields = toInput(args.data, role ?? "customer", meta, password);
  const done = await createUser(input.services.db, { ...fields, email: args.data.email, password }, (tx, _before, after) =>
    audit(
      input,
      caller,
      { action: "create", objectType: "user", objectId: after!.id, changes: auditChanges(null, after, password ? { password: "set" } : {}) },
      tx,
    ),
  );
  if (!done.ok) return refusal(done.reason, true);
  return json(await userJson(input, done.user, "edit"), 201, { Location: `${input.services.siteUrl}/wp-json/wp/v2/users/${done.user.id}` });
}

async function update(input: RestInput): Promise<Reply> {
  const caller = await input.user();
  if (!caller) return notLoggedIn();
  const found = await target(input);
  if (isReplyValue(found)) return found;
  const { user } = found;
  const body = requestArgs(input);
  const { id: _id, ...given } = body;
  const rolesGiven = given.roles !== undefined && !(Array.isArray(given.roles) && given.roles.length === 0) && given.roles !== "";
  if (rolesGiven && !(can(caller, "promote_users") && canEditUser(caller, user)))
    return restError("rest_cannot_edit_roles", "Sorry, you are not allowed to edit roles of this user.", authCode(caller));
  const onlyRoles = rolesGiven && Object.keys(given).every((k) => k === "roles");
  if (!onlyRoles && !canEditUser(caller, user)) return restError("rest_cannot_edit", "Sorry, you are not allowed to edit this user.", authCode(caller));
  const args = parseArgs(updateSchema, given);
  if (!args.ok) return args.reply;
  const d = args.data;
  let password: string | undefined;
  if (given.password !== undefined) {
    const checked = checkPassword(given.password);
    if (isReplyValue(checked)) return checked;
    password = checked;
  }
  if (d.username !== undefined && d.username !== userLogin(user)) return restError("rest_user_invalid_argument", "Username isn't editable.", 400);
  const role = checkRoles(d.roles);
  if (isReplyValue(role)) return role;
  // WordPress: nobody gives themselves a role without `edit_users` (an administrator cannot lock themselves out).
  if (role !== undefined && caller.id === user.id && !roleCan(role, "edit_users"))
    return restError("rest_user_invalid_role", "Sorry, you are not allowed to give users that role.", 403);
  const meta = checkMeta(d.meta);
  if (isReplyValue(meta)) return meta;
  const fields = toInput({ ...d, username: undefined }, role, meta, password);
  const session = caller.via === "cookie" && caller.id === user.id ? await input.req.shop.session() : null;
  const done = await updateUser(input.services.db, user.id, fields, { keepSessionId: session?.id }, (tx, before, after) =>
    audit(
      input,
      caller,
      {
        action: "update",
        objectType: "user",
        objectId: user.id,
        changes: auditChanges(before, after, { ...(password ? { password: "changed" } : {}), ...(meta ? { meta } : {}) }),
      },
      tx,
    ),
  );
  if (!done.ok) return refusal(done.reason, false);
  return json(await userJson(input, done.user, "edit"));
}

const deleteSchema = z.object({
  force: restBool().default(false),
  reassign: z.preprocess((v) => (v === "false" || v === "" || v === false ? null : v), z.union([z.null(), restInt(1)])),
});

async function remove(input: RestInput): Promise<Reply> {
  const caller = await input.user();
  if (!caller) return restError("rest_user_cannot_delete", "Sorry, you are not allowed to delete this user.", 401);
  const found = await target(input);
  if (isReplyValue(found)) return found;
  const { user } = found;
  if (!canDeleteUser(caller, user)) return restError("rest_user_cannot_delete", "Sorry, you are not allowed to delete this user.", authCode(caller));
  const given = requestArgs(input);
  if (given.reassign === undefined) return restError("rest_missing_callback_param", "Missing parameter(s): reassign", 400, { params: ["reassign"] });
  const args = parseArgs(deleteSchema, given);
  if (!args.ok) return args.reply;
  if (!args.data.force) return restError("rest_trash_not_supported", "Users do not support trashing. Set 'force=true' to delete.", 501);
  const reassign = args.data.reassign;
  if (reassign !== null && (reassign === user.id || !(await findUser(input.services.db, reassign))))
    return restError("rest_user_invalid_reassign", "Invalid user ID for reassignment.", 400);
  const previous = await userJson(input, user, "edit");
  const done = await deleteUser(input.services.db, user.id, reassign, (tx, before) =>
    audit(input, caller, { action: "delete", objectType: "user", objectId: user.id, changes: { ...auditChanges(before, null), reassign } }, tx),
  );
  if (!done.ok) return done.reason === "last_administrator" ? restError("rest_cannot_delete", "The last administrator cannot be deleted.", 400) : invalidId();
  return json({ deleted: true, previous });
}

function registerUsersEndpoints({ rest }: Endpoints): void {
  rest.register("GET", "wp/v2/users", list);
  rest.register("POST", "wp/v2/users", create);
  for (const path of ["wp/v2/users/me", "wp/v2/users/:id"]) {
    rest.register("GET", path, read);
    // WordPress's EDITABLE methods; api-fetch sends PUT/PATCH as POST with X-HTTP-Method-Override.
    for (const method of ["POST", "PUT", "PATCH"]) rest.register(method, path, update);
    rest.register("DELETE", path, remove);
  }
}
