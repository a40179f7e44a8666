// Settings › E-mails' pure parts (decision 0032): the kinds turned off, the From: composed over MAIL_FROM.
import { describe, expect, it } from "vitest";
import { composeSender, EMAIL_KINDS, turnedOffKinds, validSenderName } from "./email-kinds.ts";

const allOn = { orderReceived: true, orderFailed: true, orderRefunded: true, orderNote: true, contactMessage: true };
const env = { name: "Maskerade", address: "shop@example.com", raw: "Maskerade <shop@example.com>" };

describe("e-mail kinds", () => {
  it("turns off only the kinds with a setting; the password reset, the new account's e-mail, order details and replies have none", () => {
    expect(turnedOffKinds(allOn)).toEqual([]);
    expect(turnedOffKinds({ ...allOn, orderNote: false, contactMessage: false })).toEqual(["order_note", "contact_message"]);
    const always = EMAIL_KINDS.filter((k) => typeof k.toggle !== "string").map((k) => k.kind);
    expect(always.sort()).toEqual(["contact_reply", "new_account", "order_details", "password_reset"]);
  });

  it("composes the From: from the saved parts over MAIL_FROM, quoting the name; MAIL_FROM as written when nothing is saved", () => {
    expect(composeSender({ fromName: "", fromAddress: "" }, env)).toBe("Maskerade <shop@example.com>");
    expect(composeSender({ fromName: "Masks, Inc.", fromAddress: "" }, env)).toBe('"Masks, Inc." <shop@example.com>');
    expect(composeSender({ fromName: "", fromAddress: "orders@example.com" }, env)).toBe('"Maskerade" <orders@example.com>');
    expect(composeSender({ fromName: "", fromAddress: "orders@example.com" }, { ...env, name: "" })).toBe("orders@example.com");
    for (const bad of ['a"b', "a<b", "a\\b", "a\nb", "a\rBcc: x@y.z"]) expect(validSenderName(bad), bad).toBe(false);
    expect(validSenderName("Masks & Co. — Paris")).toBe(true);
  });
});
