/**
 * Moving in (docs/contract/admin.md 'Import and export', decision 0039): Products → Import (a WooCommerce product
 * CSV: preview with every row's outcome and the refused rows' reasons, then Import), Products → Export, and the
 * "Export CSV" buttons of Orders and Customers. Everything goes through `shop/v1/product-import` and
 * `shop/v1/exports/*` with api-fetch.
 */
import { useId, useRef, useState } from "react";
import apiFetch from "@wordpress/api-fetch";
import { Button, Notice } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "./import-export.css";
import { restErrorOf, type RestError } from "./api.ts";

/** The server's own limit is the request body's (about 1 MB, docs/contract/rest/shop-v1.md): said before sending. */
const MAX_FILE_BYTES = 950_000;

interface RowResult {
  row: number;
  kind: "product" | "variation";
  name: string;
  sku: string;
  action: "create" | "update" | "refused";
  id?: number;
  message?: string;
  notes?: string[];
}

interface ImportAnswer {
  mode: "preview" | "import";
  summary: { rows: number; create: number; update: number; refused: number };
  ignored_columns: string[];
  rows: RowResult[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function summaryText(a: ImportAnswer): string {
  const { create, update, refused } = a.summary;
  if (a.mode === "preview")
    return `Preview of ${plural(a.summary.rows, "row")}: ${create} to create, ${update} to update, ${refused} refused. Nothing has been imported yet.`;
  return `Import finished: ${plural(create, "product or variation", "products and variations")} created, ${update} updated, ${plural(refused, "row")} refused.`;
}

const ACTION_LABEL = {
  preview: { create: "Create", update: "Update", refused: "Refused" },
  import: { create: "Created", update: "Updated", refused: "Refused" },
} as const;

export function ProductImportScreen() {
  const inputId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  const [error, setError] = useState<RestError | null>(null);
  const [busy, setBusy] = useState<"preview" | "import" | null>(null);
  const [status, setStatus] = useState("");

  async function run(mode: "preview" | "import", text: string) {
    setBusy(mode);
    setError(null);
    setStatus(mode === "preview" ? "Checking every row…" : "Importing…");
    try {
      const a = (await apiFetch({ path: "/shop/v1/product-import", method: "POST", data: { csv: text, mode } })) as ImportAnswer;
      setAnswer(a);
      setStatus(summaryText(a));
    } catch (thrown) {
      const e = await restErrorOf(thrown);
      setError(e);
      setStatus("");
    } finally {
      setBusy(null);
    }
  }

  async function choose(list: FileList | null) {
    const chosen = list?.[0];
    setAnswer(null);
    setError(null);
    setFile(null);
    if (!chosen) return;
    if (chosen.size > MAX_FILE_BYTES) {
      setError({ code: "too_large", message: `${chosen.name} is larger than 950 KB. Split it into smaller files and import them one after the other.` });
      return;
    }
    const text = await chosen.text();
    setFile({ name: chosen.name, text });
    await run("preview", text);
  }

  const refused = answer?.rows.filter((r) => r.action === "refused") ?? [];
  const importable = answer ? answer.summary.create + answer.summary.update : 0;

  return (
    <div className="admin-import">
      <p>
        Choose a product CSV file as WooCommerce exports it (Products → Export in WooCommerce). Every row is checked first and nothing is written until you
        press Import. Rows are matched by SKU, so importing the same file again updates the products instead of adding them twice. Images are downloaded from
        their addresses when you import.
      </p>
      <div className="admin-import-picker">
        <label htmlFor={inputId}>CSV file</label>
        <input id={inputId} ref={fileRef} type="file" accept=".csv,text/csv" disabled={busy !== null} onChange={(e) => void choose(e.currentTarget.files)} />
      </div>
      <p className="admin-import-status" role="status" aria-live="polite">
        {status}
      </p>
      {error ? (
        <Notice status="error" isDismissible={false}>
          <span role="alert">{error.message}</span>
        </Notice>
      ) : null}
      {answer ? (
        <>
          {answer.ignored_columns.length ? (
            <p className="admin-import-ignored">Columns this shop does not import (left out): {answer.ignored_columns.join(", ")}.</p>
          ) : null}
          {refused.length ? (
            <section aria-labelledby={`${inputId}-refused`} className="admin-import-refused">
              <h2 id={`${inputId}-refused`}>Refused rows ({refused.length})</h2>
              <p>
                These rows {answer.mode === "preview" ? "will not be" : "were not"} imported; nothing of them is changed. Correct them in the file and import it
                again.
              </p>
              <ul>
                {refused.map((r) => (
                  <li key={r.row}>
                    <strong>Row {r.row}</strong>
                    {r.name || r.sku ? ` (${r.name || r.sku})` : ""}: {r.message}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {answer.mode === "preview" && file ? (
            <p className="admin-import-actions">
              <Button
                variant="primary"
                __next40pxDefaultSize
                isBusy={busy === "import"}
                disabled={busy !== null || importable === 0}
                onClick={() => void run("import", file.text)}
              >
                {importable ? `Import ${plural(importable, "row")}` : "Nothing to import"}
              </Button>
            </p>
          ) : null}
          {answer.mode === "import" ? (
            <p className="admin-import-actions">
              <a href="/wp-admin/products/">Go to the products</a>
            </p>
          ) : null}
          {/* A region that scrolls sideways on a narrow screen must take the keyboard's focus to be scrolled (axe: scrollable-region-focusable). */}
          {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
          <div className="admin-import-table-wrap" tabIndex={0} role="region" aria-label={answer.mode === "preview" ? "Preview of the rows" : "Rows imported"}>
            <table className="widefat admin-import-table">
              <caption className="screen-reader-text">{summaryText(answer)}</caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Name</th>
                  <th scope="col">SKU</th>
                  <th scope="col">Outcome</th>
                </tr>
              </thead>
              <tbody>
                {answer.rows.map((r) => (
                  <tr key={r.row} className={r.action === "refused" ? "is-refused" : undefined}>
                    <td>{r.row}</td>
                    <td>{r.kind === "variation" ? "Variation" : "Product"}</td>
                    <td>
                      {r.id && answer.mode === "import" && r.kind === "product" ? (
                        <a href={`/wp-admin/edit/product/${r.id}/`}>{r.name || r.sku}</a>
                      ) : (
                        r.name || "–"
                      )}
                    </td>
                    <td>{r.sku || "–"}</td>
                    <td>
                      {ACTION_LABEL[answer.mode][r.action]}
                      {r.message ? `: ${r.message}` : ""}
                      {r.notes?.length ? <span className="admin-import-note"> {r.notes.join(" ")}</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </div>
  );
}

/** Downloads a CSV export (api-fetch with the nonce, then a link to the file the browser saves). */
export function ExportCsvButton({ path, label, describedBy }: { path: string; label: string; describedBy?: string }) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  async function download() {
    setBusy(true);
    setMessage(null);
    try {
      const res = (await apiFetch({ path, parse: false })) as Response;
      const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? "export.csv";
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setMessage({ ok: true, text: `Downloaded ${name}.` });
    } catch (thrown) {
      setMessage({ ok: false, text: (await restErrorOf(thrown)).message });
    } finally {
      setBusy(false);
    }
  }
  return (
    <span className="admin-export">
      <Button variant="secondary" __next40pxDefaultSize isBusy={busy} disabled={busy} onClick={() => void download()} aria-describedby={describedBy}>
        {label}
      </Button>
      <span className={message && !message.ok ? "admin-field-error" : "admin-export-status"} role="status">
        {message?.text ?? ""}
      </span>
    </span>
  );
}

export function ProductExportScreen() {
  return (
    <div className="admin-import">
      <p id="product-export-help">
        Every product (drafts and private ones too) with its variations, attributes, categories, tags and image addresses, in WooCommerce&rsquo;s product CSV
        format: WooCommerce&rsquo;s importer and this shop&rsquo;s Import read it.
      </p>
      <ExportCsvButton path="/shop/v1/exports/products" label="Download products CSV" describedBy="product-export-help" />
    </div>
  );
}
