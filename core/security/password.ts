/**
 * Password hashing with Node's built-in scrypt at OWASP's parameters
 * (N=2^17, r=8, p=1), so no native add-on is needed. Stored as
 * `scrypt$N$r$p$salt$hash` so parameters can be raised later.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));

const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAXMEM = 256 * 1024 * 1024;
let N = 2 ** 17;

/**
 * Test runs only: hash new passwords at scrypt cost `n` (2^10 makes a hash take milliseconds instead of about half a
 * second of CPU; the HTTP and browser suites hash many). No configuration reaches this — it is a function call, refused outside a
 * Vitest process — and a hash keeps its own parameters, so checking one made at either cost works the same way
 * (docs/decisions/0030). tests/support/shop.ts calls it for the built server and for the sources the tests import.
 */
export function setPasswordCostForTests(n: number): void {
  if (!process.env.VITEST) throw new Error("setPasswordCostForTests is for test runs only");
  if (!Number.isInteger(Math.log2(n)) || n < 2 ** 10) throw new Error(`scrypt cost must be a power of two from 2^10, not ${n}`);
  N = n;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N, r: R, p: P, maxmem: MAXMEM });
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? "").split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") {
    // Same work either way, so timing does not tell whether the account exists.
    await hashPassword(password);
    return false;
  }
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, "base64");
  const key = await scrypt(password.normalize("NFKC"), Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAXMEM,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
