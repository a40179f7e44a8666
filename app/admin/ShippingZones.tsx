/**
 * Settings › Shipping (docs/contract/admin.md 'Settings'): the shipping zones over `shop/v1/shipping-zones`. The list in
 * matching order (a cart gets the methods of the first zone its address is in; "Locations not covered by your other
 * zones" last), moved up and down; a zone's editor: its name, its regions (countries, state codes, postcodes) and its
 * ordered methods (flat rate, free shipping, local pickup). Amounts are typed in dollars and sent in cents. A save over
 * someone else's is refused (412) with a reload offered; refusals show at their field.
 */
import { useCallback, useEffect, useState } from "react";
import { Button, CheckboxControl, SelectControl, TextControl, TextareaControl } from "@wordpress/components";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { Loading, LoadError, ResultNotice, type ActionResult } from "./Status.tsx";
import { SaveNotice, useFocusFirstInvalid, type SaveNote } from "./SaveNotice.tsx";
import { errorsByPath } from "./settings-section.tsx";
import { COUNTRIES } from "../../core/domain/checkout/countries.ts";

type Kind = "flat_rate" | "free_shipping" | "local_pickup";
type Requires = "none" | "grant" | "min_amount" | "either" | "both";
interface Method {
  id?: string;
  kind: Kind;
  title: string;
  cost?: number;
  costPerItem?: number;
  requires?: Requires;
  minAmount?: number;
  ignoreCouponDiscounts?: boolean;
}
interface Region {
  type: "country" | "state" | "postcode";
  code: string;
}
interface Zone {
  id: number;
  name: string;
  order: number | null;
  rest_of_world: boolean;
  regions: Region[];
  methods: Method[];
}

const KIND_LABELS: Record<Kind, string> = { flat_rate: "Flat rate", free_shipping: "Free shipping", local_pickup: "Local pickup" };
const REQUIRES_OPTIONS: { value: Requires; label: string }[] = [
  { value: "none", label: "Nothing: always available" },
  { value: "grant", label: "A discount rule or coupon granting free shipping" },
  { value: "min_amount", label: "A minimum order amount" },
  { value: "either", label: "A minimum order amount OR a granting rule or coupon" },
  { value: "both", label: "A minimum order amount AND a granting rule or coupon" },
];

const dollars = (cents: number | undefined) => (cents === undefined ? "" : (cents / 100).toFixed(2));
/** A typed amount in cents; undefined when empty; NaN (refused by the server) when not a number. */
const cents = (text: string): number | undefined => (text.trim() === "" ? undefined : Math.round(Number(text.replace(/[$,\s]/g, "")) * 100));

function regionSummary(zone: Zone): string {
  if (zone.rest_of_world) return "Everywhere else";
  const parts = zone.regions.map((r) => (r.type === "country" ? (COUNTRIES[r.code]?.name ?? r.code) : r.code));
  return parts.length ? parts.join(", ") : "No regions (matches nothing)";
}

/** The editor's form: regions split by type, amounts as typed text. */
interface Draft {
  name: string;
  countries: string[];
  states: string;
  postcodes: string;
  methods: (Omit<Method, "cost" | "costPerItem" | "minAmount"> & { key: number; cost: string; costPerItem: string; minAmount: string })[];
}
let nextKey = 1;
function draftOf(zone: Zone | null): Draft {
  const codes = (type: Region["type"]) => (zone?.regions ?? []).filter((r) => r.type === type).map((r) => r.code);
  return {
    name: zone?.name ?? "",
    countries: codes("country"),
    states: codes("state").join("\n"),
    postcodes: codes("postcode").join("\n"),
    methods: (zone?.methods ?? []).map((m) => ({
      ...m,
      key: nextKey++,
      cost: dollars(m.cost),
      costPerItem: dollars(m.costPerItem),
      minAmount: dollars(m.minAmount),
    })),
  };
}
const lines = (text: string) =>
  text
    .split(/[\n,]+/)
    .map((l) => l.trim())
    .filter(Boolean);
function bodyOf(draft: Draft, restOfWorld: boolean) {
  const methods = draft.methods.map(({ key: _k, cost, costPerItem, minAmount, ...m }) => {
    const out: Method = { ...m };
    if (m.kind !== "free_shipping" && cents(cost) !== undefined) out.cost = cents(cost);
    if (m.kind === "flat_rate" && cents(costPerItem) !== undefined) out.costPerItem = cents(costPerItem);
    if (m.kind === "free_shipping") {
      out.requires = m.requires ?? "none";
      if (cents(minAmount) !== undefined) out.minAmount = cents(minAmount);
    } else delete out.requires;
    return out;
  });
  if (restOfWorld) return { methods };
  const regions: Region[] = [
    ...draft.countries.map((code) => ({ type: "country" as const, code })),
    ...lines(draft.states).map((code) => ({ type: "state" as const, code: code.toUpperCase() })),
    ...lines(draft.postcodes).map((code) => ({ type: "postcode" as const, code })),
  ];
  return { name: draft.name, regions, methods };
}

/** A refusal's path under the editor's fields: `regions[2].code` is the states' or postcodes' box, by its region. */
function fieldOf(path: string, regions: Region[]): string {
  const region = /^regions\[(\d+)\]/.exec(path);
  if (region) {
    const type = regions[Number(region[1])]?.type;
    return type === "state" ? "states" : type === "postcode" ? "postcodes" : "countries";
  }
  return path.startsWith("regions") ? "countries" : path;
}

function ZoneEditor({ zone, etag, onDone, onCancel }: { zone: Zone | null; etag: string; onDone: (message: string) => void; onCancel: () => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(zone));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [note, setNote] = useState<SaveNote>(null);
  const [saving, setSaving] = useState(false);
  const focusFirstInvalid = useFocusFirstInvalid();
  const restOfWorld = zone?.rest_of_world ?? false;
  const err = (p: string) => (errors[p] ? { help: <span className="admin-field-error">{errors[p]}</span>, "aria-invalid": true as const } : {});
  const setMethod = (i: number, change: Partial<Draft["methods"][number]>) => {
    setDraft((d) => ({ ...d, methods: d.methods.map((m, j) => (j === i ? { ...m, ...change } : m)) }));
    setErrors((all) => Object.fromEntries(Object.entries(all).filter(([p]) => !p.startsWith(`methods[${i}]`))));
  };
  const moveMethod = (i: number, by: -1 | 1) =>
    setDraft((d) => {
      const methods = [...d.methods];
      const [m] = methods.splice(i, 1);
      methods.splice(i + by, 0, m!);
      return { ...d, methods };
    });

  async function save(event: React.FormEvent) {
    event.preventDefault();
    if (saving) return;
    const body = bodyOf(draft, restOfWorld);
    setSaving(true);
    setNote(null);
    try {
      if (zone) await send(`/shop/v1/shipping-zones/${zone.id}`, "PUT", body, etag ? { "If-Match": etag } : {});
      else await send(`/shop/v1/shipping-zones`, "POST", body);
      onDone(zone ? `Zone “${zone.name}” saved. Carts shipped there use it from now on.` : `Zone “${draft.name}” added.`);
    } catch (e) {
      const error = e as RestError;
      if (error.code === "rest_shipping_zone_changed") {
        setNote({ status: "error", text: error.message, conflict: true });
        return;
      }
      const regions = ("regions" in body ? body.regions : undefined) ?? [];
      const byField: Record<string, string> = {};
      for (const [p, m] of Object.entries(errorsByPath(error))) byField[fieldOf(p, regions)] ??= m;
      setErrors(byField);
      const named = Object.keys(byField).length;
      setNote({ status: "error", text: named ? `Not saved: ${named === 1 ? "a field needs" : "some fields need"} correcting.` : error.message });
      if (named) focusFirstInvalid();
    } finally {
      setSaving(false);
    }
  }

  const title = zone ? (restOfWorld ? zone.name : `Edit zone “${zone.name}”`) : "Add shipping zone";
  return (
    <form className="admin-card admin-zone-editor" onSubmit={save} noValidate aria-labelledby="zone-editor-title">
      <h2 id="zone-editor-title">{title}</h2>
      <SaveNotice id="zone-editor-note" note={note} reloadLabel="Back to the zones (your changes are discarded)" onReload={onCancel} />
      {restOfWorld ? (
        <p className="admin-hint">
          These methods are offered to addresses in none of your other zones (and before a shopper gives an address outside the store&apos;s country).
        </p>
      ) : (
        <>
          <TextControl
            __next40pxDefaultSize
            label="Zone name"
            value={draft.name}
            onChange={(v) => {
              setDraft((d) => ({ ...d, name: v }));
              setErrors(({ name: _n, ...rest }) => rest);
            }}
            {...err("name")}
          />
          <fieldset className="admin-fieldset admin-country-list">
            <legend>Zone regions: countries</legend>
            {errors.countries ? <p role="alert">{errors.countries}</p> : null}
            {Object.entries(COUNTRIES).map(([code, c], i) => (
              <CheckboxControl
                key={code}
                label={c.name}
                checked={draft.countries.includes(code)}
                {...(errors.countries && i === 0 ? { "aria-invalid": true } : {})}
                onChange={(on) => {
                  setDraft((d) => ({ ...d, countries: on ? [...d.countries, code] : d.countries.filter((x) => x !== code) }));
                  setErrors(({ countries: _c, ...rest }) => rest);
                }}
              />
            ))}
          </fieldset>
          <div className="admin-row">
            <TextareaControl
              label="States (optional, one per line, like US:CA)"
              value={draft.states}
              rows={2}
              onChange={(v) => {
                setDraft((d) => ({ ...d, states: v }));
                setErrors(({ states: _s, ...rest }) => rest);
              }}
              {...err("states")}
            />
            <TextareaControl
              label="Limit to postcodes (optional, one per line: 90210, SW1*, 90210...90299)"
              value={draft.postcodes}
              rows={2}
              onChange={(v) => {
                setDraft((d) => ({ ...d, postcodes: v }));
                setErrors(({ postcodes: _p, ...rest }) => rest);
              }}
              {...err("postcodes")}
            />
          </div>
        </>
      )}
      <fieldset className="admin-fieldset">
        <legend>Shipping methods, in the order the checkout lists them</legend>
        {errors.methods ? <p role="alert">{errors.methods}</p> : null}
        {draft.methods.length === 0 ? <p>No shipping methods: a cart shipped here cannot be ordered.</p> : null}
        <ol className="admin-zone-methods">
          {draft.methods.map((m, i) => {
            const n = i + 1;
            return (
              <li key={m.key} className="admin-zone-method">
                <p className="admin-zone-method-kind">
                  <strong>{KIND_LABELS[m.kind]}</strong> {m.id ? <span className="admin-hint">({m.id})</span> : <span className="admin-hint">(new)</span>}
                </p>
                <div className="admin-row">
                  <TextControl
                    __next40pxDefaultSize
                    label={`Method ${n}: title`}
                    value={m.title}
                    onChange={(v) => setMethod(i, { title: v })}
                    {...err(`methods[${i}].title`)}
                  />
                  {m.kind !== "free_shipping" ? (
                    <TextControl
                      __next40pxDefaultSize
                      label={`Method ${n}: cost ($)`}
                      inputMode="decimal"
                      value={m.cost}
                      onChange={(v) => setMethod(i, { cost: v })}
                      {...err(`methods[${i}].cost`)}
                    />
                  ) : null}
                  {m.kind === "flat_rate" ? (
                    <TextControl
                      __next40pxDefaultSize
                      label={`Method ${n}: cost per item ($)`}
                      inputMode="decimal"
                      value={m.costPerItem}
                      onChange={(v) => setMethod(i, { costPerItem: v })}
                      {...err(`methods[${i}].costPerItem`)}
                    />
                  ) : null}
                </div>
                {m.kind === "free_shipping" ? (
                  <div className="admin-row">
                    <SelectControl
                      __next40pxDefaultSize
                      label={`Method ${n}: free shipping requires`}
                      value={m.requires ?? "none"}
                      options={REQUIRES_OPTIONS}
                      onChange={(v) => setMethod(i, { requires: v as Requires })}
                      {...err(`methods[${i}].requires`)}
                    />
                    <TextControl
                      __next40pxDefaultSize
                      label={`Method ${n}: minimum order amount ($)`}
                      inputMode="decimal"
                      value={m.minAmount}
                      onChange={(v) => setMethod(i, { minAmount: v })}
                      {...err(`methods[${i}].minAmount`)}
                    />
                  </div>
                ) : null}
                <span className="admin-buttons">
                  <Button
                    variant="secondary"
                    size="small"
                    disabled={i === 0}
                    accessibleWhenDisabled
                    onClick={() => moveMethod(i, -1)}
                    aria-label={`Move up: method ${n}`}
                  >
                    Move up
                  </Button>
                  <Button
                    variant="secondary"
                    size="small"
                    disabled={i === draft.methods.length - 1}
                    accessibleWhenDisabled
                    onClick={() => moveMethod(i, 1)}
                    aria-label={`Move down: method ${n}`}
                  >
                    Move down
                  </Button>
                  <Button
                    variant="link"
                    isDestructive
                    onClick={() => setDraft((d) => ({ ...d, methods: d.methods.filter((_, j) => j !== i) }))}
                    aria-label={`Remove method ${n}`}
                  >
                    Remove
                  </Button>
                </span>
              </li>
            );
          })}
        </ol>
        <span className="admin-buttons">
          {(Object.keys(KIND_LABELS) as Kind[]).map((kind) => (
            <Button
              key={kind}
              variant="secondary"
              onClick={() =>
                setDraft((d) => ({
                  ...d,
                  methods: [
                    ...d.methods,
                    {
                      key: nextKey++,
                      kind,
                      title: KIND_LABELS[kind],
                      cost: kind === "free_shipping" ? "" : "0.00",
                      costPerItem: "",
                      minAmount: "",
                      requires: kind === "free_shipping" ? "none" : undefined,
                    },
                  ],
                }))
              }
              __next40pxDefaultSize
            >
              Add {KIND_LABELS[kind].toLowerCase()}
            </Button>
          ))}
        </span>
      </fieldset>
      <p className="admin-settings-actions">
        <Button variant="primary" type="submit" isBusy={saving} aria-disabled={saving} __next40pxDefaultSize>
          {saving ? "Saving…" : zone ? "Save zone" : "Add zone"}
        </Button>
        <Button variant="tertiary" onClick={onCancel} __next40pxDefaultSize>
          Cancel
        </Button>
      </p>
    </form>
  );
}

type Load = { state: "loading" } | { state: "error"; error: RestError } | { state: "ready"; zones: Zone[] };

export default function ShippingZones({ onDirty }: { onDirty: (dirty: boolean) => void }) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [reloads, setReloads] = useState(0);
  const [editing, setEditing] = useState<{ zone: Zone | null; etag: string } | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ActionResult>(null);

  useEffect(() => {
    let live = true;
    getWithHeaders<Zone[]>("/shop/v1/shipping-zones").then(
      ({ body }) => live && setLoad({ state: "ready", zones: body }),
      (error: RestError) => live && setLoad({ state: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [reloads]);
  // An open editor counts as unsaved work (the leave warning).
  useEffect(() => onDirty(editing !== null), [editing, onDirty]);

  const open = useCallback(async (zone: Zone | null) => {
    setResult(null);
    if (!zone) return setEditing({ zone: null, etag: "" });
    try {
      // The zone as it is now, with its version: a save over a later change is refused.
      const { body, headers } = await getWithHeaders<Zone>(`/shop/v1/shipping-zones/${zone.id}`);
      setEditing({ zone: body, etag: headers.get("ETag") ?? "" });
    } catch (e) {
      setResult({ status: "error", text: (e as RestError).message });
    }
  }, []);

  async function act(work: () => Promise<string>) {
    setBusy(true);
    setResult(null);
    try {
      setResult({ status: "success", text: await work() });
      setReloads((n) => n + 1);
    } catch (e) {
      setResult({ status: "error", text: (e as RestError).message });
    } finally {
      setBusy(false);
    }
  }

  if (editing)
    return (
      <ZoneEditor
        key={editing.zone?.id ?? "new"}
        zone={editing.zone}
        etag={editing.etag}
        onCancel={() => {
          setEditing(null);
          setReloads((n) => n + 1);
        }}
        onDone={(text) => {
          setEditing(null);
          setResult({ status: "success", text });
          setReloads((n) => n + 1);
        }}
      />
    );

  const zones = load.state === "ready" ? load.zones : [];
  const ordered = zones.filter((z) => !z.rest_of_world);
  const move = (i: number, by: -1 | 1) => {
    const ids = ordered.map((z) => z.id);
    const [id] = ids.splice(i, 1);
    ids.splice(i + by, 0, id!);
    void act(async () => (await send("/shop/v1/shipping-zones/order", "PUT", { ids }), `Zone “${ordered[i]!.name}” moved ${by < 0 ? "up" : "down"}.`));
  };
  return (
    <section className="admin-settings-section" aria-labelledby="zones-title">
      <h2 id="zones-title">Shipping zones</h2>
      <p className="admin-hint">
        A cart gets the shipping methods of the first zone, from the top, its shipping address is in; addresses in none get the last one&apos;s. Tax rates are
        in Settings › Tax.
      </p>
      <ResultNotice result={result} />
      {load.state === "loading" ? (
        <Loading what="the shipping zones" />
      ) : load.state === "error" ? (
        <LoadError error={load.error} />
      ) : (
        <div className="admin-table-scroll">
          <table className="admin-table admin-zones">
            <thead>
              <tr>
                <th scope="col">Zone name</th>
                <th scope="col">Regions</th>
                <th scope="col">Shipping methods</th>
                <th scope="col">
                  <span className="screen-reader-text">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {zones.map((z) => {
                const i = ordered.indexOf(z);
                return (
                  <tr key={z.id}>
                    <th scope="row">{z.name}</th>
                    <td>{regionSummary(z)}</td>
                    <td>{z.methods.length ? z.methods.map((m) => m.title).join(", ") : "None"}</td>
                    <td>
                      {deleting === z.id ? (
                        <span className="admin-buttons" role="group" aria-label={`Delete ${z.name}?`}>
                          <span>Delete “{z.name}”? Its addresses get the next matching zone&apos;s methods.</span>
                          <Button
                            variant="primary"
                            isDestructive
                            isBusy={busy}
                            aria-disabled={busy}
                            onClick={() => {
                              setDeleting(null);
                              void act(async () => (await send(`/shop/v1/shipping-zones/${z.id}`, "DELETE", undefined), `Zone “${z.name}” deleted.`));
                            }}
                            __next40pxDefaultSize
                          >
                            Delete zone
                          </Button>
                          <Button variant="tertiary" onClick={() => setDeleting(null)} __next40pxDefaultSize>
                            Keep it
                          </Button>
                        </span>
                      ) : (
                        <span className="admin-buttons">
                          <Button variant="secondary" size="small" onClick={() => void open(z)} aria-label={`Edit ${z.name}`}>
                            Edit
                          </Button>
                          {z.rest_of_world ? null : (
                            <>
                              <Button
                                variant="secondary"
                                size="small"
                                disabled={busy || i === 0}
                                accessibleWhenDisabled
                                onClick={() => move(i, -1)}
                                aria-label={`Move up: ${z.name}`}
                              >
                                Move up
                              </Button>
                              <Button
                                variant="secondary"
                                size="small"
                                disabled={busy || i === ordered.length - 1}
                                accessibleWhenDisabled
                                onClick={() => move(i, 1)}
                                aria-label={`Move down: ${z.name}`}
                              >
                                Move down
                              </Button>
                              <Button variant="link" isDestructive onClick={() => setDeleting(z.id)} aria-label={`Delete ${z.name}`}>
                                Delete
                              </Button>
                            </>
                          )}
                        </span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <p>
        <Button variant="primary" onClick={() => void open(null)} __next40pxDefaultSize>
          Add shipping zone
        </Button>
      </p>
    </section>
  );
}
