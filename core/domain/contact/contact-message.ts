/**
 * The contact form's rules (issue 14; docs/contract/storefront.md §4 'Contact form'): which page carries it, its
 * fields and their limits, and the words of its messages. Pure: shared by the server's check
 * (core/commerce/contact-messages.ts) and the page that renders the form (app/routes/page.tsx).
 */

/** The page (wp/v2/pages slug) under whose content the storefront renders the contact form. */
export const CONTACT_PAGE_SLUG = "contact";

export const CONTACT_LIMITS = {
  name: { max: 100 },
  email: { max: 254 },
  message: { min: 10, max: 5000 },
} as const;

/** The honeypot: a field hidden from people (and from screen readers); a bot that fills it is told "sent" and nothing is kept. */
export const CONTACT_HONEYPOT_FIELD = "website";

export type ContactField = "name" | "email" | "message";
export interface ContactInput {
  name: string;
  email: string;
  message: string;
}
export type ContactErrors = Partial<Record<ContactField, string>>;

// eslint-disable-next-line no-control-regex
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f]/g;

/** The form's values, trimmed, from a posted form (anything missing is empty). */
export function readContactForm(form: { get(name: string): unknown }): ContactInput & { honeypot: string } {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  return {
    name: text("contact_name").trim(),
    email: text("contact_email").trim(),
    // Line breaks kept; other control characters dropped (the message is printed as text in the admin and the mail).
    message: text("contact_message").replace(/\r\n?/g, "\n").replace(CONTROL_BUT_NEWLINE, "").trim(),
    honeypot: text(CONTACT_HONEYPOT_FIELD),
  };
}

/** Per-field problems; `isAddress` is the mail layer's check of a deliverable address. */
export function validateContact(input: ContactInput, isAddress: (email: string) => boolean): ContactErrors {
  const errors: ContactErrors = {};
  if (!input.name) errors.name = "Please enter your name.";
  else if (input.name.length > CONTACT_LIMITS.name.max) errors.name = `Your name must be at most ${CONTACT_LIMITS.name.max} characters.`;
  // eslint-disable-next-line no-control-regex
  else if (/[\u0000-\u001f\u007f]/.test(input.name)) errors.name = "Your name cannot contain line breaks.";
  if (!input.email) errors.email = "Please enter your e-mail address, so that we can answer.";
  else if (input.email.length > CONTACT_LIMITS.email.max || !isAddress(input.email))
    errors.email = "Please enter a valid e-mail address, like name@example.com.";
  if (!input.message) errors.message = "Please write your message.";
  else if (input.message.length < CONTACT_LIMITS.message.min)
    errors.message = `Your message is too short: write at least ${CONTACT_LIMITS.message.min} characters.`;
  else if (input.message.length > CONTACT_LIMITS.message.max)
    errors.message = `Your message is too long: at most ${CONTACT_LIMITS.message.max} characters (it has ${input.message.length}).`;
  return errors;
}
