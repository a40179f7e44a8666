/** Customer accounts: registration and sign-in checks. */
import { z } from "zod";
import type { Queryable } from "../db/client.ts";
import { hashPassword, verifyPassword } from "../security/password.ts";

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
  const rows = await db.query<{ id: number }>(
    `INSERT INTO customers (email, password_hash, first_name, last_name, display_name) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (lower(email)) DO NOTHING RETURNING id`,
    [input.email, hash, input.first_name, input.last_name, input.first_name || input.email.split("@")[0]],
  );
  if (!rows[0]) return { ok: false, message: "An account is already registered with your email address. Please log in." };
  return { ok: true, customerId: rows[0].id };
}

/** Checks an e-mail (or display name) and password; the same work is done whether or not the account exists. */
export async function checkCredentials(db: Queryable, login: string, password: string): Promise<number | null> {
  const [row] = await db.query<{ id: number; password_hash: string | null }>(
    `SELECT id, password_hash FROM customers WHERE lower(email) = lower($1) OR lower(display_name) = lower($1) ORDER BY id LIMIT 1`,
    [login.trim().slice(0, 254)],
  );
  const ok = await verifyPassword(password.slice(0, 200), row?.password_hash ?? null);
  return ok && row ? row.id : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Limits on guessing: failed logins and the checkout's e-mail check
// ---------------------------------------------------------------------------------------------------------------

export const AUTH_LIMITS = {
  /** Failed logins per account per hour, whatever address they come from. */
  failedPerAccountPerHour: 100,
  /** Failed logins per client address per 15 minutes. */
  failedPerAddressPer15Min: 20,
  /** E-mail existence checks per browser session and per address per 5 minutes. */
  userChecksPerSessionPer5Min: 30,
  userChecksPerAddressPer5Min: 120,
  /** Every e-mail check answers after at least this long, so its timing does not tell whether an account exists. */
  userCheckFloorMs: 150,
  /** Password reset requests per client address per 15 minutes, and reset e-mails per account per hour. */
  resetRequestsPerAddressPer15Min: 10,
  resetMailsPerAccountPerHour: 3,
  tooManyMessage: "Too many attempts. Please wait a few minutes and try again.",
  tooManyLoginsMessage: "Too many failed login attempts. Please try again later or reset your password.",
  tooManyLoginsFromAddressMessage: "Too many failed login attempts from your network. Please wait 15 minutes and try again.",
  badCredentialsMessage: "The e-mail address or password you entered is incorrect.",
} as const;

async function countEvents(db: Queryable, kind: string, scope: string, subject: string, since: Date): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM auth_events WHERE kind = $1 AND scope = $2 AND subject = $3 AND at > $4`, [kind, scope, subject, since]);
  return row?.n ?? 0;
}

async function recordEvent(db: Queryable, kind: string, scope: string, subject: string, at: Date): Promise<void> {
  await db.query(`INSERT INTO auth_events (kind, scope, subject, at) VALUES ($1, $2, $3, $4)`, [kind, scope, subject, at]);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The checkout's "does this e-mail have an account" check, rate limited per session and per address, with the
 * same work and a fixed minimum duration whether or not the account exists.
 */
export async function checkUserExists(
  db: Queryable,
  q: { email: string; address: string; session: string; now: Date },
): Promise<{ limited: boolean; exists: boolean; loginAllowed: boolean }> {
  const started = Date.now();
  const since = new Date(q.now.getTime() - 5 * 60_000);
  const [bySession, byAddress] = await Promise.all([
    countEvents(db, "user_check", "session", q.session, since),
    countEvents(db, "user_check", "address", q.address, since),
  ]);
  let result = { limited: true, exists: false, loginAllowed: false };
  if (bySession < AUTH_LIMITS.userChecksPerSessionPer5Min && byAddress < AUTH_LIMITS.userChecksPerAddressPer5Min) {
    await Promise.all([recordEvent(db, "user_check", "session", q.session, q.now), recordEvent(db, "user_check", "address", q.address, q.now)]);
    const email = q.email.trim().toLowerCase().slice(0, 254);
    const [row] = await db.query<{ id: number }>(`SELECT id FROM customers WHERE lower(email) = $1 LIMIT 1`, [email]);
    result = { limited: false, exists: !!row, loginAllowed: !!row };
  }
  const left = AUTH_LIMITS.userCheckFloorMs - (Date.now() - started);
  if (left > 0) await sleep(left);
  return result;
}

/** Sign-in with the per-account and per-address failure limits. */
export async function loginWithLimits(
  db: Queryable,
  q: { login: string; password: string; address: string; now: Date },
): Promise<{ ok: true; customerId: number } | { ok: false; message: string }> {
  const login = q.login.trim().toLowerCase().slice(0, 254);
  if (!login || !q.password) return { ok: false, message: "Please enter your e-mail address and password." };
  const [byAccount, byAddress] = await Promise.all([
    countEvents(db, "login_failed", "account", login, new Date(q.now.getTime() - 3_600_000)),
    countEvents(db, "login_failed", "address", q.address, new Date(q.now.getTime() - 15 * 60_000)),
  ]);
  // The account's own limit points to the reset (the owner can always get in that way); the address's limit
  // passes in minutes, and a password reset would not lift it.
  if (byAccount >= AUTH_LIMITS.failedPerAccountPerHour) return { ok: false, message: AUTH_LIMITS.tooManyLoginsMessage };
  if (byAddress >= AUTH_LIMITS.failedPerAddressPer15Min) return { ok: false, message: AUTH_LIMITS.tooManyLoginsFromAddressMessage };
  const customerId = await checkCredentials(db, login, q.password);
  if (customerId) return { ok: true, customerId };
  await Promise.all([recordEvent(db, "login_failed", "account", login, q.now), recordEvent(db, "login_failed", "address", q.address, q.now)]);
  return { ok: false, message: AUTH_LIMITS.badCredentialsMessage };
}

// ---------------------------------------------------------------------------------------------------------------
// Lost password: a one-hour, one-use link sent through the outbox. Only the token's hash is stored.
// ---------------------------------------------------------------------------------------------------------------

const RESET_TTL_MS = 3_600_000;

/**
 * Queues the reset e-mail when the account exists; the caller answers the same either way. Requests are limited
 * per client address (the answer says so: it tells nothing about accounts) and, silently, per account, so the
 * form cannot be used to flood someone's inbox. The link is built on the shop's canonical address, never on the
 * request's Host header (which a stranger chooses).
 */
export async function requestPasswordReset(db: Queryable, q: { login: string; siteUrl: string; address: string; now: Date }): Promise<{ limited: boolean }> {
  const { randomBytes, createHash } = await import("node:crypto");
  const byAddress = await countEvents(db, "reset_request", "address", q.address, new Date(q.now.getTime() - 15 * 60_000));
  if (byAddress >= AUTH_LIMITS.resetRequestsPerAddressPer15Min) return { limited: true };
  await recordEvent(db, "reset_request", "address", q.address, q.now);
  const [row] = await db.query<{ id: number; email: string }>(`SELECT id, email FROM customers WHERE lower(email) = lower($1) OR lower(display_name) = lower($1) ORDER BY id LIMIT 1`, [q.login.trim().slice(0, 254)]);
  if (!row) return { limited: false };
  const byAccount = await countEvents(db, "reset_request", "account", String(row.id), new Date(q.now.getTime() - 3_600_000));
  if (byAccount >= AUTH_LIMITS.resetMailsPerAccountPerHour) return { limited: false };
  await recordEvent(db, "reset_request", "account", String(row.id), q.now);
  const token = randomBytes(24).toString("base64url");
  await revokeResetKeys(db, row.id); // one live key per account: a new e-mail replaces the last one
  await db.query(`INSERT INTO password_resets (token_hash, customer_id, expires_at) VALUES ($1, $2, $3)`, [createHash("sha256").update(token).digest("hex"), row.id, new Date(q.now.getTime() + RESET_TTL_MS)]);
  await db.query(`INSERT INTO email_outbox (kind, to_address, subject, body) VALUES ('password_reset', $1, $2, $3)`, [
    row.email,
    "Password reset request",
    `Someone asked to reset the password of your account.\n\nTo choose a new password, open this link within an hour:\n${q.siteUrl}/my-account/lost-password/?key=${token}&id=${row.id}\n\nIf it was not you, ignore this e-mail.`,
  ]);
  return { limited: false };
}

async function revokeResetKeys(db: Queryable, customerId: number): Promise<void> {
  await db.query(`UPDATE password_resets SET used_at = now() WHERE customer_id = $1 AND used_at IS NULL`, [customerId]);
}

/** Sets a new password with a reset token; the token is used up and the account's sessions end. */
export async function resetPassword(db: Queryable, customerId: number, token: string, password: string, now: Date): Promise<{ ok: true } | { ok: false; message: string }> {
  const { createHash } = await import("node:crypto");
  if (password.length < 8) return { ok: false, message: "Please use a password of at least 8 characters." };
  if (password.length > 200) return { ok: false, message: "That password is too long." };
  const hash = await hashPassword(password);
  const used = await db.query(
    `UPDATE password_resets SET used_at = $4 WHERE token_hash = $1 AND customer_id = $2 AND used_at IS NULL AND expires_at > $3 RETURNING customer_id`,
    [createHash("sha256").update(token).digest("hex"), customerId, now, now],
  );
  if (!used.length) return { ok: false, message: "This key is invalid or has already been used. Please reset your password again if needed." };
  await db.query(`UPDATE customers SET password_hash = $2 WHERE id = $1`, [customerId, hash]);
  // Every other key sent for this account dies with this one (and with any password change), as in WordPress.
  await revokeResetKeys(db, customerId);
  await db.query(`DELETE FROM sessions WHERE customer_id = $1`, [customerId]);
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------------------------
// Saved addresses (My account → Addresses) and account details (My account → Account details)
// ---------------------------------------------------------------------------------------------------------------

export type AddressKind = "billing" | "shipping";
export const ADDRESS_COLUMNS = ["first_name", "last_name", "company", "country", "address_1", "address_2", "city", "state", "postcode", "phone", "email"] as const;
export type SavedAddress = Record<(typeof ADDRESS_COLUMNS)[number], string>;

export async function loadCustomerAddresses(db: Queryable, customerId: number): Promise<Partial<Record<AddressKind, SavedAddress>>> {
  const rows = await db.query<SavedAddress & { kind: AddressKind }>(`SELECT kind, ${ADDRESS_COLUMNS.join(", ")} FROM customer_addresses WHERE customer_id = $1`, [customerId]);
  const out: Partial<Record<AddressKind, SavedAddress>> = {};
  for (const { kind, ...address } of rows) out[kind] = address;
  return out;
}

/** Stores an address the caller has validated (readAddress of core/commerce/checkout-form.ts). One upsert. */
export async function saveCustomerAddress(db: Queryable, customerId: number, kind: AddressKind, address: SavedAddress): Promise<void> {
  const values = ADDRESS_COLUMNS.map((c) => (kind === "shipping" && (c === "phone" || c === "email") ? "" : address[c]));
  await db.query(
    `INSERT INTO customer_addresses (customer_id, kind, ${ADDRESS_COLUMNS.join(", ")}) VALUES ($1, $2, ${ADDRESS_COLUMNS.map((_, i) => `$${i + 3}`).join(", ")})
     ON CONFLICT (customer_id, kind) DO UPDATE SET ${ADDRESS_COLUMNS.map((c) => `${c} = EXCLUDED.${c}`).join(", ")}, updated_at = now()`,
    [customerId, kind, ...values],
  );
}

const nameField = (label: string) => z.string().max(100, `${label} is too long (at most 100 characters).`).transform((v) => v.replace(/<[^>]*>?/g, "").replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim());

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
  const [row] = await db.query<{ password_hash: string | null }>(`SELECT password_hash FROM customers WHERE id = $1`, [customerId]);
  if (!row) return { ok: false, message: "Your account could not be found." };
  const changing = !!input.password_1;
  if (changing && !(await verifyPassword(input.password_current, row.password_hash))) return { ok: false, message: "Your current password is incorrect." };
  const taken = await db.query(`SELECT 1 FROM customers WHERE lower(email) = $1 AND id <> $2`, [input.account_email, customerId]);
  if (taken.length) return { ok: false, message: "This email address is already registered." };
  const hash = changing ? await hashPassword(input.password_1) : null;
  try {
    await db.query(
      `UPDATE customers SET first_name = $2, last_name = $3, display_name = $4, email = $5, password_hash = COALESCE($6, password_hash) WHERE id = $1`,
      [customerId, input.account_first_name, input.account_last_name, input.account_display_name, input.account_email, hash],
    );
  } catch {
    // The unique e-mail index caught a concurrent registration of the same address.
    return { ok: false, message: "This email address is already registered." };
  }
  if (changing) {
    await db.query(`DELETE FROM sessions WHERE customer_id = $1 AND id <> $2`, [customerId, keepSessionId]);
    await revokeResetKeys(db, customerId);
  }
  return { ok: true, passwordChanged: changing };
}
