/**
 * An attribute's terms and their swatches (docs/contract/admin.md 'Attribute terms'): `GET
 * wc/v3/products/attributes/{id}` and `…/terms`; each term's name and swatch settings — colour, image, label — saved
 * with `PUT …/terms/{term}` (`swatch: {color, image: {id} | null, label}`), "Add term" (`POST`) and "Delete" after a
 * confirmation. The product page draws the swatch from the next request (docs/contract/rest/taxonomies.md).
 */
import { useEffect, useState } from "react";
import { Button, FormFileUpload, TextControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "./admin-screens.css";
import { getWithHeaders, send, uploadMedia, type RestError } from "./api.ts";
import { Loading, LoadError, ResultNotice, type ActionResult } from "./Status.tsx";
import { useFocusFirstInvalid } from "./SaveNotice.tsx";
import { useUnsavedWarning } from "./use-unsaved-warning.ts";
import type { RestAttribute } from "./AttributesScreen.tsx";

interface RestTerm {
  id: number;
  name: string;
  slug: string;
  count: number;
  swatch: { color: string | null; image: { id: number; src: string; alt: string } | null; label: string | null };
}

type Load = { state: "loading" } | { state: "error"; error: RestError } | { state: "ready"; attribute: RestAttribute; terms: RestTerm[] };
type Draft = { name: string; color: string; label: string; image: RestTerm["swatch"]["image"] };

const HEX = /^#[0-9a-fA-F]{6}$/;
const draftOf = (t: RestTerm): Draft => ({ name: t.name, color: t.swatch.color ?? "", label: t.swatch.label ?? "", image: t.swatch.image });

export default function AttributeTermsScreen({ id }: { id: number }) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [reloads, setReloads] = useState(0);
  const [result, setResult] = useState<ActionResult>(null);
  const [editing, setEditing] = useState<{ term: RestTerm; draft: Draft; errors: Record<string, string> } | null>(null);
  const [newName, setNewName] = useState("");
  const [newError, setNewError] = useState("");
  const [deleting, setDeleting] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const focusInvalid = useFocusFirstInvalid();
  const dirty = editing !== null && JSON.stringify(editing.draft) !== JSON.stringify(draftOf(editing.term));
  useUnsavedWarning(dirty);

  useEffect(() => {
    let live = true;
    Promise.all([
      getWithHeaders<RestAttribute>(`/wc/v3/products/attributes/${id}`),
      getWithHeaders<RestTerm[]>(`/wc/v3/products/attributes/${id}/terms?per_page=100&orderby=name`),
    ]).then(
      ([attribute, terms]) => live && setLoad({ state: "ready", attribute: attribute.body, terms: terms.body }),
      (error: RestError) => live && setLoad({ state: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [id, reloads]);

  if (load.state === "loading") return <Loading what="the attribute" />;
  if (load.state === "error") return <LoadError error={load.error} />;
  const { attribute, terms } = load;
  const base = `/wc/v3/products/attributes/${id}/terms`;

  async function run(action: () => Promise<string>, failed: string): Promise<boolean> {
    setBusy(true);
    setResult(null);
    try {
      setResult({ status: "success", text: await action() });
      setReloads((n) => n + 1);
      return true;
    } catch (e) {
      const error = e as RestError;
      setResult({ status: "error", text: `${failed}: ${error.message}` });
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function save() {
    if (!editing || busy) return;
    const { term, draft } = editing;
    const errors: Record<string, string> = {};
    if (!draft.name.trim()) errors.name = "A term needs a name.";
    if (draft.color && !HEX.test(draft.color)) errors.color = "A colour such as #b91c1c (or empty for none).";
    if (draft.label.length > 60) errors.label = "At most 60 characters.";
    if (Object.keys(errors).length) {
      setEditing({ ...editing, errors });
      focusInvalid();
      return;
    }
    const swatch = { color: draft.color || null, label: draft.label.trim() || null, image: draft.image ? { id: draft.image.id } : null };
    const ok = await run(async () => {
      try {
        await send(`${base}/${term.id}`, "PUT", { name: draft.name.trim(), swatch });
      } catch (e) {
        const params = (e as RestError).data?.params ?? {};
        const named = Object.fromEntries(Object.entries(params).map(([k, v]) => [k.replace(/^swatch\./, ""), v]));
        if (Object.keys(named).length) {
          setEditing({ ...editing, errors: named });
          focusInvalid();
        }
        throw e;
      }
      return `“${draft.name.trim()}” saved: the product page shows its swatch now.`;
    }, "The term was not saved");
    if (ok) setEditing(null);
  }

  async function upload(file: File) {
    if (!editing) return;
    setBusy(true);
    try {
      const media = await uploadMedia(file);
      setEditing((e) => e && { ...e, draft: { ...e.draft, image: { id: media.id, src: media.source_url, alt: media.alt_text } } });
    } catch (e) {
      setResult({ status: "error", text: `The image was not uploaded: ${(e as RestError).message}` });
    } finally {
      setBusy(false);
    }
  }

  async function add() {
    if (busy) return;
    if (!newName.trim()) {
      setNewError("Give the term a name, such as Red or XL.");
      focusInvalid();
      return;
    }
    const ok = await run(async () => {
      try {
        await send(base, "POST", { name: newName.trim() });
      } catch (e) {
        setNewError((e as RestError).message);
        focusInvalid();
        throw e;
      }
      return `“${newName.trim()}” added to ${attribute.name}.`;
    }, "The term was not added");
    if (ok) {
      setNewName("");
      setNewError("");
    }
  }

  const setDraft = (patch: Partial<Draft>, field: string) =>
    setEditing((e) => e && { ...e, draft: { ...e.draft, ...patch }, errors: Object.fromEntries(Object.entries(e.errors).filter(([k]) => k !== field)) });

  return (
    <div className="admin-attribute-screen">
      <p>
        <a href="/wp-admin/products/attributes/">← All attributes</a>
      </p>
      <ResultNotice result={result} />
      <section className="admin-card" aria-labelledby="terms-list">
        <h2 id="terms-list">
          {attribute.name} ({attribute.slug})
        </h2>
        {terms.length === 0 ? <p>No terms yet: add the first below.</p> : null}
        <ul className="admin-terms">
          {terms.map((t) => (
            <li key={t.id} className="admin-term">
              {t.swatch.color || t.swatch.image ? (
                <span className="admin-term-swatch" aria-hidden="true" style={{ background: t.swatch.color ?? undefined }}>
                  {t.swatch.image ? <img src={t.swatch.image.src} alt="" width={32} height={32} /> : null}
                </span>
              ) : (
                <span className="admin-term-swatch admin-term-swatch--label" aria-hidden="true">
                  {t.swatch.label ?? t.name}
                </span>
              )}
              <span className="admin-term-name">
                {t.name}
                <span className="admin-hint">
                  {" "}
                  · {t.slug}
                  {t.swatch.label ? ` · label “${t.swatch.label}”` : ""}
                  {t.swatch.color ? ` · ${t.swatch.color}` : ""} · {t.count} {t.count === 1 ? "product" : "products"}
                </span>
              </span>
              {editing?.term.id === t.id ? null : (
                <span className="admin-buttons">
                  <Button
                    variant="secondary"
                    onClick={() => setEditing({ term: t, draft: draftOf(t), errors: {} })}
                    aria-label={`Edit ${t.name}`}
                    __next40pxDefaultSize
                  >
                    Edit
                  </Button>
                  {deleting === t.id ? (
                    <>
                      <Button
                        variant="primary"
                        isDestructive
                        isBusy={busy}
                        aria-disabled={busy}
                        onClick={() =>
                          void run(
                            async () => (await send(`${base}/${t.id}?force=true`, "DELETE", undefined), `“${t.name}” deleted.`),
                            "The term was not deleted",
                          )
                        }
                        __next40pxDefaultSize
                      >
                        Delete “{t.name}”
                      </Button>
                      <Button variant="tertiary" onClick={() => setDeleting(null)} __next40pxDefaultSize>
                        Keep it
                      </Button>
                    </>
                  ) : (
                    <Button variant="link" isDestructive onClick={() => setDeleting(t.id)} aria-label={`Delete ${t.name}`}>
                      Delete
                    </Button>
                  )}
                </span>
              )}
              {editing?.term.id === t.id ? (
                <fieldset className="admin-fieldset admin-term-edit">
                  <legend>Edit {t.name}</legend>
                  <TextControl
                    __next40pxDefaultSize
                    label="Name"
                    value={editing.draft.name}
                    onChange={(name) => setDraft({ name }, "name")}
                    aria-invalid={Boolean(editing.errors.name)}
                    help={editing.errors.name ? <span className="admin-field-error">{editing.errors.name}</span> : undefined}
                  />
                  <div className="admin-row">
                    <TextControl
                      __next40pxDefaultSize
                      label="Swatch colour"
                      value={editing.draft.color}
                      placeholder="#b91c1c"
                      onChange={(color) => setDraft({ color: color.trim() }, "color")}
                      aria-invalid={Boolean(editing.errors.color)}
                      help={editing.errors.color ? <span className="admin-field-error">{editing.errors.color}</span> : "A hex colour; empty for none."}
                    />
                    <label className="admin-color-pick">
                      <span>Pick</span>
                      <input
                        type="color"
                        value={HEX.test(editing.draft.color) ? editing.draft.color : "#000000"}
                        onChange={(e) => setDraft({ color: e.target.value }, "color")}
                        aria-label="Pick the swatch colour"
                      />
                    </label>
                  </div>
                  <TextControl
                    __next40pxDefaultSize
                    label="Swatch label"
                    value={editing.draft.label}
                    onChange={(label) => setDraft({ label }, "label")}
                    aria-invalid={Boolean(editing.errors.label)}
                    help={
                      editing.errors.label ? (
                        <span className="admin-field-error">{editing.errors.label}</span>
                      ) : (
                        "Short text label swatches show instead of the name."
                      )
                    }
                  />
                  <div className="admin-term-image">
                    <span className="admin-label">Swatch image</span>
                    {editing.draft.image ? (
                      <>
                        <img src={editing.draft.image.src} alt={`Swatch of ${t.name}`} width={48} height={48} />
                        <Button variant="link" isDestructive onClick={() => setDraft({ image: null }, "image")}>
                          Remove image
                        </Button>
                      </>
                    ) : (
                      <FormFileUpload
                        accept="image/png,image/jpeg,image/webp,image/gif"
                        onChange={(e) => {
                          const file = e.currentTarget.files?.[0];
                          if (file) void upload(file);
                        }}
                        render={({ openFileDialog }) => (
                          <Button variant="secondary" isBusy={busy} onClick={openFileDialog} __next40pxDefaultSize>
                            Upload swatch image
                          </Button>
                        )}
                      />
                    )}
                    {editing.errors.image ? <span className="admin-field-error">{editing.errors.image}</span> : null}
                  </div>
                  <div className="admin-buttons">
                    <Button variant="primary" isBusy={busy} aria-disabled={busy} onClick={() => void save()} __next40pxDefaultSize>
                      Save {t.name}
                    </Button>
                    <Button variant="tertiary" onClick={() => setEditing(null)} __next40pxDefaultSize>
                      Cancel
                    </Button>
                  </div>
                </fieldset>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
      <section className="admin-card" aria-labelledby="term-add">
        <h2 id="term-add">Add term</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <TextControl
            __next40pxDefaultSize
            label="Name"
            value={newName}
            onChange={(v) => {
              setNewName(v);
              setNewError("");
            }}
            aria-invalid={Boolean(newError)}
            help={newError ? <span className="admin-field-error">{newError}</span> : undefined}
          />
          <div className="admin-buttons">
            <Button variant="primary" type="submit" isBusy={busy} aria-disabled={busy} __next40pxDefaultSize>
              Add term
            </Button>
          </div>
        </form>
      </section>
    </div>
  );
}
