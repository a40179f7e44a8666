import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatCardNumber } from "../domain/payments/format.ts";
import { SANDBOX_TEST_BANK_ACCOUNTS, SANDBOX_TEST_CARDS, SANDBOX_TEST_ROUTING_NUMBERS } from "./test-numbers.ts";

// The README is what developers read (the form's 'test mode' label links to it): it must list every number.
const readme = readFileSync(new URL("./README.md", import.meta.url), "utf8");

describe("README.md lists every documented test number", () => {
  it.each(SANDBOX_TEST_CARDS)("$number", (card) => {
    expect(readme).toContain(`\`${formatCardNumber(card.number)}\``);
  });
  it.each([...SANDBOX_TEST_BANK_ACCOUNTS.map((a) => a.accountNumber), ...SANDBOX_TEST_ROUTING_NUMBERS])("%s", (n) => {
    expect(readme).toContain(`\`${n}\``);
  });
  it("quotes the test-mode message", () => {
    expect(readme).toContain("test mode: use a documented test number");
  });
});
