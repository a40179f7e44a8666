/**
 * The staff accounts a new shop starts with (docs/contract/rest/auth.md 'First start', decision 0019): one
 * administrator on the first start, and the demo seed's shop manager. From the environment when it names them;
 * otherwise with a random password that the caller prints once. Idempotent: an existing account of the role means
 * nothing is done, and an existing account's password is never changed.
 */
import { randomBytes } from "node:crypto";
import type { Db } from "../db/client.ts";
import { hashPassword, verifyPassword } from "../security/password.ts";
import { findCustomerByLogin, firstAccountWithRole, insertCustomer, setCustomerRole } from "../db/repositories/customers.ts";
import { lockKey } from "../db/repositories/locks.ts";

export type StaffRole = "administrator" | "shop_manager";

export type StaffBootstrap =
  /** An account of the role exists: nothing was done. */
  | { outcome: "exists"; id: number }
  /** A new account; `generatedPassword` is set when the environment gave none (print it once, never store it). */
  | { outcome: "created"; id: number; email: string; generatedPassword: string | null }
  /** The e-mail address's existing account was given the role, because the configured password is its own. */
  | { outcome: "promoted"; id: number; email: string }
  /** The e-mail address belongs to an account whose password is not the configured one: nobody was made staff. */
  | { outcome: "refused"; email: string };

const LOCAL_PART: Record<StaffRole, string> = { administrator: "admin", shop_manager: "shopmanager" };
const DISPLAY_NAME: Record<StaffRole, string> = { administrator: "Administrator", shop_manager: "Shop manager" };

/** The domain of the default staff e-mail addresses: the site's host when it is a domain name, else example.com. */
export function staffEmailDomain(siteUrl: string): string {
  let host = "";
  try {
    host = new URL(siteUrl).hostname.toLowerCase();
  } catch {
    /* not a URL: the fallback */
  }
  const domainName = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/.test(host);
  return domainName ? host : "example.com";
}

/** A random password of 24 characters (144 bits) from the URL-safe base64 alphabet. */
export function randomStrongPassword(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * Makes sure one account of `role` exists. Concurrent starts of several processes create one: the check and the
 * insert run under one advisory lock.
 */
export async function ensureStaffAccount(db: Db, q: { role: StaffRole; email?: string; password?: string; siteUrl: string }): Promise<StaffBootstrap> {
  const email = (q.email ?? `${LOCAL_PART[q.role]}@${staffEmailDomain(q.siteUrl)}`).trim().toLowerCase();
  return db.transaction(async (tx): Promise<StaffBootstrap> => {
    await lockKey(tx, `staff-bootstrap:${q.role}`);
    const existing = await firstAccountWithRole(tx, q.role);
    if (existing !== null) return { outcome: "exists", id: existing };
    const account = await findCustomerByLogin(tx, email);
    if (account && account.email.toLowerCase() === email) {
      // Only whoever knows the account's password may make it staff through the environment.
      if (q.password && (await verifyPassword(q.password, account.passwordHash))) {
        await setCustomerRole(tx, account.id, q.role);
        return { outcome: "promoted", id: account.id, email };
      }
      return { outcome: "refused", email };
    }
    const generatedPassword = q.password ? null : randomStrongPassword();
    const id = await insertCustomer(tx, {
      email,
      passwordHash: await hashPassword(q.password ?? generatedPassword!),
      firstName: "",
      lastName: "",
      displayName: DISPLAY_NAME[q.role],
      role: q.role,
    });
    if (id === null) return { outcome: "refused", email };
    return { outcome: "created", id, email, generatedPassword };
  });
}
