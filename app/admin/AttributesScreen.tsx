/**
 * Products → Attributes (docs/contract/admin.md 'Attributes'): the global attributes (`GET wc/v3/products/attributes`),
 * each a link to its terms and swatches, "Add attribute" (`POST`, name and optional slug, the API's refusals at their
 * field) and "Delete" after a confirmation saying the terms go too (`DELETE …?force=true`).
 */
import { useEffect, useState } from "react";
import { Button, TextControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "./admin-screens.css";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { Loading, LoadError, ResultNotice, type ActionResult } from "./Status.tsx";
import { useFocusFirstInvalid } from "./SaveNotice.tsx";

export interface RestAttribute {
  id: number;
  name: string;
  slug: string;
  type: string;
  order_by: string;
  has_archives: boolean;
}

type Load = { state: "loading" } | { state: "error"; error: RestError } | { state: "ready"; attributes: RestAttribute[] };

export default function AttributesScreen() {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [reloads, setReloads] = useState(0);
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ActionResult>(null);
  const [deleting, setDeleting] = useState<RestAttribute | null>(null);
  const focusInvalid = useFocusFirstInvalid();

  useEffect(() => {
    let live = true;
    getWithHeaders<RestAttribute[]>("/wc/v3/products/attributes").then(
      ({ body }) => live && setLoad({ state: "ready", attributes: body }),
      (error: RestError) => live && setLoad({ state: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [reloads]);

  async function add() {
    if (busy) return;
    if (!name.trim()) {
      setErrors({ name: "Give the attribute a name, such as Colour or Size." });
      focusInvalid();
      return;
    }
    setBusy(true);
    setResult(null);
    try {
      const { body } = await send<RestAttribute>("/wc/v3/products/attributes", "POST", { name: name.trim(), ...(slug.trim() ? { slug: slug.trim() } : {}) });
      setName("");
      setSlug("");
      setErrors({});
      setResult({ status: "success", text: `Attribute “${body.name}” added. Add its terms from its page.` });
      setReloads((n) => n + 1);
    } catch (e) {
      const error = e as RestError;
      const params = error.data?.params ?? {};
      const named = Object.fromEntries(Object.entries(params).filter(([k]) => k === "name" || k === "slug"));
      // A slug the API refuses (taken, reserved, too long) names no param: it belongs under the slug field.
      if (!Object.keys(named).length && /slug/i.test(error.message)) named.slug = error.message;
      setErrors(named);
      setResult({ status: "error", text: `The attribute was not added: ${error.message}` });
      focusInvalid();
    } finally {
      setBusy(false);
    }
  }

  async function remove(attribute: RestAttribute) {
    setBusy(true);
    setResult(null);
    try {
      await send(`/wc/v3/products/attributes/${attribute.id}?force=true`, "DELETE", undefined);
      setResult({ status: "success", text: `Attribute “${attribute.name}” and its terms deleted.` });
      setDeleting(null);
      setReloads((n) => n + 1);
    } catch (e) {
      setResult({ status: "error", text: `The attribute was not deleted: ${(e as RestError).message}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="admin-attributes">
      <ResultNotice result={result} />
      <section className="admin-card" aria-labelledby="attributes-list">
        <h2 id="attributes-list">Attributes</h2>
        <p className="admin-hint">
          Global attributes (colour, size…) are shared by every product: their terms are the choices a variable product offers, with the swatch the product page
          draws.
        </p>
        {load.state === "loading" ? (
          <Loading what="the attributes" />
        ) : load.state === "error" ? (
          <LoadError error={load.error} />
        ) : load.attributes.length === 0 ? (
          <p>No attributes yet.</p>
        ) : (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Slug</th>
                  <th scope="col">Terms ordered by</th>
                  <th scope="col">
                    <span className="screen-reader-text">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {load.attributes.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <a href={`/wp-admin/products/attributes/${a.id}/`}>{a.name}</a>
                    </td>
                    <td>{a.slug}</td>
                    <td>{ORDER_BY_NAMES[a.order_by] ?? a.order_by}</td>
                    <td>
                      {deleting?.id === a.id ? (
                        <span className="admin-buttons" role="group" aria-label={`Delete ${a.name}?`}>
                          <span>Delete “{a.name}” and all its terms? Products keep the values as plain text.</span>
                          <Button variant="primary" isDestructive isBusy={busy} aria-disabled={busy} onClick={() => void remove(a)} __next40pxDefaultSize>
                            Delete attribute
                          </Button>
                          <Button variant="tertiary" onClick={() => setDeleting(null)} __next40pxDefaultSize>
                            Keep it
                          </Button>
                        </span>
                      ) : (
                        <Button variant="link" isDestructive onClick={() => setDeleting(a)} aria-label={`Delete ${a.name}`}>
                          Delete
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="admin-card" aria-labelledby="attribute-add">
        <h2 id="attribute-add">Add attribute</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <TextControl
            __next40pxDefaultSize
            label="Name"
            value={name}
            onChange={(v) => {
              setName(v);
              setErrors(({ name: _n, ...rest }) => rest);
            }}
            aria-invalid={Boolean(errors.name)}
            help={errors.name ? <span className="admin-field-error">{errors.name}</span> : "Shown on the product page and in the shop's filters."}
          />
          <TextControl
            __next40pxDefaultSize
            label="Slug (optional)"
            value={slug}
            onChange={(v) => {
              setSlug(v);
              setErrors(({ slug: _s, ...rest }) => rest);
            }}
            aria-invalid={Boolean(errors.slug)}
            help={errors.slug ? <span className="admin-field-error">{errors.slug}</span> : "Made from the name when empty; at most 28 characters."}
          />
          <div className="admin-buttons">
            <Button variant="primary" type="submit" isBusy={busy} aria-disabled={busy} __next40pxDefaultSize>
              Add attribute
            </Button>
          </div>
        </form>
      </section>
    </div>
  );
}

export const ORDER_BY_NAMES: Record<string, string> = {
  menu_order: "Custom order",
  name: "Name",
  name_num: "Name (numeric)",
  id: "Term id",
};
