/**
 * Add / Edit discount rule (docs/contract/admin.md 'Discount rules'): everything the pricing engine's rules hold —
 * title, code, status (published or draft), priority, stacking, schedule, the discount (bulk tiers with the product
 * page's table previewed, percentages, amounts, free shipping, buy X get Y with the free product and the choices),
 * which products it acts on and its conditions — saved through `shop/v1/discount-rules` with `If-Match`, refusals at
 * their field, an unsaved-changes warning; below, the promotion simulator with this rule as drafted.
 */
import { useCallback, useEffect, useId, useMemo, useState, type FormEvent } from "react";
import { Button, CheckboxControl, FormTokenField, Notice, SelectControl, Spinner, TextControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "./admin-screens.css";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { useCatalogChoices, type Named } from "./catalog-choices.ts";
import { useUnsavedWarning } from "./use-unsaved-warning.ts";
import { refusedSave, useFocusFirstInvalid, SaveNotice, type SaveNote } from "./SaveNotice.tsx";
import { PromotionSimulator } from "./PromotionSimulator.tsx";
import { shopMoney } from "./orders-shared.ts";
import { tierRangeLabel } from "../../core/domain/pricing/rules.ts";
import {
  COUNT_BY,
  EMPTY_RULE,
  NEW_TIER,
  RULE_KINDS,
  TIER_TYPES,
  formOf,
  ruleFieldErrors,
  ruleOf,
  type RestRule,
  type RuleForm,
  type TierForm,
} from "./discount-form.ts";

/** Chosen by name (FormTokenField's suggestions), kept as `valueOf` (ids or slugs). */
function Tokens<V>({
  label,
  options,
  value,
  valueOf,
  onChange,
  error,
}: {
  label: string;
  options: (Named & { slug?: string })[];
  value: V[];
  valueOf: (o: Named & { slug?: string }) => V;
  onChange: (v: V[]) => void;
  error?: string;
}) {
  const nameOf = (v: V) => options.find((o) => valueOf(o) === v)?.name ?? String(v);
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
            tokens.flatMap((t) => {
              const name = typeof t === "string" ? t : t.value;
              const o = options.find((x) => x.name === name);
              if (o) return [valueOf(o)];
              const kept = value.find((v) => String(v) === name);
              return kept === undefined ? [] : [kept];
            }),
          )
        }
        __experimentalValidateInput={(name) => options.some((o) => o.name === name)}
        __experimentalShowHowTo={false}
      />
      {error ? <p className="admin-field-error">{error}</p> : null}
    </div>
  );
}

/** The product page's bulk table as this rule's tiers will show it (range, then the discount or the tier's label). */
function BulkTablePreview({ tiers }: { tiers: TierForm[] }) {
  const rows = tiers.filter((t) => /^\d+$/.test(t.min.trim()));
  if (!rows.length) return null;
  const discount = (t: TierForm) => {
    if (t.label.trim()) return t.label.trim();
    const v = Number(t.value);
    if (t.type === "percent") return `${v}% off`;
    if (t.type === "fixed_per_unit") return `${shopMoney(v)} off each`;
    if (t.type === "fixed_unit_price") return `${shopMoney(v)} each`;
    return `${t.min} for ${shopMoney(v)}`;
  };
  return (
    <figure className="admin-bulk-preview">
      <figcaption>The product page’s bulk table (while the rule is published and in its schedule):</figcaption>
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">Quantity</th>
            <th scope="col">Discount</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((t, i) => (
            <tr key={i}>
              <td>{tierRangeLabel({ min: Number(t.min), ...(/^\d+$/.test(t.max.trim()) ? { max: Number(t.max) } : {}), type: t.type, value: 0 })}</td>
              <td>{discount(t)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

type Load = { state: "loading" } | { state: "error"; error: RestError } | { state: "ready"; rule: RestRule | null; version: string; saved: RuleForm };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export default function DiscountRuleScreen({ code }: { code: string | null }) {
  const [load, setLoad] = useState<Load>(code === null ? { state: "ready", rule: null, version: "", saved: EMPTY_RULE } : { state: "loading" });
  const [form, setForm] = useState<RuleForm>(EMPTY_RULE);
  const { products, categories } = useCatalogChoices();
  const [choicesOf, setChoicesOf] = useState<{ product: string; choices: Named[] }>({ product: "", choices: [] });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const [notice, setNotice] = useState<SaveNote>(() =>
    new URLSearchParams(window.location.search).get("saved") === "created" ? { status: "success", text: "Discount rule saved." } : null,
  );
  const [saving, setSaving] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const noticeId = useId();

  useEffect(() => {
    if (code === null) return;
    let live = true;
    getWithHeaders<RestRule>(`/shop/v1/discount-rules/${encodeURIComponent(code)}`).then(
      ({ body, headers }) => {
        if (!live) return;
        const saved = formOf(body);
        setLoad({ state: "ready", rule: body, version: headers.get("ETag") ?? "", saved });
        setForm(saved);
        setErrors({});
      },
      (error: RestError) => live && setLoad({ state: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [code, reloads]);

  // The free product's variations are what a shopper may choose among (its own id when it has none).
  useEffect(() => {
    if (form.kind !== "buy_x_get_y" || !/^\d+$/.test(form.getProductId)) return;
    let live = true;
    getWithHeaders<{ id: number; attributes: { option: string }[] }[]>(
      `/wc/v3/products/${form.getProductId}/variations?per_page=100&_fields=id,attributes`,
    ).then(
      ({ body }) => {
        if (!live) return;
        const product = products.find((p) => String(p.id) === form.getProductId);
        setChoicesOf({
          product: form.getProductId,
          choices: body.length
            ? body.map((v) => ({ id: v.id, name: `${product?.name ?? "#" + form.getProductId} – ${v.attributes.map((a) => a.option).join(", ") || v.id}` }))
            : product
              ? [product]
              : [],
        });
      },
      () => live && setChoicesOf({ product: form.getProductId, choices: [] }),
    );
    return () => {
      live = false;
    };
  }, [form.kind, form.getProductId, products]);

  const dirty = useMemo(() => load.state === "ready" && !leaveTo && !same(ruleOf(load.saved).rule, ruleOf(form).rule), [load, form, leaveTo]);
  useUnsavedWarning(dirty);
  useEffect(() => {
    if (leaveTo) window.location.assign(leaveTo);
  }, [leaveTo]);

  const draft = useCallback(() => ruleOf(form).rule, [form]);
  const draftErrors = useCallback(
    (params: Record<string, string>) => {
      const found = ruleFieldErrors(params, ruleOf(form));
      setErrors(found);
      if (Object.keys(found).length) focusFirstInvalid();
    },
    [form, focusFirstInvalid],
  );

  if (load.state === "loading") {
    return (
      <p role="status">
        <Spinner /> Loading the discount rule…
      </p>
    );
  }
  if (load.state === "error") {
    return (
      <Notice status="error" isDismissible={false}>
        {load.error.code === "rest_discount_rule_invalid_id" ? "This discount rule doesn’t exist. Perhaps it was deleted?" : load.error.message}
      </Notice>
    );
  }
  const f = form;
  const freeChoices = f.kind === "buy_x_get_y" && choicesOf.product === f.getProductId ? choicesOf.choices : [];
  const set = <K extends keyof RuleForm>(key: K, value: RuleForm[K]) => {
    setForm({ ...f, [key]: value });
    if (errors[key]) setErrors(({ [key]: _, ...rest }) => rest);
  };
  const setTier = (index: number, patch: Partial<TierForm>) => {
    setForm({ ...f, tiers: f.tiers.map((t, i) => (i === index ? { ...t, ...patch } : t)) });
    const touched = Object.keys(patch).map((k) => `tiers.${index}.${k}`);
    if (touched.some((k) => errors[k])) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !touched.includes(k))));
  };
  const err = (key: string) => (errors[key] ? { help: <span className="admin-field-error">{errors[key]}</span>, "aria-invalid": true as const } : {});
  const helpOr = (key: string, help: string) => (errors[key] ? err(key) : { help });
  const field = { __next40pxDefaultSize: true };
  const money = { __next40pxDefaultSize: true, inputMode: "decimal" as const };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (load.state !== "ready" || saving) return;
    const sent = ruleOf(f);
    const before = ruleOf(load.saved).rule;
    const patch = code === null ? sent.rule : Object.fromEntries(Object.entries(sent.rule).filter(([k, v]) => !same(before[k], v)));
    // A field emptied (the schedule) is sent as its empty value, so the stored one goes.
    if (code !== null && "schedule" in before && !("schedule" in sent.rule)) patch.schedule = {};
    if (code !== null) delete patch.code;
    if (code !== null && !Object.keys(patch).length) {
      setNotice({ status: "warning", text: "Nothing to save: no field was changed." });
      return;
    }
    setSaving(true);
    setNotice(null);
    try {
      if (code === null) {
        const { body } = await send<RestRule>("/shop/v1/discount-rules", "POST", patch);
        setLoad({ state: "ready", rule: body, version: "", saved: formOf(body) });
        setLeaveTo(`/wp-admin/discounts/${encodeURIComponent(body.code)}/?saved=created`);
        return;
      }
      const { body, headers } = await send<RestRule>(`/shop/v1/discount-rules/${encodeURIComponent(code)}`, "PUT", patch, { "If-Match": load.version });
      const saved = formOf(body);
      setLoad({ state: "ready", rule: body, version: headers.get("ETag") ?? "", saved });
      setForm(saved);
      setErrors({});
      setNotice({ status: "success", text: body.enabled ? "Discount rule updated: it is published." : "Discount rule updated: it is a draft." });
    } catch (e) {
      const refused = refusedSave(e as RestError, "rest_discount_rule_changed", "discount rule", (x) =>
        x.code === "rest_discount_rule_exists" ? { code: "Another discount rule already has this code." } : ruleFieldErrors(x.data?.params ?? {}, sent),
      );
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
    if (code === null) return;
    setSaving(true);
    try {
      await send(`/shop/v1/discount-rules/${encodeURIComponent(code)}`, "DELETE", undefined);
      setLeaveTo(`/wp-admin/discounts/?deleted=${encodeURIComponent(code)}`);
    } catch (e) {
      setNotice({ status: "error", text: (e as RestError).message });
      setConfirmDelete(false);
      setSaving(false);
    }
  }

  const productOptions = [{ value: "", label: "Choose a product…" }, ...products.map((p) => ({ value: String(p.id), label: p.name }))];
  return (
    <>
      <form className="admin-product-edit admin-rule-edit" onSubmit={save} noValidate aria-describedby={notice ? noticeId : undefined}>
        <SaveNotice
          id={noticeId}
          note={notice}
          reloadLabel="Reload the rule (your changes are discarded)"
          onReload={() => {
            setLoad({ state: "loading" });
            setNotice(null);
            setReloads((n) => n + 1);
          }}
        />
        <div className="admin-edit-columns">
          <div className="admin-edit-main">
            <TextControl
              {...field}
              label="Rule name"
              help={errors.title ? undefined : "Shown to shoppers next to the discount."}
              value={f.title}
              onChange={(v) => set("title", v)}
              {...err("title")}
            />
            <TextControl
              {...field}
              label="Code"
              {...helpOr("code", code === null ? "Lower-case letters, digits, - and _; it names the rule for good." : "The rule’s identity: it cannot change.")}
              value={f.code}
              readOnly={code !== null}
              onChange={(v) => set("code", v)}
            />
            <fieldset className="admin-fieldset">
              <legend>Discount</legend>
              <SelectControl
                {...field}
                label="Discount type"
                value={f.kind}
                options={RULE_KINDS}
                onChange={(v) => set("kind", v as RuleForm["kind"])}
                {...err("kind")}
              />
              {f.kind === "bulk" ? (
                <>
                  <SelectControl
                    {...field}
                    label="Count the quantity over"
                    value={f.countBy}
                    options={COUNT_BY.map((c) => ({ ...c }))}
                    onChange={(v) => set("countBy", v as RuleForm["countBy"])}
                    {...err("countBy")}
                  />
                  {errors.tiers ? <p className="admin-field-error">{errors.tiers}</p> : null}
                  {f.tiers.map((t, i) => (
                    <fieldset className="admin-tier" key={i}>
                      <legend>Tier {i + 1}</legend>
                      <div className="admin-row">
                        <TextControl
                          {...field}
                          type="number"
                          min={1}
                          label={`Tier ${i + 1}: from quantity`}
                          value={t.min}
                          onChange={(v) => setTier(i, { min: v })}
                          {...err(`tiers.${i}.min`)}
                        />
                        <TextControl
                          {...field}
                          type="number"
                          min={1}
                          label={`Tier ${i + 1}: up to quantity`}
                          {...helpOr(`tiers.${i}.max`, "Empty: no limit.")}
                          value={t.max}
                          onChange={(v) => setTier(i, { max: v })}
                        />
                        <SelectControl
                          {...field}
                          label={`Tier ${i + 1}: discount`}
                          value={t.type}
                          options={TIER_TYPES}
                          onChange={(v) => setTier(i, { type: v as TierForm["type"] })}
                          {...err(`tiers.${i}.type`)}
                        />
                        <TextControl
                          {...money}
                          label={`Tier ${i + 1}: ${t.type === "percent" ? "percentage (%)" : "amount"}`}
                          value={t.value}
                          onChange={(v) => setTier(i, { value: v })}
                          {...err(`tiers.${i}.value`)}
                        />
                        <TextControl
                          {...field}
                          label={`Tier ${i + 1}: label`}
                          {...helpOr(`tiers.${i}.label`, "Optional, e.g. “6 masks for $15”.")}
                          value={t.label}
                          onChange={(v) => setTier(i, { label: v })}
                        />
                      </div>
                      {f.tiers.length > 1 ? (
                        <Button
                          variant="tertiary"
                          isDestructive
                          onClick={() =>
                            set(
                              "tiers",
                              f.tiers.filter((_, j) => j !== i),
                            )
                          }
                        >
                          Remove tier {i + 1}
                        </Button>
                      ) : null}
                    </fieldset>
                  ))}
                  <p>
                    <Button variant="secondary" onClick={() => set("tiers", [...f.tiers, { ...NEW_TIER }])}>
                      Add a tier
                    </Button>
                  </p>
                  <BulkTablePreview tiers={f.tiers} />
                </>
              ) : null}
              {f.kind === "product_percent" || f.kind === "cart_percent" ? (
                <div className="admin-row">
                  <TextControl {...money} label="Percentage (%)" value={f.percent} onChange={(v) => set("percent", v)} {...err("percent")} />
                  {f.kind === "cart_percent" ? (
                    <TextControl
                      {...money}
                      label="At most"
                      {...helpOr("maxDiscount", "Empty: no cap.")}
                      value={f.maxDiscount}
                      onChange={(v) => set("maxDiscount", v)}
                    />
                  ) : null}
                </div>
              ) : null}
              {f.kind === "product_fixed" || f.kind === "cart_fixed" ? (
                <TextControl
                  {...money}
                  label={f.kind === "product_fixed" ? "Amount off each unit" : "Amount off the cart"}
                  value={f.amount}
                  onChange={(v) => set("amount", v)}
                  {...err("amount")}
                />
              ) : null}
              {f.kind === "buy_x_get_y" ? (
                <>
                  <div className="admin-row">
                    <TextControl
                      {...field}
                      type="number"
                      min={1}
                      label="Buy quantity"
                      value={f.buyQuantity}
                      onChange={(v) => set("buyQuantity", v)}
                      {...err("buyQuantity")}
                    />
                    <TextControl
                      {...field}
                      type="number"
                      min={1}
                      label="Get quantity"
                      value={f.getQuantity}
                      onChange={(v) => set("getQuantity", v)}
                      {...err("getQuantity")}
                    />
                    <TextControl
                      {...money}
                      label="Discount on the free item (%)"
                      {...helpOr("discountPercent", "100: free.")}
                      value={f.discountPercent}
                      onChange={(v) => set("discountPercent", v)}
                    />
                  </div>
                  <SelectControl
                    {...field}
                    label="Free product"
                    value={f.getProductId}
                    options={productOptions}
                    onChange={(v) => setForm({ ...f, getProductId: v, choosable: [], defaultProductId: "" })}
                    {...err("getProductId")}
                  />
                  <Tokens<number>
                    label="The shopper may choose among"
                    options={freeChoices}
                    value={f.choosable}
                    valueOf={(o) => o.id}
                    onChange={(v) => set("choosable", v)}
                    error={errors.choosable}
                  />
                  <SelectControl
                    {...field}
                    label="Given by default"
                    value={f.defaultProductId}
                    options={[
                      { value: "", label: "The first choice" },
                      ...freeChoices.filter((c) => f.choosable.includes(c.id)).map((c) => ({ value: String(c.id), label: c.name })),
                    ]}
                    onChange={(v) => set("defaultProductId", v)}
                    {...err("defaultProductId")}
                  />
                  <CheckboxControl label="Repeat for every multiple of the buy quantity" checked={f.recursive} onChange={(v) => set("recursive", v)} />
                </>
              ) : null}
            </fieldset>
            <fieldset className="admin-fieldset">
              <legend>Applies to</legend>
              <p className="admin-hint">Nothing chosen: every product.</p>
              <Tokens<number>
                label="Products"
                options={products}
                value={f.products}
                valueOf={(o) => o.id}
                onChange={(v) => set("products", v)}
                error={errors.products}
              />
              <CheckboxControl label="Every product except these" checked={f.excludeProducts} onChange={(v) => set("excludeProducts", v)} />
              <Tokens<string>
                label="Categories"
                options={categories}
                value={f.categories}
                valueOf={(o) => o.slug ?? ""}
                onChange={(v) => set("categories", v)}
                error={errors.categories}
              />
              <CheckboxControl label="Every category except these" checked={f.excludeCategories} onChange={(v) => set("excludeCategories", v)} />
              <SelectControl
                {...field}
                label="Sale items"
                value={f.onSale}
                options={[
                  { value: "any", label: "On sale or not" },
                  { value: "only", label: "Only items on sale" },
                  { value: "not", label: "Only items not on sale" },
                ]}
                onChange={(v) => set("onSale", v as RuleForm["onSale"])}
                {...err("onSale")}
              />
              {f.otherFilters.length ? (
                <p className="admin-hint">And {f.otherFilters.length} more filter(s) set through the API (variations or categories by id), kept as they are.</p>
              ) : null}
            </fieldset>
            <fieldset className="admin-fieldset">
              <legend>Conditions</legend>
              <p className="admin-hint">All must hold for the rule to apply; empty: no condition.</p>
              <div className="admin-row">
                <TextControl {...money} label="Cart subtotal at least" value={f.subtotalMin} onChange={(v) => set("subtotalMin", v)} {...err("subtotalMin")} />
                <TextControl {...money} label="Cart subtotal at most" value={f.subtotalMax} onChange={(v) => set("subtotalMax", v)} {...err("subtotalMax")} />
              </div>
              <div className="admin-row">
                <TextControl
                  {...field}
                  type="number"
                  min={0}
                  label="Items in the cart at least"
                  value={f.quantityMin}
                  onChange={(v) => set("quantityMin", v)}
                  {...err("quantityMin")}
                />
                <TextControl
                  {...field}
                  type="number"
                  min={0}
                  label="Items in the cart at most"
                  value={f.quantityMax}
                  onChange={(v) => set("quantityMax", v)}
                  {...err("quantityMax")}
                />
              </div>
              <div className="admin-row">
                <TextControl
                  {...field}
                  type="number"
                  min={0}
                  label="Matching items at least"
                  value={f.matchedMin}
                  onChange={(v) => set("matchedMin", v)}
                  {...err("matchedMin")}
                />
                <TextControl
                  {...field}
                  type="number"
                  min={0}
                  label="Matching items at most"
                  value={f.matchedMax}
                  onChange={(v) => set("matchedMax", v)}
                  {...err("matchedMax")}
                />
              </div>
              <SelectControl
                {...field}
                label="Customers"
                value={f.loggedIn}
                options={[
                  { value: "any", label: "Everyone" },
                  { value: "yes", label: "Signed-in customers only" },
                  { value: "no", label: "Guests only" },
                ]}
                onChange={(v) => set("loggedIn", v as RuleForm["loggedIn"])}
                {...err("loggedIn")}
              />
              <div className="admin-row">
                <TextControl
                  {...field}
                  type="number"
                  min={0}
                  label="Uses in all"
                  {...helpOr("usageLimit", "Empty: unlimited.")}
                  value={f.usageLimit}
                  onChange={(v) => set("usageLimit", v)}
                />
                <TextControl
                  {...field}
                  type="number"
                  min={0}
                  label="Uses per customer"
                  {...helpOr("usageLimitPerCustomer", "Empty: unlimited.")}
                  value={f.usageLimitPerCustomer}
                  onChange={(v) => set("usageLimitPerCustomer", v)}
                />
              </div>
            </fieldset>
          </div>
          <div className="admin-edit-side">
            <fieldset className="admin-fieldset">
              <legend>Publish</legend>
              <SelectControl
                {...field}
                label="Status"
                value={f.enabled ? "publish" : "draft"}
                options={[
                  { value: "publish", label: "Published" },
                  { value: "draft", label: "Draft" },
                ]}
                onChange={(v) => set("enabled", v === "publish")}
              />
              <TextControl
                {...field}
                type="datetime-local"
                label="Starts (UTC)"
                {...helpOr("from", "Empty: at once.")}
                value={f.from}
                onChange={(v) => set("from", v)}
              />
              <TextControl {...field} type="datetime-local" label="Ends (UTC)" {...helpOr("to", "Empty: never.")} value={f.to} onChange={(v) => set("to", v)} />
              <TextControl
                {...field}
                type="number"
                label="Priority"
                {...helpOr("priority", "Lower numbers apply first.")}
                value={f.priority}
                onChange={(v) => set("priority", v)}
              />
              <SelectControl
                {...field}
                label="With other rules"
                value={f.stacking}
                options={[
                  { value: "combinable", label: "Combine with other rules" },
                  { value: "exclusive", label: "Exclusive: no lower-priority rule applies" },
                ]}
                onChange={(v) => set("stacking", v as RuleForm["stacking"])}
                {...err("stacking")}
              />
              <Button variant="primary" type="submit" isBusy={saving} aria-disabled={saving} __next40pxDefaultSize>
                {saving ? "Saving…" : code !== null ? "Update" : f.enabled ? "Publish" : "Save draft"}
              </Button>
              {dirty ? <p className="admin-hint">Unsaved changes.</p> : null}
              {code !== null ? (
                confirmDelete ? (
                  <div className="admin-confirm" role="group" aria-label="Confirm deletion">
                    <p>Delete the rule “{load.rule?.title}” for good? Carts are priced without it at once.</p>
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
                      Delete rule
                    </Button>
                  </p>
                )
              ) : null}
            </fieldset>
            <p>
              <a href="/wp-admin/discounts/">All discount rules</a>
            </p>
          </div>
        </div>
      </form>
      <PromotionSimulator draft={draft} onDraftErrors={draftErrors} />
    </>
  );
}
