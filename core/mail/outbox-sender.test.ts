// The outbox sender's pure parts: address checks, back-off, failure classes, MAIL_FROM and the SMTP URL.
// Delivery against a real database and SMTP peer is tested in tests/db/outbox-sender.test.ts.
import { describe, expect, it } from "vitest";
import { backoffMs, classifyFailure } from "./outbox-sender.ts";
import { isDeliverableAddress } from "./address.ts";
import { describeSmtpUrl, mailFromAddress } from "./smtp.ts";

describe("pure parts", () => {
  it("accepts one plain mailbox, refuses lists, display names, header injection and junk", () => {
    for (const ok of ["ada@example.com", "o'brien+orders@mail.example.co.uk", "x@bücher.example", "a.b-c_d@xn--bcher-kva.example"])
      expect(isDeliverableAddress(ok), ok).toBe(true);
    for (const bad of [
      "",
      "ada",
      "ada@",
      "@example.com",
      "ada@example",
      "ada@@example.com",
      "a@b.com, c@d.com",
      "Ada <ada@example.com>",
      "ada@example.com\r\nBcc: eve@example.com",
      "ada @example.com",
      ".ada@example.com",
      "ada..b@example.com",
      "ada@-example.com",
      "ada@example.c",
      `${"a".repeat(65)}@example.com`,
      `a@${"b".repeat(250)}.com`,
    ]) {
      expect(isDeliverableAddress(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it("backs off 1, 2, 4 … minutes, capped at 6 hours", () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(a) / 60_000)).toEqual([1, 2, 4, 8]);
    expect(backoffMs(10)).toBe(6 * 3_600_000);
    expect(backoffMs(500)).toBe(6 * 3_600_000);
  });

  it("a 5xx to RCPT TO or DATA is permanent; 4xx, 503, AUTH, MAIL FROM and connection errors are not", () => {
    expect(classifyFailure({ code: "EENVELOPE", responseCode: 550, command: "RCPT TO", message: "x" }).permanent).toBe(true);
    expect(classifyFailure({ code: "EMESSAGE", responseCode: 554, command: "DATA", message: "x" }).permanent).toBe(true);
    expect(classifyFailure({ code: "EENVELOPE", responseCode: 451, command: "RCPT TO", message: "x" }).permanent).toBe(false);
    expect(classifyFailure({ code: "EENVELOPE", responseCode: 503, command: "DATA", message: "x" }).permanent).toBe(false);
    expect(classifyFailure({ code: "EAUTH", responseCode: 535, command: "AUTH PLAIN", message: "x" }).permanent).toBe(false);
    expect(classifyFailure({ code: "EENVELOPE", responseCode: 553, command: "MAIL FROM", message: "x" }).permanent).toBe(false);
    expect(classifyFailure(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNECTION", command: "CONN" }))).toMatchObject({
      permanent: false,
      session: true,
      code: "ECONNECTION",
    });
    // Which failures end the run (the peer or the session), and which concern this message only.
    expect(classifyFailure({ code: "EAUTH", responseCode: 535, command: "AUTH PLAIN" }).session).toBe(true);
    expect(classifyFailure({ code: "EENVELOPE", responseCode: 421, command: "RCPT TO" }).session).toBe(true);
    expect(classifyFailure({ code: "EENVELOPE", responseCode: 451, command: "RCPT TO" }).session).toBe(false);
    expect(classifyFailure({ code: "EENVELOPE", responseCode: 550, command: "RCPT TO" }).session).toBe(false);
    expect(classifyFailure({ code: "EENVELOPE", responseCode: 553, command: "MAIL FROM" }).session).toBe(false);
    expect(classifyFailure("weird").permanent).toBe(false);
    expect(classifyFailure({ message: "line one\r\nline two" + "x".repeat(400) }).reason).not.toMatch(/[\r\n]/);
  });

  it("MAIL_FROM must name exactly one mailbox; the SMTP URL is described without its password", () => {
    expect(mailFromAddress("Maskerade <shop@localhost>")).toBe("shop@localhost");
    expect(mailFromAddress("shop@example.com")).toBe("shop@example.com");
    expect(mailFromAddress("Maskerade")).toBeNull();
    expect(mailFromAddress("a@example.com, b@example.com")).toBeNull();
    expect(describeSmtpUrl("smtps://user:secret@mail.example.com:465")).toEqual({ host: "mail.example.com", port: 465, secure: true });
  });
});
