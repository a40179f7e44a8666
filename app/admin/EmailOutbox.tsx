/**
 * The e-mail outbox (docs/contract/admin.md 'E-mail outbox', decision 0032): every e-mail the shop queued, newest
 * first, from `GET shop/v1/email-outbox` (Show: all / waiting / sent / failed, pages of 20), each with its
 * recipient, subject, kind, status, attempts, last error and dates; its view (`/wp-admin/outbox/{id}/`) shows the
 * text. "Retry now" (a failed one) and "Resend" (a new copy of a sent one) are POSTs to `…/{id}/retry` and
 * `…/{id}/resend`; the server takes a retry once however often it is clicked. Results are announced.
 * Delete (one card, or the cards ticked) asks first, then `DELETE …/{id}` for each, the cards gone at once
 * (optimistic-rows.tsx) and back with an alert when refused (e.g. being sent right now). The page, the search and
 * Show are kept in the address (view-in-address.ts: `paged`, `s`, `status`).
 */
import { Button, CheckboxControl, Modal, SearchControl, SelectControl, __experimentalHStack as HStack } from "@wordpress/components";
import type { View } from "@wordpress/dataviews";
import { useCallback, useEffect, useState } from "react";
import "@wordpress/components/build-style/style.css";
import "./settings.css";
import { getWithHeaders, query, send, type RestError } from "./api.ts";
import { useCardPage } from "./use-card-page.ts";
import { LoadError, Loading, ResultNotice, type ActionResult } from "./Status.tsx";
import type { AdminScreen } from "./screens.ts";
import { whenGmt } from "./EmailSettings.tsx";
import { removeRows, useOptimisticRows } from "./optimistic-rows.tsx";
import { useViewInAddress } from "./view-in-address.ts";

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
  /** A sender holds it right now: it cannot be deleted until that ends. */
  sending: boolean;
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

const INITIAL_VIEW: View = { type: "list", page: 1, perPage: PER_PAGE, search: "" };
const FILTERS: readonly Filter[] = ["queued", "sent", "failed"];
const filterOf = (v: string): Filter => (FILTERS.includes(v as Filter) ? (v as Filter) : "all");

/** "Delete e-mail #5?" or "Delete 3 e-mails?", with Cancel and Delete; focus goes back where it was on closing. */
function ConfirmDelete({ items, onCancel, onConfirm }: { items: OutboxMessage[]; onCancel: () => void; onConfirm: () => void }) {
  const [only] = items;
  return (
    <Modal title={items.length === 1 && only ? `Delete e-mail #${only.id}?` : `Delete ${items.length} e-mails?`} onRequestClose={onCancel} size="small">
      <div className="admin-confirm">
        <p>
          {items.length === 1 && only ? `“${only.subject}” to ${only.to} is` : "They are"} removed from the outbox: one waiting to be sent is not sent. This
          cannot be undone.
        </p>
        <HStack justify="flex-end">
          <Button variant="tertiary" onClick={onCancel} __next40pxDefaultSize>
            Cancel
          </Button>
          <Button variant="primary" isDestructive onClick={onConfirm} __next40pxDefaultSize>
            Delete
          </Button>
        </HStack>
      </div>
    </Modal>
  );
}

function OutboxScreen() {
  // The page, the search and Show in the address (`paged`, `s`, `status`): reload and back/forward keep the view.
  const { view, setView, extra, setExtra, restored } = useViewInAddress(INITIAL_VIEW, { extra: ["status"] });
  const status = filterOf(extra.status ?? "");
  const page = view.page ?? 1;
  const search = view.search ?? "";
  const [reloads, setReloads] = useState(0);
  const key = query({ status, page, per_page: PER_PAGE, search: search.trim() || undefined });

  const path = `/shop/v1/email-outbox?${key}`;
  const { list, error, replace, reload } = useCardPage<OutboxMessage>(path, reloads);
  const { rows, busy: deleting, result: deleted, setResult: setDeleted, run } = useOptimisticRows(list?.items ?? [], reload);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [confirming, setConfirming] = useState<OutboxMessage[] | null>(null);
  const [lastAction, setLastAction] = useState<"delete" | "send">("send");

  // Deleting the last rows of a later page leaves it past the end: the first page is shown instead.
  useEffect(() => {
    if (error?.code === "rest_post_invalid_page_number" && page > 1) setView((v) => ({ ...v, page: 1 }));
  }, [error, page, setView]);

  const done = useCallback(
    (changed: OutboxMessage, copy: boolean) => {
      if (copy) setReloads((n) => n + 1);
      else replace(changed);
    },
    [replace, setReloads],
  );
  const { busy, result: sent, act } = useOutboxActions(done);
  const sendAct = useCallback(
    (m: OutboxMessage, a: "retry" | "resend") => {
      setLastAction("send");
      return act(m, a);
    },
    [act],
  );

  const shownIds = new Set(rows.map((m) => m.id));
  const chosen = rows.filter((m) => selected.has(m.id) && !m.sending);
  const remove = (items: OutboxMessage[]) => {
    setConfirming(null);
    setLastAction("delete");
    setDeleted(null);
    setSelected((s) => new Set([...s].filter((id) => !items.some((m) => m.id === id))));
    removeRows(
      run,
      items,
      (m) => send(`/shop/v1/email-outbox/${m.id}`, "DELETE", undefined),
      { one: "e-mail", many: "e-mails", done: "deleted" },
      (m) => `#${m.id}`,
    );
  };
  const total = list ? list.total - Math.max(0, list.items.length - rows.length) : 0;

  return (
    <div className="admin-outbox">
      <p>
        Every e-mail the shop sends waits here until the SMTP server accepts it. The sender and which e-mails are sent are in{" "}
        <a href="/wp-admin/settings/emails/">Settings › E-mails</a>.
      </p>
      <div className="admin-outbox__filters">
        <SearchControl
          __nextHasNoMarginBottom
          label="Search e-mails"
          placeholder="Recipient or subject"
          value={search}
          onChange={(v) => setView((old) => ({ ...old, search: v ?? "", page: 1 }))}
        />
        <SelectControl
          key={restored}
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
          onChange={(v) => setExtra({ status: v === "all" ? "" : v }, (old) => ({ ...old, page: 1 }))}
        />
        <Button variant="secondary" onClick={() => setReloads((n) => n + 1)}>
          Refresh
        </Button>
      </div>
      <ResultNotice result={lastAction === "delete" ? deleted : sent} />
      {error && error.code !== "rest_post_invalid_page_number" ? <LoadError error={error} /> : null}
      {!list && !error ? <Loading what="the outbox" /> : null}
      {list ? (
        <>
          <div className="admin-outbox__bulk">
            <p role="status" className="admin-outbox__count">
              {total === 0 ? "No e-mails here." : `${total} ${total === 1 ? "e-mail" : "e-mails"}.`}
              {chosen.length ? ` ${chosen.length} selected.` : ""}
            </p>
            <Button
              variant="secondary"
              isDestructive
              aria-disabled={!chosen.length || deleting}
              onClick={() => chosen.length && !deleting && setConfirming(chosen)}
            >
              Delete selected
            </Button>
          </div>
          <ul className="admin-outbox__list" aria-busy={list.path !== path || deleting ? true : undefined}>
            {rows.map((m) => (
              <li key={m.id} className={`admin-card admin-outbox__item is-${m.status}`}>
                <div className="admin-outbox__head">
                  <CheckboxControl
                    __nextHasNoMarginBottom
                    aria-label={`Select e-mail #${m.id} to ${m.to}`}
                    checked={selected.has(m.id) && !m.sending}
                    disabled={m.sending}
                    onChange={(on) =>
                      setSelected((s) => {
                        const next = new Set([...s].filter((id) => shownIds.has(id)));
                        if (on) next.add(m.id);
                        else next.delete(m.id);
                        return next;
                      })
                    }
                  />
                  <h2 className="admin-outbox__subject">
                    <a href={`/wp-admin/outbox/${m.id}/`}>
                      #{m.id} {m.subject}
                    </a>
                  </h2>
                </div>
                <Facts m={m} />
                <p className="admin-outbox__actions">
                  <Actions m={m} busy={busy} act={sendAct} />
                  {m.sending ? (
                    <span className="admin-hint">Being sent right now.</span>
                  ) : (
                    <Button variant="tertiary" isDestructive aria-disabled={deleting} onClick={() => !deleting && setConfirming([m])}>
                      Delete
                      <span className="screen-reader-text">
                        : e-mail #{m.id} to {m.to}
                      </span>
                    </Button>
                  )}
                </p>
              </li>
            ))}
          </ul>
          {list.pages > 1 ? (
            <p className="admin-outbox__pages">
              <Button variant="secondary" disabled={page <= 1} onClick={() => setView((v) => ({ ...v, page: page - 1 }))}>
                Newer e-mails
              </Button>{" "}
              Page {page} of {list.pages}{" "}
              <Button variant="secondary" disabled={page >= list.pages} onClick={() => setView((v) => ({ ...v, page: page + 1 }))}>
                Older e-mails
              </Button>
            </p>
          ) : null}
        </>
      ) : null}
      {confirming ? <ConfirmDelete items={confirming} onCancel={() => setConfirming(null)} onConfirm={() => remove(confirming)} /> : null}
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
