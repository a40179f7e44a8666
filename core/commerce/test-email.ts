/**
 * "Send a test e-mail" (Settings › E-mails, decision 0044): one message of kind `test_email` queued in the outbox, to
 * be delivered by the same sender and transport as every real e-mail. Limited per staff user (TEST_EMAIL_LIMITS, in
 * auth_events like the other limits, so every process counts the same): a form that sends mail to any address must not
 * become a way to send many.
 */
import type { Db } from "../db/client.ts";
import { queueEmail } from "../db/repositories/orders.ts";
import { testEmail, TEST_EMAIL_KIND } from "../mail/templates/test-email.ts";
import { consumeLimits, type Limit } from "./rate-limits.ts";

/** Test e-mails one staff user may send: a few a minute, and not many more in an hour. */
export const TEST_EMAIL_LIMITS = [
  { max: 3, windowMs: 60_000 },
  { max: 20, windowMs: 3_600_000 },
] as const;

export type TestEmailOutcome = { ok: true; id: number } | { ok: false; reason: "limited"; message: string };

export async function sendTestEmail(
  db: Db,
  q: { to: string; userId: number; sentBy: string; now: Date; site: { name: string; url: string } },
): Promise<TestEmailOutcome> {
  const limits: Limit[] = TEST_EMAIL_LIMITS.map((l, i) => ({ kind: `test_email_${i}`, scope: "account", subject: String(q.userId), ...l }));
  const consumed = await consumeLimits(db, q.now, limits);
  if (!consumed.ok)
    return {
      ok: false,
      reason: "limited",
      message:
        consumed.limit.windowMs <= 60_000
          ? `You have sent ${consumed.limit.max} test e-mails in the last minute. Please wait a minute before sending another.`
          : `You have sent ${consumed.limit.max} test e-mails in the last hour. Please wait before sending another.`,
    };
  const id = await queueEmail(db, { kind: TEST_EMAIL_KIND, to: q.to, ...testEmail({ sentBy: q.sentBy, at: q.now }, q.site) });
  return { ok: true, id };
}
