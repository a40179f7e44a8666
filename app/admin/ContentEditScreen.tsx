/**
 * Add / Edit page and post (docs/contract/admin.md 'Pages and posts'): title, address (slug), content (the rich-text
 * editor, RichTextField.tsx, decision 0049: HTML the API sanitises, docs/contract/rest/content.md 'Sanitising'), excerpt and status (Draft or Published),
 * through `wp/v2/pages|posts`. An edit is saved with `PUT` and the version read as `If-Match`, so a save over someone
 * else's is refused (412 `rest_post_changed`), never a silent overwrite; the API's refusals are shown at the field
 * they name; leaving with unsaved changes asks first; "View page" links the storefront while published.
 */
import { useEffect, useId, useMemo, useState, type FormEvent } from "react";
import { Button, Notice, SelectControl, Spinner, TextControl, TextareaControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { useUnsavedWarning } from "./use-unsaved-warning.ts";
import { refusedSave, useFocusFirstInvalid, SaveNotice, type SaveNote } from "./SaveNotice.tsx";
import { RichTextField } from "./RichTextField.tsx";
import { CONTENT_STATUS_LABELS, editUrl, restBase, type RestContent } from "./content-types.ts";
import "./content-screens.css";

interface Form {
  title: string;
  slug: string;
  content: string;
  excerpt: string;
  status: RestContent["status"];
}

const EMPTY: Form = { title: "", slug: "", content: "", excerpt: "", status: "draft" };
const formOf = (c: RestContent): Form => ({
  title: c.title.raw ?? c.title.rendered,
  slug: c.slug,
  content: c.content.raw ?? c.content.rendered,
  excerpt: c.excerpt.raw ?? c.excerpt.rendered,
  status: c.status,
});

function changes(before: Form, after: Form): Partial<Form> {
  const out: Partial<Form> = {};
  for (const key of Object.keys(after) as (keyof Form)[]) if (before[key] !== after[key]) (out as Record<string, string>)[key] = after[key];
  return out;
}

const LABELS: Record<string, string> = { title: "Title", slug: "Address (slug)", content: "Content", excerpt: "Excerpt", status: "Status" };
function fieldErrors(e: RestError): Record<string, string> {
  if (e.code === "empty_content") return { title: "Give it a title, some content or an excerpt." };
  return Object.fromEntries(
    Object.entries(e.data?.params ?? {})
      .filter(([field]) => field in LABELS)
      .map(([field, message]) => [field, message.replace(new RegExp(`^${field}\\b`), LABELS[field]!)]),
  );
}

type Load = { state: "loading" } | { state: "error"; error: RestError } | { state: "ready"; item: RestContent | null; version: string; saved: Form };

export default function ContentEditScreen({ kind, id }: { kind: "post" | "page"; id: number | null }) {
  const thing = kind === "page" ? "page" : "post";
  const Thing = kind === "page" ? "Page" : "Post";
  const [load, setLoad] = useState<Load>(id === null ? { state: "ready", item: null, version: "", saved: EMPTY } : { state: "loading" });
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const [notice, setNotice] = useState<SaveNote>(() =>
    new URLSearchParams(window.location.search).get("saved") === "created" ? { status: "success", text: `${Thing} created.` } : null,
  );
  const [saving, setSaving] = useState(false);
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const noticeId = useId();

  useEffect(() => {
    if (id === null) return;
    let live = true;
    getWithHeaders<RestContent>(`/wp/v2/${restBase(kind)}/${id}?context=edit`).then(
      ({ body, headers }) => {
        if (!live) return;
        const saved = formOf(body);
        setLoad({ state: "ready", item: body, version: headers.get("ETag") ?? "", saved });
        setForm(saved);
        setErrors({});
      },
      (error: RestError) => live && setLoad({ state: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [id, kind, reloads]);

  const dirty = useMemo(() => load.state === "ready" && !leaveTo && Object.keys(changes(load.saved, form)).length > 0, [load, form, leaveTo]);
  useUnsavedWarning(dirty);
  useEffect(() => {
    if (leaveTo) window.location.assign(leaveTo);
  }, [leaveTo]);

  if (load.state === "loading") {
    return (
      <p role="status">
        <Spinner /> Loading the {thing}…
      </p>
    );
  }
  if (load.state === "error") {
    return (
      <Notice status="error" isDismissible={false}>
        {load.error.code === "rest_post_invalid_id" ? `This ${thing} doesn’t exist. Perhaps it was deleted?` : load.error.message}
      </Notice>
    );
  }
  const f = form;
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm({ ...f, [key]: value });
    if (errors[key]) setErrors(({ [key]: _, ...rest }) => rest);
  };
  const err = (key: keyof Form) => (errors[key] ? { "aria-invalid": true as const } : {});
  const help = (key: keyof Form, text?: string) => (errors[key] ? <span className="admin-field-error">{errors[key]}</span> : text);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (load.state !== "ready" || saving) return;
    const patch: Record<string, string> = changes(load.saved, f);
    if (id !== null && !Object.keys(patch).length) {
      setNotice({ status: "warning", text: "Nothing to save: no field was changed." });
      return;
    }
    if (id === null) patch.status = f.status;
    setSaving(true);
    setNotice(null);
    try {
      if (id === null) {
        const { body } = await send<RestContent>(`/wp/v2/${restBase(kind)}`, "POST", patch);
        setLoad({ state: "ready", item: body, version: "", saved: formOf(body) });
        setLeaveTo(`${editUrl(kind, body.id)}?saved=created`);
        return;
      }
      const { body, headers } = await send<RestContent>(`/wp/v2/${restBase(kind)}/${id}`, "PUT", patch, { "If-Match": load.version });
      const saved = formOf(body);
      setLoad({ state: "ready", item: body, version: headers.get("ETag") ?? "", saved });
      setForm(saved);
      setErrors({});
      setNotice({
        status: "success",
        text:
          body.status === "publish" ? `${Thing} updated: it is published.` : `${Thing} updated: it is a ${CONTENT_STATUS_LABELS[body.status].toLowerCase()}.`,
      });
    } catch (e) {
      const refused = refusedSave(e as RestError, "rest_post_changed", thing, fieldErrors);
      if (refused.errors) {
        setErrors(refused.errors);
        if (Object.keys(refused.errors).length) focusFirstInvalid();
      }
      setNotice(refused.note);
    } finally {
      setSaving(false);
    }
  }

  const item = load.item;
  const statuses = (["draft", "publish"] as RestContent["status"][]).concat(item && !["draft", "publish"].includes(item.status) ? [item.status] : []);
  const address = kind === "page" ? `/${f.slug || "…"}/` : `/blog/${f.slug || "…"}/`;
  return (
    <form className="admin-product-edit admin-content-edit" onSubmit={save} noValidate aria-describedby={notice ? noticeId : undefined}>
      <SaveNotice
        id={noticeId}
        note={notice}
        reloadLabel={`Reload the ${thing} (your changes are discarded)`}
        onReload={() => {
          setLoad({ state: "loading" });
          setNotice(null);
          setReloads((n) => n + 1);
        }}
      />
      <div className="admin-edit-columns">
        <div className="admin-edit-main">
          <TextControl __next40pxDefaultSize label="Title" value={f.title} onChange={(v) => set("title", v)} help={help("title")} {...err("title")} />
          <TextControl
            __next40pxDefaultSize
            label="Address (slug)"
            value={f.slug}
            onChange={(v) => set("slug", v)}
            help={help("slug", id === null ? `Empty: made from the title. The ${thing} will be at ${address}` : `The ${thing} is at ${address}`)}
            {...err("slug")}
          />
          <RichTextField label="Content" value={f.content} onChange={(v) => set("content", v)} error={errors.content} />
          <TextareaControl
            __nextHasNoMarginBottom
            label="Excerpt"
            rows={3}
            value={f.excerpt}
            onChange={(v) => set("excerpt", v)}
            help={help("excerpt", "Plain text: the summary search engines and lists show.")}
            {...err("excerpt")}
          />
        </div>
        <div className="admin-edit-side">
          <fieldset className="admin-fieldset">
            <legend>Publish</legend>
            <SelectControl
              __next40pxDefaultSize
              __nextHasNoMarginBottom
              label="Status"
              value={f.status}
              options={statuses.map((s) => ({ value: s, label: CONTENT_STATUS_LABELS[s] }))}
              onChange={(v) => set("status", v as Form["status"])}
              help={help("status")}
              {...err("status")}
            />
            <p>
              <Button variant="primary" type="submit" isBusy={saving} aria-disabled={saving} __next40pxDefaultSize>
                {saving ? "Saving…" : id === null ? (f.status === "publish" ? "Publish" : "Save draft") : "Update"}
              </Button>
            </p>
            {dirty ? <p className="admin-hint">Unsaved changes.</p> : null}
            {item && item.status === "publish" ? (
              <p>
                <a href={item.link}>View {thing}</a>
              </p>
            ) : null}
          </fieldset>
          <p>
            <a href={`/wp-admin/${restBase(kind)}/`}>All {thing}s</a>
          </p>
        </div>
      </div>
    </form>
  );
}
