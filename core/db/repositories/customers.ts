/**
 * Customer accounts: the lookups pages, checkout and sign-in make by id, e-mail address or login, the account's
 * own changes (registration, details, password), and its saved addresses (`customer_addresses`). The one home of
 * customer lookups: a page that needs a customer's name or e-mail calls these, it does not write its own SELECT.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import { ADDRESS_COLUMNS, type Address, type AddressKind, type SavedAddress } from "../../domain/checkout/address.ts";

export interface CustomerProfile {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  displayName: string;
}

/** The customer's name and e-mail address, or null for an unknown id. */
export async function findCustomerProfile(db: Queryable, id: number): Promise<CustomerProfile | null> {
  const row = await sql(db).selectFrom("customers").select(["id", "email", "first_name", "last_name", "display_name"]).where("id", "=", id).executeTakeFirst();
  return row ? { id: row.id, email: row.email, firstName: row.first_name, lastName: row.last_name, displayName: row.display_name } : null;
}

/** Whether an account uses this e-mail address (case-insensitively). */
export async function customerEmailExists(db: Queryable, email: string): Promise<boolean> {
  const row = await sql(db)
    .selectFrom("customers")
    .select(raw<number>`1`.as("one"))
    .where(raw`lower(email)`, "=", raw`lower(${email})`)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether another account than `exceptId` uses this e-mail address (case-insensitively). */
export async function emailTakenByOther(db: Queryable, email: string, exceptId: number): Promise<boolean> {
  const row = await sql(db)
    .selectFrom("customers")
    .select(raw<number>`1`.as("one"))
    .where(raw`lower(email)`, "=", raw`lower(${email})`)
    .where("id", "<>", exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export interface LoginAccount {
  id: number;
  email: string;
  passwordHash: string | null;
}

/** The account a sign-in or reset form names: by e-mail address, username or display name, case-insensitively (lowest id wins). */
export async function findCustomerByLogin(db: Queryable, login: string): Promise<LoginAccount | null> {
  const row = await sql(db)
    .selectFrom("customers")
    .select(["id", "email", "password_hash"])
    .where((w) =>
      w.or([
        w(raw`lower(email)`, "=", raw`lower(${login})`),
        w(raw`lower(username)`, "=", raw`lower(${login})`),
        w(raw`lower(display_name)`, "=", raw`lower(${login})`),
      ]),
    )
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return row ? { id: row.id, email: row.email, passwordHash: row.password_hash } : null;
}

/** The stored password hash, undefined for an unknown id (null: an account without a password). */
export async function findPasswordHash(db: Queryable, id: number): Promise<string | null | undefined> {
  const row = await sql(db).selectFrom("customers").select("password_hash").where("id", "=", id).executeTakeFirst();
  return row ? row.password_hash : undefined;
}

export interface NewCustomer {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  displayName: string;
  /** `customers.role`; a customer when not given. */
  role?: "customer" | "shop_manager" | "administrator";
}

/** Creates the account; null when the e-mail address is already registered (the unique lower(email) index decides). */
export async function insertCustomer(db: Queryable, c: NewCustomer): Promise<number | null> {
  const row = await sql(db)
    .insertInto("customers")
    .values({
      email: c.email,
      password_hash: c.passwordHash,
      first_name: c.firstName,
      last_name: c.lastName,
      display_name: c.displayName,
      role: c.role ?? "customer",
    })
    .onConflict((oc) => oc.expression(raw`lower(email)`).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Names and e-mail address; the password hash too when given (null keeps it). Throws on a taken e-mail address. */
export async function updateCustomerDetails(
  db: Queryable,
  id: number,
  d: { firstName: string; lastName: string; displayName: string; email: string; passwordHash: string | null },
): Promise<void> {
  await sql(db)
    .updateTable("customers")
    .set({
      first_name: d.firstName,
      last_name: d.lastName,
      display_name: d.displayName,
      email: d.email,
      ...(d.passwordHash !== null ? { password_hash: d.passwordHash } : {}),
      updated_at: raw`now()`, // WooCommerce's date_modified (docs/contract/rest/people.md)
    })
    .where("id", "=", id)
    .execute();
}

export async function setPasswordHash(db: Queryable, id: number, passwordHash: string): Promise<void> {
  await sql(db).updateTable("customers").set({ password_hash: passwordHash }).where("id", "=", id).execute();
}

// ---------------------------------------------------------------------------------------------------------------
// Saved addresses (My account → Addresses)
// ---------------------------------------------------------------------------------------------------------------

export { ADDRESS_COLUMNS, type AddressKind, type SavedAddress } from "../../domain/checkout/address.ts";

export async function findCustomerAddresses(db: Queryable, customerId: number): Promise<Partial<Record<AddressKind, SavedAddress>>> {
  const rows = await sql(db)
    .selectFrom("customer_addresses")
    .select(["kind", ...ADDRESS_COLUMNS])
    .where("customer_id", "=", customerId)
    .execute();
  const out: Partial<Record<AddressKind, SavedAddress>> = {};
  for (const { kind, ...address } of rows) out[kind as AddressKind] = address;
  return out;
}

/** One upsert of the (customer, kind) address, every column replaced. */
export async function upsertCustomerAddress(db: Queryable, customerId: number, kind: AddressKind, address: SavedAddress): Promise<void> {
  await sql(db)
    .insertInto("customer_addresses")
    .values({ customer_id: customerId, kind, ...address })
    .onConflict((oc) =>
      oc.columns(["customer_id", "kind"]).doUpdateSet((eb) => ({
        ...Object.fromEntries(ADDRESS_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)])),
        updated_at: raw`now()`,
      })),
    )
    .execute();
}

export type OrderBillingAddress = Omit<Address, "email">;

/** The billing address of the customer's latest order (a returning customer's checkout prefill), or null. */
export async function latestOrderBillingAddress(db: Queryable, customerId: number): Promise<OrderBillingAddress | null> {
  const row = await sql(db)
    .selectFrom("order_addresses as a")
    .innerJoin("orders as o", "o.id", "a.order_id")
    .select(["a.first_name", "a.last_name", "a.company", "a.country", "a.address_1", "a.address_2", "a.city", "a.state", "a.postcode", "a.phone"])
    .where("o.customer_id", "=", customerId)
    .where("a.kind", "=", "billing")
    .orderBy("o.id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** The account's role (`customer`, `shop_manager`, `administrator`), or null when there is no such account. */
export async function findCustomerRole(db: Queryable, id: number): Promise<string | null> {
  const row = await sql(db).selectFrom("customers").select("role").where("id", "=", id).executeTakeFirst();
  return row?.role ?? null;
}

/** The lowest id of an account with this role, or null when there is none (the first start's bootstrap). */
export async function firstAccountWithRole(db: Queryable, role: string): Promise<number | null> {
  const row = await sql(db).selectFrom("customers").select("id").where("role", "=", role).orderBy("id").limit(1).executeTakeFirst();
  return row?.id ?? null;
}

export async function setCustomerRole(db: Queryable, id: number, role: "customer" | "shop_manager" | "administrator"): Promise<void> {
  await sql(db).updateTable("customers").set({ role }).where("id", "=", id).execute();
}

// ---------------------------------------------------------------------------------------------------------------
// People over the staff REST API (wp/v2/users, wc/v3/customers; docs/contract/rest/people.md)
// ---------------------------------------------------------------------------------------------------------------

/** An account as WordPress's user object needs it (no password hash: it never leaves this module's callers). */
export interface UserRecord {
  id: number;
  email: string;
  username: string | null;
  firstName: string;
  lastName: string;
  displayName: string;
  nicename: string | null;
  url: string;
  description: string;
  nickname: string;
  locale: string;
  role: string;
  createdAt: Date;
  updatedAt: Date;
}

const USER_COLUMNS = [
  "id",
  "email",
  "username",
  "first_name",
  "last_name",
  "display_name",
  "nicename",
  "url",
  "description",
  "nickname",
  "locale",
  "role",
  "created_at",
  "updated_at",
] as const;

type UserRow = {
  id: number;
  email: string;
  username: string | null;
  first_name: string;
  last_name: string;
  display_name: string;
  nicename: string | null;
  url: string;
  description: string;
  nickname: string;
  locale: string;
  role: string;
  created_at: Date | string;
  updated_at: Date | string;
};

const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  email: r.email,
  username: r.username,
  firstName: r.first_name,
  lastName: r.last_name,
  displayName: r.display_name,
  nicename: r.nicename,
  url: r.url,
  description: r.description,
  nickname: r.nickname,
  locale: r.locale,
  role: r.role,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

export async function findUser(db: Queryable, id: number): Promise<UserRecord | null> {
  const row = await sql(db).selectFrom("customers").select(USER_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toUser(row) : null;
}

export interface UserFilter {
  search?: string;
  /** Search only the public names (display name, slug): what a caller without `list_users` may search by. */
  searchPublicOnly?: boolean;
  /** Exact e-mail address (case-insensitive). */
  email?: string;
  include?: number[];
  exclude?: number[];
  roles?: string[];
  slugs?: string[];
  /** Only users who authored a published post (what WordPress shows a caller without `list_users`). */
  authorsOnly?: boolean;
  /** Only accounts whose saved billing address is in this country (ISO 3166-1 alpha-2). */
  billingCountry?: string;
  /** Only accounts with (true) or without (false) an order. */
  hasOrders?: boolean;
  orderby: "id" | "include" | "name" | "registered_date" | "slug" | "email" | "url";
  order: "asc" | "desc";
  limit: number;
  offset: number;
}

/**
 * What the admin's Customers list filters and sorts by beyond UserFilter: the order statistics of
 * `customerOrderStats` (cents of paid orders, orders of any status, the latest order's time; bounds inclusive, times
 * exclusive as WooCommerce's `after`/`before`).
 */
export interface CustomerFilter extends Omit<UserFilter, "orderby"> {
  totalSpentMin?: number | undefined;
  totalSpentMax?: number | undefined;
  ordersCountMin?: number | undefined;
  ordersCountMax?: number | undefined;
  lastOrderAfter?: Date | undefined;
  lastOrderBefore?: Date | undefined;
  orderby: "id" | "include" | "name" | "registered_date" | "total_spent" | "orders_count" | "last_order";
}

/** The accounts a filter keeps (the WHERE of listUsers and listCustomers). */
function filteredUsers(db: Queryable, f: Omit<UserFilter, "orderby">) {
  let query = sql(db).selectFrom("customers");
  if (f.search) {
    // WordPress's `*term*` search over login, e-mail, URL, nicename and display name; LIKE's wildcards are escaped.
    const like = `%${f.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((w) =>
      w.or(
        (f.searchPublicOnly ? ["display_name", "nicename"] : ["email", "username", "display_name", "nicename", "url", "first_name", "last_name"]).map((c) =>
          w(raw`lower(coalesce(${raw.ref(c)}, ''))`, "like", like),
        ),
      ),
    );
  }
  if (f.email) query = query.where(raw`lower(email)`, "=", f.email.toLowerCase());
  if (f.include && f.include.length > 0) query = query.where("id", "in", f.include);
  if (f.exclude && f.exclude.length > 0) query = query.where("id", "not in", f.exclude);
  if (f.roles && f.roles.length > 0) query = query.where("role", "in", f.roles);
  if (f.slugs && f.slugs.length > 0) query = query.where((w) => w.or([w("nicename", "in", f.slugs!), w(raw`'user-' || id`, "in", f.slugs!)]));
  if (f.authorsOnly) {
    query = query.where((w) =>
      w.exists(
        w
          .selectFrom("posts")
          .select(raw<number>`1`.as("one"))
          .whereRef("posts.author_id", "=", "customers.id")
          .where("posts.status", "=", "publish"),
      ),
    );
  }
  if (f.billingCountry) {
    const country = f.billingCountry;
    query = query.where((w) =>
      w.exists(
        w
          .selectFrom("customer_addresses as a")
          .select(raw<number>`1`.as("one"))
          .whereRef("a.customer_id", "=", "customers.id")
          .where("a.kind", "=", raw.lit("billing"))
          .where("a.country", "=", country),
      ),
    );
  }
  if (f.hasOrders !== undefined) {
    const has = f.hasOrders;
    query = query.where((w) => {
      const orders = w.exists(
        w
          .selectFrom("orders")
          .select(raw<number>`1`.as("one"))
          .whereRef("orders.customer_id", "=", "customers.id"),
      );
      return has ? orders : w.not(orders);
    });
  }
  return query;
}

/** A page of users and the size of the whole filtered list. */
export async function listUsers(db: Queryable, f: UserFilter): Promise<{ rows: UserRecord[]; total: number }> {
  const query = filteredUsers(db, f);
  const direction = f.order;
  let ordered = query.select(USER_COLUMNS);
  switch (f.orderby) {
    case "include":
      ordered =
        f.include && f.include.length > 0
          ? ordered.orderBy(raw`array_position(${raw.val(f.include)}::int[], id)`, direction)
          : ordered.orderBy("id", direction);
      break;
    case "name":
      ordered = ordered.orderBy(raw`lower(display_name)`, direction);
      break;
    case "registered_date":
      ordered = ordered.orderBy("created_at", direction);
      break;
    case "slug":
      ordered = ordered.orderBy(raw`coalesce(nicename, 'user-' || id)`, direction);
      break;
    case "email":
      ordered = ordered.orderBy(raw`lower(email)`, direction);
      break;
    case "url":
      ordered = ordered.orderBy("url", direction);
      break;
    case "id":
      break;
  }
  ordered = ordered.orderBy("id", direction);
  const [rows, count] = await Promise.all([
    ordered.limit(f.limit).offset(f.offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toUser), total: Number(count.n) };
}

/** Whether the user authored a published post (WordPress makes such users' public data readable by anyone). */
export async function hasPublishedPosts(db: Queryable, id: number): Promise<boolean> {
  const row = await sql(db)
    .selectFrom("posts")
    .select(raw<number>`1`.as("one"))
    .where("author_id", "=", id)
    .where("status", "=", "publish")
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Which of the unique names is already taken by another account than `exceptId` (e-mail first), or null. A login
 * names one account: an e-mail address may not be another account's username, nor a username another's e-mail.
 */
export async function takenIdentity(
  db: Queryable,
  v: { email?: string; username?: string; nicename?: string },
  exceptId = 0,
): Promise<"email" | "username" | "slug" | null> {
  const others = () => sql(db).selectFrom("customers").select("id").where("id", "<>", exceptId).limit(1);
  const login = (value: string) =>
    others()
      .where((w) => w.or([w(raw`lower(email)`, "=", value.toLowerCase()), w(raw`lower(username)`, "=", value.toLowerCase())]))
      .executeTakeFirst();
  if (v.email && (await login(v.email))) return "email";
  if (v.username && (await login(v.username))) return "username";
  if (v.nicename && (await others().where("nicename", "=", v.nicename).executeTakeFirst())) return "slug";
  return null;
}

export interface UserFields {
  email?: string;
  passwordHash?: string;
  username?: string | null;
  firstName?: string;
  lastName?: string;
  displayName?: string;
  nicename?: string | null;
  url?: string;
  description?: string;
  nickname?: string;
  locale?: string;
  role?: string;
}

const userColumns = (u: UserFields) => ({
  ...(u.email !== undefined ? { email: u.email } : {}),
  ...(u.passwordHash !== undefined ? { password_hash: u.passwordHash } : {}),
  ...(u.username !== undefined ? { username: u.username } : {}),
  ...(u.firstName !== undefined ? { first_name: u.firstName } : {}),
  ...(u.lastName !== undefined ? { last_name: u.lastName } : {}),
  ...(u.displayName !== undefined ? { display_name: u.displayName } : {}),
  ...(u.nicename !== undefined ? { nicename: u.nicename } : {}),
  ...(u.url !== undefined ? { url: u.url } : {}),
  ...(u.description !== undefined ? { description: u.description } : {}),
  ...(u.nickname !== undefined ? { nickname: u.nickname } : {}),
  ...(u.locale !== undefined ? { locale: u.locale } : {}),
  ...(u.role !== undefined ? { role: u.role } : {}),
});

/** Creates an account with every field given; null when a unique name (e-mail, username, slug) was taken meanwhile. */
export async function insertUser(db: Queryable, u: UserFields & { email: string; passwordHash: string }): Promise<number | null> {
  const row = await sql(db)
    .insertInto("customers")
    .values({ ...userColumns(u), email: u.email, password_hash: u.passwordHash })
    .onConflict((oc) => oc.doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Writes the given fields and the modified date. */
export async function updateUser(db: Queryable, id: number, u: UserFields): Promise<void> {
  await sql(db)
    .updateTable("customers")
    .set({ ...userColumns(u), updated_at: raw`now()` })
    .where("id", "=", id)
    .execute();
}

/**
 * The account's version for If-Match (docs/contract/rest/people.md 'Two editors at once'): the latest of its own
 * modified date and its saved addresses' (a customer's address change on My account moves it too), in microseconds.
 * With `lock`, the account's row is locked until the transaction ends, so a check and the write it guards are one.
 */
export async function customerVersion(db: Queryable, id: number, lock = false): Promise<string | null> {
  if (lock) await sql(db).selectFrom("customers").select("id").where("id", "=", id).forUpdate().execute();
  const row = await sql(db)
    .selectFrom("customers as c")
    .leftJoin("customer_addresses as a", "a.customer_id", "c.id")
    .select(raw<string>`(floor(extract(epoch from greatest(c.updated_at, max(a.updated_at))) * 1000000))::bigint::text`.as("v"))
    .where("c.id", "=", id)
    .groupBy("c.id")
    .executeTakeFirst();
  return row?.v ?? null;
}

/** The administrators' ids, their rows locked until the transaction ends (so two demotions cannot both pass). */
export async function lockAdministrators(tx: Queryable): Promise<number[]> {
  const rows = await sql(tx).selectFrom("customers").select("id").where("role", "=", "administrator").orderBy("id").forUpdate().execute();
  return rows.map((r) => r.id);
}

/** Deletes the account (its sessions, cart, addresses and meta go with it; orders keep their copy of the addresses). */
export async function deleteUser(tx: Queryable, id: number, reassignTo: number | null): Promise<boolean> {
  if (reassignTo !== null) await sql(tx).updateTable("posts").set({ author_id: reassignTo }).where("author_id", "=", id).execute();
  const row = await sql(tx).deleteFrom("customers").where("id", "=", id).returning("id").executeTakeFirst();
  return row !== undefined;
}

export interface CustomerOrderStats {
  /** Orders of any status (WooCommerce's order count). */
  ordersCount: number;
  /** Cents, over paid orders not refunded (WooCommerce's paid statuses: processing, completed). */
  totalSpent: number;
  isPaying: boolean;
  /** When the latest order (any status) was placed, or null: WooCommerce's last order. */
  lastOrderAt: Date | null;
}

/** One row per customer with orders: the statistics of CustomerOrderStats, as a query to filter, join or sort by. */
const orderStats = (db: Queryable) =>
  sql(db)
    .selectFrom("orders")
    .select([
      "customer_id",
      raw<string>`count(*)`.as("orders_count"),
      raw<string>`coalesce(sum(total) FILTER (WHERE status IN ('processing', 'completed')), 0)`.as("total_spent"),
      raw<boolean>`bool_or(paid_at IS NOT NULL)`.as("is_paying"),
      raw<Date | string>`max(created_at)`.as("last_order_at"),
    ])
    .where("customer_id", "is not", null)
    .groupBy("customer_id");

type StatsRow = { orders_count: string | number | null; total_spent: string | number | null; is_paying: boolean | null; last_order_at: Date | string | null };
const toStats = (r: StatsRow): CustomerOrderStats => ({
  ordersCount: Number(r.orders_count ?? 0),
  totalSpent: Number(r.total_spent ?? 0),
  isPaying: r.is_paying === true,
  lastOrderAt: r.last_order_at === null ? null : new Date(r.last_order_at),
});

/** Order counts and spending for each of the customers, in one statement. */
export async function customerOrderStats(db: Queryable, ids: number[]): Promise<Map<number, CustomerOrderStats>> {
  const out = new Map<number, CustomerOrderStats>();
  if (ids.length === 0) return out;
  const rows = await orderStats(db).where("customer_id", "in", ids).execute();
  for (const r of rows) if (r.customer_id !== null) out.set(r.customer_id, toStats(r));
  return out;
}

/**
 * A page of accounts with their order statistics, filtered and sorted by them too (the admin's Customers list,
 * `wc/v3/customers`): one statement for the page and one for the count, whatever the page size. A customer without
 * orders has spent 0 and placed 0 orders, and has no last order (so a last-order bound leaves them out, and sorting
 * by it puts them last either way).
 */
export async function listCustomers(db: Queryable, f: CustomerFilter): Promise<{ rows: { user: UserRecord; stats: CustomerOrderStats }[]; total: number }> {
  const spent = raw<number>`coalesce(s.total_spent, 0)`;
  const count = raw<number>`coalesce(s.orders_count, 0)`;
  const query = filteredUsers(db, f)
    .leftJoin(orderStats(db).as("s"), "s.customer_id", "customers.id")
    .$if(f.totalSpentMin !== undefined, (q) => q.where(spent, ">=", f.totalSpentMin!))
    .$if(f.totalSpentMax !== undefined, (q) => q.where(spent, "<=", f.totalSpentMax!))
    .$if(f.ordersCountMin !== undefined, (q) => q.where(count, ">=", f.ordersCountMin!))
    .$if(f.ordersCountMax !== undefined, (q) => q.where(count, "<=", f.ordersCountMax!))
    .$if(f.lastOrderAfter !== undefined, (q) => q.where("s.last_order_at", ">", f.lastOrderAfter!))
    .$if(f.lastOrderBefore !== undefined, (q) => q.where("s.last_order_at", "<", f.lastOrderBefore!));
  const direction = f.order;
  const nullsLast = direction === "asc" ? raw`asc nulls last` : raw`desc nulls last`;
  const columns = USER_COLUMNS.map((c) => `customers.${c}` as const);
  let ordered = query.select([...columns, "s.orders_count", "s.total_spent", "s.is_paying", "s.last_order_at"]);
  switch (f.orderby) {
    case "include":
      if (f.include && f.include.length > 0) ordered = ordered.orderBy(raw`array_position(${raw.val(f.include)}::int[], customers.id)`, direction);
      break;
    case "name":
      ordered = ordered.orderBy(raw`lower(customers.display_name)`, direction);
      break;
    case "registered_date":
      ordered = ordered.orderBy("customers.created_at", direction);
      break;
    case "total_spent":
      ordered = ordered.orderBy(spent, direction);
      break;
    case "orders_count":
      ordered = ordered.orderBy(count, direction);
      break;
    case "last_order":
      ordered = ordered.orderBy(raw`s.last_order_at ${nullsLast}`);
      break;
    case "id":
      break;
  }
  ordered = ordered.orderBy("customers.id", direction);
  const [rows, counted] = await Promise.all([
    ordered.limit(f.limit).offset(f.offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ user: toUser(r), stats: toStats(r) })), total: Number(counted.n) };
}
