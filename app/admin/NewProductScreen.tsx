/**
 * Add product (docs/contract/admin.md 'Add product'): a title and a kind (simple, variable, external, grouped or bundle;
 * an external product's address too, which the API requires), created as a draft with `POST wc/v3/products`; the
 * new product's editor then opens, where prices, images, attributes and variations, the grouped product's
 * children or the bundle's items, are set and the product is published.
 */
import { useId, useState, type FormEvent } from "react";
import { Button, RadioControl, TextControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import { send, type RestError } from "./api.ts";
import type { RestProduct } from "./types.ts";
import { refusedSave, SaveNotice, useFocusFirstInvalid, type SaveNote } from "./SaveNotice.tsx";
import { useUnsavedWarning } from "./use-unsaved-warning.ts";
import "./product-editor.css";

const KINDS = [
  { value: "simple", label: "Simple product: one price and one stock" },
  { value: "variable", label: "Variable product: variations by attributes (colour, size), each with its price and stock" },
  { value: "external", label: "External/affiliate product: sold elsewhere, its page links out with a button" },
  { value: "grouped", label: "Grouped product: several simple products on one page, each with its quantity" },
  { value: "bundle", label: "Bundle: a box of simple products sold as one, with a base price and optional items" },
];

export default function NewProductScreen() {
  const [name, setName] = useState("");
  const [type, setType] = useState("simple");
  const [url, setUrl] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [note, setNote] = useState<SaveNote>(null);
  const [saving, setSaving] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const focusFirstInvalid = useFocusFirstInvalid();
  const noticeId = useId();
  useUnsavedWarning(name.trim() !== "" && !leaving);

  async function create(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const missing: Record<string, string> = {};
    if (!name.trim()) missing.name = "Give the product a title.";
    if (type === "external" && !url.trim()) missing.external_url = "Give the address where the product is sold.";
    if (Object.keys(missing).length) {
      setErrors(missing);
      setNote({ status: "error", text: "The product was not created: a field needs correcting." });
      focusFirstInvalid();
      return;
    }
    setSaving(true);
    setNote(null);
    try {
      const { body } = await send<RestProduct>("/wc/v3/products", "POST", {
        name: name.trim(),
        type,
        status: "draft",
        ...(type === "external" ? { external_url: url.trim() } : {}),
      });
      setLeaving(true);
      window.location.assign(`/wp-admin/edit/product/${body.id}/?created=1`);
    } catch (e) {
      const refused = refusedSave(e as RestError, "", "product", (err) => {
        const params = err.data?.params ?? {};
        return Object.fromEntries(Object.entries(params).map(([k, v]) => [k === "type" || k === "external_url" ? k : "name", v]));
      });
      if (refused.errors) {
        setErrors(refused.errors);
        if (Object.keys(refused.errors).length) focusFirstInvalid();
      }
      setNote(refused.note);
      setSaving(false);
    }
  }

  const err = (key: string) => (errors[key] ? { help: <span className="admin-field-error">{errors[key]}</span>, "aria-invalid": true as const } : {});
  return (
    <form className="admin-product-new" onSubmit={create} noValidate aria-describedby={note ? noticeId : undefined}>
      <SaveNotice id={noticeId} note={note} reloadLabel="" onReload={() => undefined} />
      <TextControl
        __next40pxDefaultSize
        label="Title"
        value={name}
        onChange={(v) => {
          setName(v);
          setErrors({});
        }}
        {...err("name")}
      />
      <RadioControl
        label="Product type"
        selected={type}
        options={KINDS}
        onChange={(v) => {
          setType(v);
          setErrors({});
        }}
      />
      {type === "external" ? (
        <TextControl
          __next40pxDefaultSize
          type="url"
          label="Product URL"
          help={errors.external_url ? undefined : "Where the product is sold: the product page's button links there."}
          value={url}
          onChange={(v) => {
            setUrl(v);
            setErrors({});
          }}
          {...err("external_url")}
        />
      ) : null}
      <p className="admin-hint">The product is created as a draft: nobody sees it on the storefront until you publish it in the editor that opens next.</p>
      <Button variant="primary" type="submit" isBusy={saving} aria-disabled={saving} __next40pxDefaultSize>
        {saving ? "Creating…" : "Create draft and continue"}
      </Button>
    </form>
  );
}
