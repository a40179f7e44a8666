/**
 * Settings › E-mails' "Send a test e-mail" (docs/contract/admin.md 'Settings', decision 0044): an address (the sender
 * in use at first), `POST shop/v1/email-outbox/test`, then the queued e-mail read again (`GET …/{id}`) until the
 * sender has tried it once. The result is announced: delivered, the SMTP server's refusal with its code and message
 * (an alert), or why it still waits. A bad address is refused at the field, which takes the focus.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button, TextControl } from "@wordpress/components";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { ResultNotice, type ActionResult } from "./Status.tsx";
import { useFocusFirstInvalid } from "./SaveNotice.tsx";
import { whenGmt, type MailStatus } from "./EmailSettings.tsx";
import type { OutboxMessage } from "./EmailOutbox.tsx";

/** How often, and how many times, the queued test e-mail is read again before the screen stops waiting for it. */
const READ_EVERY_MS = 1_000;
const READS = 60;

/** The bare address of a From: header (`"Name" <a@b>` → a@b). */
const addressOf = (from: string) => /<([^>]+)>\s*$/.exec(from)?.[1] ?? from.trim();

/** What the first attempt of the test e-mail came to, or null while it waits. */
export function testResult(m: OutboxMessage): ActionResult {
  const link = `Test e-mail #${m.id} to ${m.to}`;
  if (m.status === "sent") return { status: "success", text: `${link} was delivered: the SMTP server accepted it.` };
  if (m.status === "failed") return { status: "error", text: `${link} was not delivered. The SMTP server answered: ${m.last_error ?? "no reason given"}` };
  if (m.attempts > 0)
    return {
      status: "error",
      text: `${link} was not delivered yet. The SMTP server answered: ${m.last_error ?? "no reason given"}${
        m.next_attempt_gmt ? ` It will be tried again at ${whenGmt(m.next_attempt_gmt)}.` : ""
      }`,
    };
  return null;
}

export function TestEmail({ status, onDone }: { status: MailStatus | null; onDone: () => void }) {
  const [to, setTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<ActionResult>(null);
  const focusFirstInvalid = useFocusFirstInvalid();
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  const address = to ?? (status ? addressOf(status.sender) : "");

  async function waitForResult(id: number) {
    for (let i = 0; i < READS && live.current; i++) {
      await new Promise((r) => setTimeout(r, READ_EVERY_MS));
      try {
        const { body } = await getWithHeaders<OutboxMessage>(`/shop/v1/email-outbox/${id}`);
        const done = testResult(body);
        if (done) return done;
      } catch (e) {
        return { status: "error" as const, text: `The test e-mail #${id} could not be read again: ${(e as RestError).message}` };
      }
    }
    return { status: "error" as const, text: `Test e-mail #${id} is still waiting to be sent. See it in the e-mail outbox.` };
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (sending) return;
    setSending(true);
    setError(null);
    setResult(null);
    try {
      const { body } = await send<OutboxMessage>("/shop/v1/email-outbox/test", "POST", { to: address });
      if (status && !status.sender_running) {
        setResult({
          status: "error",
          text: `Test e-mail #${body.id} to ${body.to} is queued, but no sender runs: ${status.problem ?? "SMTP_URL is not set"}. It waits in the outbox.`,
        });
        return;
      }
      setResult({ status: "success", text: `Test e-mail #${body.id} to ${body.to} is queued and being sent…` });
      const done = await waitForResult(body.id);
      if (live.current) {
        setResult(done);
        onDone();
      }
    } catch (thrown) {
      const refusal = thrown as RestError;
      const atField = refusal.data?.params?.to;
      if (atField) {
        setError(atField.replace(/^to /, ""));
        focusFirstInvalid();
      } else setResult({ status: "error", text: `The test e-mail was not sent: ${refusal.message}` });
    } finally {
      if (live.current) setSending(false);
    }
  }

  return (
    <form className="admin-settings-section admin-test-email" aria-labelledby="test-email-heading" onSubmit={(e) => void submit(e)} noValidate>
      <h2 id="test-email-heading">Send a test e-mail</h2>
      <p className="admin-hint">It goes through the outbox and the SMTP server like every e-mail the shop sends; the result shows here.</p>
      <div className="admin-test-email__row">
        <TextControl
          __next40pxDefaultSize
          type="email"
          label="Send the test e-mail to"
          value={address}
          onChange={(v) => {
            setTo(v);
            setError(null);
          }}
          help={error ? <span className="admin-field-error">{error}</span> : undefined}
          aria-invalid={error ? true : undefined}
        />
        <Button __next40pxDefaultSize variant="secondary" type="submit" isBusy={sending} aria-disabled={sending}>
          Send test e-mail
        </Button>
      </div>
      <ResultNotice result={result} />
    </form>
  );
}
