/** The newsletter sign-up's use case (docs/contract/storefront.md §2 'Newsletter sign-up'): idempotent per address. */
import type { Db } from "../db/client.ts";
import { addSubscriber } from "../db/repositories/newsletter.ts";
import { parseNewsletterSignup, NEWSLETTER_MESSAGES } from "../domain/newsletter/signup.ts";

export type SignupOutcome = { ok: true; added: boolean; message: string } | { ok: false; message: string };

/** Validates the form and stores the address; a repeat is a success that adds nothing. */
export async function subscribeToNewsletter(db: Db, form: { get(name: string): unknown }, now: Date): Promise<SignupOutcome> {
  const parsed = parseNewsletterSignup(form);
  if (!parsed.ok) return parsed;
  const added = await addSubscriber(db, { email: parsed.email, source: parsed.source, at: now });
  return { ok: true, added, message: NEWSLETTER_MESSAGES.subscribed };
}
