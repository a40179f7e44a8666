/**
 * The newsletter sign-up form (docs/contract/storefront.md §2 'Newsletter sign-up'): fields `email` (the shop's
 * e-mail rule, as at the checkout), `source` ('popup:<id>' from a popup's form, else 'form') and `redirect_to`.
 * Pure: the route's action stores what this accepts.
 */
import { isEmail } from "../checkout/address-form.ts";

export const NEWSLETTER_MESSAGES = {
  subscribed: "Thanks — you are on the list.",
  invalidEmail: "Please enter a valid email address.",
} as const;

export type NewsletterSignup = { ok: true; email: string; source: string } | { ok: false; message: string };

export function parseNewsletterSignup(form: { get(name: string): unknown }): NewsletterSignup {
  const field = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v.trim() : "";
  };
  const email = field("email");
  if (!isEmail(email)) return { ok: false, message: NEWSLETTER_MESSAGES.invalidEmail };
  const source = field("source");
  return { ok: true, email, source: /^popup:[1-9][0-9]{0,9}$/.test(source) ? source : "form" };
}
