/**
 * The e-mail a contact-form message sends the shop's owner (issue 14). Pure: the caller queues it in the outbox.
 * The sender's name and address are in the body (and the subject), never in a header: replying is done by hand
 * to the address shown, so a visitor's text cannot add a recipient or a header line.
 */
export function contactMessageEmail(
  m: { id: number; name: string; email: string; message: string },
  site: { name: string; url: string },
): { subject: string; body: string } {
  // A name is one line (the form refuses line breaks); the subject keeps it short.
  const name = m.name.length > 60 ? `${m.name.slice(0, 59)}…` : m.name;
  return {
    subject: `[${site.name}] New message from ${name}`,
    body: [
      `${m.name} <${m.email}> wrote through the contact form:`,
      "",
      m.message,
      "",
      "—",
      `Answer by writing to ${m.email}.`,
      `All messages: ${site.url}/wp-admin/messages/`,
      "",
    ].join("\n"),
  };
}
