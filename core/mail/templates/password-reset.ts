/**
 * The lost-password e-mail (plain text, queued in `email_outbox` as kind 'password_reset'). The link is built on
 * the shop's canonical address, never on a request's Host header (which a stranger chooses).
 */
export const PASSWORD_RESET_KIND = "password_reset";

export function passwordResetEmail(p: { siteUrl: string; token: string; customerId: number }): { subject: string; body: string } {
  return {
    subject: "Password reset request",
    body: `Someone asked to reset the password of your account.\n\nTo choose a new password, open this link within an hour:\n${p.siteUrl}/my-account/lost-password/?key=${p.token}&id=${p.customerId}\n\nIf it was not you, ignore this e-mail.`,
  };
}
