import { describe, expect, it } from "vitest";
import { testEmail } from "./test-email.ts";
import { emailKindLabel } from "../../domain/mail/email-kinds.ts";

describe("test e-mail", () => {
  it("names the shop, who sent it and when, and says what its arrival proves", () => {
    const mail = testEmail({ sentBy: "staff user #3", at: new Date("2026-11-28T10:05:42Z") }, { name: "Maskerade", url: "https://shop.example" });
    expect(mail.subject).toBe("Test e-mail from Maskerade");
    expect(mail.body).toContain("staff user #3 sent from Maskerade's Settings › E-mails on 2026-11-28 10:05 UTC.");
    expect(mail.body).toContain("the shop's e-mails are delivered");
    expect(mail.body.endsWith("Maskerade\nhttps://shop.example\n")).toBe(true);
    expect(emailKindLabel("test_email")).toBe("Test e-mail");
  });
});
