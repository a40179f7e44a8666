/**
 * One section of `shop/v1/settings/{section}` in a Settings tab (docs/contract/admin.md 'Settings'): read with its
 * version (`ETag`), edited in a form, saved with only the changed fields and `If-Match`, so a second admin's stale
 * save is refused by the server (412, "changed since you opened it") instead of overwriting. The API's refusals
 * (`rest_invalid_param`'s `data.params`, nested ones by their path, `referrals[1].host`) are shown at their field.
 */
import { useCallback, useEffect, useMemo, useState, type FormEvent, type ReactNode } from "react";
import { Button, Notice, Spinner } from "@wordpress/components";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { SaveNotice, useFocusFirstInvalid, type SaveNote } from "./SaveNotice.tsx";

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * `data.params` by field path: each message starts with the path it is about (`referrals[1].host a host name like
 * example.com`, `lifetimeMonths Too big: …`), which names the input; the rest is shown there.
 */
export function errorsByPath(error: RestError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [param, message] of Object.entries(error.data?.params ?? {})) {
    const space = message.indexOf(" ");
    const head = space > 0 ? message.slice(0, space) : param;
    const path = head === param || head.startsWith(`${param}.`) || head.startsWith(`${param}[`) ? head : param;
    const text = path === head ? message.slice(space + 1) : message;
    out[path] ??= text.charAt(0).toUpperCase() + text.slice(1);
  }
  return out;
}

export interface SettingsSection<T> {
  form: T;
  set: <K extends keyof T>(key: K, value: T[K]) => void;
  dirty: boolean;
  /** Props marking an input invalid with the API's message for `path`, or none. */
  err: (path: string) => { help?: ReactNode; "aria-invalid"?: true };
}

/** Loads, edits and saves one section; renders `children(section)` inside its own form with a Save button. */
export function SectionForm<T extends Record<string, unknown>>({
  section,
  legend,
  onDirty,
  prepare = (v) => v,
  onSaved,
  children,
}: {
  section: string;
  legend: string;
  onDirty?: (dirty: boolean) => void;
  /** The body to send from the form (e.g. empty optional fields left out). */
  prepare?: (form: T) => T;
  /** After a save the server took, with the values in effect. */
  onSaved?: (values: T) => void;
  children: (s: SettingsSection<T>) => ReactNode;
}) {
  const path = `/shop/v1/settings/${section}`;
  const [saved, setSaved] = useState<{ values: T; etag: string } | null>(null);
  const [form, setForm] = useState<T | null>(null);
  const [loadError, setLoadError] = useState<RestError | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [note, setNote] = useState<SaveNote>(null);
  const [saving, setSaving] = useState(false);
  const [reloads, setReloads] = useState(0);
  const focusFirstInvalid = useFocusFirstInvalid();
  const noteId = `settings-${section}-note`;

  useEffect(() => {
    let live = true;
    getWithHeaders<T>(path).then(
      ({ body, headers }) => {
        if (!live) return;
        setSaved({ values: body, etag: headers.get("ETag") ?? "" });
        setForm(body);
        setErrors({});
      },
      (e: RestError) => live && setLoadError(e),
    );
    return () => {
      live = false;
    };
  }, [path, reloads]);

  const dirty = useMemo(() => saved !== null && form !== null && !same(prepare(saved.values), prepare(form)), [saved, form, prepare]);
  useEffect(() => onDirty?.(dirty), [dirty, onDirty]);

  const set = useCallback(<K extends keyof T>(key: K, value: T[K]) => {
    setForm((f) => (f ? { ...f, [key]: value } : f));
    // An edited field's refusal is gone; its rows' too (`referrals[0].host` under `referrals`).
    setErrors((all) =>
      Object.fromEntries(Object.entries(all).filter(([p]) => p !== key && !p.startsWith(`${String(key)}[`) && !p.startsWith(`${String(key)}.`))),
    );
  }, []);

  if (loadError)
    return (
      <Notice status="error" isDismissible={false}>
        {loadError.message}
      </Notice>
    );
  if (!saved || !form)
    return (
      <p role="status">
        <Spinner /> Loading the {legend.toLowerCase()} settings…
      </p>
    );

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!saved || !form || saving) return;
    if (!dirty) {
      setNote({ status: "warning", text: "Nothing to save: no field was changed." });
      return;
    }
    const before = prepare(saved.values);
    const after = prepare(form);
    const changed = Object.fromEntries(Object.entries(after).filter(([k, v]) => !same(before[k], v)));
    setSaving(true);
    setNote(null);
    try {
      const { body, headers } = await send<T>(path, "PUT", changed, saved.etag ? { "If-Match": saved.etag } : {});
      setSaved({ values: body, etag: headers.get("ETag") ?? "" });
      setForm(body);
      setErrors({});
      setNote({ status: "success", text: "Settings saved. The storefront uses them from the next page." });
      onSaved?.(body);
    } catch (e) {
      const error = e as RestError;
      if (error.code === "rest_setting_changed") {
        setNote({ status: "error", text: error.message, conflict: true });
      } else {
        const byPath = errorsByPath(error);
        setErrors(byPath);
        const named = Object.keys(byPath).length;
        setNote({ status: "error", text: named ? `Not saved: ${named === 1 ? "a field needs" : "some fields need"} correcting.` : error.message });
        if (named) focusFirstInvalid();
      }
    } finally {
      setSaving(false);
    }
  }

  const err = (p: string) => (errors[p] ? { help: <span className="admin-field-error">{errors[p]}</span>, "aria-invalid": true as const } : {});
  const headingId = `settings-${section}-legend`;
  return (
    <form className="admin-settings-section" onSubmit={save} noValidate aria-labelledby={headingId}>
      <h2 id={headingId}>{legend}</h2>
      <SaveNotice
        id={noteId}
        note={note}
        reloadLabel="Reload the settings (your changes are discarded)"
        onReload={() => {
          setSaved(null);
          setNote(null);
          setReloads((n) => n + 1);
        }}
      />
      {children({ form, set, dirty, err })}
      <p className="admin-settings-actions">
        <Button variant="primary" type="submit" isBusy={saving} aria-disabled={saving} __next40pxDefaultSize>
          {saving ? "Saving…" : `Save ${legend.toLowerCase()} settings`}
        </Button>
        {dirty ? <span className="admin-hint"> Unsaved changes.</span> : null}
      </p>
    </form>
  );
}
