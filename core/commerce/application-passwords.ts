/**
 * Application passwords as WordPress makes them (docs/contract/rest/auth.md): 24 random letters and digits, shown
 * once in groups of four, stored as a keyed SHA-256 (decision 0019: they are random, so a slow hash adds nothing but
 * cost to every REST call), and accepted only as HTTP Basic on the REST API. Failed Basic sign-ins count against the
 * same per-address limit as the sign-in forms (AUTH_LIMITS, core/commerce/accounts.ts).
 */
import { createHmac, randomInt, randomUUID } from "node:crypto";
import type { Db, Queryable } from "../db/client.ts";
import * as repo from "../db/repositories/application-passwords.ts";
import { findCustomerByLogin, findCustomerRole } from "../db/repositories/customers.ts";
import { countEvents } from "../db/repositories/auth-events.ts";
import { consumeLimits, type Limit } from "./rate-limits.ts";
import { AUTH_LIMITS } from "./accounts.ts";

export type ApplicationPassword = repo.ApplicationPasswordRow;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const LENGTH = 24;
/** A fixed domain separator, not a secret: the hash must survive a new SESSION_SECRET (decision 0019). */
const HASH_KEY = "maskerade application password v1";
/** last_used / last_ip are written at most this often per password. */
const TOUCH_EVERY_MS = 60_000;

/** WordPress's wp_generate_password(24, false): letters and digits. */
function generatePassword(): string {
  let out = "";
  for (let i = 0; i < LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** WordPress's chunk_password: "abcd efgh ijkl mnop qrst uvwx". */
export function chunkPassword(password: string): string {
  return password.match(/.{1,4}/g)!.join(" ");
}

/** The stored form. As WordPress does, anything but letters and digits (the spaces of the chunked form) is ignored. */
function hashApplicationPassword(password: string): string {
  return createHmac("sha256", HASH_KEY)
    .update(password.replace(/[^a-z\d]/gi, ""))
    .digest("hex");
}

export const listApplicationPasswords = (db: Queryable, customerId: number) => repo.listApplicationPasswords(db, customerId);
export const findApplicationPassword = (db: Queryable, customerId: number, uuid: string) => repo.findApplicationPassword(db, customerId, uuid);
export const deleteApplicationPassword = (db: Queryable, customerId: number, uuid: string) => repo.deleteApplicationPassword(db, customerId, uuid);
export const deleteAllApplicationPasswords = (db: Queryable, customerId: number) => repo.deleteAllApplicationPasswords(db, customerId);

/** Creates one; the plain password is in the answer only (chunked). A name the account already uses is refused. */
export async function createApplicationPassword(
  db: Queryable,
  q: { customerId: number; name: string; appId: string; now: Date },
): Promise<{ ok: true; item: ApplicationPassword; password: string } | { ok: false; duplicate: true }> {
  if (await repo.applicationPasswordNameTaken(db, q.customerId, q.name)) return { ok: false, duplicate: true };
  const password = generatePassword();
  const item = await repo.insertApplicationPassword(db, {
    uuid: randomUUID(),
    customerId: q.customerId,
    appId: q.appId,
    name: q.name,
    passwordHash: hashApplicationPassword(password),
    now: q.now,
  });
  return { ok: true, item, password: chunkPassword(password) };
}

export async function renameApplicationPassword(
  db: Queryable,
  customerId: number,
  uuid: string,
  name: string,
): Promise<{ ok: true; item: ApplicationPassword } | { ok: false; reason: "duplicate" | "missing" }> {
  if (await repo.applicationPasswordNameTaken(db, customerId, name, uuid)) return { ok: false, reason: "duplicate" };
  const item = await repo.renameApplicationPassword(db, customerId, uuid, name);
  return item ? { ok: true, item } : { ok: false, reason: "missing" };
}

export type BasicOutcome =
  | { ok: true; customerId: number; role: string; uuid: string }
  | { ok: false; code: "invalid_username" | "invalid_email" | "incorrect_password" | "too_many_attempts" };

/**
 * Checks `login:password` from an HTTP Basic header. The login is the account's e-mail address (the shop has no
 * user names, so anything without "@" is an unknown user name). Only application passwords are accepted, never the
 * account's own password. Each failure is counted against the client address's sign-in limit.
 */
export async function authenticateBasic(db: Db, q: { login: string; password: string; address: string; now: Date }): Promise<BasicOutcome> {
  const byAddress: Limit = {
    kind: "login_failed",
    scope: "address",
    subject: q.address,
    max: AUTH_LIMITS.failedPerAddressPer15Min,
    windowMs: 15 * 60_000,
  };
  if ((await countEvents(db, byAddress, new Date(q.now.getTime() - byAddress.windowMs))) >= byAddress.max) return { ok: false, code: "too_many_attempts" };
  const fail = async (code: "invalid_username" | "invalid_email" | "incorrect_password"): Promise<BasicOutcome> => {
    const counted = await consumeLimits(db, q.now, [byAddress], q.address);
    return counted.ok ? { ok: false, code } : { ok: false, code: "too_many_attempts" };
  };
  const login = q.login.trim().slice(0, 254);
  if (!login.includes("@")) return fail("invalid_username");
  const account = await findCustomerByLogin(db, login);
  if (!account || account.email.toLowerCase() !== login.toLowerCase()) return fail("invalid_email");
  const item = await repo.findApplicationPasswordByHash(db, account.id, hashApplicationPassword(q.password.slice(0, 200)));
  if (!item) return fail("incorrect_password");
  const role = (await findCustomerRole(db, account.id)) ?? "customer";
  const stale = !item.lastUsedAt || q.now.getTime() - item.lastUsedAt.getTime() >= TOUCH_EVERY_MS || item.lastIp !== q.address;
  if (stale) await repo.touchApplicationPassword(db, item.uuid, q.now, q.address);
  return { ok: true, customerId: account.id, role, uuid: item.uuid };
}
