/**
 * Staff changes to accounts (wp/v2/users and wc/v3/customers, docs/contract/rest/people.md): create, update and delete
 * a user in one transaction each, with the rules no caller may break whatever its capability: the e-mail address,
 * username and slug stay unique, the shop keeps at least one administrator, a new password ends the account's other
 * sessions and reset links. Passwords are hashed here (core/security/password.ts) and never returned. `record`
 * runs inside the transaction (the audit line stands or falls with the change).
 */
import type { Db, Queryable } from "../db/client.ts";
import * as customers from "../db/repositories/customers.ts";
import type { UserFields, UserRecord } from "../db/repositories/customers.ts";
import { writeUserMeta } from "../db/repositories/user-meta.ts";
import { deleteCustomerSessions } from "../db/repositories/sessions.ts";
import { revokeResetKeys } from "../db/repositories/password-resets.ts";
import { hashPassword } from "../security/password.ts";
import type { AddressKind, SavedAddress } from "../db/repositories/customers.ts";
import { saveCustomerAddress } from "./accounts.ts";

export interface UserInput extends Omit<UserFields, "passwordHash"> {
  password?: string;
  meta?: Record<string, string>;
  addresses?: Partial<Record<AddressKind, SavedAddress>>;
}

/** `changed`: the account was saved since the version the caller read (its If-Match), so nothing was written. */
export type PeopleRefusal = "email" | "username" | "slug" | "last_administrator" | "missing" | "changed";
type Outcome<T> = ({ ok: true } & T) | { ok: false; reason: PeopleRefusal };
type Recorder = (tx: Queryable, before: UserRecord | null, after: UserRecord | null) => Promise<void>;

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === "23505";

async function writeExtras(tx: Queryable, id: number, input: UserInput): Promise<void> {
  if (input.meta) await writeUserMeta(tx, id, input.meta);
  for (const [kind, address] of Object.entries(input.addresses ?? {}) as [AddressKind, SavedAddress][]) await saveCustomerAddress(tx, id, kind, address);
}

/** Which unique name the input would take from another account, or null. */
function takenBy(db: Queryable, input: UserInput, exceptId = 0) {
  return customers.takenIdentity(db, { email: input.email, username: input.username ?? undefined, nicename: input.nicename ?? undefined }, exceptId);
}

export async function createUser(db: Db, input: UserInput & { email: string; password: string }, record: Recorder): Promise<Outcome<{ user: UserRecord }>> {
  const { password, meta: _m, addresses: _a, ...fields } = input;
  const passwordHash = await hashPassword(password);
  const displayName = fields.displayName || fields.firstName || fields.username || input.email.split("@")[0]!;
  try {
    return await db.transaction(async (tx): Promise<Outcome<{ user: UserRecord }>> => {
      const taken = await takenBy(tx, input);
      if (taken) return { ok: false, reason: taken };
      const id = await customers.insertUser(tx, { ...fields, displayName, passwordHash });
      if (id === null) return { ok: false, reason: (await takenBy(tx, input)) ?? "email" };
      await writeExtras(tx, id, input);
      const user = (await customers.findUser(tx, id))!;
      await record(tx, null, user);
      return { ok: true, user };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: (await takenBy(db, input)) ?? "email" };
    throw error;
  }
}

/**
 * Writes the given fields. A role change away from administrator, of the only administrator, is refused (the rows
 * of all administrators are locked first, so two concurrent demotions cannot both pass).
 */
export async function updateUser(
  db: Db,
  id: number,
  input: UserInput,
  opts: { keepSessionId?: string | undefined; ifMatch?: string | undefined },
  record: Recorder,
): Promise<Outcome<{ before: UserRecord; user: UserRecord }>> {
  const { password, meta: _m, addresses: _a, ...fields } = input;
  const passwordHash = password !== undefined ? await hashPassword(password) : undefined;
  try {
    return await db.transaction(async (tx): Promise<Outcome<{ before: UserRecord; user: UserRecord }>> => {
      if (opts.ifMatch !== undefined) {
        const version = await customers.customerVersion(tx, id, true);
        if (version === null) return { ok: false, reason: "missing" };
        if (version !== opts.ifMatch) return { ok: false, reason: "changed" };
      }
      const before = await customers.findUser(tx, id);
      if (!before) return { ok: false, reason: "missing" };
      if (fields.role !== undefined && fields.role !== "administrator" && before.role === "administrator") {
        const admins = await customers.lockAdministrators(tx);
        if (admins.length <= 1 && admins.includes(id)) return { ok: false, reason: "last_administrator" };
      }
      const taken = await takenBy(tx, input, id);
      if (taken) return { ok: false, reason: taken };
      await customers.updateUser(tx, id, { ...fields, ...(passwordHash ? { passwordHash } : {}) });
      await writeExtras(tx, id, input);
      if (passwordHash) {
        // As a password change on the account page: every other session and every reset link of the account ends.
        await deleteCustomerSessions(tx, id, opts.keepSessionId);
        await revokeResetKeys(tx, id);
      }
      const user = (await customers.findUser(tx, id))!;
      await record(tx, before, user);
      return { ok: true, before, user };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: (await takenBy(db, input, id)) ?? "email" };
    throw error;
  }
}

/**
 * Deletes the account, its posts going to `reassignTo` (else keeping no author); never the last administrator. Its
 * orders stay, detached (their customer becomes a guest: the foreign key sets null), as WooCommerce keeps them.
 * With `ifMatch`, only if nobody saved the account since that version was read.
 */
export async function deleteUser(db: Db, id: number, reassignTo: number | null, record: Recorder, ifMatch?: string): Promise<Outcome<{ before: UserRecord }>> {
  return db.transaction(async (tx): Promise<Outcome<{ before: UserRecord }>> => {
    if (ifMatch !== undefined) {
      const version = await customers.customerVersion(tx, id, true);
      if (version !== null && version !== ifMatch) return { ok: false, reason: "changed" };
    }
    const before = await customers.findUser(tx, id);
    if (!before) return { ok: false, reason: "missing" };
    if (before.role === "administrator") {
      const admins = await customers.lockAdministrators(tx);
      if (admins.length <= 1) return { ok: false, reason: "last_administrator" };
    }
    // The audit line first: it names the actor, who may be the account being deleted (its id then becomes null).
    await record(tx, before, null);
    if (!(await customers.deleteUser(tx, id, reassignTo))) return { ok: false, reason: "missing" };
    return { ok: true, before };
  });
}
