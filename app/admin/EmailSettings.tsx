/**
 * Settings › E-mails (docs/contract/admin.md 'Settings', decision 0032): `shop/v1/settings/emails`, the sender's name
 * and address (empty: the environment's MAIL_FROM) and which e-mails are sent (the password reset and the order
 * details staff send by hand always are). The outbox sender reads them before every send: no restart. Below, the
 * delivery status (`GET shop/v1/email-outbox/status`, read-only): the SMTP server the environment configures (never
 * its password), the sender in use, the last delivery and the last delivery error, and the outbox's counts. Between
 * them, "Send a test e-mail" (TestEmail.tsx).
 */
import { useCallback, useEffect, useState } from "react";
import { Button, CheckboxControl, TextControl } from "@wordpress/components";
import { SectionForm } from "./settings-section.tsx";
import { getWithHeaders, type RestError } from "./api.ts";
import { LoadError, Loading } from "./Status.tsx";
import { EMAIL_KINDS, type EmailToggle } from "../../core/domain/mail/email-kinds.ts";
import { TestEmail } from "./TestEmail.tsx";

interface Emails extends Record<string, unknown> {
  fromName: string;
  fromAddress: string;
  orderReceived: boolean;
  orderFailed: boolean;
  orderRefunded: boolean;
  orderNote: boolean;
  contactMessage: boolean;
}

export interface MailStatus {
  smtp: { configured: boolean; host: string | null; port: number | null; secure: boolean; authenticated: boolean };
  sender_running: boolean;
  problem: string | null;
  mail_from: string;
  sender: string;
  turned_off: string[];
  last_sent_gmt: string | null;
  last_error: { id: number; message: string; date_gmt: string } | null;
  counts: { queued: number; sent: number; failed: number };
  retry_policy: { max_attempts: number; first_delay_seconds: number; max_delay_seconds: number };
}

export const whenGmt = (gmt: string) => `${gmt.slice(0, 10)} ${gmt.slice(11, 16)} UTC`;

/** The delivery status, read again after a save and on "Refresh". */
function useMailStatus(reloads: number) {
  const [status, setStatus] = useState<MailStatus | null>(null);
  const [error, setError] = useState<RestError | null>(null);
  const [again, setAgain] = useState(0);
  useEffect(() => {
    let live = true;
    getWithHeaders<MailStatus>("/shop/v1/email-outbox/status").then(
      ({ body }) => live && (setStatus(body), setError(null)),
      (e: RestError) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [reloads, again]);
  const refresh = useCallback(() => setAgain((n) => n + 1), []);
  return { status, error, refresh };
}

function DeliveryStatus({ status, error, refresh }: ReturnType<typeof useMailStatus>) {
  if (error) return <LoadError error={error} />;
  if (!status) return <Loading what="the delivery status" />;
  const { smtp, retry_policy: policy } = status;
  return (
    <section className="admin-settings-section admin-mail-status" aria-labelledby="mail-status-heading">
      <h2 id="mail-status-heading">Delivery (SMTP)</h2>
      <p className="admin-hint">Set by the server's environment (SMTP_URL, MAIL_FROM); shown here, not changed here.</p>
      <dl className="admin-mail-status__list">
        <dt>SMTP server</dt>
        <dd data-testid="smtp-server">
          {smtp.configured ? (
            <>
              {smtp.host}
              {smtp.port ? `:${smtp.port}` : ""} ({smtp.secure ? "TLS" : "STARTTLS when the server offers it"}),{" "}
              {smtp.authenticated ? "signs in with a user name and password (not shown)" : "no sign-in"}
            </>
          ) : (
            "Not configured: e-mails wait in the outbox until SMTP_URL is set."
          )}
        </dd>
        <dt>Sending</dt>
        <dd>{status.sender_running ? "Yes: the outbox is sent every few seconds." : (status.problem ?? "No: nothing is sent.")}</dd>
        <dt>Sender in use</dt>
        <dd data-testid="sender-in-use">
          {status.sender} <span className="admin-hint">(MAIL_FROM: {status.mail_from || "not set"})</span>
        </dd>
        <dt>Last e-mail delivered</dt>
        <dd>{status.last_sent_gmt ? whenGmt(status.last_sent_gmt) : "None yet."}</dd>
        <dt>Last delivery error</dt>
        <dd data-testid="last-error">
          {status.last_error ? (
            <>
              {whenGmt(status.last_error.date_gmt)}: {status.last_error.message} (
              <a href={`/wp-admin/outbox/${status.last_error.id}/`}>e-mail #{status.last_error.id}</a>)
            </>
          ) : (
            "None."
          )}
        </dd>
        <dt>Outbox</dt>
        <dd>
          {status.counts.queued} waiting, {status.counts.sent} sent, {status.counts.failed} failed · <a href="/wp-admin/outbox/">Open the e-mail outbox</a>
        </dd>
        <dt>Retries</dt>
        <dd>
          A failed attempt is tried again after {policy.first_delay_seconds / 60} minute, then twice as long each time (at most{" "}
          {policy.max_delay_seconds / 3600} hours), {policy.max_attempts} attempts in all; a recipient the server refuses fails at once. A failed e-mail is sent
          again only when you choose Retry now in the outbox.
        </dd>
      </dl>
      <Button variant="secondary" onClick={refresh}>
        Refresh the delivery status
      </Button>
    </section>
  );
}

export default function EmailSettings({ onDirty }: { onDirty: (dirty: boolean) => void }) {
  const [saves, setSaves] = useState(0);
  const onSaved = useCallback(() => setSaves((n) => n + 1), []);
  const mail = useMailStatus(saves);
  return (
    <>
      <SectionForm<Emails> section="emails" legend="E-mails" onDirty={onDirty} onSaved={onSaved}>
        {(s) => (
          <>
            <div className="admin-row">
              <TextControl
                __next40pxDefaultSize
                label="Sender name"
                help={s.err("fromName").help ?? "Empty: the name in MAIL_FROM."}
                value={s.form.fromName}
                onChange={(v) => s.set("fromName", v)}
                aria-invalid={s.err("fromName")["aria-invalid"]}
              />
              <TextControl
                __next40pxDefaultSize
                type="email"
                label="Sender e-mail address"
                help={s.err("fromAddress").help ?? "Empty: the address in MAIL_FROM. Your SMTP server must accept it as a sender."}
                value={s.form.fromAddress}
                onChange={(v) => s.set("fromAddress", v)}
                aria-invalid={s.err("fromAddress")["aria-invalid"]}
              />
            </div>
            <fieldset className="admin-fieldset">
              <legend>E-mails sent</legend>
              {EMAIL_KINDS.map((k) =>
                typeof k.toggle === "string" ? (
                  <CheckboxControl
                    key={k.kind}
                    label={`${k.label} (to the ${k.to})`}
                    checked={s.form[k.toggle as EmailToggle]}
                    onChange={(v) => s.set(k.toggle as EmailToggle, v)}
                    {...s.err(k.toggle)}
                  />
                ) : (
                  <CheckboxControl key={k.kind} label={`${k.label} (to the ${k.to})`} help={k.toggle.always} checked disabled onChange={() => {}} />
                ),
              )}
              <p className="admin-hint">An e-mail turned off is kept in the outbox as not sent; Retry now sends it anyway.</p>
            </fieldset>
          </>
        )}
      </SectionForm>
      <TestEmail status={mail.status} onDone={mail.refresh} />
      <DeliveryStatus {...mail} />
    </>
  );
}
