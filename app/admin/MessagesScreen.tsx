/**
 * Messages (docs/contract/admin.md 'Messages'): what visitors sent through the Contact page's form, newest first, from
 * `GET shop/v1/contact-messages` (`status` all / unread, pages of 20). Each shows the sender, their address (a mail
 * link to answer), the date and the text; "Mark as read" / "Mark as unread" sends `PATCH …/{id}` and the row shows
 * the answer. The result of an action is announced (a status, or an alert with the API's message).
 */
import { Button, SelectControl } from "@wordpress/components";
import { useState } from "react";
import "@wordpress/components/build-style/style.css";
import { query, send, type RestError } from "./api.ts";
import { useCardPage } from "./use-card-page.ts";
import { LoadError, Loading, ResultNotice, type ActionResult } from "./Status.tsx";

export interface ContactMessage {
  id: number;
  name: string;
  email: string;
  message: string;
  date_gmt: string;
  status: "read" | "unread";
}

const PER_PAGE = 20;
const when = (gmt: string) => `${gmt.slice(0, 10)} ${gmt.slice(11, 16)} UTC`;

export default function MessagesScreen() {
  const [status, setStatus] = useState<"all" | "unread">("all");
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<ActionResult>(null);
  const [busy, setBusy] = useState<number | null>(null);
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
