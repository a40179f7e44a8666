/**
 * Is this one mailbox the shop may put in an SMTP envelope? Pure. Stricter than RFC 5322 on purpose: one
 * dot-atom local part (no quoted strings, no comments, no display name) and a dotted domain, so a stored
 * value can never add a second recipient (`a@x.com, b@y.com`) or inject a header line.
 */
const MAX_ADDRESS = 254; // RFC 5321 path limit minus the angle brackets
const MAX_LOCAL = 64;
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
// Letters and digits of any script: nodemailer turns an internationalised domain into punycode.
const LABEL = /^(?!-)[\p{L}\p{N}-]{1,63}(?<!-)$/u;
const TOP_LABEL = /^(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/iu;

export function isDeliverableAddress(value: string): boolean {
  if (value.length < 6 || value.length > MAX_ADDRESS) return false;
  const at = value.lastIndexOf("@");
  if (at <= 0 || value.indexOf("@") !== at) return false;
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split(".");
  if (local.length > MAX_LOCAL || !LOCAL.test(local)) return false;
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return false;
  return TOP_LABEL.test(labels[labels.length - 1]!);
}
