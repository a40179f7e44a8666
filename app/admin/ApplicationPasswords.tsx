/**
 * A staff user's application passwords (docs/contract/admin.md 'Application passwords', docs/contract/rest/auth.md):
 * `wp/v2/users/{id}/application-passwords` — the list (name, created, last used and from where), a new one (the
 * password is shown once, with a copy button: the server keeps only its hash) and revoking one.
 */
import { useEffect, useState, type FormEvent } from "react";
import { Button, Notice, TextControl } from "@wordpress/components";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { ResultNotice, type ActionResult } from "./Status.tsx";
import { utcDate, type RestAppPassword, type RestStaffUser } from "./staff-types.ts";

export function ApplicationPasswords({ user }: { user: RestStaffUser }) {
  const base = `/wp/v2/users/${user.id}/application-passwords`;
  const [items, setItems] = useState<RestAppPassword[] | null>(null);
  const [loadError, setLoadError] = useState<RestError | null>(null);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [created, setCreated] = useState<RestAppPassword | null>(null);
  const [copied, setCopied] = useState<string>("");
  const [result, setResult] = useState<ActionResult>(null);
  const [confirm, setConfirm] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    getWithHeaders<RestAppPassword[]>(base).then(
      ({ body }) => live && setItems(body),
      (e: RestError) => live && setLoadError(e),
    );
    return () => {
      live = false;
    };
  }, [base]);

  async function create(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setResult(null);
    setCopied("");
    try {
      const { body } = await send<RestAppPassword>(base, "POST", { name });
      setCreated(body);
      setItems((list) => [...(list ?? []), { ...body, password: undefined }]);
      setName("");
      setNameError(null);
    } catch (e) {
      const error = e as RestError;
      setNameError(error.data?.params?.name ?? error.message);
      document.getElementById("app-password-name")?.focus();
    } finally {
      setBusy(false);
    }
  }

  async function revoke(item: RestAppPassword) {
    if (busy) return;
    setBusy(true);
    try {
      await send(`${base}/${item.uuid}`, "DELETE", undefined);
      setItems((list) => (list ?? []).filter((i) => i.uuid !== item.uuid));
      if (created?.uuid === item.uuid) setCreated(null);
      setResult({ status: "success", text: `Application password “${item.name}” revoked: it no longer works.` });
    } catch (e) {
      setResult({ status: "error", text: `Not revoked: ${(e as RestError).message}` });
    } finally {
      setConfirm(null);
      setBusy(false);
    }
  }

  async function copy(password: string) {
    try {
      await navigator.clipboard.writeText(password);
      setCopied("Copied to the clipboard.");
    } catch {
      const field = document.getElementById("app-password-new") as HTMLInputElement | null;
      field?.select();
      setCopied("The browser did not allow copying: the password is selected, press Ctrl+C (⌘C).");
    }
  }

  return (
    <section className="admin-card" aria-labelledby="app-passwords">
      <h2 id="app-passwords">Application passwords</h2>
      <p>
        Let a program (an app, a script, an integration) use the shop’s REST API as {user.name || user.username}, without their own password. Each one can be
        revoked on its own.
      </p>
      {created?.password ? (
        <div className="admin-new-password" role="status">
          <Notice status="success" isDismissible={false}>
            <p>
              Your new password for <strong>{created.name}</strong> is below. <strong>Copy it now: you will not see it again.</strong>
            </p>
          </Notice>
          <label htmlFor="app-password-new" className="admin-preview-label">
            New application password for “{created.name}”
          </label>
          <div className="admin-copy-row">
            <input id="app-password-new" className="admin-password-output" readOnly value={created.password} onFocus={(e) => e.currentTarget.select()} />
            <Button variant="secondary" __next40pxDefaultSize onClick={() => copy(created.password!)}>
              Copy
            </Button>
          </div>
          <p className="admin-hint" aria-live="polite">
            {copied}
          </p>
          <p>
            <Button variant="link" onClick={() => setCreated(null)}>
              Done, hide it
            </Button>
          </p>
        </div>
      ) : null}
      <form className="admin-copy-row admin-app-password-new" onSubmit={create} noValidate>
        <TextControl
          __next40pxDefaultSize
          id="app-password-name"
          label="New application password name"
          help={nameError ? <span className="admin-field-error">{nameError}</span> : "What will use it, e.g. “Stock sync”."}
          aria-invalid={nameError ? true : undefined}
          value={name}
          onChange={(v) => {
            setName(v);
            setNameError(null);
          }}
        />
        <Button variant="secondary" type="submit" isBusy={busy} aria-disabled={busy} __next40pxDefaultSize>
          Add application password
        </Button>
      </form>
      <ResultNotice result={result} />
      {loadError ? (
        <Notice status="error" isDismissible={false}>
          {loadError.message}
        </Notice>
      ) : items === null ? (
        <p role="status">Loading the application passwords…</p>
      ) : items.length === 0 ? (
        <p>No application passwords yet.</p>
      ) : (
        <table className="admin-table admin-app-passwords">
          <caption className="screen-reader-text">Application passwords of {user.name || user.username}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Last IP</th>
              <th scope="col">
                <span className="screen-reader-text">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.uuid}>
                <th scope="row">{item.name}</th>
                <td data-label="Created">{utcDate(item.created)}</td>
                <td data-label="Last used">{utcDate(item.last_used)}</td>
                <td data-label="Last IP">{item.last_ip ?? "–"}</td>
                <td>
                  {confirm === item.uuid ? (
                    <div className="admin-confirm" role="group" aria-label={`Confirm revoking ${item.name}`}>
                      <p>Revoke “{item.name}”? Whatever uses it stops working at once.</p>
                      <div className="admin-buttons">
                        <Button variant="primary" isDestructive isBusy={busy} onClick={() => revoke(item)} __next40pxDefaultSize>
                          Revoke
                        </Button>
                        <Button variant="tertiary" onClick={() => setConfirm(null)} __next40pxDefaultSize>
                          Cancel
                        </Button>
                      </div>
                    </div>
                  ) : (
                    <Button variant="secondary" isDestructive onClick={() => setConfirm(item.uuid)} aria-label={`Revoke “${item.name}”`} __next40pxDefaultSize>
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
