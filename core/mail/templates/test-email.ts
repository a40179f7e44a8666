/**
 * The test e-mail staff send from Settings › E-mails (docs/contract/admin.md 'Settings', decision 0044): queued in
 * the outbox and delivered by the same sender and transport as every other e-mail, so its arrival (or the SMTP
 * server's refusal) says whether the shop's real e-mails go out. Pure: the caller queues it.
 */
export const TEST_EMAIL_KIND = "test_email";

export function testEmail(q: { sentBy: string; at: Date }, site: { name: string; url: string }): { subject: string; body: string } {
  const when = q.at.toISOString().slice(0, 16).replace("T", " ");
  return {
    subject: `Test e-mail from ${site.name}`,
    body: [
      "Hello,",
      "",
      `This is a test e-mail that ${q.sentBy} sent from ${site.name}'s Settings › E-mails on ${when} UTC.`,
      "It went through the shop's outbox and SMTP server like the order and account e-mails do:",
      "if you are reading it, the shop's e-mails are delivered.",
      "",
      "Nothing needs to be done.",
      "",
      "—",
      site.name,
      site.url,
      "",
    ].join("\n"),
  };
}
