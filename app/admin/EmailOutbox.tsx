/**
 * The e-mail outbox (docs/contract/admin.md 'E-mail outbox', decision 0032): every e-mail the shop queued, newest
 * first, from `GET shop/v1/email-outbox` (Show: all / waiting / sent / failed, pages of 20), each with its
 * recipient, subject, kind, status, attempts, last error and dates; its view (`/wp-admin/outbox/{id}/`) shows the
 * text. "Retry now" (a failed one) and "Resend" (a new copy of a sent one) are POSTs to `…/{id}/retry` and
 * `…/{id}/resend`; the server takes a retry once however often it is clicked. Results are announced.
 */
import { Button, SelectControl } from "@wordpress/components";
import { useCallback, useEffect, useState } from "react";
import "@wordpress/components/build-style/style.css";
import "./settings.css";
import { getWithHeaders, query, send, type RestError } from "./api.ts";
import { useCardPage } from "./use-card-page.ts";
import { LoadError, Loading, ResultNotice, type ActionResult } from "./Status.tsx";
import type { AdminScreen } from "./screens.ts";
import { whenGmt } from "./EmailSettings.tsx";

export interface OutboxMessage {
  id: number;
  kind: string;
  kind_label: string;
  to: string;
  subject: string;
  status: "queued" | "sent" | "failed";
  attempts: number;
  last_error: string | null;
  last_error_gmt: string | null;
  date_gmt: string;
  sent_gmt: string | null;
  failed_gmt: string | null;
  next_attempt_gmt: string | null;
  order_id: number | null;
  resend_of: number | null;
  requested_gmt: string | null;
  can_retry: boolean;
  can_resend: boolean;
  body?: string;
}

type Filter = "all" | "queued" | "sent" | "failed";
const PER_PAGE = 20;
const STATUS_LABELS = { queued: "Waiting", sent: "Sent", failed: "Failed" } as const;

/** Retry now and Resend, with the result to announce; `done` gets the changed message (or the new copy). */
function useOutboxActions(done: (changed: OutboxMessage, copy: boolean) => void) {
  const [busy, setBusy] = useState<number | null>(null);
  const [result, setResult] = useState<ActionResult>(null);
  const act = useCallback(
    async (m: OutboxMessage, action: "retry" | "resend") => {
      setBusy(m.id);
      setResult(null);
      try {
        const { body } = await send<OutboxMessage>(`/shop/v1/email-outbox/${m.id}/${action}`, "POST", {});
        done(body, action === "resend");
        setResult({
          status: "success",
          text:
            action === "retry"
              ? `E-mail #${m.id} to ${m.to} is queued again and is being sent.`
              : `A copy of e-mail #${m.id} (#${body.id}) to ${m.to} is queued and is being sent.`,
        });
      } catch (e) {
        setResult({ status: "error", text: `E-mail #${m.id} was not ${action === "retry" ? "retried" : "resent"}: ${(e as RestError).message}` });
      } finally {
        setBusy(null);
      }
    },
    [done],
  );
  return { busy, result, act };
}

function Actions({ m, busy, act }: { m: OutboxMessage; busy: number | null; act: (m: OutboxMessage, a: "retry" | "resend") => Promise<void> }) {
  const label = (
    <span className="screen-reader-text">
      : e-mail #{m.id} to {m.to}
    </span>
  );
  return (
    <>
      {m.can_retry ? (
        <Button variant="primary" isBusy={busy === m.id} aria-disabled={busy === m.id} onClick={() => busy !== m.id && void act(m, "retry")}>
          Retry now{label}
        </Button>
      ) : null}
      {m.can_resend ? (
        <Button variant="secondary" isBusy={busy === m.id} aria-disabled={busy === m.id} onClick={() => busy !== m.id && void act(m, "resend")}>
          Resend{label}
        </Button>
      ) : null}
    </>
  );
}

function Facts({ m }: { m: OutboxMessage }) {
  return (
    <dl className="admin-outbox__facts">
      <dt>To</dt>
      <dd>{m.to}</dd>
      <dt>Kind</dt>
      <dd>
        {m.kind_label}
        {m.order_id ? (
          <>
            {" "}
            (<a href={`/wp-admin/orders/${m.order_id}/`}>order #{m.order_id}</a>)
          </>
        ) : null}
        {m.resend_of ? (
          <>
            {" "}
            · copy of <a href={`/wp-admin/outbox/${m.resend_of}/`}>#{m.resend_of}</a>
          </>
        ) : null}
      </dd>
      <dt>Status</dt>
      <dd>
        <span className={`admin-outbox__status is-${m.status}`}>{STATUS_LABELS[m.status]}</span>
        {m.status === "sent" && m.sent_gmt ? ` ${whenGmt(m.sent_gmt)}` : null}
        {m.status === "failed" && m.failed_gmt ? ` ${whenGmt(m.failed_gmt)}` : null}
        {m.status === "queued" && m.next_attempt_gmt ? ` · next attempt ${whenGmt(m.next_attempt_gmt)}` : null}
      </dd>
      <dt>Attempts</dt>
      <dd>{m.attempts}</dd>
      <dt>Queued</dt>
      <dd>{whenGmt(m.date_gmt)}</dd>
      {m.last_error ? (
        <>
          <dt>{m.status === "sent" ? "Error before delivery" : "Last error"}</dt>
          <dd className="admin-outbox__error">
            {m.last_error}
            {m.last_error_gmt ? ` (${whenGmt(m.last_error_gmt)})` : null}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

function OutboxScreen() {
  const [status, setStatus] = useState<Filter>(() => {
    const asked = new URLSearchParams(window.location.search).get("status");
    return asked === "queued" || asked === "sent" || asked === "failed" ? asked : "all";
  });
  const [page, setPage] = useState(1);
  const [reloads, setReloads] = useState(0);
  const key = query({ status, page, per_page: PER_PAGE });

  const path = `/shop/v1/email-outbox?${key}`;
  const { list, error, replace } = useCardPage<OutboxMessage>(path, reloads);

  const done = useCallback(
    (changed: OutboxMessage, copy: boolean) => {
      if (copy) setReloads((n) => n + 1);
      else replace(changed);
    },
    [replace],
  );
  const { busy, result, act } = useOutboxActions(done);

  return (
    <div className="admin-outbox">
      <p>
        Every e-mail the shop sends waits here until the SMTP server accepts it. The sender and which e-mails are sent are in{" "}
        <a href="/wp-admin/settings/emails/">Settings › E-mails</a>.
      </p>
      <div className="admin-outbox__filters">
        <SelectControl
          __next40pxDefaultSize
          __nextHasNoMarginBottom
          label="Show"
          value={status}
          options={[
            { label: "All e-mails", value: "all" },
            { label: "Waiting to be sent", value: "queued" },
            { label: "Sent", value: "sent" },
            { label: "Failed", value: "failed" },
          ]}
          onChange={(v) => {
            setStatus(v as Filter);
            setPage(1);
          }}
        />
        <Button variant="secondary" onClick={() => setReloads((n) => n + 1)}>
          Refresh
        </Button>
      </div>
      <ResultNotice result={result} />
      {error ? <LoadError error={error} /> : null}
      {!list && !error ? <Loading what="the outbox" /> : null}
      {list ? (
        <>
          <p role="status" className="admin-outbox__count">
            {list.total === 0 ? "No e-mails here." : `${list.total} ${list.total === 1 ? "e-mail" : "e-mails"}.`}
          </p>
          <ul className="admin-outbox__list" aria-busy={list.path !== path ? true : undefined}>
            {list.items.map((m) => (
              <li key={m.id} className={`admin-card admin-outbox__item is-${m.status}`}>
                <h2 className="admin-outbox__subject">
                  <a href={`/wp-admin/outbox/${m.id}/`}>
                    #{m.id} {m.subject}
                  </a>
                </h2>
                <Facts m={m} />
                <p className="admin-outbox__actions">
                  <Actions m={m} busy={busy} act={act} />
                </p>
              </li>
            ))}
          </ul>
          {list.pages > 1 ? (
            <p className="admin-outbox__pages">
              <Button variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Newer e-mails
              </Button>{" "}
              Page {page} of {list.pages}{" "}
              <Button variant="secondary" disabled={page >= list.pages} onClick={() => setPage((p) => p + 1)}>
                Older e-mails
              </Button>
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

function OutboxMessageScreen({ id }: { id: number }) {
  const [message, setMessage] = useState<OutboxMessage | null>(null);
  const [error, setError] = useState<RestError | null>(null);
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    let live = true;
    getWithHeaders<OutboxMessage>(`/shop/v1/email-outbox/${id}`).then(
      ({ body }) => live && (setMessage(body), setError(null)),
      (e: RestError) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [id, reloads]);
  const done = useCallback((changed: OutboxMessage, copy: boolean) => (copy ? undefined : setMessage((m) => (m ? { ...changed, body: m.body } : m))), []);
  const { busy, result, act } = useOutboxActions(done);
  if (error) return <LoadError error={error} />;
  if (!message) return <Loading what="the e-mail" />;
  return (
    <div className="admin-outbox admin-outbox-message">
      <p>
        <a href="/wp-admin/outbox/">← Back to the e-mail outbox</a>
      </p>
      <ResultNotice result={result} />
      <section className="admin-card">
        <h2 className="admin-outbox__subject">{message.subject}</h2>
        <Facts m={message} />
        <p className="admin-outbox__actions">
          <Actions m={message} busy={busy} act={act} />
          <Button variant="tertiary" onClick={() => setReloads((n) => n + 1)}>
            Refresh
          </Button>
        </p>
      </section>
      <section className="admin-card" aria-labelledby="outbox-text-heading">
        <h2 id="outbox-text-heading">Text</h2>
        <pre className="admin-outbox__text">{message.body}</pre>
      </section>
    </div>
  );
}

export function outboxScreen(screen: AdminScreen) {
  if (screen.name === "outbox") return <OutboxScreen />;
  if (screen.name === "outbox-message") return <OutboxMessageScreen id={screen.id} />;
  return null;
}
