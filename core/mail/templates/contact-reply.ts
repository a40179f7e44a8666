/**
 * The e-mail a staff reply to a contact-form message sends the visitor (issue 14, docs/contract/admin.md
 * 'Messages'). Pure: the caller queues it in the outbox. The visitor's own message is quoted under the reply, as a
 * mail program does, so they know what is being answered.
 */
export function contactReplyEmail(
  reply: { text: string },
  original: { name: string; message: string; createdAt: Date },
  site: { name: string; url: string },
): { subject: string; body: string } {
  const when = original.createdAt.toISOString().slice(0, 16).replace("T", " ");
  return {
    subject: `Re: your message to ${site.name}`,
    body: [
      `Hello ${original.name},`,
      "",
      reply.text,
      "",
      "—",
      site.name,
      site.url,
      "",
      `On ${when} UTC you wrote through our contact form:`,
      ...original.message.split(/\r?\n/).map((line) => `> ${line}`),
      "",
    ].join("\n"),
  };
}
