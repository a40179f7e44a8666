/**
 * Messages (docs/contract/admin.md 'Messages'): what visitors sent through the Contact page's form, newest first, from
 * `GET shop/v1/contact-messages` (`status` all / unread, pages of 20). Each shows the sender, their address (a mail
 * link to answer), the date and the text; "Mark as read" / "Mark as unread" sends `PATCH …/{id}` and the row shows
 * the answer. "Reply" opens a text box under the message; "Send reply" sends `POST …/{id}/replies` (the visitor gets it
 * by e-mail, through the outbox) and the reply is listed under the message with its e-mail's state. The result of an
 * action is announced (a status, or an alert with the API's message).
 */
import { Button, SelectControl, TextareaControl } from "@wordpress/components";
import { useEffect, useRef, useState } from "react";
import "@wordpress/components/build-style/style.css";
import { query, send, type RestError } from "./api.ts";
import { useCardPage } from "./use-card-page.ts";
import { LoadError, Loading, ResultNotice, type ActionResult } from "./Status.tsx";

interface ContactReply {
  id: number;
  message: string;
  date_gmt: string;
  author: { id: number; name: string } | null;
  email: { id: number; status: "queued" | "sent" | "failed" } | null;
}

export interface ContactMessage {
  id: number;
  name: string;
  email: string;
  message: string;
  date_gmt: string;
  status: "read" | "unread";
  replies: ContactReply[];
}

const EMAIL_STATE = { queued: "e-mail waiting to be sent", sent: "e-mailed", failed: "e-mail failed (see the E-mail outbox)" } as const;

const PER_PAGE = 20;
const when = (gmt: string) => `${gmt.slice(0, 10)} ${gmt.slice(11, 16)} UTC`;

export default function MessagesScreen() {
  const [status, setStatus] = useState<"all" | "unread">("all");
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<ActionResult>(null);
  const [busy, setBusy] = useState<number | null>(null);
  /** The message whose reply box is open, and what is written in it. */
  const [replying, setReplying] = useState<{ id: number; text: string; error?: string } | null>(null);
  const replyButtons = useRef(new Map<number, HTMLButtonElement | null>());
  // An opened reply box takes the focus (the Reply button that opened it is then disabled); once it closes (sent or
  // cancelled), the focus goes back to that button.
  const openReply = replying?.id;
  const lastOpen = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (openReply !== undefined) document.querySelector<HTMLTextAreaElement>(`#admin-reply-${openReply} textarea`)?.focus();
    else if (lastOpen.current !== undefined) replyButtons.current.get(lastOpen.current)?.focus();
    lastOpen.current = openReply;
  }, [openReply]);
  const key = query({ status, page, per_page: PER_PAGE });

  const path = `/shop/v1/contact-messages?${key}`;
  const { list, error, replace } = useCardPage<ContactMessage>(path);

  const mark = async (m: ContactMessage, to: "read" | "unread") => {
    setBusy(m.id);
    try {
      const { body } = await send<ContactMessage>(`/shop/v1/contact-messages/${m.id}`, "PUT", { status: to });
      replace(body);
      setResult({ status: "success", text: `Message from ${m.name} marked as ${to}.` });
    } catch (e) {
      setResult({ status: "error", text: `The message from ${m.name} was not marked as ${to}: ${(e as RestError).message}` });
    } finally {
      setBusy(null);
    }
  };

  const sendReply = async (m: ContactMessage, text: string) => {
    setBusy(m.id);
    try {
      const { body } = await send<ContactMessage>(`/shop/v1/contact-messages/${m.id}/replies`, "POST", { message: text });
      replace(body);
      setReplying(null);
      setResult({ status: "success", text: `Reply to ${m.name} is on its way to ${m.email}.` });
    } catch (e) {
      const error = e as RestError;
      // A refused text is said at the box; anything else (a duplicate, a lost connection) in the screen's notice.
      if (error.code === "rest_invalid_param") setReplying({ id: m.id, text, error: error.message });
      else setResult({ status: "error", text: `The reply to ${m.name} was not sent: ${error.message}` });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="admin-messages">
      <p>Messages visitors sent through the contact form on the Contact page. Each was also e-mailed to the shop.</p>
      <div className="admin-messages__filters">
        <SelectControl
          __next40pxDefaultSize
          __nextHasNoMarginBottom
          label="Show"
          value={status}
          options={[
            { label: "All messages", value: "all" },
            { label: "Unread only", value: "unread" },
          ]}
          onChange={(v) => {
            setStatus(v as "all" | "unread");
            setPage(1);
          }}
        />
      </div>
      <ResultNotice result={result} />
      {error ? <LoadError error={error} /> : null}
      {!list && !error ? <Loading what="messages" /> : null}
      {list ? (
        <>
          <p role="status" className="admin-messages__count">
            {list.total === 0
              ? status === "unread"
                ? "No unread messages."
                : "No messages yet."
              : `${list.total} ${list.total === 1 ? "message" : "messages"}.`}
          </p>
          <ul className="admin-messages__list" aria-busy={list.path !== path ? true : undefined}>
            {list.items.map((m) => (
              <li key={m.id} className={`admin-card admin-message is-${m.status}`}>
                <h2 className="admin-message__from">
                  {m.name} {m.status === "unread" ? <span className="admin-message__badge">Unread</span> : null}
                </h2>
                <p className="admin-message__meta">
                  <a href={`mailto:${m.email}`}>{m.email}</a> · <time dateTime={`${m.date_gmt}Z`}>{when(m.date_gmt)}</time>
                </p>
                <p className="admin-message__text">{m.message}</p>
                {m.replies.length ? (
                  <ol className="admin-message__replies" aria-label={`Replies to ${m.name}`}>
                    {m.replies.map((r) => (
                      <li key={r.id}>
                        <p className="admin-message__meta">
                          Reply by {r.author?.name ?? "a former staff member"} · <time dateTime={`${r.date_gmt}Z`}>{when(r.date_gmt)}</time>
                          {r.email ? ` · ${EMAIL_STATE[r.email.status]}` : null}
                        </p>
                        <p className="admin-message__text">{r.message}</p>
                      </li>
                    ))}
                  </ol>
                ) : null}
                {replying?.id === m.id ? (
                  <form
                    id={`admin-reply-${m.id}`}
                    className="admin-message__reply"
                    onSubmit={(event) => {
                      event.preventDefault();
                      if (!replying.text.trim()) return setReplying({ ...replying, error: "Write a reply before sending it." });
                      void sendReply(m, replying.text);
                    }}
                  >
                    <TextareaControl
                      __nextHasNoMarginBottom
                      label={`Your reply to ${m.name}`}
                      help={replying.error ?? `E-mailed to ${m.email}, with their message quoted.`}
                      className={replying.error ? "is-invalid" : undefined}
                      aria-invalid={replying.error ? true : undefined}
                      value={replying.text}
                      rows={5}
                      onChange={(text) => setReplying({ id: m.id, text })}
                    />
                    <p className="admin-message__actions">
                      <Button variant="primary" type="submit" isBusy={busy === m.id} disabled={busy === m.id}>
                        Send reply
                      </Button>{" "}
                      <Button variant="tertiary" onClick={() => setReplying(null)}>
                        Cancel
                      </Button>
                    </p>
                  </form>
                ) : null}
                <Button
                  variant="secondary"
                  ref={(el: HTMLButtonElement | null) => void replyButtons.current.set(m.id, el)}
                  aria-expanded={replying?.id === m.id}
                  disabled={replying?.id === m.id}
                  onClick={() => setReplying({ id: m.id, text: "" })}
                >
                  Reply<span className="screen-reader-text"> to {m.name}</span>
                </Button>{" "}
                <Button
                  variant="secondary"
                  isBusy={busy === m.id}
                  disabled={busy === m.id}
                  onClick={() => void mark(m, m.status === "unread" ? "read" : "unread")}
                >
                  {m.status === "unread" ? "Mark as read" : "Mark as unread"}
                  <span className="screen-reader-text">: message from {m.name}</span>
                </Button>
              </li>
            ))}
          </ul>
          {list.pages > 1 ? (
            <p className="admin-messages__pages">
              <Button variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Newer messages
              </Button>{" "}
              Page {page} of {list.pages}{" "}
              <Button variant="secondary" disabled={page >= list.pages} onClick={() => setPage((p) => p + 1)}>
                Older messages
              </Button>
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
