/** Customer accounts: registration, sign-in and its limits, the lost-password flow, addresses and account details. */
import { z } from "zod";
import type { Db, Queryable } from "../db/client.ts";
import { hashPassword, verifyPassword } from "../security/password.ts";
import * as customers from "../db/repositories/customers.ts";
import type { AddressKind, SavedAddress } from "../db/repositories/customers.ts";
import { countEvents, recordEvents, clearEvents, type EventKey } from "../db/repositories/auth-events.ts";
import { insertResetKey, revokeResetKeys, useResetKey } from "../db/repositories/password-resets.ts";
import { deleteCustomerSessions } from "../db/repositories/sessions.ts";
import { queueEmail } from "../db/repositories/orders.ts";
import { passwordResetEmail, PASSWORD_RESET_KIND } from "../mail/templates/password-reset.ts";
import { newAccountEmail, NEW_ACCOUNT_KIND, NEW_ACCOUNT_LINK_MS } from "../mail/templates/new-account.ts";
import { consumeLimits, releaseEvents, withLimitLocks, type Limit } from "./rate-limits.ts";

export { type AddressKind, type SavedAddress } from "../db/repositories/customers.ts";

export const registrationSchema = z.object({
  email: z.string().trim().toLowerCase().max(254).email("Please provide a valid email address."),
  password: z.string().min(8, "Please use a password of at least 8 characters.").max(200, "That password is too long."),
  first_name: z.string().trim().max(100).optional().default(""),
  last_name: z.string().trim().max(100).optional().default(""),
});

export type Registration = z.infer<typeof registrationSchema>;

export type RegisterResult = { ok: true; customerId: number } | { ok: false; message: string };

export async function registerCustomer(db: Queryable, input: Registration): Promise<RegisterResult> {
  const hash = await hashPassword(input.password);
  const id = await customers.insertCustomer(db, {
    email: input.email,
    passwordHash: hash,
    firstName: input.first_name,
    lastName: input.last_name,
    displayName: input.first_name || input.email.split("@")[0]!,
  });
  if (id === null) return { ok: false, message: "An account is already registered with your email address. Please log in." };
  return { ok: true, customerId: id };
}

/** My account's registration form, limited per client address like the sign-in (AUTH_LIMITS). Every try counts. */
export async function registerWithLimits(db: Db, q: { input: Registration; address: string; now: Date }): Promise<RegisterResult> {
  const taken = await consumeLimits(db, q.now, [
    { kind: "register", scope: "address", subject: q.address, max: AUTH_LIMITS.registrationsPerAddressPerHour, windowMs: HOUR },
  ]);
  if (!taken.ok) return { ok: false, message: AUTH_LIMITS.tooManyMessage };
  return registerCustomer(db, q.input);
}

/** Checks an e-mail (or display name) and password; the same work is done whether or not the account exists. */
export async function checkCredentials(db: Queryable, login: string, password: string): Promise<number | null> {
  const account = await customers.findCustomerByLogin(db, login.trim().slice(0, 254));
  const ok = await verifyPassword(password.slice(0, 200), account?.passwordHash ?? null);
  return ok && account ? account.id : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Limits on guessing: failed logins, the checkout's e-mail check, reset e-mails (docs/decisions/0009-account-limits.md)
// ---------------------------------------------------------------------------------------------------------------

export const AUTH_LIMITS = {
  /**
   * Failed logins per account per hour, whatever address they come from. Past it the account is not locked: an
   * address that has failed on it is refused, any other address is answered after a growing delay (below).
   */
  failedPerAccountPerHour: 100,
  /** The delay of a sign-in on an account past its limit: this long, doubled every further `failedPerAccountPerHour` failures… */
  slowLoginDelayMs: 1000,
  /** …up to this. */
  slowLoginMaxDelayMs: 8000,
  /** Failed logins per client address per 15 minutes. */
  failedPerAddressPer15Min: 20,
  /** E-mail existence checks per browser session and per address per 5 minutes. */
  userChecksPerSessionPer5Min: 30,
  userChecksPerAddressPer5Min: 120,
  /** Every e-mail check answers after at least this long, so its timing does not tell whether an account exists. */
  userCheckFloorMs: 150,
  /** Accounts registered on My account per client address per hour (a household or office signs up a few; a bot thousands). */
  registrationsPerAddressPerHour: 10,
  /** Password reset requests per client address per 15 minutes. */
  resetRequestsPerAddressPer15Min: 10,
  /** Reset e-mails per account per hour asked from one client address… */
  resetMailsPerAccountPerAddressPerHour: 3,
  /** …and from all addresses together, except that an address's first request for the account in the hour always sends. */
  resetMailsPerAccountPerHour: 10,
  tooManyMessage: "Too many attempts. Please wait a few minutes and try again.",
  tooManyLoginsMessage: "Too many failed login attempts. Please try again later or reset your password.",
  tooManyLoginsFromAddressMessage: "Too many failed login attempts from your network. Please wait 15 minutes and try again.",
  badCredentialsMessage: "The e-mail address or password you entered is incorrect.",
} as const;

const MINUTE = 60_000;
const HOUR = 3_600_000;
const ago = (now: Date, ms: number) => new Date(now.getTime() - ms);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a sign-in waits on an account with this many failures in the last hour (0 below the limit). */
export function slowLoginDelayMs(accountFailures: number): number {
  const { failedPerAccountPerHour: limit, slowLoginDelayMs: base, slowLoginMaxDelayMs: max } = AUTH_LIMITS;
  if (accountFailures < limit) return 0;
  return Math.min(max, base * 2 ** Math.floor((accountFailures - limit) / limit));
}

/**
 * The checkout's "does this e-mail have an account" check, rate limited per session and per address, with the
 * same work and a fixed minimum duration whether or not the account exists.
 */
export async function checkUserExists(
  db: Db,
  q: { email: string; address: string; session: string; now: Date },
): Promise<{ limited: boolean; exists: boolean; loginAllowed: boolean }> {
  const started = Date.now();
  const window = 5 * MINUTE;
  const taken = await consumeLimits(db, q.now, [
    { kind: "user_check", scope: "session", subject: q.session, max: AUTH_LIMITS.userChecksPerSessionPer5Min, windowMs: window },
    { kind: "user_check", scope: "address", subject: q.address, max: AUTH_LIMITS.userChecksPerAddressPer5Min, windowMs: window },
  ]);
  let result = { limited: true, exists: false, loginAllowed: false };
  if (taken.ok) {
    const exists = await customers.customerEmailExists(db, q.email.trim().toLowerCase().slice(0, 254));
    result = { limited: false, exists, loginAllowed: exists };
  }
  const left = AUTH_LIMITS.userCheckFloorMs - (Date.now() - started);
  if (left > 0) await sleep(left);
  return result;
}

/**
 * Sign-in with the per-address and per-account failure limits. A failure is reserved on both keys, atomically with
 * the check, before the password is verified (so concurrent guesses cannot all pass one count) and taken back when
 * the password is right. Past the account's limit the account is slowed, not locked: an address that has failed on
 * it is refused, and any other address is answered after a growing delay, so the owner's right password from a
 * clean address always signs in. A password reset clears the account's failures.
 */
export async function loginWithLimits(
  db: Db,
  q: { login: string; password: string; address: string; now: Date },
): Promise<{ ok: true; customerId: number } | { ok: false; message: string; limited?: true }> {
  const login = q.login.trim().toLowerCase().slice(0, 254);
  if (!login || !q.password) return { ok: false, message: "Please enter your e-mail address and password." };
  const byAddress: Limit = { kind: "login_failed", scope: "address", subject: q.address, max: AUTH_LIMITS.failedPerAddressPer15Min, windowMs: 15 * MINUTE };
  const byAccount: EventKey = { kind: "login_failed", scope: "account", subject: login };
  const gate = await withLimitLocks(db, [byAddress, byAccount], async (tx): Promise<{ refused: string } | { ids: number[]; delayMs: number }> => {
    const accountFailures = await countEvents(tx, byAccount, ago(q.now, HOUR));
    const slow = accountFailures >= AUTH_LIMITS.failedPerAccountPerHour;
    // The account's own limit points to the reset (which lifts it); the address's limit passes in minutes, and a
    // password reset does not lift it.
    if (slow && (await countEvents(tx, byAccount, ago(q.now, HOUR), q.address)) > 0) return { refused: AUTH_LIMITS.tooManyLoginsMessage };
    if ((await countEvents(tx, byAddress, ago(q.now, byAddress.windowMs))) >= byAddress.max) return { refused: AUTH_LIMITS.tooManyLoginsFromAddressMessage };
    const ids = await recordEvents(tx, [
      { ...byAccount, at: q.now, address: q.address },
      { kind: byAddress.kind, scope: byAddress.scope, subject: byAddress.subject, at: q.now },
    ]);
    return { ids, delayMs: slowLoginDelayMs(accountFailures) };
  });
  if ("refused" in gate) return { ok: false, message: gate.refused, limited: true };
  if (gate.delayMs) await sleep(gate.delayMs);
  const customerId = await checkCredentials(db, login, q.password);
  if (customerId) {
    await releaseEvents(db, gate.ids);
    return { ok: true, customerId };
  }
  return { ok: false, message: AUTH_LIMITS.badCredentialsMessage };
}

/**
 * Why a sign-in failed, for the forms that tell it as WordPress's wp-login.php does (docs/contract/rest/auth.md):
 * an e-mail address or a user name (here, the display name) that no account has, or a wrong password.
 */
export async function loginFailureKind(db: Queryable, login: string): Promise<"unknown_email" | "unknown_username" | "incorrect_password"> {
  const account = await customers.findCustomerByLogin(db, login.trim().slice(0, 254));
  if (account) return "incorrect_password";
  return login.includes("@") ? "unknown_email" : "unknown_username";
}

// ---------------------------------------------------------------------------------------------------------------
// Lost password: a one-hour, one-use link sent through the outbox. Only the token's hash is stored.
// ---------------------------------------------------------------------------------------------------------------

const RESET_TTL_MS = HOUR;

/**
 * Queues the reset e-mail when the account exists; the caller answers the same either way. Requests are limited
 * per client address (the answer says so: it tells nothing about accounts) and, silently, e-mails per account per
 * requesting address and per account, so the form cannot flood someone's inbox, and an address's first request for
 * an account in the hour always sends: nobody else's requests can use up the owner's reset e-mail. The link is
 * built on the shop's canonical address, never on the request's Host header (which a stranger chooses).
 */
export async function requestPasswordReset(db: Db, q: { login: string; siteUrl: string; address: string; now: Date }): Promise<{ limited: boolean }> {
  const asked = await consumeLimits(db, q.now, [
    { kind: "reset_request", scope: "address", subject: q.address, max: AUTH_LIMITS.resetRequestsPerAddressPer15Min, windowMs: 15 * MINUTE },
  ]);
  if (!asked.ok) return { limited: true };
  const account = await customers.findCustomerByLogin(db, q.login.trim().slice(0, 254));
  if (account) await queueResetMail(db, account, q);
  return { limited: false };
}

/**
 * A shop manager's or administrator's "Send password reset" for a customer (shop/v1/customers/{id}/password-reset,
 * docs/contract/rest/shop-v1.md): the same e-mail and the same limits as the lost-password form, with the staff
 * member's address as the requesting one. `sent: false` when the account's hourly limit held the e-mail back.
 */
export async function sendPasswordResetFor(
  db: Db,
  account: { id: number; email: string },
  q: { siteUrl: string; address: string; now: Date },
): Promise<{ limited: boolean; sent: boolean }> {
  const asked = await consumeLimits(db, q.now, [
    { kind: "reset_request", scope: "address", subject: q.address, max: AUTH_LIMITS.resetRequestsPerAddressPer15Min, windowMs: 15 * MINUTE },
  ]);
  if (!asked.ok) return { limited: true, sent: false };
  return { limited: false, sent: await queueResetMail(db, account, q) };
}

/** Queues the reset e-mail unless the account's limits (per requesting address, then overall) hold it back. */
async function queueResetMail(db: Db, account: { id: number; email: string }, q: { siteUrl: string; address: string; now: Date }): Promise<boolean> {
  const { randomBytes, createHash } = await import("node:crypto");
  const mails: EventKey = { kind: "reset_request", scope: "account", subject: String(account.id) };
  return withLimitLocks(db, [mails], async (tx) => {
    const since = ago(q.now, HOUR);
    const fromHere = await countEvents(tx, mails, since, q.address);
    if (fromHere >= AUTH_LIMITS.resetMailsPerAccountPerAddressPerHour) return false;
    if (fromHere > 0 && (await countEvents(tx, mails, since)) >= AUTH_LIMITS.resetMailsPerAccountPerHour) return false;
    await recordEvents(tx, [{ ...mails, at: q.now, address: q.address }]);
    const token = randomBytes(24).toString("base64url");
    await revokeResetKeys(tx, account.id); // one live key per account: a new e-mail replaces the last one
    await insertResetKey(tx, {
      tokenHash: createHash("sha256").update(token).digest("hex"),
      customerId: account.id,
      expiresAt: new Date(q.now.getTime() + RESET_TTL_MS),
    });
    await queueEmail(tx, { kind: PASSWORD_RESET_KIND, to: account.email, ...passwordResetEmail({ siteUrl: q.siteUrl, token, customerId: account.id }) });
    return true;
  });
}

/**
 * Queues WooCommerce's "New account" e-mail for an account the shop created, in the caller's transaction; with
 * `setPasswordLink`, it carries a set-password link (a reset key living a day) instead of any password.
 */
export async function queueNewAccountMail(
  tx: Queryable,
  account: { id: number; email: string; login: string },
  q: { siteUrl: string; siteName: string; now: Date; setPasswordLink: boolean },
): Promise<void> {
  let setPassword: { token: string; customerId: number } | null = null;
  if (q.setPasswordLink) {
    const { randomBytes, createHash } = await import("node:crypto");
    const token = randomBytes(24).toString("base64url");
    await insertResetKey(tx, {
      tokenHash: createHash("sha256").update(token).digest("hex"),
      customerId: account.id,
      expiresAt: new Date(q.now.getTime() + NEW_ACCOUNT_LINK_MS),
    });
    setPassword = { token, customerId: account.id };
  }
  await queueEmail(tx, {
    kind: NEW_ACCOUNT_KIND,
    to: account.email,
    ...newAccountEmail({ siteUrl: q.siteUrl, siteName: q.siteName, login: account.login, setPassword }),
  });
}

/**
 * Sets a new password with a reset token; the token is used up, every other key and every session of the account
 * end, and the account's failed logins are forgotten (a reset lifts the sign-in limit: the owner is back in).
 */
export async function resetPassword(
  db: Db,
  customerId: number,
  token: string,
  password: string,
  now: Date,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const { createHash } = await import("node:crypto");
  if (password.length < 8) return { ok: false, message: "Please use a password of at least 8 characters." };
  if (password.length > 200) return { ok: false, message: "That password is too long." };
  const hash = await hashPassword(password);
  const done = await db.transaction(async (tx) => {
    if (!(await useResetKey(tx, { tokenHash: createHash("sha256").update(token).digest("hex"), customerId, now }))) return false;
    await customers.setPasswordHash(tx, customerId, hash);
    // Every other key sent for this account dies with this one (and with any password change), as in WordPress.
    await revokeResetKeys(tx, customerId);
    await deleteCustomerSessions(tx, customerId);
    const profile = await customers.findCustomerProfile(tx, customerId);
    if (profile)
      await clearEvents(tx, "login_failed", "account", [...new Set([profile.email, profile.displayName].map((s) => s.trim().toLowerCase()).filter(Boolean))]);
    return true;
  });
  if (!done) return { ok: false, message: "This key is invalid or has already been used. Please reset your password again if needed." };
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------------------------
// Saved addresses (My account → Addresses) and account details (My account → Account details)
// ---------------------------------------------------------------------------------------------------------------

export async function loadCustomerAddresses(db: Queryable, customerId: number): Promise<Partial<Record<AddressKind, SavedAddress>>> {
  return customers.findCustomerAddresses(db, customerId);
}

/** Stores an address the caller has validated (readAddress of core/commerce/checkout-form.ts). One upsert. */
export async function saveCustomerAddress(db: Queryable, customerId: number, kind: AddressKind, address: SavedAddress): Promise<void> {
  const stored = Object.fromEntries(
    customers.ADDRESS_COLUMNS.map((c) => [c, kind === "shipping" && (c === "phone" || c === "email") ? "" : address[c]]),
  ) as SavedAddress;
  await customers.upsertCustomerAddress(db, customerId, kind, stored);
}

const nameField = (label: string) =>
  z
    .string()
    .max(100, `${label} is too long (at most 100 characters).`)
    .transform((v) =>
      v
        .replace(/<[^>]*>?/g, "")
        .replace(/[^\P{Cc}\x80-\x9f]+/gu, " ")
        .replace(/\s+/g, " ")
        .trim(),
    );

export const accountDetailsSchema = z
  .object({
    account_first_name: nameField("First name").pipe(z.string().min(1, "First name is a required field.")),
    account_last_name: nameField("Last name").pipe(z.string().min(1, "Last name is a required field.")),
    account_display_name: nameField("Display name").pipe(z.string().min(1, "Display name is a required field.")),
    account_email: z.string().trim().toLowerCase().max(254, "Please provide a valid email address.").email("Please provide a valid email address."),
    password_current: z.string().max(200).default(""),
    password_1: z.string().max(200, "That password is too long.").default(""),
    password_2: z.string().max(200).default(""),
  })
  .superRefine((v, ctx) => {
    if (!v.password_1 && !v.password_2) return;
    if (!v.password_current) ctx.addIssue({ code: "custom", path: ["password_current"], message: "Please enter your current password." });
    else if (v.password_1.length < 8) ctx.addIssue({ code: "custom", path: ["password_1"], message: "Please use a password of at least 8 characters." });
    else if (v.password_1 !== v.password_2) ctx.addIssue({ code: "custom", path: ["password_2"], message: "New passwords do not match." });
  });

export type AccountDetails = z.infer<typeof accountDetailsSchema>;

/**
 * Saves name, display name and e-mail; changes the password only with the right current password, and then ends
 * every other session of the account (the caller's session stays).
 */
export async function updateAccountDetails(
  db: Queryable,
  customerId: number,
  keepSessionId: string,
  input: AccountDetails,
): Promise<{ ok: true; passwordChanged: boolean } | { ok: false; message: string }> {
  const stored = await customers.findPasswordHash(db, customerId);
  if (stored === undefined) return { ok: false, message: "Your account could not be found." };
  const changing = !!input.password_1;
  if (changing && !(await verifyPassword(input.password_current, stored))) return { ok: false, message: "Your current password is incorrect." };
  if (await customers.emailTakenByOther(db, input.account_email, customerId)) return { ok: false, message: "This email address is already registered." };
  const hash = changing ? await hashPassword(input.password_1) : null;
  try {
    await customers.updateCustomerDetails(db, customerId, {
      firstName: input.account_first_name,
      lastName: input.account_last_name,
      displayName: input.account_display_name,
      email: input.account_email,
      passwordHash: hash,
    });
  } catch {
    // The unique e-mail index caught a concurrent registration of the same address.
    return { ok: false, message: "This email address is already registered." };
  }
  if (changing) {
    await deleteCustomerSessions(db, customerId, keepSessionId);
    await revokeResetKeys(db, customerId);
  }
  return { ok: true, passwordChanged: changing };
}
