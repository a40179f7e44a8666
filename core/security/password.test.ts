import { describe, expect, it } from "vitest";
import { hashPassword, setPasswordCostForTests, verifyPassword } from "./password.ts";

// The HTTP and browser suites hash at a test cost (tests/support/shop.ts, decision 0030); these check the shop's own.
describe("password hashing", () => {
  it("hashes at OWASP's scrypt parameters, salted, and verifies only the same password (each hash here costs the shop's full second of CPU)", async () => {
    const stored = await hashPassword("correct horse");
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("correct horsE", stored)).toBe(false);
  });

  it("checks a hash at the parameters it was made with, and refuses anything that is not one", async () => {
    const cheap = "scrypt$1024$8$1$" + Buffer.alloc(16, 1).toString("base64") + "$";
    const { scryptSync } = await import("node:crypto");
    const key = scryptSync("pw", Buffer.alloc(16, 1), 32, { N: 1024, r: 8, p: 1 }).toString("base64");
    expect(await verifyPassword("pw", cheap + key)).toBe(true);
    expect(await verifyPassword("pw", "md5$abc")).toBe(false);
  });

  it("takes a test cost only as a power of two from 2^10", () => {
    expect(() => setPasswordCostForTests(1000)).toThrow();
    expect(() => setPasswordCostForTests(2 ** 9)).toThrow();
  });
});
