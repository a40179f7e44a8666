/**
 * Reviews & comments (docs/contract/admin.md 'Reviews & comments'): product reviews (`wc/v3/products/reviews`) or
 * post comments (`wp/v2/comments`) by status tab with counts; per row and in bulk approve, unapprove, spam, trash,
 * restore, delete permanently; a reply as the shop to a review or a post comment (`POST wp/v2/comments` with `parent`,
 * threaded under it on the storefront) and editing a review's or comment's text. Optimistic: a row changes at once and
 * goes back, with an alert, if the API refuses; the server's answer (and fresh counts) then replace what was guessed.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { Button, CheckboxControl, Notice, SelectControl, TabPanel, TextareaControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "./content-screens.css";
import type { RestError } from "./api.ts";
import {
  ACTION_DONE,
  ACTION_LABELS,
  ACTIONS_BY_STATUS,
  loadCounts,
  editText,
  loadPage,
  optimisticStatus,
  perform,
  replyTo,
  STATUS_LABELS,
  STATUSES,
  type Kind,
  type ModAction,
  type ModRow,
  type ModStatus,
} from "./moderation.ts";

const PER_PAGE = 20;
const KIND_NAMES: Record<Kind, { one: string; many: string }> = {
  review: { one: "Review", many: "Product reviews" },
  comment: { one: "Comment", many: "Post comments" },
};
type Result = { status: "success" | "error"; text: string } | null;
const keyOf = (r: ModRow) => `${r.kind}-${r.id}`;

export default function CommentsScreen() {
  const [kind, setKind] = useState<Kind>("review");
  const [status, setStatus] = useState<ModStatus>("hold");
  const [page, setPage] = useState(1);
  // The page shown and which view it is of (kind/status/page): another view's rows are not shown while it loads.
  const [data, setData] = useState<{ key: string; rows: ModRow[]; pages: number } | null>(null);
  const viewKey = `${kind}/${status}/${page}`;
  const rows = data?.key === viewKey ? data.rows : null;
  const pages = data?.pages ?? 1;
  const setRows = (f: (rows: ModRow[]) => ModRow[]) => setData((d) => (d ? { ...d, rows: f(d.rows) } : d));
  const [counts, setCounts] = useState<Record<ModStatus, number> | null>(null);
  const [loadError, setLoadError] = useState<RestError | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [pending, setPending] = useState<Set<number>>(new Set());
  const [bulk, setBulk] = useState<ModAction | "">("");
  const [result, setResult] = useState<Result>(null);
  const [replying, setReplying] = useState<number | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const focusAfter = useRef<number | null>(null);

  /** Another kind, tab or page: nothing stays selected or open. */
  const leave = () => {
    setSelected(new Set());
    setReplying(null);
    setEditing(null);
  };
  const refreshCounts = useCallback(
    (k: Kind) =>
      loadCounts(k).then(
        (c) => setCounts(c),
        (e: RestError) => setLoadError(e),
      ),
    [],
  );

  useEffect(() => {
    let live = true;
    const key = `${kind}/${status}/${page}`;
    loadPage(kind, status, page, PER_PAGE).then(
      (p) => {
        if (!live) return;
        setData({ key, rows: p.rows, pages: Math.max(1, p.pages) });
        setLoadError(null);
      },
      (e: RestError) => {
        if (!live) return;
        setData({ key, rows: [], pages: 1 });
        setLoadError(e);
      },
    );
    return () => {
      live = false;
    };
  }, [kind, status, page]);
  useEffect(() => {
    void refreshCounts(kind);
  }, [kind, refreshCounts]);

  // After a row's action its buttons change: keep focus in the row (its first action), not on the page's body.
  useEffect(() => {
    if (focusAfter.current === null) return;
    const row = document.getElementById(`mod-row-${focusAfter.current}`);
    focusAfter.current = null;
    (row?.querySelector<HTMLElement>(".admin-mod-actions button:not([disabled])") ?? row)?.focus();
  });

  /** Applies `action` to `targets` at once, then asks the API; a refused row goes back as it was, with an alert. */
  async function act(action: ModAction, targets: ModRow[]) {
    if (!rows || targets.length === 0) return;
    const ids = new Set(targets.map((t) => t.id));
    const before = new Map(targets.map((t) => [t.id, t]));
    const next = optimisticStatus(action);
    setRows((cur) => cur.flatMap((r) => (ids.has(r.id) ? (next === null ? [] : [{ ...r, status: next }]) : [r])));
    setCounts((c) => {
      if (!c) return c;
      const out = { ...c };
      for (const t of targets) {
        out[t.status] = Math.max(0, out[t.status] - 1);
        if (next) out[next] += 1;
      }
      return out;
    });
    setPending((p) => new Set([...p, ...ids]));
    setSelected(new Set());
    if (targets.length === 1 && next !== null) focusAfter.current = targets[0]!.id;
    const settled = await Promise.allSettled(targets.map((t) => perform(t, action)));
    const failed: { row: ModRow; error: RestError }[] = [];
    const answered = new Map<number, ModRow | null>();
    settled.forEach((s, i) => {
      const t = targets[i]!;
      if (s.status === "fulfilled") answered.set(t.id, s.value);
      else failed.push({ row: t, error: s.reason as RestError });
    });
    // Reconcile: the server's row for each success, the row as it was for each refusal (a deleted one comes back).
    setRows((cur) => {
      const list = [...cur];
      const out: ModRow[] = [];
      for (const r of list) {
        if (answered.has(r.id)) {
          const a = answered.get(r.id);
          if (a) out.push(a);
        } else if (failed.some((f) => f.row.id === r.id)) out.push(before.get(r.id)!);
        else out.push(r);
      }
      for (const f of failed) if (!out.some((r) => r.id === f.row.id)) out.push(f.row);
      return out.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.id - a.id));
    });
    setPending((p) => new Set([...p].filter((id) => !ids.has(id))));
    const one = KIND_NAMES[kind].one;
    const done = targets.length - failed.length;
    if (failed.length) {
      const f = failed[0]!;
      setResult({
        status: "error",
        text:
          targets.length === 1
            ? `The ${one.toLowerCase()} by ${f.row.author} was not ${ACTION_DONE[action]}: ${f.error.message} It is back as it was.`
            : `${failed.length} of ${targets.length} were not ${ACTION_DONE[action]} (${f.error.message}); they are back as they were.`,
      });
    } else {
      setResult({
        status: "success",
        text:
          targets.length === 1
            ? `${one} by ${targets[0]!.author} ${ACTION_DONE[action]}.`
            : `${done} ${KIND_NAMES[kind].many.toLowerCase()} ${ACTION_DONE[action]}.`,
      });
    }
    void refreshCounts(kind);
  }

  async function sendReply(row: ModRow, text: string): Promise<boolean> {
    try {
      await replyTo(row, text);
      setResult({ status: "success", text: `Reply to ${row.author} posted.` });
      setReplying(null);
      void refreshCounts(kind);
      return true;
    } catch (e) {
      setResult({ status: "error", text: `The reply was not posted: ${(e as RestError).message}` });
      return false;
    }
  }

  async function saveText(row: ModRow, text: string): Promise<boolean> {
    const one = KIND_NAMES[row.kind].one;
    try {
      const saved = await editText(row, text);
      setRows((cur) => cur.map((r) => (r.id === row.id ? saved : r)));
      setResult({ status: "success", text: `${one} by ${row.author} updated.` });
      setEditing(null);
      focusAfter.current = row.id;
      return true;
    } catch (e) {
      setResult({ status: "error", text: `The ${one.toLowerCase()} was not updated: ${(e as RestError).message}` });
      return false;
    }
  }

  const bulkActions = ACTIONS_BY_STATUS[status];
  const chosen = (rows ?? []).filter((r) => selected.has(r.id) && !pending.has(r.id));
  const allChosen = rows !== null && rows.length > 0 && rows.every((r) => selected.has(r.id));

  return (
    <div className="admin-moderation">
      <SelectControl
        __next40pxDefaultSize
        __nextHasNoMarginBottom
        className="admin-mod-kind"
        label="Show"
        value={kind}
        options={[
          { label: "Product reviews", value: "review" },
          { label: "Post comments", value: "comment" },
        ]}
        onChange={(v) => {
          setKind(v as Kind);
          setPage(1);
          leave();
          setCounts(null);
          setResult(null);
        }}
      />
      <div role={result?.status === "error" ? "alert" : "status"} className="admin-mod-result">
        {result ? (
          <Notice status={result.status} isDismissible={false}>
            {result.text}
          </Notice>
        ) : null}
      </div>
      <TabPanel
        className="admin-status-tabs"
        initialTabName="hold"
        tabs={STATUSES.map((s) => ({ name: s, title: `${STATUS_LABELS[s]}${counts ? ` (${counts[s]})` : ""}` }))}
        onSelect={(name) => {
          setStatus(name as ModStatus);
          setPage(1);
          leave();
        }}
      >
        {() => (
          <div className="admin-mod-panel">
            {loadError ? (
              <Notice status="error" isDismissible={false}>
                {loadError.message}
              </Notice>
            ) : null}
            {rows === null ? (
              <p role="status">Loading {KIND_NAMES[kind].many.toLowerCase()}…</p>
            ) : rows.length === 0 ? (
              <p>
                No {STATUS_LABELS[status].toLowerCase()} {KIND_NAMES[kind].many.toLowerCase()}.
              </p>
            ) : (
              <>
                <div className="admin-mod-bulk">
                  <CheckboxControl
                    __nextHasNoMarginBottom
                    label="Select all on this page"
                    checked={allChosen}
                    onChange={(on) => setSelected(on ? new Set(rows.map((r) => r.id)) : new Set())}
                  />
                  <SelectControl
                    __next40pxDefaultSize
                    __nextHasNoMarginBottom
                    label="Bulk action"
                    value={bulk}
                    options={[{ label: "Choose an action", value: "" }, ...bulkActions.map((a) => ({ label: ACTION_LABELS[a], value: a }))]}
                    onChange={setBulk}
                  />
                  <Button
                    variant="secondary"
                    __next40pxDefaultSize
                    accessibleWhenDisabled
                    disabled={!bulk || chosen.length === 0}
                    onClick={() => {
                      if (!bulk) return;
                      const a = bulk;
                      void act(
                        a,
                        chosen.filter((r) => ACTIONS_BY_STATUS[r.status].includes(a)),
                      );
                      setBulk("");
                    }}
                  >
                    Apply to {chosen.length} selected
                  </Button>
                </div>
                <ul className="admin-mod-list">
                  {rows.map((r) => (
                    <ModItem
                      key={keyOf(r)}
                      row={r}
                      busy={pending.has(r.id)}
                      selected={selected.has(r.id)}
                      onSelect={(on) =>
                        setSelected((s) => {
                          const out = new Set(s);
                          if (on) out.add(r.id);
                          else out.delete(r.id);
                          return out;
                        })
                      }
                      onAction={(a) => void act(a, [r])}
                      replying={replying === r.id}
                      onReplyOpen={(open) => {
                        setReplying(open ? r.id : null);
                        if (open) setEditing(null);
                      }}
                      onReply={(text) => sendReply(r, text)}
                      editing={editing === r.id}
                      onEditOpen={(open) => {
                        setEditing(open ? r.id : null);
                        if (open) setReplying(null);
                      }}
                      onEdit={(text) => saveText(r, text)}
                    />
                  ))}
                </ul>
                {pages > 1 ? (
                  <nav className="admin-mod-pages" aria-label="Pages">
                    <Button
                      variant="secondary"
                      accessibleWhenDisabled
                      disabled={page <= 1}
                      onClick={() => {
                        leave();
                        setPage(page - 1);
                      }}
                    >
                      Previous page
                    </Button>
                    <span>
                      Page {page} of {pages}
                    </span>
                    <Button
                      variant="secondary"
                      accessibleWhenDisabled
                      disabled={page >= pages}
                      onClick={() => {
                        leave();
                        setPage(page + 1);
                      }}
                    >
                      Next page
                    </Button>
                  </nav>
                ) : null}
              </>
            )}
          </div>
        )}
      </TabPanel>
    </div>
  );
}

function ModItem(props: {
  row: ModRow;
  busy: boolean;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onAction: (a: ModAction) => void;
  replying: boolean;
  onReplyOpen: (open: boolean) => void;
  onReply: (text: string) => Promise<boolean>;
  editing: boolean;
  onEditOpen: (open: boolean) => void;
  onEdit: (text: string) => Promise<boolean>;
}) {
  const { row } = props;
  const [reply, setReply] = useState("");
  const [sending, setSending] = useState(false);
  const [draft, setDraft] = useState(row.text);
  const what = `${row.kind === "review" ? "review" : "comment"} by ${row.author}`;
  const headingId = `mod-row-${row.id}-by`;
  return (
    <li id={`mod-row-${row.id}`} className="admin-mod-item" tabIndex={-1} aria-busy={props.busy || undefined}>
      <div className="admin-mod-head">
        <input
          type="checkbox"
          className="admin-mod-check"
          aria-label={`Select the ${what}`}
          checked={props.selected}
          onChange={(e) => props.onSelect(e.currentTarget.checked)}
        />
        <div className="admin-mod-meta">
          <p id={headingId} className="admin-mod-author">
            <strong>{row.author}</strong> {row.email ? <a href={`mailto:${row.email}`}>{row.email}</a> : null}
          </p>
          <p>
            {row.kind === "comment" && row.onProduct ? "Reply to a review on " : "On "}
            <a href={row.targetUrl}>{row.targetName}</a> · <time dateTime={row.date}>{row.date.replace("T", " ").slice(0, 16)}</time>
            {row.rating !== null ? (
              <>
                {" · "}
                <span className="admin-mod-stars" aria-hidden="true">
                  {"★".repeat(row.rating)}
                  {"☆".repeat(5 - row.rating)}
                </span>{" "}
                <span>Rated {row.rating} out of 5</span>
              </>
            ) : null}
            {" · "}
            <span className={`admin-mod-status admin-mod-status-${row.status}`}>{STATUS_LABELS[row.status]}</span>
            {props.busy ? <span> (saving…)</span> : null}
          </p>
        </div>
      </div>
      <p className="admin-mod-text">{row.text}</p>
      <div className="admin-mod-actions" role="group" aria-label={`Actions for the ${what}`}>
        {ACTIONS_BY_STATUS[row.status].map((a) => (
          <Button
            key={a}
            size="compact"
            variant={a === "approve" ? "primary" : a === "delete" ? "secondary" : "tertiary"}
            isDestructive={a === "delete" || a === "spam"}
            accessibleWhenDisabled
            disabled={props.busy}
            onClick={() => props.onAction(a)}
          >
            {ACTION_LABELS[a]}
          </Button>
        ))}
        {row.status === "approved" || row.status === "hold" ? (
          <Button size="compact" variant="tertiary" aria-expanded={props.replying} disabled={props.busy} onClick={() => props.onReplyOpen(!props.replying)}>
            Reply
          </Button>
        ) : null}
        {row.status !== "trash" ? (
          <Button
            size="compact"
            variant="tertiary"
            aria-expanded={props.editing}
            disabled={props.busy}
            onClick={() => {
              setDraft(row.text);
              props.onEditOpen(!props.editing);
            }}
          >
            Edit
          </Button>
        ) : null}
      </div>
      {props.editing ? (
        <form
          className="admin-mod-reply"
          onSubmit={(e) => {
            e.preventDefault();
            if (!draft.trim() || sending) return;
            setSending(true);
            void props.onEdit(draft.trim()).then(() => setSending(false));
          }}
        >
          <TextareaControl __nextHasNoMarginBottom label={`Text of the ${what}`} value={draft} onChange={setDraft} rows={4} />
          <div className="admin-mod-reply-buttons">
            <Button type="submit" variant="primary" accessibleWhenDisabled disabled={sending || !draft.trim() || draft.trim() === row.text}>
              Save text
            </Button>
            <Button variant="tertiary" onClick={() => props.onEditOpen(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      {props.replying ? (
        <form
          className="admin-mod-reply"
          onSubmit={(e) => {
            e.preventDefault();
            if (!reply.trim()) return;
            setSending(true);
            void props.onReply(reply.trim()).then((ok) => {
              setSending(false);
              if (ok) setReply("");
            });
          }}
        >
          <TextareaControl __nextHasNoMarginBottom label={`Reply to ${row.author} as the shop`} value={reply} onChange={setReply} rows={3} />
          <div className="admin-mod-reply-buttons">
            <Button type="submit" variant="primary" accessibleWhenDisabled disabled={sending || !reply.trim()}>
              Post reply
            </Button>
            <Button variant="tertiary" onClick={() => props.onReplyOpen(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
    </li>
  );
}
