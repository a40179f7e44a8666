import { describe, expect, it } from "vitest";
import { NEWSLETTER_MESSAGES, parseNewsletterSignup } from "./signup.ts";

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe("parseNewsletterSignup", () => {
  it("accepts an e-mail (trimmed) and a popup source; anything else is the form", () => {
    expect(parseNewsletterSignup(form({ email: " ada@example.com ", source: "popup:12" }))).toEqual({ ok: true, email: "ada@example.com", source: "popup:12" });
    expect(parseNewsletterSignup(form({ email: "ada@example.com", source: "<script>" }))).toMatchObject({ source: "form" });
    expect(parseNewsletterSignup(form({ email: "ada@example.com" }))).toMatchObject({ source: "form" });
  });

  it("refuses a missing or malformed e-mail", () => {
    for (const email of ["", "ada", "ada@example", "a b@example.com", `${"a".repeat(300)}@example.com`]) {
      expect(parseNewsletterSignup(form({ email }))).toEqual({ ok: false, message: NEWSLETTER_MESSAGES.invalidEmail });
    }
  });
});
