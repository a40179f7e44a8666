/**
 * The contact form's use case (issue 14, docs/contract/storefront.md §4 'Contact form'): a visitor's message is
 * checked (the form's rules, core/domain/contact), limited per client address (CONTACT_RATE_LIMIT, in auth_events
 * like the sign-in limits: every process counts the same), stored, and e-mailed to the shop's owner through the
 * outbox in the same transaction. A filled honeypot is answered as a success and nothing is kept or sent.
 * Staff read the messages through shop/v1/contact-messages (server/features/contact-messages.ts).
 */
import type { Db } from "../db/client.ts";
import { insertContactMessage, ownerAccountEmail } from "../db/repositories/contact-messages.ts";
import { queueEmail } from "../db/repositories/orders.ts";
import { isDeliverableAddress } from "../mail/address.ts";
import { contactMessageEmail } from "../mail/templates/contact-message.ts";
import { validateContact, type ContactErrors, type ContactInput } from "../domain/contact/contact-message.ts";
import { consumeLimits, type Limit } from "./rate-limits.ts";

/** Messages accepted from one client address per hour; the next is refused until the oldest is an hour old. */
export const CONTACT_RATE_LIMIT = { max: 5, windowMs: 3_600_000 } as const;

export const CONTACT_MAIL_KIND = "contact_message";

export type ContactOutcome =
  { ok: true; id: number | null } | { ok: false; reason: "invalid"; errors: ContactErrors } | { ok: false; reason: "limited"; message: string };

export async function sendContactMessage(
  db: Db,
  q: { input: ContactInput & { honeypot: string }; address: string; now: Date; site: { name: string; url: string; email: string } },
): Promise<ContactOutcome> {
  // A bot that filled the hidden field gets what a person would see, so it learns nothing; nothing is stored.
  if (q.input.honeypot.trim() !== "") return { ok: true, id: null };
  const errors = validateContact(q.input, isDeliverableAddress);
  if (Object.keys(errors).length) return { ok: false, reason: "invalid", errors };
  const limit: Limit = { kind: "contact_message", scope: "address", subject: q.address, ...CONTACT_RATE_LIMIT };
  const consumed = await consumeLimits(db, q.now, [limit], q.address);
  if (!consumed.ok)
    return {
      ok: false,
      reason: "limited",
      message: "You have sent several messages in a short time. Please wait an hour before sending another, or write to us by e-mail.",
    };
  return db.transaction(async (tx) => {
    const { name, email, message } = q.input;
    const id = await insertContactMessage(tx, { name, email, message, clientAddress: q.address, at: q.now });
    // The site's e-mail setting (wp/v2/settings `email`, WordPress's admin_email), else the first administrator's.
    const to = (q.site.email && isDeliverableAddress(q.site.email) ? q.site.email : null) ?? (await ownerAccountEmail(tx));
    if (to) await queueEmail(tx, { kind: CONTACT_MAIL_KIND, to, ...contactMessageEmail({ id, name, email, message }, q.site) });
    return { ok: true as const, id };
  });
}
