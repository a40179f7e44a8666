/**
 * `wc/v3/customers` in WooCommerce's shape (docs/contract/rest/people.md): list, one, create, update, delete
 * (`force=true`) and `batch`. Staff with `list_users` read anyone; `edit_users` edits (a shop manager: customers
 * only); `create_users` creates and `delete_users` deletes, customers only, as WooCommerce's endpoint allows. A
 * customer reads and edits their own record only; any other id answers them the same refusal whether it exists or
 * not, so they learn nothing. Addresses are the account's saved addresses (customer_addresses), the ones the
 * checkout pre-fills, so a change shows on the storefront at once.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput, type RestUser } from "../http/rest.ts";
import {
  ifMatchOf,
  listArgs,
  pagedJson,
  pageOutOfRange,
  parseArgs,
  requestArgs,
  restAmount,
  restBool,
  restDate,
  restIdList,
  restInt,
  CONTEXTS,
} from "../http/rest-args.ts";
import { audit } from "../http/rest-audit.ts";
import {
  customerOrderStats,
  customerVersion,
  findUser,
  listCustomers,
  type UserRecord,
  type CustomerOrderStats,
} from "../../core/db/repositories/customers.ts";
import { readUserMeta } from "../../core/db/repositories/user-meta.ts";
import { parseUserMetaUpdate } from "../../core/domain/users/meta.ts";
import { ADDRESS_COLUMNS, type AddressKind, type SavedAddress } from "../../core/domain/checkout/address.ts";
import { roleCan } from "../../core/security/capabilities.ts";
import { loadCustomerAddresses, queueNewAccountMail } from "../../core/commerce/accounts.ts";
import { readSiteOptions } from "../../core/commerce/site-options.ts";
import { createUser, deleteUser, updateUser, type PeopleRefusal, type UserInput } from "../../core/commerce/people.ts";
import { canDeleteUser, canEditUser, plainText } from "../../core/domain/users/access.ts";
import { auditChanges, avatarUrl, checkPassword, userLogin } from "./users.ts";
import type { Feature } from "./feature.ts";

const WC_ROLES = ["customer", "shop_manager", "administrator"] as const;
/** The roles WooCommerce's endpoint may change e-mail and password of, and delete (its woocommerce_rest_customer_allowed_roles). */
const ALLOWED_ROLES = ["customer"];

const authCode = (user: RestUser | null) => (user ? 403 : 401);
const invalidId = () => restError("woocommerce_rest_customer_invalid_id", "Invalid resource ID.", 404);
const cannot = {
  list: (u: RestUser | null) => restError("woocommerce_rest_cannot_view", "Sorry, you cannot list resources.", authCode(u)),
  view: (u: RestUser | null) => restError("woocommerce_rest_cannot_view", "Sorry, you cannot view this resource.", authCode(u)),
  create: (u: RestUser | null) => restError("woocommerce_rest_cannot_create", "Sorry, you are not allowed to create resources.", authCode(u)),
  edit: (u: RestUser | null) => restError("woocommerce_rest_cannot_edit", "Sorry, you are not allowed to edit this resource.", authCode(u)),
  delete: (u: RestUser | null) => restError("woocommerce_rest_cannot_delete", "Sorry, you are not allowed to delete this resource.", authCode(u)),
  batch: (u: RestUser | null) => restError("woocommerce_rest_cannot_batch", "Sorry, you are not allowed to batch manipulate this resource.", authCode(u)),
};

// ---------------------------------------------------------------------------------------------------------------
// The shape
// ---------------------------------------------------------------------------------------------------------------

const BILLING_KEYS = ["first_name", "last_name", "company", "address_1", "address_2", "city", "state", "postcode", "country", "email", "phone"] as const;
const SHIPPING_KEYS = ["first_name", "last_name", "company", "address_1", "address_2", "city", "state", "postcode", "country", "phone"] as const;

const emptyAddress = (): SavedAddress => Object.fromEntries(ADDRESS_COLUMNS.map((c) => [c, ""])) as SavedAddress;

/** WooCommerce's dates: the site's local time without offset (the shop keeps UTC) and the GMT one. */
const wcDate = (d: Date) => d.toISOString().slice(0, 19);
/** Cents as WooCommerce's decimal string ("12.50"). */
const decimal = (cents: number) => `${Math.trunc(cents / 100)}.${String(Math.abs(cents % 100)).padStart(2, "0")}`;

async function customerJson(input: RestInput, u: UserRecord, stats: CustomerOrderStats | undefined): Promise<Record<string, unknown>> {
  const { db, siteUrl } = input.services;
  const [addresses, meta] = await Promise.all([loadCustomerAddresses(db, u.id), readUserMeta(db, u.id)]);
  const pick = (kind: AddressKind, keys: readonly string[]) => {
    const a = addresses[kind] ?? emptyAddress();
    return Object.fromEntries(keys.map((k) => [k, a[k as keyof SavedAddress] ?? ""]));
  };
  return {
    id: u.id,
    date_created: wcDate(u.createdAt),
    date_created_gmt: wcDate(u.createdAt),
    date_modified: wcDate(u.updatedAt),
    date_modified_gmt: wcDate(u.updatedAt),
    email: u.email,
    first_name: u.firstName,
    last_name: u.lastName,
    role: u.role,
    username: userLogin(u),
    billing: pick("billing", BILLING_KEYS),
    shipping: pick("shipping", SHIPPING_KEYS),
    is_paying_customer: stats?.isPaying ?? false,
    orders_count: stats?.ordersCount ?? 0,
    total_spent: decimal(stats?.totalSpent ?? 0),
    // Not in WooCommerce's customer object (its Customers report has it): when the latest order was placed.
    date_last_order: stats?.lastOrderAt ? wcDate(stats.lastOrderAt) : null,
    avatar_url: avatarUrl(u.email, 96),
    meta_data: Object.entries(meta).map(([key, value]) => ({ key, value })),
    _links: {
      self: [{ href: `${siteUrl}/wp-json/wc/v3/customers/${u.id}` }],
      collection: [{ href: `${siteUrl}/wp-json/wc/v3/customers` }],
    },
  };
}

async function oneJson(input: RestInput, u: UserRecord) {
  const stats = await customerOrderStats(input.services.db, [u.id]);
  return customerJson(input, u, stats.get(u.id));
}

/**
 * The account's version as an ETag (docs/contract/rest/people.md 'Two editors at once'): a client that sends it back
 * as `If-Match` with an update or a delete has it refused (412) if the account was saved in between.
 */
async function versionHeader(input: RestInput, id: number): Promise<Record<string, string>> {
  const version = await customerVersion(input.services.db, id);
  return version ? { ETag: `"${version}"` } : {};
}

/** One account's answer with its ETag. */
async function oneReply(input: RestInput, u: UserRecord, status = 200, headers: Record<string, string> = {}): Promise<Reply> {
  return json(await oneJson(input, u), status, { ...headers, ...(await versionHeader(input, u.id)), "Cache-Control": "no-store" });
}

// ---------------------------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------------------------

const text = (max: number) => z.string().max(max).transform(plainText);
const email = () => z.string().trim().toLowerCase().max(100).email("Invalid email address.");
const country = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^([A-Z]{2})?$/, "country is not an ISO 3166-1 alpha-2 code.");
const addressFields = {
  first_name: text(100),
  last_name: text(100),
  company: text(200),
  address_1: text(200),
  address_2: text(200),
  city: text(100),
  state: text(100),
  postcode: text(20),
  country,
  phone: text(40),
};
const billingSchema = z.strictObject({ ...addressFields, email: z.union([z.literal(""), email()]) }).partial();
const shippingSchema = z.strictObject(addressFields).partial();
const metaDataSchema = z.array(z.object({ id: z.unknown().optional(), key: z.string().max(255), value: z.unknown() })).max(50);

const bodyFields = {
  email: email(),
  first_name: text(100),
  last_name: text(100),
  username: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .regex(/^[A-Za-z0-9 _.@-]+$/, "Username contains invalid characters."),
  password: z.unknown(),
  billing: billingSchema,
  shipping: shippingSchema,
  meta_data: metaDataSchema,
};
const createSchema = z
  .object(bodyFields)
  .partial({ first_name: true, last_name: true, username: true, password: true, billing: true, shipping: true, meta_data: true });
const updateSchema = z.object(bodyFields).partial();
type Body = z.infer<typeof updateSchema>;

const listSchema = z.object({
  context: listArgs.context,
  page: listArgs.page,
  per_page: listArgs.per_page,
  offset: listArgs.offset,
  search: listArgs.search,
  email: z.string().trim().max(100).optional(),
  role: z.enum(["all", ...WC_ROLES]).default("customer"),
  // WooCommerce's four, and the Customers report's total_spend, orders_count and date_last_order (the admin's list).
  orderby: z.enum(["id", "include", "name", "registered_date", "total_spend", "orders_count", "date_last_order"]).default("name"),
  order: z.enum(["asc", "desc"]).default("asc"),
  include: restIdList().default([]),
  exclude: restIdList().default([]),
  // The admin's filters (not WooCommerce's): the saved billing address's country, and whether they ordered.
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "country is not an ISO 3166-1 alpha-2 code.")
    .optional(),
  has_orders: restBool().optional(),
  // The Customers report's filters: spend in the shop's currency over paid orders and orders of any status (both
  // bounds included), the latest order's time (exclusive, as wc/v3/orders' after/before).
  total_spend_min: restAmount().optional(),
  total_spend_max: restAmount().optional(),
  orders_count_min: restInt(0).optional(),
  orders_count_max: restInt(0).optional(),
  last_order_after: restDate().optional(),
  last_order_before: restDate().optional(),
});
const LIST_ORDER = { total_spend: "total_spent", date_last_order: "last_order" } as const;
const contextSchema = z.object({ context: z.enum(CONTEXTS).default("view") });
const deleteSchema = z.object({ force: restBool().default(false), reassign: restInt(0).optional() });

function checkMetaData(meta: Body["meta_data"]): Record<string, string> | undefined | Reply {
  if (meta === undefined) return undefined;
  const parsed = parseUserMetaUpdate(Object.fromEntries(meta.map((m) => [m.key, m.value])));
  return parsed.ok
    ? parsed.values
    : restError("rest_invalid_param", "Invalid parameter(s): meta_data", 400, { params: { meta_data: parsed.message.replace(/^meta\./, "meta_data ") } });
}

/** The request's addresses merged over the stored ones (WooCommerce sets only the fields sent). */
async function mergedAddresses(input: RestInput, id: number | null, d: Body): Promise<Partial<Record<AddressKind, SavedAddress>>> {
  const stored = id === null ? {} : await loadCustomerAddresses(input.services.db, id);
  const out: Partial<Record<AddressKind, SavedAddress>> = {};
  for (const kind of ["billing", "shipping"] as const) {
    const given = d[kind];
    if (given === undefined) continue;
    out[kind] = { ...emptyAddress(), ...(stored[kind] ?? {}), ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) } as SavedAddress;
  }
  return out;
}

const isReplyValue = (v: unknown): v is Reply => typeof v === "object" && v !== null && "kind" in v;

function refusal(reason: PeopleRefusal, creating: boolean): Reply {
  switch (reason) {
    case "email":
      return creating
        ? restError("registration-error-email-exists", "An account is already registered with your email address. Please log in.", 400)
        : restError("woocommerce_rest_customer_invalid_email", "Email address is invalid.", 400);
    case "username":
      return restError("registration-error-username-exists", "An account is already registered with that username. Please choose another.", 400);
    case "slug":
      return restError("registration-error-username-exists", "An account is already registered with that username. Please choose another.", 400);
    case "last_administrator":
      return restError("woocommerce_rest_cannot_delete", "The last administrator cannot be deleted.", 400);
    case "missing":
      return invalidId();
    case "changed":
      return restError(
        "woocommerce_rest_customer_changed",
        "This customer was changed since you opened it. Reload to see the changes, then make yours again.",
        412,
      );
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Operations (shared by the single routes and batch)
// ---------------------------------------------------------------------------------------------------------------

/**
 * The account a path names when the caller may `act` on it. A caller without `list_users` asking for someone
 * else gets `denied` whether the id exists or not; staff learn that an id is unknown.
 */
async function targetFor(input: RestInput, caller: RestUser | null, rawId: unknown, denied: Reply): Promise<UserRecord | Reply> {
  const id = typeof rawId === "number" ? rawId : typeof rawId === "string" && /^\d{1,9}$/.test(rawId) ? Number(rawId) : 0;
  const staff = !!caller && roleCan(caller.role, "list_users");
  if (!staff && caller?.id !== id) return denied;
  const user = id > 0 ? await findUser(input.services.db, id) : null;
  return user ?? (staff ? invalidId() : denied);
}

async function createOne(input: RestInput, caller: RestUser, raw: Record<string, unknown>): Promise<Reply> {
  if (raw.id !== undefined && raw.id !== 0 && raw.id !== "") return restError("woocommerce_rest_customer_exists", "Cannot create existing resource.", 400);
  const args = parseArgs(createSchema, raw);
  if (!args.ok) return args.reply;
  const d = args.data;
  // WooCommerce generates a password when none is sent; the customer sets their own with the link its "New account"
  // e-mail carries (so staff never type or see a customer's password).
  const generated = d.password === undefined || d.password === "";
  const password = generated ? randomBytes(24).toString("base64url") : checkPassword(d.password);
  if (isReplyValue(password)) return password;
  const meta = checkMetaData(d.meta_data);
  if (isReplyValue(meta)) return meta;
  const fields: UserInput & { email: string; password: string } = {
    email: d.email,
    password,
    username: d.username,
    firstName: d.first_name,
    lastName: d.last_name,
    role: "customer",
    meta,
    addresses: await mergedAddresses(input, null, d),
  };
  const { services } = input;
  const siteName = (await readSiteOptions(services.db, services.config)).title;
  const done = await createUser(services.db, fields, async (tx, _b, after) => {
    await audit(
      input,
      caller,
      {
        action: "create",
        objectType: "customer",
        objectId: after!.id,
        changes: auditChanges(null, after, { password: generated ? "link e-mailed" : "set", addresses: Object.keys(fields.addresses!) }),
      },
      tx,
    );
    await queueNewAccountMail(
      tx,
      { id: after!.id, email: after!.email, login: userLogin(after!) },
      { siteUrl: services.siteUrl, siteName, now: services.now(), setPasswordLink: generated },
    );
  });
  if (!done.ok) return refusal(done.reason, true);
  return oneReply(input, done.user, 201, { Location: `${services.siteUrl}/wp-json/wc/v3/customers/${done.user.id}` });
}

async function updateOne(input: RestInput, caller: RestUser | null, rawId: unknown, raw: Record<string, unknown>, ifMatch?: string): Promise<Reply> {
  const found = await targetFor(input, caller, rawId, cannot.edit(caller));
  if (isReplyValue(found)) return found;
  if (!caller || !canEditUser(caller, found)) return cannot.edit(caller);
  const { id: _id, ...given } = raw;
  const args = parseArgs(updateSchema, given);
  if (!args.ok) return args.reply;
  const d = args.data;
  // WooCommerce: e-mail and password of anyone but a customer are not changed through this endpoint.
  if (!ALLOWED_ROLES.includes(found.role)) {
    for (const prop of ["email", "password"] as const) {
      if (given[prop] !== undefined && (prop === "password" || d.email !== found.email))
        return restError(
          "woocommerce_rest_cannot_edit",
          `Sorry, ${prop} cannot be updated via this endpoint for a user with role ${found.role}.`,
          authCode(caller),
        );
    }
  }
  if (d.username !== undefined && d.username !== userLogin(found))
    return restError("woocommerce_rest_customer_invalid_argument", "Username isn't editable.", 400);
  let password: string | undefined;
  if (d.password !== undefined) {
    const checked = checkPassword(d.password);
    if (isReplyValue(checked)) return checked;
    password = checked;
  }
  const meta = checkMetaData(d.meta_data);
  if (isReplyValue(meta)) return meta;
  const addresses = await mergedAddresses(input, found.id, d);
  const session = caller.via === "cookie" && caller.id === found.id ? await input.req.shop.session() : null;
  const done = await updateUser(
    input.services.db,
    found.id,
    { email: d.email, firstName: d.first_name, lastName: d.last_name, password, meta, addresses },
    { keepSessionId: session?.id, ifMatch },
    (tx, before, after) =>
      audit(
        input,
        caller,
        {
          action: "update",
          objectType: "customer",
          objectId: found.id,
          changes: auditChanges(before, after, {
            ...(password ? { password: "changed" } : {}),
            ...(meta ? { meta } : {}),
            ...(Object.keys(addresses).length ? { addresses } : {}),
          }),
        },
        tx,
      ),
  );
  if (!done.ok) return refusal(done.reason, false);
  return oneReply(input, done.user);
}

async function deleteOne(input: RestInput, caller: RestUser | null, rawId: unknown, raw: Record<string, unknown>, ifMatch?: string): Promise<Reply> {
  const found = await targetFor(input, caller, rawId, cannot.delete(caller));
  if (isReplyValue(found)) return found;
  if (!canDeleteUser(caller, found)) return cannot.delete(caller);
  if (!ALLOWED_ROLES.includes(found.role))
    return restError(
      "woocommerce_rest_cannot_delete",
      `Sorry, users with ${found.role} role cannot be deleted via this endpoint. Allowed roles: ${ALLOWED_ROLES.join(", ")}`,
      authCode(caller),
    );
  const args = parseArgs(deleteSchema, raw);
  if (!args.ok) return args.reply;
  if (!args.data.force) return restError("woocommerce_rest_trash_not_supported", "Customers do not support trashing.", 501);
  const reassign = args.data.reassign ? args.data.reassign : null;
  if (reassign !== null && (reassign === found.id || !(await findUser(input.services.db, reassign))))
    return restError("woocommerce_rest_customer_invalid_reassign", "Invalid resource id for reassignment.", 400);
  const previous = await oneJson(input, found);
  const done = await deleteUser(
    input.services.db,
    found.id,
    reassign,
    (tx, before) =>
      audit(input, caller!, { action: "delete", objectType: "customer", objectId: found.id, changes: { ...auditChanges(before, null), reassign } }, tx),
    ifMatch,
  );
  if (!done.ok) return refusal(done.reason, false);
  return json(previous);
}

// ---------------------------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------------------------

async function list(input: RestInput): Promise<Reply> {
  const caller = await input.user();
  if (!caller || !roleCan(caller.role, "list_users")) return cannot.list(caller);
  const args = parseArgs(listSchema, requestArgs(input));
  if (!args.ok) return args.reply;
  const a = args.data;
  const { rows, total } = await listCustomers(input.services.db, {
    search: a.search,
    email: a.email,
    include: a.include,
    exclude: a.exclude,
    roles: a.role === "all" ? undefined : [a.role],
    billingCountry: a.country,
    hasOrders: a.has_orders,
    totalSpentMin: a.total_spend_min,
    totalSpentMax: a.total_spend_max,
    ordersCountMin: a.orders_count_min,
    ordersCountMax: a.orders_count_max,
    lastOrderAfter: a.last_order_after,
    lastOrderBefore: a.last_order_before,
    orderby: a.orderby === "total_spend" || a.orderby === "date_last_order" ? LIST_ORDER[a.orderby] : a.orderby,
    order: a.order,
    limit: a.per_page,
    offset: a.offset ?? (a.page - 1) * a.per_page,
  });
  const outOfRange = a.offset === undefined ? pageOutOfRange(total, a.page, a.per_page) : null;
  if (outOfRange) return outOfRange;
  const items = [];
  for (const { user, stats } of rows) items.push(await customerJson(input, user, stats));
  return pagedJson(input.req, items, total, a.page, a.per_page);
}

async function read(input: RestInput): Promise<Reply> {
  const caller = await input.user();
  const found = await targetFor(input, caller, input.pathParams.id, cannot.view(caller));
  if (isReplyValue(found)) return found;
  const args = parseArgs(contextSchema, requestArgs(input));
  if (!args.ok) return args.reply;
  return oneReply(input, found);
}

async function create(input: RestInput): Promise<Reply> {
  const caller = await input.user();
  if (!caller || !roleCan(caller.role, "create_users")) return cannot.create(caller);
  return createOne(input, caller, requestArgs(input));
}

async function update(input: RestInput): Promise<Reply> {
  const { id, ...body } = requestArgs(input);
  return updateOne(input, await input.user(), id, body, ifMatchOf(input.req));
}

async function remove(input: RestInput): Promise<Reply> {
  const { id, ...args } = requestArgs(input);
  return deleteOne(input, await input.user(), id, args, ifMatchOf(input.req));
}

const BATCH_LIMIT = 100;
const batchSchema = z.object({
  create: z.array(z.record(z.string(), z.unknown())).default([]),
  update: z.array(z.record(z.string(), z.unknown())).default([]),
  delete: z.array(z.union([restInt(1), z.object({ id: restInt(1) }).transform((o) => o.id)])).default([]),
});

/** One item's answer in a batch: its JSON, or WooCommerce's `{id, error}`. */
function batchItem(reply: Reply, id: unknown): unknown {
  const body = reply.kind === "json" ? (reply.body as Record<string, unknown>) : {};
  if ((reply.status ?? 200) < 400) return body;
  return { id: typeof id === "number" ? id : Number(id) || 0, error: body };
}

async function batch(input: RestInput): Promise<Reply> {
  const caller = await input.user();
  // WooCommerce's 'batch' context asks for promote_users; create/update/delete are then checked per item.
  if (!caller || !roleCan(caller.role, "edit_users")) return cannot.batch(caller);
  const args = parseArgs(batchSchema, input.body ?? {});
  if (!args.ok) return args.reply;
  const { create: creates, update: updates, delete: deletes } = args.data;
  if (creates.length + updates.length + deletes.length > BATCH_LIMIT)
    return restError("rest_request_entity_too_large", `Unable to accept more than ${BATCH_LIMIT} items for this request.`, 413);
  const out: Record<string, unknown[]> = {};
  if (creates.length) {
    out.create = [];
    for (const item of creates)
      out.create.push(batchItem(roleCan(caller.role, "create_users") ? await createOne(input, caller, item) : cannot.create(caller), item.id));
  }
  if (updates.length) {
    out.update = [];
    for (const { id, ...item } of updates) out.update.push(batchItem(await updateOne(input, caller, id, item), id));
  }
  if (deletes.length) {
    out.delete = [];
    for (const id of deletes) out.delete.push(batchItem(await deleteOne(input, caller, id, { force: "true" }), id));
  }
  return json(out);
}

export const customersFeature: Feature = {
  name: "customers",
  endpoints({ rest }) {
    if (!rest.namespaces.includes("wc/v3")) rest.namespaces.push("wc/v3");
    rest.register("GET", "wc/v3/customers", list);
    rest.register("POST", "wc/v3/customers", create);
    for (const method of ["POST", "PUT", "PATCH"]) rest.register(method, "wc/v3/customers/batch", batch);
    rest.register("GET", "wc/v3/customers/:id", read);
    for (const method of ["POST", "PUT", "PATCH"]) rest.register(method, "wc/v3/customers/:id", update);
    rest.register("DELETE", "wc/v3/customers/:id", remove);
  },
};
