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
