/**
 * Store notice & Coming soon (docs/contract/admin.md 'Store notice & Coming soon'): the two storefront banners from
 * `shop/v1/settings/store-notice` and `shop/v1/settings/coming-soon` (docs/contract/rest/shop-v1.md 'Settings'),
 * each with its switch, its text and a preview drawn with the storefront's own classes. A save sends only the
 * changed section; if someone saved it since this screen read it, the save is refused here ("changed since you
 * opened it") instead of overwriting theirs.
 */
import { useEffect, useId, useMemo, useState, type FormEvent } from "react";
import { Button, CheckboxControl, Notice, Spinner, TextareaControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { useUnsavedWarning } from "./use-unsaved-warning.ts";
import { SaveNotice, useFocusFirstInvalid, type SaveNote } from "./SaveNotice.tsx";

interface Settings {
  notice: { enabled: boolean; text: string };
  soon: { enabled: boolean; text: string };
}
const NOTICE = "/shop/v1/settings/store-notice";
const SOON = "/shop/v1/settings/coming-soon";

async function read(): Promise<Settings> {
  const [n, s] = await Promise.all([getWithHeaders<{ enabled: boolean; text: string }>(NOTICE), getWithHeaders<{ enabled: boolean; text: string }>(SOON)]);
  return { notice: { enabled: n.body.enabled, text: n.body.text }, soon: { enabled: s.body.enabled, text: s.body.text } };
}
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const LABELS: Record<string, string> = { text: "Text", enabled: "Enabled" };

export default function StoreNoticeScreen() {
  const [saved, setSaved] = useState<Settings | null>(null);
  const [form, setForm] = useState<Settings | null>(null);
  const [loadError, setLoadError] = useState<RestError | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<SaveNote>(null);
  const [saving, setSaving] = useState(false);
  const [reloads, setReloads] = useState(0);
  const noticeId = useId();

  useEffect(() => {
    let live = true;
    read().then(
      (s) => {
        if (!live) return;
        setSaved(s);
        setForm(s);
        setErrors({});
      },
      (e: RestError) => live && setLoadError(e),
    );
    return () => {
      live = false;
    };
  }, [reloads]);
  const dirty = useMemo(() => saved !== null && form !== null && !same(saved, form), [saved, form]);
  useUnsavedWarning(dirty);
  const focusInvalid = useFocusFirstInvalid();

  if (loadError) {
    return (
      <Notice status="error" isDismissible={false}>
        {loadError.message}
      </Notice>
    );
  }
  if (!saved || !form) {
    return (
      <p role="status">
        <Spinner /> Loading the settings…
      </p>
    );
  }
  const f = form;
  const setPart = (part: keyof Settings, patch: Partial<Settings[keyof Settings]>) => {
    setForm({ ...f, [part]: { ...f[part], ...patch } });
    if (errors[`${part}.text`]) setErrors(({ [`${part}.text`]: _, ...rest }) => rest);
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!saved || saving) return;
    if (!dirty) {
      setNotice({ status: "warning", text: "Nothing to save: no field was changed." });
      return;
    }
    setSaving(true);
    setNotice(null);
    try {
      // The settings routes keep no version: compare with what is stored now before writing over it.
      const current = await read();
      const changedParts = (["notice", "soon"] as const).filter((p) => !same(saved[p], f[p]));
      if (changedParts.some((p) => !same(current[p], saved[p]))) {
        setNotice({
          status: "error",
          text: "These settings were changed since you opened them. Reload them to see the changes, then make yours again.",
          conflict: true,
        });
        return;
      }
      const byField: Record<string, string> = {};
      for (const part of changedParts) {
        try {
          await send(part === "notice" ? NOTICE : SOON, "PUT", f[part]);
        } catch (e) {
          const error = e as RestError;
          const params = error.data?.params ?? {};
          if (!Object.keys(params).length) throw error;
          for (const [field, message] of Object.entries(params)) byField[`${part}.${field}`] = message.replace(/\b(text|enabled)\b/, (w) => LABELS[w] ?? w);
        }
      }
      const now = await read();
      setSaved(now);
      setErrors(byField);
      if (Object.keys(byField).length) {
        setForm({ notice: byField["notice.text"] ? f.notice : now.notice, soon: byField["soon.text"] ? f.soon : now.soon });
        setNotice({ status: "error", text: "Not everything was saved: a field needs correcting." });
        focusInvalid();
      } else {
        setForm(now);
        setNotice({ status: "success", text: "Settings saved. The storefront shows them from the next page." });
      }
    } catch (e) {
      setNotice({ status: "error", text: (e as RestError).message });
    } finally {
      setSaving(false);
    }
  }
  const err = (key: string) => (errors[key] ? { help: <span className="admin-field-error">{errors[key]}</span>, "aria-invalid": true as const } : {});

  return (
    <form className="admin-store-notice" onSubmit={save} noValidate aria-describedby={notice ? noticeId : undefined}>
      <SaveNotice
        id={noticeId}
        note={notice}
        reloadLabel="Reload the settings (your changes are discarded)"
        onReload={() => {
          setSaved(null);
          setNotice(null);
          setReloads((n) => n + 1);
        }}
      />
      <fieldset className="admin-fieldset">
        <legend>Store notice</legend>
        <CheckboxControl
          label="Show the store notice"
          help="A line across the top of every storefront page, which visitors can dismiss."
          checked={f.notice.enabled}
          onChange={(enabled) => setPart("notice", { enabled })}
        />
        <TextareaControl label="Store notice text" rows={3} value={f.notice.text} onChange={(text) => setPart("notice", { text })} {...err("notice.text")} />
        <figure className="admin-preview">
          <figcaption className="admin-preview-label">Preview{f.notice.enabled ? "" : " (not shown while the notice is off)"}</figcaption>
          <p className="admin-preview-notice">
            {f.notice.text || "(empty)"} <span className="admin-preview-dismiss">Dismiss</span>
          </p>
        </figure>
      </fieldset>
      <fieldset className="admin-fieldset">
        <legend>Coming soon</legend>
        <CheckboxControl
          label="Show the coming-soon banner"
          help="A banner in the footer for signed-in visitors, saying the shop is not open to everyone yet."
          checked={f.soon.enabled}
          onChange={(enabled) => setPart("soon", { enabled })}
        />
        <TextareaControl label="Coming-soon banner text" rows={2} value={f.soon.text} onChange={(text) => setPart("soon", { text })} {...err("soon.text")} />
        <figure className="admin-preview">
          <figcaption className="admin-preview-label">Preview{f.soon.enabled ? "" : " (not shown while the banner is off)"}</figcaption>
          <p className="admin-preview-soon">{f.soon.text || "(empty)"}</p>
        </figure>
      </fieldset>
      <p>
        <Button variant="primary" type="submit" isBusy={saving} aria-disabled={saving} __next40pxDefaultSize>
          {saving ? "Saving…" : "Save changes"}
        </Button>
      </p>
      {dirty ? <p className="admin-hint">Unsaved changes.</p> : null}
    </form>
  );
}
