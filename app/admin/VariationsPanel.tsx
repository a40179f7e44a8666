/**
 * A variable product's variations in the editor (docs/contract/admin.md 'Attributes and variations'): "Generate
 * variations" creates every combination of the saved attributes used for variations that does not exist yet
 * (`POST wc/v3/products/{id}/variations/batch`, each with the price given, which the API requires); then each
 * variation's regular and sale price, stock quantity, SKU and image (one of the product's images) are edited and
 * saved together with "Save variations": one `PUT …/variations/{id}` per changed variation, with only its changed
 * fields and `If-Match` with the version read (its `ETag`), so a variation someone else saved since is refused (412
 * `rest_variation_changed`) rather than overwritten. "Delete variation" asks first, then sends `DELETE …?force=true`
 * with `If-Match` too. Refusals are shown at the field of the variation they name.
 */
import { useEffect, useId, useRef, useState } from "react";
import { Button, Notice, SelectControl, Spinner, TextControl } from "@wordpress/components";
import { getWithHeaders, send, type RestError } from "./api.ts";
import type { FormAttribute } from "./AttributesPanel.tsx";
import type { GalleryImage } from "./GalleryPanel.tsx";
import { useFocusFirstInvalid, type SaveNote } from "./SaveNotice.tsx";
import "./catalog.css";

interface RestVariation {
  id: number;
  attributes: { id: number; name: string; option: string }[];
  regular_price: string;
  sale_price: string;
  manage_stock: boolean;
  stock_quantity: number | null;
  sku: string;
  image: { id: number; src: string } | null;
}

interface Row {
  regular_price: string;
  sale_price: string;
  stock_quantity: string;
  sku: string;
  image: string;
}

const rowOf = (v: RestVariation): Row => ({
  regular_price: v.regular_price,
  sale_price: v.sale_price,
  stock_quantity: v.manage_stock && v.stock_quantity !== null ? String(v.stock_quantity) : "",
  sku: v.sku,
  image: v.image ? String(v.image.id) : "",
});

/** A row's changed fields in the REST shape: an empty stock quantity stops managing the stock. */
function rowChanges(before: Row, after: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (after.regular_price !== before.regular_price) out.regular_price = after.regular_price.trim();
  if (after.sale_price !== before.sale_price) out.sale_price = after.sale_price.trim();
  if (after.sku !== before.sku) out.sku = after.sku.trim();
  if (after.image !== before.image) out.image = after.image ? { id: Number(after.image) } : null;
  if (after.stock_quantity !== before.stock_quantity) {
    const q = after.stock_quantity.trim();
    if (q === "") out.manage_stock = false;
    else out.stock_quantity = /^\d+$/.test(q) ? Number(q) : q;
  }
  return out;
}

const LABELS: Record<string, string> = {
  regular_price: "Regular price",
  sale_price: "Sale price",
  stock_quantity: "Stock quantity",
  sku: "SKU",
  image: "Image",
};
const humane = (m: string) => m.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (w) => LABELS[w] ?? w);

/** Every combination of the attributes' options, in the attributes' order. */
function combinations(attributes: FormAttribute[]): { id: number; name: string; option: string }[][] {
  let out: { id: number; name: string; option: string }[][] = [[]];
  for (const a of attributes) out = out.flatMap((combo) => a.options.map((option) => [...combo, { id: a.id, name: a.name, option }]));
  return attributes.length ? out : [];
}
const comboKey = (attrs: { name: string; option: string }[]) =>
  attrs
    .map((a) => `${a.name.toLowerCase()}=${a.option.toLowerCase()}`)
    .sort()
    .join("&");
const titleOf = (v: RestVariation) => v.attributes.map((a) => a.option).join(", ") || "Any";

const PRICE = /^\d+(\.\d{1,2})?$/;

export function VariationsPanel(props: {
  productId: number;
  /** The attributes as saved (the variations are made from these). */
  savedAttributes: FormAttribute[];
  attributesDirty: boolean;
  images: GalleryImage[];
  onDirty: (dirty: boolean) => void;
  /** After a write: the product's version changed with it. */
  onSaved: () => void;
}) {
  const { productId, onDirty } = props;
  const [variations, setVariations] = useState<RestVariation[] | null>(null);
  const [rows, setRows] = useState<Record<number, Row>>({});
  const [loadError, setLoadError] = useState<RestError | null>(null);
  const [price, setPrice] = useState("");
  const [priceError, setPriceError] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [note, setNote] = useState<SaveNote>(null);
  const [busy, setBusy] = useState<"generate" | "save" | "delete" | null>(null);
  const focusFirstInvalid = useFocusFirstInvalid();
  const noteId = useId();

  /** Each variation's version as read (its ETag), sent back as If-Match with its save or delete. */
  const versions = useRef(new Map<number, string>());
  const [confirming, setConfirming] = useState<number | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  /** The variation whose confirmation was last closed with Cancel: its Delete button gets the focus back. */
  const cancelled = useRef<number | null>(null);
  useEffect(() => {
    if (confirming !== null) document.getElementById(`${noteId}-cancel-${confirming}`)?.focus();
    else if (cancelled.current !== null) document.getElementById(`${noteId}-delete-${cancelled.current}`)?.focus();
    cancelled.current = null;
  }, [confirming, noteId]);

  // The variations and their versions (the list has no ETags: each is read on its own); again (with `reloads` + 1)
  // after generating, or to take what someone else saved.
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    let live = true;
    (async () => {
      const { body } = await getWithHeaders<RestVariation[]>(`/wc/v3/products/${productId}/variations?per_page=100&orderby=id&order=asc`);
      const read = await Promise.all(body.map((v) => getWithHeaders<RestVariation>(`/wc/v3/products/${productId}/variations/${v.id}`)));
      return read;
    })().then(
      (read) => {
        if (!live) return;
        versions.current = new Map(read.map(({ body, headers }) => [body.id, headers.get("ETag") ?? ""]));
        const list = read.map((r) => r.body);
        setVariations(list);
        setRows(Object.fromEntries(list.map((v) => [v.id, rowOf(v)])));
        setLoadError(null);
      },
      (e: RestError) => live && setLoadError(e),
    );
    return () => {
      live = false;
    };
  }, [productId, reloads]);

  const changed = (variations ?? []).flatMap((v) => {
    const patch = rows[v.id] ? rowChanges(rowOf(v), rows[v.id]!) : {};
    return Object.keys(patch).length ? [{ id: v.id, ...patch }] : [];
  });
  const dirty = changed.length > 0;
  useEffect(() => onDirty(dirty), [dirty, onDirty]);

  const used = props.savedAttributes.filter((a) => a.variation && a.options.length > 0);
  const existing = new Set((variations ?? []).map((v) => comboKey(v.attributes)));
  const missing = combinations(used).filter((c) => !existing.has(comboKey(c)));

  async function generate() {
    if (busy) return;
    if (!PRICE.test(price.trim())) {
      setPriceError("Enter the price as a number with at most two decimals, e.g. 25 or 24.50.");
      focusFirstInvalid();
      return;
    }
    setBusy("generate");
    setNote(null);
    let made = 0;
    const refused: string[] = [];
    try {
      for (let i = 0; i < missing.length; i += 100) {
        const create = missing.slice(i, i + 100).map((attributes) => ({
          regular_price: price.trim(),
          attributes: attributes.map(({ id, name, option }) => (id ? { id, option } : { name, option })),
        }));
        const { body } = await send<{ create: (RestVariation | { error: RestError })[] }>(`/wc/v3/products/${productId}/variations/batch`, "POST", { create });
        for (const item of body.create) if ("error" in item) refused.push(item.error.message);
        made += body.create.filter((item) => !("error" in item)).length;
      }
      setNote(
        refused.length
          ? { status: "error", text: `${made} variations created; ${refused.length} refused: ${refused[0]}` }
          : { status: "success", text: `${made} variation${made === 1 ? "" : "s"} created. Set each one's price, stock and image below.` },
      );
    } catch (e) {
      setNote({ status: "error", text: (e as RestError).message });
    } finally {
      setBusy(null);
      setReloads((n) => n + 1);
      props.onSaved();
    }
  }

  async function save() {
    if (busy || !changed.length) return;
    setBusy("save");
    setNote(null);
    setErrors({});
    try {
      const answers = await Promise.all(
        changed.map(({ id, ...patch }) =>
          send<RestVariation>(`/wc/v3/products/${productId}/variations/${id}`, "PUT", patch, { "If-Match": versions.current.get(id) ?? "" }).then(
            ({ body, headers }) => {
              versions.current.set(id, headers.get("ETag") ?? "");
              return body;
            },
            (error: RestError) => ({ id, error }),
          ),
        ),
      );
      const fieldErrors: Record<string, string> = {};
      const others: string[] = [];
      const saved = new Map<number, RestVariation>();
      let conflicts = 0;
      for (const item of answers) {
        if (!("error" in item)) {
          saved.set(item.id, item);
          continue;
        }
        const params = item.error.data?.params ?? {};
        if (item.error.code === "rest_variation_changed") conflicts++;
        else if (item.error.code === "product_invalid_sku") fieldErrors[`${item.id}:sku`] = "This SKU is not valid, or another product already has it.";
        else if (Object.keys(params).length) for (const [field, m] of Object.entries(params)) fieldErrors[`${item.id}:${field}`] = humane(m);
        else others.push(item.error.message);
      }
      // Saved rows take the stored values; refused rows keep what was typed.
      setVariations((vs) => (vs ?? []).map((v) => saved.get(v.id) ?? v));
      setRows((r) => ({ ...r, ...Object.fromEntries([...saved.values()].map((v) => [v.id, rowOf(v)])) }));
      setErrors(fieldErrors);
      const refusedCount = answers.length - saved.size;
      if (conflicts) {
        setNote({
          status: "error",
          conflict: true,
          text: `${saved.size ? `${saved.size} variations saved; ` : ""}${conflicts === 1 ? "A variation was" : `${conflicts} variations were`} changed since you opened ${conflicts === 1 ? "it" : "them"}: nothing of yours was saved to ${conflicts === 1 ? "it" : "them"}. Reload the variations to see the changes, then make yours again.`,
        });
      } else if (refusedCount) {
        setNote({
          status: "error",
          text: `${saved.size ? `${saved.size} variations saved; ` : ""}${refusedCount === 1 ? "a variation was" : `${refusedCount} variations were`} not saved: ${others[0] ?? "correct the fields marked below."}`,
        });
        if (Object.keys(fieldErrors).length) focusFirstInvalid();
      } else setNote({ status: "success", text: "Variations saved." });
      if (saved.size) props.onSaved();
    } catch (e) {
      setNote({ status: "error", text: (e as RestError).message });
    } finally {
      setBusy(null);
    }
  }

  async function remove(v: RestVariation) {
    if (busy) return;
    setBusy("delete");
    setNote(null);
    try {
      await send(`/wc/v3/products/${productId}/variations/${v.id}?force=true`, "DELETE", undefined, { "If-Match": versions.current.get(v.id) ?? "" });
      versions.current.delete(v.id);
      setVariations((vs) => (vs ?? []).filter((x) => x.id !== v.id));
      setRows(({ [v.id]: _, ...rest }) => rest);
      setNote({ status: "success", text: `Variation ${titleOf(v)} deleted.` });
      props.onSaved();
      // The variation's fieldset is gone: the focus goes to the section's heading, after the notice.
      requestAnimationFrame(() => headingRef.current?.focus());
    } catch (e) {
      const error = e as RestError;
      setNote({ status: "error", text: error.message, conflict: error.code === "rest_variation_changed" });
    } finally {
      setConfirming(null);
      setBusy(null);
    }
  }

  const setRow = (id: number, key: keyof Row, value: string) => {
    setRows((r) => ({ ...r, [id]: { ...r[id]!, [key]: value } }));
    if (errors[`${id}:${key}`]) setErrors(({ [`${id}:${key}`]: _, ...rest }) => rest);
  };
  const err = (key: string) => (errors[key] ? { help: <span className="admin-field-error">{errors[key]}</span>, "aria-invalid": true as const } : {});
  const imageOptions = [
    { value: "", label: "None (the product's image)" },
    ...props.images.map((img, i) => ({ value: String(img.id), label: i === 0 ? "Main image" : `Gallery image ${i}` })),
  ];

  return (
    <section className="admin-fieldset admin-variations" aria-labelledby={`${noteId}-h`}>
      <h2 id={`${noteId}-h`} className="admin-section-title" ref={headingRef} tabIndex={-1}>
        Variations
      </h2>
      <div id={noteId} role={note?.status === "error" ? "alert" : "status"}>
        {note ? (
          <Notice status={note.status} isDismissible={false}>
            <p>{note.text}</p>
            {note.conflict ? (
              <p>
                <Button
                  variant="secondary"
                  onClick={() => {
                    setNote(null);
                    setErrors({});
                    setReloads((n) => n + 1);
                  }}
                >
                  Reload the variations
                </Button>
              </p>
            ) : null}
          </Notice>
        ) : null}
      </div>
      {loadError ? (
        <Notice status="error" isDismissible={false}>
          {loadError.message}
        </Notice>
      ) : null}
      {props.attributesDirty ? <p className="admin-hint">Update the product to save the attribute changes before generating variations.</p> : null}
      {!used.length ? (
        <p className="admin-hint">Add an attribute with values and mark it "Used for variations", then Update, to generate variations.</p>
      ) : missing.length ? (
        <div className="admin-row admin-generate">
          <TextControl
            __next40pxDefaultSize
            label="Regular price of the new variations"
            inputMode="decimal"
            value={price}
            onChange={(v) => {
              setPrice(v);
              setPriceError("");
            }}
            {...(priceError ? { help: <span className="admin-field-error">{priceError}</span>, "aria-invalid": true as const } : {})}
          />
          <Button
            variant="secondary"
            onClick={generate}
            isBusy={busy === "generate"}
            accessibleWhenDisabled
            disabled={props.attributesDirty}
            __next40pxDefaultSize
          >
            Generate variations ({missing.length})
          </Button>
        </div>
      ) : variations?.length ? (
        <p className="admin-hint">Every combination of the attributes has its variation.</p>
      ) : null}
      {variations === null && !loadError ? (
        <p>
          <Spinner /> Loading the variations…
        </p>
      ) : null}
      {variations?.map((v) => {
        const row = rows[v.id] ?? rowOf(v);
        const title = titleOf(v);
        return (
          <fieldset key={v.id} className="admin-variation" aria-label={`Variation ${title}`}>
            <legend>
              {title} <span className="admin-hint">#{v.id}</span>
            </legend>
            <div className="admin-variation-fields">
              <TextControl
                __next40pxDefaultSize
                label={`Regular price (${title})`}
                inputMode="decimal"
                value={row.regular_price}
                onChange={(x) => setRow(v.id, "regular_price", x)}
                {...err(`${v.id}:regular_price`)}
              />
              <TextControl
                __next40pxDefaultSize
                label={`Sale price (${title})`}
                inputMode="decimal"
                value={row.sale_price}
                onChange={(x) => setRow(v.id, "sale_price", x)}
                {...err(`${v.id}:sale_price`)}
              />
              <TextControl
                __next40pxDefaultSize
                type="number"
                min={0}
                step={1}
                label={`Stock quantity (${title})`}
                value={row.stock_quantity}
                onChange={(x) => setRow(v.id, "stock_quantity", x)}
                {...err(`${v.id}:stock_quantity`)}
              />
              <TextControl __next40pxDefaultSize label={`SKU (${title})`} value={row.sku} onChange={(x) => setRow(v.id, "sku", x)} {...err(`${v.id}:sku`)} />
              <SelectControl
                __next40pxDefaultSize
                label={`Image (${title})`}
                value={row.image}
                options={
                  row.image && !props.images.some((i) => String(i.id) === row.image)
                    ? [...imageOptions, { value: row.image, label: `Image #${row.image}` }]
                    : imageOptions
                }
                onChange={(x) => setRow(v.id, "image", x)}
                {...err(`${v.id}:image`)}
              />
            </div>
            <div className="admin-variation-delete">
              {confirming === v.id ? (
                <>
                  <p role="alert">Delete the variation {title} for good? Orders keep their lines.</p>
                  <Button variant="primary" isDestructive onClick={() => remove(v)} isBusy={busy === "delete"} __next40pxDefaultSize>
                    Delete permanently
                  </Button>
                  <Button
                    id={`${noteId}-cancel-${v.id}`}
                    variant="tertiary"
                    onClick={() => {
                      cancelled.current = v.id;
                      setConfirming(null);
                    }}
                    __next40pxDefaultSize
                  >
                    Cancel
                  </Button>
                </>
              ) : (
                <Button
                  id={`${noteId}-delete-${v.id}`}
                  variant="secondary"
                  isDestructive
                  onClick={() => setConfirming(v.id)}
                  disabled={!!busy}
                  accessibleWhenDisabled
                  __next40pxDefaultSize
                >
                  Delete variation {title}
                </Button>
              )}
            </div>
          </fieldset>
        );
      })}
      {variations?.length ? (
        <>
          <p className="admin-hint">An empty stock quantity means the stock is not counted for that variation.</p>
          <Button variant="primary" onClick={save} isBusy={busy === "save"} accessibleWhenDisabled disabled={!dirty} __next40pxDefaultSize>
            {busy === "save" ? "Saving…" : "Save variations"}
          </Button>
          {dirty ? <p className="admin-hint">Unsaved changes to {changed.length === 1 ? "a variation" : `${changed.length} variations`}.</p> : null}
        </>
      ) : null}
    </section>
  );
}
