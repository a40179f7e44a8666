/**
 * The SMTP side of mail delivery: a nodemailer transport made from SMTP_URL, and the check of MAIL_FROM.
 * Used by server/features/mail.ts and by the tests, so both send through the same set-up.
 */
import nodemailer from "nodemailer";
import addressparser from "nodemailer/lib/addressparser";
import type { MailTransport } from "./outbox-sender.ts";
import { MAIL_DEFAULTS } from "./outbox-sender.ts";

export interface SmtpTransport extends MailTransport {
  close(): void;
}

/**
 * smtp://user:pass@host:587 (STARTTLS when the server offers it) or smtps://…:465 (implicit TLS). Query
 * parameters of the URL are nodemailer options and win over the ones here.
 * One connection per message (no pool): the shop sends a few mails at a time, and nothing stays open between runs.
 * The timeouts keep one send well within the sender's `sendBudgetMs`, which keeps it within the lease.
 */
export function createSmtpTransport(url: string): SmtpTransport {
  if (!/^smtps?:\/\//i.test(url)) throw new Error("SMTP URL must start with smtp:// or smtps://");
  const budget = MAIL_DEFAULTS.sendBudgetMs;
  return nodemailer.createTransport({
    url,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    dnsTimeout: 30_000,
    socketTimeout: Math.min(60_000, budget / 3),
    logger: false,
  });
}

/** The mailbox of a From: value such as `Maskerade <shop@example.com>`, or null when it names none or several. */
export function mailFromAddress(from: string): string | null {
  if (/[\r\n]/.test(from)) return null;
  const parsed = addressparser(from);
  const [first] = parsed;
  if (parsed.length !== 1 || !first || first.group || !/^[^@\s]+@[^@\s]+$/.test(first.address ?? "")) return null;
  return first.address!;
}

/** The name and mailbox of a From: value (MAIL_FROM), or null when it names no single mailbox. */
export function mailFromParts(from: string): { name: string; address: string } | null {
  const address = mailFromAddress(from);
  if (!address) return null;
  return { name: addressparser(from)[0]?.name ?? "", address };
}

/** Where a transport goes, for a start-up log line: never the credentials of the URL. */
export function describeSmtpUrl(url: string): { host: string; port: number | null; secure: boolean } {
  const u = new URL(url);
  return { host: u.hostname, port: u.port ? Number(u.port) : null, secure: u.protocol === "smtps:" };
}
