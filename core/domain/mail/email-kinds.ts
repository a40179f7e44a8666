/**
 * The shop's e-mails by kind (`email_outbox.kind`), and which of them the owner may turn off in Settings › E-mails
 * (docs/contract/admin.md 'Settings', decision 0032). Pure: read by the settings' schema, the outbox sender and the
 * admin's screens.
 *
 * Always sent (no setting): the password reset (a customer locked out has no other way back in, and the shop must
 * never appear to send a link it did not), the new account's e-mail (its link is how an account staff created gets a
 * password), the order details staff send by hand from an order (asked for by name) and a reply staff write to a
 * contact message.
 */

/** The settings of Settings › E-mails that turn one kind on or off. */
export type EmailToggle = "orderReceived" | "orderFailed" | "orderRefunded" | "orderNote" | "contactMessage";

export interface EmailKind {
  kind: string;
  /** What the admin calls it. */
  label: string;
  /** Who receives it. */
  to: "customer" | "shop";
  /** The setting that turns it off, or why it cannot be turned off. */
  toggle: EmailToggle | { always: string };
}

export const EMAIL_KINDS: readonly EmailKind[] = [
  { kind: "order_received", label: "Order received", to: "customer", toggle: "orderReceived" },
  { kind: "order_failed", label: "Payment failed", to: "customer", toggle: "orderFailed" },
  { kind: "order_refunded", label: "Order refunded", to: "customer", toggle: "orderRefunded" },
  { kind: "order_note", label: "Order note", to: "customer", toggle: "orderNote" },
  { kind: "contact_message", label: "New contact message", to: "shop", toggle: "contactMessage" },
  {
    kind: "password_reset",
    label: "Password reset",
    to: "customer",
    toggle: { always: "Always sent: a customer who lost their password has no other way back into their account." },
  },
  {
    kind: "new_account",
    label: "New account",
    to: "customer",
    toggle: { always: "Always sent: an account the shop creates gets its password only through the link in it." },
  },
  {
    kind: "contact_reply",
    label: "Reply to a message",
    to: "customer",
    toggle: { always: "Always sent: staff write it by hand in Messages." },
  },
  {
    kind: "order_details",
    label: "Order details",
    to: "customer",
    toggle: { always: "Always sent: staff send it by hand from an order (Resend order e-mail)." },
  },
];

/** E-mails that are not the shop's own flows, so not in Settings › E-mails' list: the test e-mail staff send (decision 0044). */
const OTHER_KIND_LABELS: Readonly<Record<string, string>> = { test_email: "Test e-mail" };

/** The label of a kind, or the kind itself when the shop has no such e-mail any more. */
export const emailKindLabel = (kind: string): string => EMAIL_KINDS.find((k) => k.kind === kind)?.label ?? OTHER_KIND_LABELS[kind] ?? kind;

/** The kinds the owner turned off, from the saved settings. */
export function turnedOffKinds(settings: Record<EmailToggle, boolean>): string[] {
  return EMAIL_KINDS.filter((k) => typeof k.toggle === "string" && settings[k.toggle] === false).map((k) => k.kind);
}

/** A display name may not break out of its quoted From: phrase or add a header line. */
export const validSenderName = (name: string): boolean => !/[\p{Cc}"\\<>]/u.test(name);

/**
 * The From: header from the sender saved in Settings › E-mails, each part falling back to the environment's
 * MAIL_FROM (`fallback`, `raw` as written there: used as it is when nothing is saved). The name is quoted, so commas
 * and dots in it are its own.
 */
export function composeSender(saved: { fromName: string; fromAddress: string }, fallback: { name: string; address: string; raw: string }): string {
  if (!saved.fromName.trim() && !saved.fromAddress.trim()) return fallback.raw;
  const name = saved.fromName.trim() || fallback.name;
  const address = saved.fromAddress.trim() || fallback.address;
  return name && validSenderName(name) ? `"${name}" <${address}>` : address;
}
