/** The per-account sign-in delay (docs/decisions/0009-account-limits.md): none below the limit, then growing, capped. */
import { describe, expect, it } from "vitest";
import { AUTH_LIMITS, slowLoginDelayMs } from "./accounts.ts";

describe("slowLoginDelayMs", () => {
  const limit = AUTH_LIMITS.failedPerAccountPerHour;
  it("is zero below the account's limit", () => {
    expect(slowLoginDelayMs(0)).toBe(0);
    expect(slowLoginDelayMs(limit - 1)).toBe(0);
  });
  it("starts at the base delay and doubles every further limit's worth of failures, up to the cap", () => {
    expect(slowLoginDelayMs(limit)).toBe(AUTH_LIMITS.slowLoginDelayMs);
    expect(slowLoginDelayMs(2 * limit - 1)).toBe(AUTH_LIMITS.slowLoginDelayMs);
    expect(slowLoginDelayMs(2 * limit)).toBe(2 * AUTH_LIMITS.slowLoginDelayMs);
    expect(slowLoginDelayMs(3 * limit)).toBe(4 * AUTH_LIMITS.slowLoginDelayMs);
    expect(slowLoginDelayMs(100 * limit)).toBe(AUTH_LIMITS.slowLoginMaxDelayMs);
  });
});
