/**
 * Settings › Tax (docs/contract/admin.md 'Settings', docs/decisions/0040-tax-rates.md): the tax options over
 * `shop/v1/settings/tax` (on/off, whose address picks the rates, whether shipping is taxed) and the standard rates
 * over `wc/v3/taxes` (WooCommerce's endpoint): a table of the rates, each edited or deleted in place, and a form to add
 * one. Prices are entered exclusive of tax; refusals show at their field.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { Button, CheckboxControl, RadioControl, SelectControl, TextControl } from "@wordpress/components";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { SectionForm } from "./settings-section.tsx";
import { Loading, LoadError, ResultNotice, type ActionResult } from "./Status.tsx";
import { useFocusFirstInvalid } from "./SaveNotice.tsx";
import { errorsByPath } from "./settings-section.tsx";
import { COUNTRIES } from "../../core/domain/checkout/countries.ts";

interface TaxOptions extends Record<string, unknown> {
  enabled: boolean;
  basedOn: "shipping" | "billing" | "base";
  shippingTaxable: boolean;
}

interface Rate {
  id: number;
  country: string;
  state: string;
  postcodes: string[];
  rate: string;
  name: string;
  priority: number;
  compound: boolean;
  shipping: boolean;
  order: number;
}

const BASED_ON = [
  { value: "shipping", label: "Customer shipping address (the billing address when there is none)" },
  { value: "billing", label: "Customer billing address" },
  { value: "base", label: "Shop base address (Settings › General)" },
];

const COUNTRY_OPTIONS = [{ value: "", label: "Any country" }, ...Object.entries(COUNTRIES).map(([code, c]) => ({ value: code, label: `${c.name} (${code})` }))];

/** "20.0000" → "20". */
const shortRate = (rate: string) => rate.replace(/\.?0+$/, "");

interface Draft {
  country: string;
  state: string;
  postcode: string;
  rate: string;
  name: string;
  priority: string;
  compound: boolean;
  shipping: boolean;
}
const draftOf = (r: Rate | null): Draft => ({
  country: r?.country ?? "",
  state: r?.state ?? "",
  postcode: (r?.postcodes ?? []).join("; "),
  rate: r ? shortRate(r.rate) : "",
  name: r?.name ?? "",
  priority: String(r?.priority ?? 1),
  compound: r?.compound ?? false,
  shipping: r?.shipping ?? true,
});

function RateForm({ rate, onDone, onCancel }: { rate: Rate | null; onDone: (text: string) => void; onCancel: () => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(rate));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [note, setNote] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const focusFirstInvalid = useFocusFirstInvalid();
  const first = useRef<HTMLSelectElement>(null);
  useEffect(() => first.current?.focus(), []);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== key)));
  };
  const err = (p: string) => (errors[p] ? { help: <span className="admin-field-error">{errors[p]}</span>, "aria-invalid": true as const } : {});
  const title = rate ? `Edit tax rate “${rate.name || shortRate(rate.rate) + " %"}”` : "Add tax rate";

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    setNote(null);
    const body = {
      country: draft.country,
      state: draft.state.trim(),
      postcode: draft.postcode,
      rate: draft.rate.trim(),
      name: draft.name,
      priority: draft.priority.trim(),
      compound: draft.compound,
      shipping: draft.shipping,
    };
    try {
      const { body: saved } = await send<Rate>(rate ? `/wc/v3/taxes/${rate.id}` : "/wc/v3/taxes", rate ? "PUT" : "POST", body);
      onDone(`Tax rate “${saved.name || shortRate(saved.rate) + " %"}” ${rate ? "saved" : "added"}.`);
    } catch (thrown) {
      const error = thrown as RestError;
      const byField = errorsByPath(error);
      setErrors(byField);
      setNote(Object.keys(byField).length ? "The tax rate was not saved: some fields need correcting." : error.message);
      focusFirstInvalid();
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="admin-settings-section admin-tax-rate-form" onSubmit={(e) => void save(e)} aria-labelledby="tax-rate-form-title" noValidate>
      <h3 id="tax-rate-form-title">{title}</h3>
      <div role="alert">{note ? <p className="admin-field-error">{note}</p> : null}</div>
      <div className="admin-row">
        <SelectControl
          ref={first}
          __next40pxDefaultSize
          label="Country"
          value={draft.country}
          options={COUNTRY_OPTIONS}
          onChange={(v) => set("country", v)}
          {...err("country")}
        />
        <TextControl
          __next40pxDefaultSize
          label="State code"
          help={errors.state ? undefined : "Empty for any state, e.g. CA"}
          value={draft.state}
          onChange={(v) => set("state", v)}
          {...err("state")}
        />
      </div>
      <TextControl
        __next40pxDefaultSize
        label="Postcodes"
        help={errors.postcode ? undefined : "Optional; separate with ; — a prefix ends in * (SW1*), a range is 90210...90299"}
        value={draft.postcode}
        onChange={(v) => set("postcode", v)}
        {...err("postcode")}
      />
      <div className="admin-row">
        <TextControl __next40pxDefaultSize label="Rate %" inputMode="decimal" value={draft.rate} onChange={(v) => set("rate", v)} {...err("rate")} />
        <TextControl
          __next40pxDefaultSize
          label="Tax name"
          help={errors.name ? undefined : "Shown to shoppers, e.g. VAT"}
          value={draft.name}
          onChange={(v) => set("name", v)}
          {...err("name")}
        />
        <TextControl
          __next40pxDefaultSize
          label="Priority"
          inputMode="numeric"
          value={draft.priority}
          onChange={(v) => set("priority", v)}
          {...err("priority")}
        />
      </div>
      <CheckboxControl
        label="Compound (charged on top of the other taxes)"
        checked={draft.compound}
        onChange={(v) => set("compound", v)}
        {...err("compound")}
      />
      <CheckboxControl label="Applies to shipping" checked={draft.shipping} onChange={(v) => set("shipping", v)} {...err("shipping")} />
      <p className="admin-buttons">
        <Button variant="primary" type="submit" isBusy={saving} aria-disabled={saving} __next40pxDefaultSize>
          {rate ? "Save rate" : "Add rate"}
        </Button>
        <Button variant="tertiary" onClick={onCancel} __next40pxDefaultSize>
          Cancel
        </Button>
      </p>
    </form>
  );
}

type Load = { state: "loading" } | { state: "error"; error: RestError } | { state: "ready"; rates: Rate[] };

function TaxRates({ onDirty }: { onDirty: (dirty: boolean) => void }) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [reloads, setReloads] = useState(0);
  const [editing, setEditing] = useState<{ rate: Rate | null } | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ActionResult>(null);

  useEffect(() => {
    let live = true;
    getWithHeaders<Rate[]>("/wc/v3/taxes?per_page=100&orderby=priority").then(
      ({ body }) => live && setLoad({ state: "ready", rates: body }),
      (error: RestError) => live && setLoad({ state: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [reloads]);
  useEffect(() => onDirty(editing !== null), [editing, onDirty]);

  async function remove(r: Rate) {
    setBusy(true);
    setDeleting(null);
    try {
      await send(`/wc/v3/taxes/${r.id}?force=true`, "DELETE", undefined);
      setResult({ status: "success", text: `Tax rate “${r.name || shortRate(r.rate) + " %"}” deleted.` });
      setReloads((n) => n + 1);
    } catch (e) {
      setResult({ status: "error", text: (e as RestError).message });
    } finally {
      setBusy(false);
    }
  }

  const rates = load.state === "ready" ? load.rates : [];
  return (
    <section className="admin-settings-section" aria-labelledby="tax-rates-title">
      <h2 id="tax-rates-title">Standard rates</h2>
      <p className="admin-hint">
        An address pays, for each priority, the first rate here that matches it (country, state, postcode; empty matches any); rates of different priorities add
        up, a compound rate is charged on top of the others.
      </p>
      <ResultNotice result={result} />
      {load.state === "loading" ? (
        <Loading what="the tax rates" />
      ) : load.state === "error" ? (
        <LoadError error={load.error} />
      ) : (
        <>
          {/* A narrow screen scrolls the table, not the page: the region takes the keyboard's focus to be scrolled (axe: scrollable-region-focusable). */}
          {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
          <div className="admin-table-scroll admin-tax-rates-scroll" role="region" aria-label="Tax rates" tabIndex={0}>
            <table className="admin-table admin-tax-rates">
              <thead>
                <tr>
                  <th scope="col">Tax name</th>
                  <th scope="col">Country</th>
                  <th scope="col">State</th>
                  <th scope="col">Postcodes</th>
                  <th scope="col">Rate %</th>
                  <th scope="col">Priority</th>
                  <th scope="col">Compound</th>
                  <th scope="col">Shipping</th>
                  <th scope="col">
                    <span className="screen-reader-text">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rates.length === 0 ? (
                  <tr>
                    <td colSpan={9}>No tax rates yet.</td>
                  </tr>
                ) : null}
                {rates.map((r) => {
                  const label = r.name || `${shortRate(r.rate)} %`;
                  return (
                    <tr key={r.id}>
                      <th scope="row">{r.name || "Tax"}</th>
                      <td>{r.country ? (COUNTRIES[r.country]?.name ?? r.country) : "Any"}</td>
                      <td>{r.state || "Any"}</td>
                      <td>{r.postcodes.length ? r.postcodes.join("; ") : "Any"}</td>
                      <td>{shortRate(r.rate)}</td>
                      <td>{r.priority}</td>
                      <td>{r.compound ? "Yes" : "No"}</td>
                      <td>{r.shipping ? "Yes" : "No"}</td>
                      <td>
                        {deleting === r.id ? (
                          <span className="admin-buttons" role="group" aria-label={`Delete ${label}?`}>
                            <span>Delete “{label}”?</span>
                            <Button variant="primary" isDestructive isBusy={busy} aria-disabled={busy} onClick={() => void remove(r)} __next40pxDefaultSize>
                              Delete rate
                            </Button>
                            <Button variant="tertiary" onClick={() => setDeleting(null)} __next40pxDefaultSize>
                              Keep it
                            </Button>
                          </span>
                        ) : (
                          <span className="admin-buttons">
                            <Button variant="secondary" size="small" onClick={() => setEditing({ rate: r })} aria-label={`Edit ${label}`}>
                              Edit
                            </Button>
                            <Button variant="link" isDestructive onClick={() => setDeleting(r.id)} aria-label={`Delete ${label}`}>
                              Delete
                            </Button>
                          </span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
      {editing ? (
        <RateForm
          key={editing.rate?.id ?? "new"}
          rate={editing.rate}
          onCancel={() => setEditing(null)}
          onDone={(text) => {
            setEditing(null);
            setResult({ status: "success", text });
            setReloads((n) => n + 1);
          }}
        />
      ) : (
        <p>
          <Button variant="primary" onClick={() => setEditing({ rate: null })} __next40pxDefaultSize>
            Add tax rate
          </Button>
        </p>
      )}
    </section>
  );
}

export default function TaxSettings({ onDirty }: { onDirty: (dirty: boolean) => void }) {
  const parts = useRef({ options: false, rates: false });
  const onOptions = useCallback(
    (d: boolean) => {
      parts.current.options = d;
      onDirty(parts.current.options || parts.current.rates);
    },
    [onDirty],
  );
  const onRates = useCallback(
    (d: boolean) => {
      parts.current.rates = d;
      onDirty(parts.current.options || parts.current.rates);
    },
    [onDirty],
  );
  return (
    <>
      <SectionForm<TaxOptions> section="tax" legend="Tax" onDirty={onOptions}>
        {(s) => (
          <>
            <CheckboxControl
              label="Enable tax rates and calculations"
              help="Off: no tax is shown or charged anywhere. On: the rates below are added to carts and orders."
              checked={s.form.enabled}
              onChange={(v) => s.set("enabled", v)}
              {...s.err("enabled")}
            />
            <p className="admin-hint">
              Prices are entered exclusive of tax: the tax is added on top of the prices you set (prices entered with tax are not supported).
            </p>
            <RadioControl
              label="Calculate tax based on"
              selected={s.form.basedOn}
              options={BASED_ON}
              onChange={(v) => s.set("basedOn", v as TaxOptions["basedOn"])}
              {...s.err("basedOn")}
            />
            <CheckboxControl
              label="Shipping is taxable"
              help="By the rates marked “Applies to shipping”."
              checked={s.form.shippingTaxable}
              onChange={(v) => s.set("shippingTaxable", v)}
              {...s.err("shippingTaxable")}
            />
          </>
        )}
      </SectionForm>
      <TaxRates onDirty={onRates} />
    </>
  );
}
