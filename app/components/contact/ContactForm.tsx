/**
 * The Contact page's form (docs/contract/storefront.md §4 'Contact form'): a plain POST to the page itself, answered
 * by the server (app/routes/page.server.ts), so it works without JavaScript. The server is the judge (`noValidate`):
 * its answer is a status message, or an alert listing the problems (each a link to its field) with every field's own
 * message under it (`aria-invalid`, `aria-describedby`). The honeypot sits off-screen, out of the tab order and
 * hidden from screen readers.
 */
import { CONTACT_HONEYPOT_FIELD, CONTACT_LIMITS, type ContactField } from "../../../core/domain/contact/contact-message.ts";

export type ContactFormResult =
  | { sent: true; email: string }
  | { sent: false; errors: Partial<Record<ContactField, string>>; limited: string | null; values: { name: string; email: string; message: string } };

const LABELS: Record<ContactField, string> = { name: "Name", email: "E-mail address", message: "Message" };
const FIELDS: ContactField[] = ["name", "email", "message"];
const inputId = (f: ContactField) => `contact_${f}`;
const errorId = (f: ContactField) => `contact_${f}-error`;

export function ContactForm({ action, result }: { action: string; result: ContactFormResult | undefined }) {
  if (result?.sent) {
    return (
      <section className="contact-form" id="contact-form" aria-labelledby="contact-form-title">
        <h2 id="contact-form-title">Send us a message</h2>
        <div className="woocommerce-message" role="status">
          Thank you: your message was sent. We answer at {result.email}, usually within one working day.
        </div>
        <p>
          <a href={`${action}#contact-form`}>Send another message</a>
        </p>
      </section>
    );
  }
  const errors = result?.errors ?? {};
  const values = result?.values ?? { name: "", email: "", message: "" };
  const invalid = FIELDS.filter((f) => errors[f]);
  const describedBy = (f: ContactField, ...more: string[]) => [...(errors[f] ? [errorId(f)] : []), ...more].join(" ") || undefined;
  const fieldError = (f: ContactField) =>
    errors[f] ? (
      <span className="contact-form__error" id={errorId(f)}>
        {errors[f]}
      </span>
    ) : null;
  /** The name and e-mail rows: one line each, required, with the server's message under the field. */
  const lineField = (f: "name" | "email", type: "text" | "email", autoComplete: string) => (
    <p className="form-row">
      <label htmlFor={inputId(f)}>
        {LABELS[f]} <span className="required">*</span>
      </label>
      <input
        className="input-text"
        type={type}
        id={inputId(f)}
        name={`contact_${f}`}
        autoComplete={autoComplete}
        maxLength={CONTACT_LIMITS[f].max}
        required
        defaultValue={values[f]}
        aria-invalid={errors[f] ? true : undefined}
        aria-describedby={describedBy(f)}
      />
      {fieldError(f)}
    </p>
  );
  return (
    <section className="contact-form" id="contact-form" aria-labelledby="contact-form-title">
      <h2 id="contact-form-title">Send us a message</h2>
      {result?.limited ? (
        <div className="woocommerce-error" role="alert">
          {result.limited}
        </div>
      ) : null}
      {invalid.length ? (
        <div className="woocommerce-error" role="alert">
          <p>Your message was not sent: please correct {invalid.length === 1 ? "this field" : `these ${invalid.length} fields`}.</p>
          <ul>
            {invalid.map((f) => (
              <li key={f}>
                <a href={`#${inputId(f)}`}>
                  {LABELS[f]}: {errors[f]}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <form method="post" action={`${action}#contact-form`} noValidate className="contact-form__form">
        {lineField("name", "text", "name")}
        {lineField("email", "email", "email")}
        <p className="form-row">
          <label htmlFor={inputId("message")}>
            {LABELS.message} <span className="required">*</span>
          </label>
          <textarea
            className="input-text"
            id={inputId("message")}
            name="contact_message"
            rows={7}
            maxLength={CONTACT_LIMITS.message.max}
            required
            defaultValue={values.message}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={describedBy("message", "contact_message-hint")}
          />
          <span className="contact-form__hint" id="contact_message-hint">
            At least {CONTACT_LIMITS.message.min} characters, at most {CONTACT_LIMITS.message.max}.
          </span>
          {fieldError("message")}
        </p>
        <div className="contact-form__hp" aria-hidden="true">
          <label htmlFor="contact_website">Leave this field empty</label>
          <input type="text" id="contact_website" name={CONTACT_HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <button type="submit" className="button">
          Send message
        </button>
      </form>
    </section>
  );
}
