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

/** The account a sign-in or reset form names: by e-mail address or display name, case-insensitively (lowest id wins). */
export async function findCustomerByLogin(db: Queryable, login: string): Promise<LoginAccount | null> {
  const row = await sql(db)
    .selectFrom("customers")
    .select(["id", "email", "password_hash"])
    .where((w) => w.or([w(raw`lower(email)`, "=", raw`lower(${login})`), w(raw`lower(display_name)`, "=", raw`lower(${login})`)]))
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
