/**
 * Add / Edit coupon (docs/contract/admin.md 'Coupon'): every rule `wc/v3/coupons` stores — code, type, amount,
 * expiry, free shipping, minimum and maximum spend, individual use, sale items, products and categories (and their
 * exclusions), usage limits — on `@wordpress/components`. An edit is saved with `PUT` and the version read as
 * `If-Match`, so a save over someone else's is refused (412 `rest_coupon_changed`), never a silent overwrite; the
 * API's refusals are shown at the field they name; leaving with unsaved changes asks first.
 */
import { useEffect, useId, useMemo, useState, type FormEvent } from "react";
import { Button, CheckboxControl, FormTokenField, Notice, SelectControl, Spinner, TextControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { useCatalogChoices, type Named } from "./catalog-choices.ts";
import { useUnsavedWarning } from "./use-unsaved-warning.ts";
import { refusedSave, useFocusFirstInvalid, SaveNotice, type SaveNote } from "./SaveNotice.tsx";
import { COUPON_TYPES, type RestCoupon } from "./coupon-types.ts";

interface Form {
  code: string;
  discount_type: RestCoupon["discount_type"];
  amount: string;
  date_expires: string;
  free_shipping: boolean;
  minimum_amount: string;
  maximum_amount: string;
  individual_use: boolean;
  exclude_sale_items: boolean;
  product_ids: number[];
  excluded_product_ids: number[];
  product_categories: number[];
  excluded_product_categories: number[];
  usage_limit: string;
  usage_limit_per_user: string;
}

const EMPTY: Form = {
  code: "",
  discount_type: "fixed_cart",
  amount: "",
  date_expires: "",
  free_shipping: false,
  minimum_amount: "",
  maximum_amount: "",
  individual_use: false,
  exclude_sale_items: false,
  product_ids: [],
  excluded_product_ids: [],
  product_categories: [],
  excluded_product_categories: [],
  usage_limit: "",
  usage_limit_per_user: "",
};

const noZero = (money: string) => (Number(money) === 0 ? "" : money);
const formOf = (c: RestCoupon): Form => ({
  code: c.code,
  discount_type: c.discount_type,
  amount: c.amount,
  date_expires: c.date_expires?.slice(0, 10) ?? "",
  free_shipping: c.free_shipping,
  minimum_amount: noZero(c.minimum_amount),
  maximum_amount: noZero(c.maximum_amount),
  individual_use: c.individual_use,
  exclude_sale_items: c.exclude_sale_items,
  product_ids: c.product_ids,
  excluded_product_ids: c.excluded_product_ids,
  product_categories: c.product_categories,
  excluded_product_categories: c.excluded_product_categories,
  usage_limit: c.usage_limit === null ? "" : String(c.usage_limit),
  usage_limit_per_user: c.usage_limit_per_user === null ? "" : String(c.usage_limit_per_user),
});

/** The fields that differ from `before`, in the REST shape (an edit sends only those; a new coupon all of them). */
function changes(before: Form, after: Form): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof Form)[]) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    const v = after[key];
    if (key === "usage_limit" || key === "usage_limit_per_user") out[key] = v === "" ? null : /^\d+$/.test(v as string) ? Number(v) : v;
    else if (key === "date_expires") out[key] = v ? `${v as string}T00:00:00` : null;
    else if (key === "minimum_amount" || key === "maximum_amount") out[key] = v === "" ? "0" : v;
    else out[key] = v;
  }
  return out;
}

const LABELS: Record<string, string> = {
  code: "Coupon code",
  discount_type: "Discount type",
  amount: "Coupon amount",
  date_expires: "Coupon expiry date",
  minimum_amount: "Minimum spend",
  maximum_amount: "Maximum spend",
  product_ids: "Products",
  excluded_product_ids: "Exclude products",
  product_categories: "Product categories",
  excluded_product_categories: "Exclude categories",
  usage_limit: "Usage limit per coupon",
  usage_limit_per_user: "Usage limit per user",
};
const humane = (message: string) => message.replace(/\b[a-z]+(?:_[a-z]+)*\b/g, (w) => LABELS[w] ?? w);

function fieldErrors(e: RestError): Record<string, string> {
  if (e.code === "woocommerce_rest_coupon_code_already_exists") return { code: "Another coupon already has this code." };
  return Object.fromEntries(
    Object.entries(e.data?.params ?? {}).map(([field, message]) => [field === "date_expires_gmt" ? "date_expires" : field, humane(message)]),
  );
}

/** Products or categories chosen by name (FormTokenField's suggestions), kept as ids. */
export function IdTokens({
  label,
  options,
  value,
  onChange,
  error,
}: {
  label: string;
  options: Named[];
  value: number[];
  onChange: (ids: number[]) => void;
  error?: string;
}) {
  const nameOf = (id: number) => options.find((o) => o.id === id)?.name ?? `#${id}`;
  return (
    <div className="admin-tokens">
      <FormTokenField
        __next40pxDefaultSize
        __experimentalExpandOnFocus
        label={label}
        value={value.map(nameOf)}
        suggestions={options.map((o) => o.name)}
        onChange={(tokens) =>
          onChange(
            tokens
              .map((t) => {
                const name = typeof t === "string" ? t : t.value;
                return options.find((o) => o.name === name)?.id ?? Number(/^#(\d+)$/.exec(name)?.[1] ?? NaN);
              })
              .filter((id) => Number.isInteger(id)),
          )
        }
        __experimentalValidateInput={(name) => options.some((o) => o.name === name)}
        __experimentalShowHowTo={false}
      />
      {error ? <p className="admin-field-error">{error}</p> : null}
    </div>
  );
}

type Load = { state: "loading" } | { state: "error"; error: RestError } | { state: "ready"; coupon: RestCoupon | null; version: string; saved: Form };

export default function CouponScreen({ id }: { id: number | null }) {
  const [load, setLoad] = useState<Load>(id === null ? { state: "ready", coupon: null, version: "", saved: EMPTY } : { state: "loading" });
  const [form, setForm] = useState<Form>(EMPTY);
  const { products, categories } = useCatalogChoices();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const [notice, setNotice] = useState<SaveNote>(() =>
    new URLSearchParams(window.location.search).get("saved") === "created" ? { status: "success", text: "Coupon created." } : null,
  );
  const [saving, setSaving] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const noticeId = useId();

  useEffect(() => {
    if (id === null) return;
    let live = true;
    getWithHeaders<RestCoupon>(`/wc/v3/coupons/${id}`).then(
      ({ body, headers }) => {
        if (!live) return;
        const saved = formOf(body);
        setLoad({ state: "ready", coupon: body, version: headers.get("ETag") ?? "", saved });
        setForm(saved);
        setErrors({});
      },
      (error: RestError) => live && setLoad({ state: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [id, reloads]);

  const dirty = useMemo(() => load.state === "ready" && !leaveTo && Object.keys(changes(load.saved, form)).length > 0, [load, form, leaveTo]);
  useUnsavedWarning(dirty);
  // Leaving after a create or a delete: once the warning is off (this effect runs after its clean-up).
  useEffect(() => {
    if (leaveTo) window.location.assign(leaveTo);
  }, [leaveTo]);

  if (load.state === "loading") {
    return (
      <p role="status">
        <Spinner /> Loading the coupon…
      </p>
    );
  }
  if (load.state === "error") {
    return (
      <Notice status="error" isDismissible={false}>
        {load.error.code === "woocommerce_rest_shop_coupon_invalid_id" ? "This coupon doesn’t exist. Perhaps it was deleted?" : load.error.message}
      </Notice>
    );
  }
  const f = form;
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm({ ...f, [key]: value });
    if (errors[key]) setErrors(({ [key]: _, ...rest }) => rest);
  };
  const err = (key: string) => (errors[key] ? { help: <span className="admin-field-error">{errors[key]}</span>, "aria-invalid": true as const } : {});

  async function save(event: FormEvent) {
    event.preventDefault();
    if (load.state !== "ready" || saving) return;
    const patch = changes(load.saved, f);
    if (id !== null && !Object.keys(patch).length) {
      setNotice({ status: "warning", text: "Nothing to save: no field was changed." });
      return;
    }
    if (id === null) patch.discount_type = f.discount_type;
    setSaving(true);
    setNotice(null);
    try {
      if (id === null) {
        const { body } = await send<RestCoupon>("/wc/v3/coupons", "POST", patch);
        setLoad({ state: "ready", coupon: body, version: "", saved: formOf(body) });
        setLeaveTo(`/wp-admin/coupons/${body.id}/?saved=created`);
        return;
      }
      const { body, headers } = await send<RestCoupon>(`/wc/v3/coupons/${id}`, "PUT", patch, { "If-Match": load.version });
      const saved = formOf(body);
      setLoad({ state: "ready", coupon: body, version: headers.get("ETag") ?? "", saved });
      setForm(saved);
      setErrors({});
      setNotice({ status: "success", text: "Coupon updated." });
    } catch (e) {
      const refused = refusedSave(e as RestError, "rest_coupon_changed", "coupon", fieldErrors);
      if (refused.errors) {
        setErrors(refused.errors);
        if (Object.keys(refused.errors).length) focusFirstInvalid();
      }
      setNotice(refused.note);
    } finally {
      setSaving(false);
    }
  }

  async function remove() {
    if (id === null || load.state !== "ready") return;
    setSaving(true);
    try {
      await send(`/wc/v3/coupons/${id}?force=true`, "DELETE", undefined);
      setLeaveTo(`/wp-admin/coupons/?deleted=${encodeURIComponent(load.coupon?.code ?? "")}`);
    } catch (e) {
      setNotice({ status: "error", text: (e as RestError).message });
      setConfirmDelete(false);
      setSaving(false);
    }
  }

  const money = { __next40pxDefaultSize: true, inputMode: "decimal" as const };
  return (
    <form className="admin-product-edit admin-coupon-edit" onSubmit={save} noValidate aria-describedby={notice ? noticeId : undefined}>
      <SaveNotice
        id={noticeId}
        note={notice}
        reloadLabel="Reload the coupon (your changes are discarded)"
        onReload={() => {
          setLoad({ state: "loading" });
          setNotice(null);
          setReloads((n) => n + 1);
        }}
      />
      <div className="admin-edit-columns">
        <div className="admin-edit-main">
          <TextControl __next40pxDefaultSize label="Coupon code" value={f.code} onChange={(v) => set("code", v)} {...err("code")} />
          <fieldset className="admin-fieldset">
            <legend>General</legend>
            <div className="admin-row">
              <SelectControl
                __next40pxDefaultSize
                label="Discount type"
                value={f.discount_type}
                options={COUPON_TYPES.map((t) => ({ ...t }))}
                onChange={(v) => set("discount_type", v as Form["discount_type"])}
                {...err("discount_type")}
              />
              <TextControl
                {...money}
                label={f.discount_type === "percent" ? "Coupon amount (%)" : "Coupon amount"}
                value={f.amount}
                onChange={(v) => set("amount", v)}
                {...err("amount")}
              />
            </div>
            <TextControl
              __next40pxDefaultSize
              type="date"
              label="Coupon expiry date"
              help={errors.date_expires ? undefined : "The coupon stops working at 00:00 (UTC) of this day. Empty: never."}
              value={f.date_expires}
              onChange={(v) => set("date_expires", v)}
              {...err("date_expires")}
            />
            <CheckboxControl
              label="Allow free shipping"
              help="The cart's shipping is free with this coupon."
              checked={f.free_shipping}
              onChange={(v) => set("free_shipping", v)}
            />
          </fieldset>
          <fieldset className="admin-fieldset">
            <legend>Usage restriction</legend>
            <div className="admin-row">
              <TextControl {...money} label="Minimum spend" value={f.minimum_amount} onChange={(v) => set("minimum_amount", v)} {...err("minimum_amount")} />
              <TextControl {...money} label="Maximum spend" value={f.maximum_amount} onChange={(v) => set("maximum_amount", v)} {...err("maximum_amount")} />
            </div>
            <CheckboxControl
              label="Individual use only"
              help="The coupon cannot be used together with other coupons."
              checked={f.individual_use}
              onChange={(v) => set("individual_use", v)}
            />
            <CheckboxControl
              label="Exclude sale items"
              help="The coupon does not apply to items on sale."
              checked={f.exclude_sale_items}
              onChange={(v) => set("exclude_sale_items", v)}
            />
            <IdTokens label="Products" options={products} value={f.product_ids} onChange={(v) => set("product_ids", v)} error={errors.product_ids} />
            <IdTokens
              label="Exclude products"
              options={products}
              value={f.excluded_product_ids}
              onChange={(v) => set("excluded_product_ids", v)}
              error={errors.excluded_product_ids}
            />
            <IdTokens
              label="Product categories"
              options={categories}
              value={f.product_categories}
              onChange={(v) => set("product_categories", v)}
              error={errors.product_categories}
            />
            <IdTokens
              label="Exclude categories"
              options={categories}
              value={f.excluded_product_categories}
              onChange={(v) => set("excluded_product_categories", v)}
              error={errors.excluded_product_categories}
            />
          </fieldset>
          <fieldset className="admin-fieldset">
            <legend>Usage limits</legend>
            <div className="admin-row">
              <TextControl
                __next40pxDefaultSize
                type="number"
                min={1}
                step={1}
                label="Usage limit per coupon"
                help={errors.usage_limit ? undefined : "Empty: unlimited."}
                value={f.usage_limit}
                onChange={(v) => set("usage_limit", v)}
                {...err("usage_limit")}
              />
              <TextControl
                __next40pxDefaultSize
                type="number"
                min={1}
                step={1}
                label="Usage limit per user"
                help={errors.usage_limit_per_user ? undefined : "Empty: unlimited."}
                value={f.usage_limit_per_user}
                onChange={(v) => set("usage_limit_per_user", v)}
                {...err("usage_limit_per_user")}
              />
            </div>
          </fieldset>
        </div>
        <div className="admin-edit-side">
          <fieldset className="admin-fieldset">
            <legend>{id === null ? "Publish" : "Coupon"}</legend>
            {load.coupon ? (
              <p>
                Used {load.coupon.usage_count} {load.coupon.usage_count === 1 ? "time" : "times"}.
              </p>
            ) : null}
            <Button variant="primary" type="submit" isBusy={saving} aria-disabled={saving} __next40pxDefaultSize>
              {saving ? "Saving…" : id === null ? "Publish" : "Update"}
            </Button>
            {dirty ? <p className="admin-hint">Unsaved changes.</p> : null}
            {id !== null ? (
              confirmDelete ? (
                <div className="admin-confirm" role="group" aria-label="Confirm deletion">
                  <p>Delete the coupon “{load.coupon?.code}” for good? Carts that hold it lose it.</p>
                  <Button variant="primary" isDestructive onClick={remove} __next40pxDefaultSize>
                    Delete permanently
                  </Button>{" "}
                  <Button variant="tertiary" onClick={() => setConfirmDelete(false)} __next40pxDefaultSize>
                    Cancel
                  </Button>
                </div>
              ) : (
                <p>
                  <Button variant="link" isDestructive onClick={() => setConfirmDelete(true)}>
                    Delete coupon
                  </Button>
                </p>
              )
            ) : null}
          </fieldset>
          <p>
            <a href="/wp-admin/coupons/">All coupons</a>
          </p>
        </div>
      </div>
    </form>
  );
}
