/**
 * WooCommerce's "New account" e-mail (customer_new_account) for an account the shop created (the admin's Add customer,
 * `POST wc/v3/customers`): plain text, queued in `email_outbox` as kind 'new_account'. Without a password chosen for
 * them it carries the link to set theirs (a password-reset key, as WooCommerce's "Set your new password"), so no
 * member of staff ever types or sees a customer's password. The link is built on the shop's canonical address.
 */
export const NEW_ACCOUNT_KIND = "new_account";

export function newAccountEmail(p: { siteUrl: string; siteName: string; login: string; setPassword: { token: string; customerId: number } | null }): {
  subject: string;
  body: string;
} {
  const link = p.setPassword
    ? `\n\nTo set your password, open this link within a day:\n${p.siteUrl}/my-account/lost-password/?key=${p.setPassword.token}&id=${p.setPassword.customerId}`
    : "";
  return {
    subject: `Your ${p.siteName} account has been created!`,
    body: `Thanks for creating an account on ${p.siteName}. Your username is ${p.login}.${link}\n\nYou can access your account area to view orders, change your password, and more at: ${p.siteUrl}/my-account/`,
  };
}

/** How long the set-password link of a new account lives: WordPress's password_reset_expiration, a day. */
export const NEW_ACCOUNT_LINK_MS = 24 * 3_600_000;
