/**
 * Edit Product (docs/contract/admin.md 'Edit Product'): a simple, variable, external, grouped or bundle product's title, description,
 * prices (simple and external; a bundle's base price), sale schedule, SKU, stock, status, catalog visibility, categories, tags,
 * up-sells and cross-sells, images (GalleryPanel.tsx); an external product's address and button text; a grouped product's
 * children; a bundle's items (BundledItemsPanel.tsx); a simple product's Downloadable and Virtual boxes and a download's files,
 * limit and expiry (DownloadsPanel.tsx); for a variable product,
 * attributes and variations (AttributesPanel.tsx, VariationsPanel.tsx) on `@wordpress/components`, read with `GET wc/v3/products/{id}` and
 * saved with `PUT` and the version read as `If-Match`, so a save over someone else's is refused (412), never a
 * silent overwrite. The API's refusals are shown at the field they name; leaving with unsaved changes asks first.
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import { Button, CheckboxControl, Notice, SelectControl, Spinner, TextControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import { getWithHeaders, send, type RestError } from "./api.ts";
import type { RestProduct, Term } from "./types.ts";
import { useUnsavedWarning } from "./use-unsaved-warning.ts";
import { refusedSave, useFocusFirstInvalid } from "./SaveNotice.tsx";
import { GalleryPanel, type GalleryImage } from "./GalleryPanel.tsx";
import { AttributesPanel, type FormAttribute } from "./AttributesPanel.tsx";
import { VariationsPanel } from "./VariationsPanel.tsx";
import { BundledItemsPanel, type FormBundledItem } from "./BundledItemsPanel.tsx";
import { DownloadsPanel, type FormDownload } from "./DownloadsPanel.tsx";
import { IdTokens } from "./CouponScreen.tsx";
import { TagTokens } from "./TagTokens.tsx";
import { useCatalogChoices } from "./catalog-choices.ts";
import { RichTextField } from "./RichTextField.tsx";
import "./product-editor.css";

interface Form {
  name: string;
  description: string;
  short_description: string;
  regular_price: string;
  sale_price: string;
  date_on_sale_from: string;
  date_on_sale_to: string;
  sku: string;
  manage_stock: boolean;
  stock_quantity: string;
  stock_status: string;
  status: string;
  catalog_visibility: string;
  external_url: string;
  button_text: string;
  grouped_products: number[];
  bundled_items: FormBundledItem[];
  categories: number[];
  tags: number[];
  upsell_ids: number[];
  cross_sell_ids: number[];
  images: GalleryImage[];
  attributes: FormAttribute[];
  downloadable: boolean;
  virtual: boolean;
  downloads: FormDownload[];
  download_limit: string;
  download_expiry: string;
}

const formOf = (p: RestProduct): Form => ({
  name: p.name,
  description: p.description,
  short_description: p.short_description,
  regular_price: p.regular_price,
  sale_price: p.sale_price,
  date_on_sale_from: p.date_on_sale_from?.slice(0, 10) ?? "",
  date_on_sale_to: p.date_on_sale_to?.slice(0, 10) ?? "",
  sku: p.sku,
  manage_stock: p.manage_stock,
  stock_quantity: p.stock_quantity === null ? "" : String(p.stock_quantity),
  stock_status: p.stock_status,
  status: p.status,
  catalog_visibility: p.catalog_visibility,
  external_url: p.external_url,
  button_text: p.button_text,
  grouped_products: p.grouped_products,
  bundled_items: (p.bundled_items ?? []).map((b) => ({
    bundled_item_id: b.bundled_item_id,
    product_id: b.product_id,
    quantity_default: String(b.quantity_default),
    optional: b.optional,
    discount: String(b.discount),
  })),
  categories: p.categories.map((c) => c.id).sort((a, b) => a - b),
  tags: p.tags.map((t) => t.id),
  upsell_ids: p.upsell_ids,
  cross_sell_ids: p.cross_sell_ids,
  images: p.images.map(({ id, src, alt }) => ({ id, src, alt })),
  attributes: p.attributes.map(({ id, name, options, variation, visible }) => ({ id, name, options, variation, visible })),
  downloadable: p.downloadable,
  virtual: p.virtual,
  downloads: (p.downloads ?? []).map(({ id, name, file }) => ({ id, name, file })),
  download_limit: p.download_limit < 0 ? "" : String(p.download_limit),
  download_expiry: p.download_expiry < 0 ? "" : String(p.download_expiry),
});

/** A count field: blank = -1 (unlimited / never), digits = the number, anything else as typed (for the API to refuse). */
const countOf = (v: string) => (v.trim() === "" ? -1 : /^\d+$/.test(v.trim()) ? Number(v) : v);

/** The fields that differ from what was loaded, in the REST shape (only those are sent). */
function changes(before: Form, after: Form): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof Form)[]) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    if (key === "categories") out.categories = after.categories.map((id) => ({ id }));
    else if (key === "tags") out.tags = after.tags.map((id) => ({ id }));
    else if (key === "images") out.images = after.images.map(({ id }) => ({ id }));
    else if (key === "attributes")
      out.attributes = after.attributes.map(({ id, name, options, variation, visible }, position) => ({
        ...(id ? { id } : { name }),
        options: options.map((o) => o.trim()).filter(Boolean),
        variation,
        visible,
        position,
      }));
    else if (key === "bundled_items")
      out.bundled_items = after.bundled_items.map(({ quantity_default, discount, ...item }) => ({
        ...item,
        // Numbers when they are; anything else as typed, for the API to refuse under the panel.
        quantity_default: /^\d+$/.test(quantity_default.trim()) ? Number(quantity_default) : quantity_default,
        discount: discount.trim() === "" ? 0 : Number.isFinite(Number(discount)) ? Number(discount) : discount,
      }));
    else if (key === "downloads") out.downloads = after.downloads.map(({ id, name, file }) => (id ? { id, name, file } : { name, file }));
    else if (key === "download_limit" || key === "download_expiry") out[key] = countOf(after[key]);
    else if (key === "stock_quantity") out.stock_quantity = /^\d+$/.test(after.stock_quantity) ? Number(after.stock_quantity) : after.stock_quantity;
    else if (key === "date_on_sale_from" || key === "date_on_sale_to") out[key] = after[key] ? `${after[key]}T00:00:00` : null;
    else out[key] = after[key];
  }
  // A download reads as virtual: no longer downloadable, it stays virtual as the box shows, unless unticked.
  if (out.downloadable === false && after.virtual) out.virtual = true;
  // Stock: the quantity matters only while managed; the status only while not.
  if (after.manage_stock) delete out.stock_status;
  else delete out.stock_quantity;
  return out;
}

/** The form's labels of the REST fields, for the API's messages, which name fields as the wire does. */
const LABELS: Record<string, string> = {
  name: "Title",
  description: "Description",
  short_description: "Product short description",
  regular_price: "Regular price",
  sale_price: "Sale price",
  date_on_sale_from: "Sale from",
  date_on_sale_to: "Sale until",
  sku: "SKU",
  manage_stock: "Manage stock",
  stock_quantity: "Stock quantity",
  stock_status: "Stock status",
  status: "Status",
  catalog_visibility: "Catalog visibility",
  external_url: "Product URL",
  button_text: "Button text",
  grouped_products: "Grouped products",
  bundled_items: "Bundled items",
  categories: "Categories",
  tags: "Tags",
  upsell_ids: "Up-sells",
  cross_sell_ids: "Cross-sells",
  images: "Product images",
  attributes: "Attributes",
  downloadable: "Downloadable",
  virtual: "Virtual",
  downloads: "Downloadable files",
  download_limit: "Download limit",
  download_expiry: "Download expiry",
};
const humane = (message: string) => message.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (w) => LABELS[w] ?? w);

/** Which form field a refusal names (`data.params` of rest_invalid_param, or the SKU's own code), in the form's words. */
function fieldErrors(e: RestError): Record<string, string> {
  if (e.code === "product_invalid_sku") return { sku: "This SKU is not valid, or another product already has it." };
  return Object.fromEntries(Object.entries(e.data?.params ?? {}).map(([field, message]) => [field, humane(message)]));
}

const STATUS_OPTIONS = [
  { value: "publish", label: "Published" },
  { value: "draft", label: "Draft" },
  { value: "pending", label: "Pending review" },
  { value: "private", label: "Private" },
];
const STOCK_OPTIONS = [
  { value: "instock", label: "In stock" },
  { value: "outofstock", label: "Out of stock" },
];
/** WooCommerce's catalog_visibility, in its editor's words. */
const VISIBILITY_OPTIONS = [
  { value: "visible", label: "Shop and search results" },
  { value: "catalog", label: "Shop only" },
  { value: "search", label: "Search results only" },
  { value: "hidden", label: "Hidden" },
];
const EDITABLE_KINDS = new Set(["simple", "downloadable", "variable", "external", "grouped", "bundle"]);
/** What a variable product's variation writes change on the product itself. */
const VARIATION_DERIVED = new Set<keyof Form>(["stock_status", "manage_stock", "stock_quantity", "regular_price", "sale_price"]);

const VISIBILITY_HELP: Record<string, string> = {
  visible: "Listed in the shop, its categories and search results.",
  catalog: "Listed in the shop and its categories, not in search results.",
  search: "Found by search only, not listed in the shop or its categories.",
  hidden: "Listed nowhere; its page still opens by its address (and in a grouped product).",
};

/** The products a grouped product or a bundle may contain: simple ones (not downloads), the first 100 by name. */
function useSimpleProducts(wanted: boolean): { id: number; name: string }[] {
  const [list, setList] = useState<{ id: number; name: string }[]>([]);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    getWithHeaders<{ id: number; name: string; downloadable: boolean }[]>(
      "/wc/v3/products?per_page=100&type=simple&orderby=title&order=asc&_fields=id,name,downloadable",
    ).then(
      ({ body }) => live && setList(body.filter((p) => !p.downloadable).map(({ id, name }) => ({ id, name }))),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [wanted]);
  return list;
}

type Load = { state: "loading" } | { state: "error"; error: RestError } | { state: "ready"; product: RestProduct; version: string; saved: Form };

export default function ProductEditScreen({ id }: { id: number }) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [form, setForm] = useState<Form | null>(null);
  const [categories, setCategories] = useState<Term[]>([]);
  const [tags, setTags] = useState<Term[]>([]);
  const { products } = useCatalogChoices();
  const children = useSimpleProducts(load.state === "ready" && (load.product.type === "grouped" || load.product.type === "bundle"));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  // Add product opens this editor with ?created=1 (NewProductScreen.tsx).
  const [notice, setNotice] = useState<{ status: "success" | "error" | "warning"; text: string; conflict?: boolean } | null>(() =>
    new URLSearchParams(window.location.search).get("created") === "1"
      ? { status: "success", text: "Draft created. Add its details and images, then set Status to Published and Update." }
      : null,
  );
  const [saving, setSaving] = useState(false);
  const [variationsDirty, setVariationsDirty] = useState(false);
  const noticeId = useId();
  useEffect(() => {
    if (window.location.search.includes("created=1")) window.history.replaceState(null, "", window.location.pathname);
  }, []);

  // The product and the categories; again (with `reloads` + 1) after a refused save, to show what was saved since.
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    let live = true;
    Promise.all([
      getWithHeaders<RestProduct>(`/wc/v3/products/${id}`),
      getWithHeaders<Term[]>("/wc/v3/products/categories?per_page=100&orderby=name&order=asc"),
      getWithHeaders<Term[]>("/wc/v3/products/tags?per_page=100&orderby=name&order=asc"),
    ]).then(
      ([{ body, headers }, cats, tagList]) => {
        if (!live) return;
        const saved = formOf(body);
        setCategories(cats.body);
        setTags(tagList.body);
        setLoad({ state: "ready", product: body, version: headers.get("ETag") ?? "", saved });
        setForm(saved);
        setErrors({});
      },
      (e: RestError) => live && setLoad({ state: "error", error: e }),
    );
    return () => {
      live = false;
    };
  }, [id, reloads]);

  const latestLoad = useRef(load);
  useEffect(() => {
    latestLoad.current = load;
  }, [load]);

  const dirty = useMemo(() => load.state === "ready" && form !== null && Object.keys(changes(load.saved, form)).length > 0, [load, form]);

  useUnsavedWarning(dirty || variationsDirty);

  if (load.state === "loading" || (load.state === "ready" && !form)) {
    return (
      <p role="status">
        <Spinner /> Loading the product…
      </p>
    );
  }
  if (load.state === "error") {
    return (
      <Notice status="error" isDismissible={false}>
        {load.error.message}
      </Notice>
    );
  }
  const { product } = load;
  const f = form!;
  const viewLink =
    product.status === "publish" ? (
      <a href={product.permalink} className="admin-view-link">
        View product
      </a>
    ) : (
      <span className="admin-view-link">Not on the storefront while it is {product.status === "draft" ? "a draft" : product.status}.</span>
    );
  const kind = product.downloadable ? "downloadable" : product.type;
  if (!EDITABLE_KINDS.has(kind)) {
    return (
      <div className="admin-product-edit">
        <h2 className="admin-product-name">{product.name}</h2>
        <Notice status="warning" isDismissible={false}>
          This screen edits simple, variable, external, grouped and bundle products: editing a {kind} product is not built yet. Its REST address is
          /wp-json/wc/v3/products/{product.id}.
        </Notice>
        <p>{viewLink}</p>
      </div>
    );
  }

  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm({ ...f, [key]: value });
    if (errors[key]) setErrors(({ [key]: _, ...rest }) => rest);
  };
  // For the panels, whose uploads finish after other edits: a change of the latest form.
  const updater =
    <K extends "images" | "attributes" | "bundled_items" | "downloads" | "tags">(key: K) =>
    (change: (value: Form[K]) => Form[K]) => {
      setForm((prev) => (prev ? { ...prev, [key]: change(prev[key]) } : prev));
      if (errors[key]) setErrors(({ [key]: _, ...rest }) => rest);
    };
  const variable = product.type === "variable";
  const external = product.type === "external";
  const grouped = product.type === "grouped";
  const bundle = product.type === "bundle";
  const simple = product.type === "simple";

  /**
   * A variation write touches its product (new version, stock status): take the new version when nothing but those
   * changed, keeping the edits in progress, so the next Update is not refused for the editor's own variation saves.
   * If someone else changed the product, the version stays and Update is refused as 'changed since you opened it'.
   */
  async function variationsSaved() {
    try {
      const { body, headers } = await getWithHeaders<RestProduct>(`/wc/v3/products/${id}`);
      const fresh = formOf(body);
      const current = latestLoad.current;
      if (current.state !== "ready") return;
      const own = (Object.keys(fresh) as (keyof Form)[]).every(
        (k) => VARIATION_DERIVED.has(k) || JSON.stringify(fresh[k]) === JSON.stringify(current.saved[k]),
      );
      if (!own) return;
      setForm((edited) => {
        if (!edited) return edited;
        const next = { ...edited };
        for (const k of Object.keys(fresh) as (keyof Form)[])
          if (JSON.stringify(edited[k]) === JSON.stringify(current.saved[k])) (next as Record<string, unknown>)[k] = fresh[k];
        return next;
      });
      setLoad({ state: "ready", product: body, version: headers.get("ETag") ?? "", saved: fresh });
    } catch {
      // The next Update tells: at worst it is refused as changed, with the reload button.
    }
  }
  // A field's error, shown under it, announced with it (aria-describedby through `help`) and marked invalid.
  const err = (key: string) => (errors[key] ? { help: <span className="admin-field-error">{errors[key]}</span>, "aria-invalid": true as const } : {});

  async function save(event: FormEvent) {
    event.preventDefault();
    if (load.state !== "ready" || saving) return;
    const patch = changes(load.saved, f);
    if (!Object.keys(patch).length) {
      setNotice({ status: "warning", text: "Nothing to save: no field was changed." });
      return;
    }
    setSaving(true);
    setNotice(null);
    try {
      const { body, headers } = await send<RestProduct>(`/wc/v3/products/${id}`, "PUT", patch, { "If-Match": load.version });
      const saved = formOf(body);
      setLoad({ state: "ready", product: body, version: headers.get("ETag") ?? "", saved });
      setForm(saved);
      setErrors({});
      setNotice({ status: "success", text: "Product updated." });
    } catch (e) {
      const refused = refusedSave(e as RestError, "rest_product_changed", "product", fieldErrors);
      if (refused.errors) {
        setErrors(refused.errors);
        if (Object.keys(refused.errors).length) focusFirstInvalid();
      }
      setNotice(refused.note);
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      <form className="admin-product-edit" onSubmit={save} noValidate aria-describedby={notice ? noticeId : undefined}>
        <div id={noticeId} role={notice?.status === "error" ? "alert" : "status"}>
          {notice ? (
            <Notice status={notice.status} isDismissible={false}>
              <p>{notice.text}</p>
              {notice.conflict ? (
                <p>
                  <Button
                    variant="secondary"
                    onClick={() => {
                      setLoad({ state: "loading" });
                      setNotice(null);
                      setReloads((n) => n + 1);
                    }}
                  >
                    Reload the product (your changes are discarded)
                  </Button>
                </p>
              ) : null}
            </Notice>
          ) : null}
        </div>
        <div className="admin-edit-columns">
          <div className="admin-edit-main">
            <TextControl __next40pxDefaultSize label="Title" value={f.name} onChange={(v) => set("name", v)} {...err("name")} />
            <RichTextField label="Description" value={f.description} onChange={(v) => set("description", v)} error={errors.description} />
            <RichTextField
              label="Product short description"
              value={f.short_description}
              onChange={(v) => set("short_description", v)}
              error={errors.short_description}
            />
            <GalleryPanel images={f.images} update={updater("images")} error={errors.images} />
            {variable ? <AttributesPanel attributes={f.attributes} update={updater("attributes")} error={errors.attributes} /> : null}
            {simple ? (
              <fieldset className="admin-fieldset">
                <legend>Product data</legend>
                <CheckboxControl
                  label="Downloadable"
                  help="Shoppers get its files through download links once the order is paid."
                  checked={f.downloadable}
                  onChange={(v) => set("downloadable", v)}
                />
                <CheckboxControl
                  label="Virtual"
                  help={
                    f.downloadable
                      ? "A downloadable product is always virtual here: nothing is shipped."
                      : "Not shipped: a cart of virtual products asks no shipping address and charges no shipping."
                  }
                  checked={f.virtual || f.downloadable}
                  disabled={f.downloadable}
                  onChange={(v) => set("virtual", v)}
                />
              </fieldset>
            ) : null}
            {simple && f.downloadable ? (
              <DownloadsPanel
                downloads={f.downloads}
                update={updater("downloads")}
                limit={f.download_limit}
                expiry={f.download_expiry}
                onLimit={(v) => set("download_limit", v)}
                onExpiry={(v) => set("download_expiry", v)}
                errors={errors}
              />
            ) : null}
            {external ? (
              <fieldset className="admin-fieldset">
                <legend>External product</legend>
                <TextControl
                  __next40pxDefaultSize
                  type="url"
                  label="Product URL"
                  value={f.external_url}
                  onChange={(v) => set("external_url", v)}
                  {...err("external_url")}
                />
                <TextControl __next40pxDefaultSize label="Button text" value={f.button_text} onChange={(v) => set("button_text", v)} {...err("button_text")} />
                <p className="admin-hint">The product page shows this button linking to the address instead of Add to cart; the cart refuses the product.</p>
              </fieldset>
            ) : null}
            {grouped ? (
              <fieldset className="admin-fieldset">
                <legend>Grouped products</legend>
                <IdTokens
                  label="Grouped products"
                  options={children.filter((p) => p.id !== product.id)}
                  value={f.grouped_products}
                  onChange={(ids) => set("grouped_products", ids)}
                  error={errors.grouped_products}
                />
                <p className="admin-hint">
                  Simple products, listed on this product&apos;s page with a quantity each; the shopper adds the chosen ones to the cart. Only published ones
                  show. The price shown is the children&apos;s range.
                </p>
              </fieldset>
            ) : null}
            {bundle ? (
              <>
                <BundledItemsPanel
                  items={f.bundled_items}
                  products={children.filter((p) => p.id !== product.id)}
                  update={updater("bundled_items")}
                  error={errors.bundled_items}
                />
                <fieldset className="admin-fieldset">
                  <legend>Price</legend>
                  <TextControl
                    __next40pxDefaultSize
                    label="Base price"
                    help={
                      errors.regular_price ? (
                        <span className="admin-field-error">{errors.regular_price}</span>
                      ) : (
                        "The box itself: the bundle costs this plus its items (0 when only the items count)."
                      )
                    }
                    inputMode="decimal"
                    value={f.regular_price}
                    onChange={(v) => set("regular_price", v)}
                    {...(errors.regular_price ? { "aria-invalid": true as const } : {})}
                  />
                </fieldset>
              </>
            ) : null}
            {variable || grouped || bundle ? null : (
              <fieldset className="admin-fieldset">
                <legend>Price</legend>
                <div className="admin-row">
                  <TextControl
                    __next40pxDefaultSize
                    label="Regular price"
                    inputMode="decimal"
                    value={f.regular_price}
                    onChange={(v) => set("regular_price", v)}
                    {...err("regular_price")}
                  />
                  <TextControl
                    __next40pxDefaultSize
                    label="Sale price"
                    inputMode="decimal"
                    value={f.sale_price}
                    onChange={(v) => set("sale_price", v)}
                    {...err("sale_price")}
                  />
                </div>
                <div className="admin-row">
                  <TextControl
                    __next40pxDefaultSize
                    type="date"
                    label="Sale from"
                    value={f.date_on_sale_from}
                    onChange={(v) => set("date_on_sale_from", v)}
                    {...err("date_on_sale_from")}
                  />
                  <TextControl
                    __next40pxDefaultSize
                    type="date"
                    label="Sale until"
                    value={f.date_on_sale_to}
                    onChange={(v) => set("date_on_sale_to", v)}
                    {...err("date_on_sale_to")}
                  />
                </div>
                <p className="admin-hint">
                  The dates are stored; the storefront does not apply a sale schedule yet (the sale price counts whenever it is set).
                </p>
              </fieldset>
            )}
            <fieldset className="admin-fieldset">
              <legend>Inventory</legend>
              <TextControl __next40pxDefaultSize label="SKU" value={f.sku} onChange={(v) => set("sku", v)} {...err("sku")} />
              {variable ? (
                <p className="admin-hint">The prices and stock of a variable product are its variations&apos;, set under Variations.</p>
              ) : grouped ? (
                <p className="admin-hint">A grouped product has no stock of its own: each child keeps its own.</p>
              ) : external ? (
                <p className="admin-hint">An external product is sold elsewhere: the shop keeps no stock of it.</p>
              ) : (
                <CheckboxControl label="Manage stock" checked={f.manage_stock} onChange={(v) => set("manage_stock", v)} />
              )}
              {variable || grouped || external ? null : f.manage_stock ? (
                <TextControl
                  __next40pxDefaultSize
                  type="number"
                  min={0}
                  step={1}
                  label="Stock quantity"
                  value={f.stock_quantity}
                  onChange={(v) => set("stock_quantity", v)}
                  {...err("stock_quantity")}
                />
              ) : (
                <SelectControl
                  __next40pxDefaultSize
                  label="Stock status"
                  value={f.stock_status}
                  options={STOCK_OPTIONS}
                  onChange={(v) => set("stock_status", v)}
                  {...err("stock_status")}
                />
              )}
            </fieldset>
          </div>
          <div className="admin-edit-side">
            <fieldset className="admin-fieldset">
              <legend>Publish</legend>
              <SelectControl
                __next40pxDefaultSize
                label="Status"
                value={f.status}
                options={STATUS_OPTIONS.filter((o) => o.value === "publish" || o.value === "draft" || o.value === product.status)}
                onChange={(v) => set("status", v)}
                {...err("status")}
              />
              <SelectControl
                __next40pxDefaultSize
                label="Catalog visibility"
                value={f.catalog_visibility}
                options={VISIBILITY_OPTIONS}
                onChange={(v) => set("catalog_visibility", v)}
                help={
                  errors.catalog_visibility ? <span className="admin-field-error">{errors.catalog_visibility}</span> : VISIBILITY_HELP[f.catalog_visibility]
                }
                {...(errors.catalog_visibility ? { "aria-invalid": true as const } : {})}
              />
              <p>{viewLink}</p>
              <Button variant="primary" type="submit" isBusy={saving} aria-disabled={saving} __next40pxDefaultSize>
                {saving ? "Saving…" : "Update"}
              </Button>
              {dirty ? <p className="admin-hint">Unsaved changes.</p> : null}
            </fieldset>
            <fieldset className="admin-fieldset admin-categories" aria-describedby={errors.categories ? "categories-error" : undefined}>
              <legend>Categories</legend>
              {categories.map((c) => (
                <CheckboxControl
                  key={c.id}
                  label={c.name}
                  checked={f.categories.includes(c.id)}
                  onChange={(on) => set("categories", on ? [...f.categories, c.id].sort((a, b) => a - b) : f.categories.filter((x) => x !== c.id))}
                />
              ))}
              {errors.categories ? (
                <p id="categories-error" className="admin-field-error">
                  {errors.categories}
                </p>
              ) : null}
            </fieldset>
            <fieldset className="admin-fieldset admin-linked">
              <legend>Tags and linked products</legend>
              <TagTokens
                tags={tags}
                onTagAdded={(tag) => setTags((list) => (list.some((t) => t.id === tag.id) ? list : [...list, tag]))}
                value={f.tags}
                onChange={updater("tags")}
                error={errors.tags}
              />
              <IdTokens
                label="Up-sells"
                options={products.filter((p) => p.id !== product.id)}
                value={f.upsell_ids}
                onChange={(ids) => set("upsell_ids", ids)}
                error={errors.upsell_ids}
              />
              <p className="admin-hint">Shown on this product's page as "You may also like…".</p>
              <IdTokens
                label="Cross-sells"
                options={products.filter((p) => p.id !== product.id)}
                value={f.cross_sell_ids}
                onChange={(ids) => set("cross_sell_ids", ids)}
                error={errors.cross_sell_ids}
              />
              <p className="admin-hint">Offered in the cart when this product is in it.</p>
            </fieldset>
          </div>
        </div>
      </form>
      {variable ? (
        <VariationsPanel
          productId={product.id}
          savedAttributes={load.saved.attributes}
          attributesDirty={JSON.stringify(load.saved.attributes) !== JSON.stringify(f.attributes)}
          images={load.saved.images}
          onDirty={setVariationsDirty}
          onSaved={variationsSaved}
        />
      ) : null}
    </>
  );
}
