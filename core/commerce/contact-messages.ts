/**
 * The contact form's use case (issue 14, docs/contract/storefront.md §4 'Contact form'): a visitor's message is
 * checked (the form's rules, core/domain/contact), limited per client address (CONTACT_RATE_LIMIT, in auth_events
 * like the sign-in limits: every process counts the same), stored, and e-mailed to the shop's owner through the
 * outbox in the same transaction. A filled honeypot is answered as a success and nothing is kept or sent.
 * Staff read the messages through shop/v1/contact-messages (server/features/contact-messages.ts) and answer them
 * (`replyToContactMessage`): the reply is kept with the message and e-mailed to the visitor in one transaction.
 */
import type { Db } from "../db/client.ts";
import {
  hasReplySince,
  insertContactMessage,
  insertContactReply,
  lockContactMessage,
  ownerAccountEmail,
  setContactMessageRead,
} from "../db/repositories/contact-messages.ts";
import { contactReplyEmail } from "../mail/templates/contact-reply.ts";
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

export const CONTACT_REPLY_KIND = "contact_reply";
/** A reply's length, as the table allows (migration 0037). */
export const CONTACT_REPLY_MAX = 5000;
/** The same text sent again to the same message within this time is taken as a double click, and not sent twice. */
export const CONTACT_REPLY_DUPLICATE_MS = 10 * 60_000;

export type ReplyOutcome = { ok: true; replyId: number } | { ok: false; reason: "missing" } | { ok: false; reason: "invalid" | "duplicate"; message: string };

/**
 * Staff answer a message: the reply stored and its e-mail queued to the visitor together, under the message's row
 * lock, so two clicks of "Send" (or two staff at once sending the same text) make one reply and one e-mail.
 */
export async function replyToContactMessage(
  db: Db,
  q: { messageId: number; authorId: number | null; text: string; now: Date; site: { name: string; url: string } },
): Promise<ReplyOutcome> {
  const text = q.text.trim();
  if (!text) return { ok: false, reason: "invalid", message: "Write a reply before sending it." };
  if (text.length > CONTACT_REPLY_MAX) return { ok: false, reason: "invalid", message: `A reply is at most ${CONTACT_REPLY_MAX} characters.` };
  return db.transaction(async (tx): Promise<ReplyOutcome> => {
    const message = await lockContactMessage(tx, q.messageId);
    if (!message) return { ok: false, reason: "missing" };
    if (await hasReplySince(tx, message.id, text, new Date(q.now.getTime() - CONTACT_REPLY_DUPLICATE_MS)))
      return { ok: false, reason: "duplicate", message: "This reply was already sent to this message a moment ago; it was not sent again." };
    const emailId = await queueEmail(tx, { kind: CONTACT_REPLY_KIND, to: message.email, ...contactReplyEmail({ text }, message, q.site) });
    const replyId = await insertContactReply(tx, { messageId: message.id, authorId: q.authorId, body: text, emailId, at: q.now });
    // A message answered has been read.
    if (!message.readAt) await setContactMessageRead(tx, message.id, q.now);
    return { ok: true, replyId };
  });
}
