/**
 * The Order screen's items (docs/contract/admin.md 'Order', decision 0048): the lines, and for an order that can
 * still be edited (pending payment or on hold: the API's `is_editable`) WooCommerce's "Edit items" — a quantity per
 * line, "Remove", and "Add product" (a combobox searching the shop's products by name or SKU; a variable product then
 * asks for its variation). "Save items" sends `PUT wc/v3/orders/{id}` with WooCommerce's `line_items` and the order's
 * ETag as `If-Match`; the server prices, taxes and stocks the lines. A refusal is shown at its line's field (focus
 * moved there); a success is announced and the order read again.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button, ComboboxControl, SelectControl, TextControl } from "@wordpress/components";
import { pencil } from "@wordpress/icons";
import { getWithHeaders, query, send, type RestError } from "./api.ts";
import { money } from "./orders-shared.ts";
import { useComboboxControls, useFocusFirstInvalid } from "./SaveNotice.tsx";
import type { RestOrder } from "./types.ts";

type Line = RestOrder["line_items"][number];

/** A row of the form: an order line (`id`) or a product being added (`id` null). */
interface Row {
  key: string;
  id: number | null;
  productId: number;
  variationId: number;
  name: string;
  sku: string;
  quantity: string;
  /** The line's stored total (existing lines), for display only: the server recalculates. */
  total: string | null;
}

interface FoundProduct {
  id: number;
  name: string;
  sku: string;
  type: string;
  price: string;
}

interface FoundVariation {
  id: number;
  sku: string;
  price: string;
  attributes: { name: string; option: string }[];
}

const ADDABLE = new Set(["simple", "variable", "downloadable"]);
const text = { __next40pxDefaultSize: true, __nextHasNoMarginBottom: true } as const;

const rowOf = (l: Line): Row => ({
  key: `line-${l.id}`,
  id: l.id,
  productId: l.product_id,
  variationId: l.variation_id,
  name: l.name,
  sku: l.sku,
  quantity: String(l.quantity),
  total: l.total,
});

/** WooCommerce's `line_items` for the rows against the order's lines: changes, removals (quantity 0) and additions. */
export function lineItemsOf(lines: readonly Line[], rows: readonly Row[]): { items: Record<string, number>[]; rowOfItem: (string | null)[] } {
  const items: Record<string, number>[] = [];
  const rowOfItem: (string | null)[] = [];
  for (const l of lines) {
    const row = rows.find((r) => r.id === l.id);
    if (!row) {
      items.push({ id: l.id, quantity: 0 });
      rowOfItem.push(null);
    } else if (Number(row.quantity) !== l.quantity) {
      items.push({ id: l.id, quantity: Number(row.quantity) });
      rowOfItem.push(row.key);
    }
  }
  for (const r of rows.filter((x) => x.id === null)) {
    items.push({ product_id: r.productId, ...(r.variationId ? { variation_id: r.variationId } : {}), quantity: Number(r.quantity) });
    rowOfItem.push(r.key);
  }
  return { items, rowOfItem };
}

export function OrderItems({
  order,
  etag,
  onSaved,
  onRefused,
}: {
  order: RestOrder;
  etag: string;
  onSaved: (text: string) => void;
  onRefused: (text: string, conflict: boolean) => void;
}) {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<FoundProduct[]>([]);
  const [choice, setChoice] = useState<string | null>(null);
  const [variations, setVariations] = useState<FoundVariation[] | null>(null);
  const [variation, setVariation] = useState("");
  const [addError, setAddError] = useState<string | null>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const picker = useRef<HTMLDivElement>(null);
  const returnFocus = useRef(false);
  const searchSeq = useRef(0);
  const focusFirstInvalid = useFocusFirstInvalid();
  const editing = rows !== null;
  useComboboxControls(picker, editing);

  useEffect(() => {
    if (editing) tableRef.current?.querySelector<HTMLElement>("input")?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      editRef.current?.focus();
    }
  }, [editing]);

  const chosen = found.find((p) => String(p.id) === choice) ?? null;
  const variableId = chosen?.type === "variable" ? chosen.id : null;
  // A variable product's variations, read when it is chosen (the choice itself clears the previous list).
  useEffect(() => {
    if (variableId === null) return;
    let live = true;
    getWithHeaders<FoundVariation[]>(`/wc/v3/products/${variableId}/variations?per_page=100`).then(
      (r) => live && setVariations(r.body),
      (e: RestError) => live && setAddError(e.message),
    );
    return () => {
      live = false;
    };
  }, [variableId]);

  function search(term: string) {
    const seq = ++searchSeq.current;
    if (term.trim().length < 2) return;
    getWithHeaders<FoundProduct[]>(`/wc/v3/products?${query({ search: term.trim(), per_page: 20, status: "publish", orderby: "title", order: "asc" })}`).then(
      (r) => seq === searchSeq.current && setFound((was) => [...was.filter((p) => String(p.id) === choice), ...r.body.filter((p) => ADDABLE.has(p.type))]),
      () => undefined,
    );
  }

  function close() {
    returnFocus.current = true;
    setRows(null);
    setErrors({});
    setChoice(null);
    setAddError(null);
  }

  function add() {
    if (!rows) return;
    if (!chosen) {
      setAddError("Choose a product to add.");
      picker.current?.querySelector("input")?.focus();
      return;
    }
    const v = chosen.type === "variable" ? variations?.find((x) => String(x.id) === variation) : undefined;
    if (chosen.type === "variable" && !v) {
      setAddError(`Choose a variation of ${chosen.name}.`);
      document.getElementById("order-items-variation")?.focus();
      return;
    }
    const name = v ? `${chosen.name} – ${v.attributes.map((a) => a.option).join(", ")}` : chosen.name;
    const key = `new-${Date.now()}-${rows.length}`;
    setRows([...rows, { key, id: null, productId: chosen.id, variationId: v?.id ?? 0, name, sku: v?.sku || chosen.sku, quantity: "1", total: null }]);
    setChoice(null);
    setVariations(null);
    setVariation("");
    setAddError(null);
    // The new row's quantity takes the focus, so the keyboard user can set it at once.
    requestAnimationFrame(() => document.querySelector<HTMLInputElement>(`[data-row="${key}"] input`)?.focus());
  }

  function remove(row: Row) {
    if (!rows) return;
    const at = rows.findIndex((r) => r.key === row.key);
    const rest = rows.filter((r) => r.key !== row.key);
    setRows(rest);
    const next = rest[at] ?? rest[at - 1];
    requestAnimationFrame(() =>
      (next ? document.querySelector<HTMLInputElement>(`[data-row="${next.key}"] input`) : picker.current?.querySelector("input"))?.focus(),
    );
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!rows || busy) return;
    const bad: Record<string, string> = {};
    for (const r of rows)
      if (!/^\d{1,5}$/.test(r.quantity.trim()) || Number(r.quantity) < 1) bad[r.key] = "Enter a whole number of at least 1 (Remove takes the line out).";
    if (!rows.length) setAddError("An order keeps at least one item; cancel the order instead.");
    if (Object.keys(bad).length || !rows.length) {
      setErrors(bad);
      focusFirstInvalid();
      onRefused("The items were not saved: a field needs correcting.", false);
      return;
    }
    const { items, rowOfItem } = lineItemsOf(order.line_items, rows);
    if (!items.length) return close();
    setBusy(true);
    try {
      const saved = await send<RestOrder>(`/wc/v3/orders/${order.id}`, "PUT", { line_items: items }, etag ? { "If-Match": etag } : {});
      close();
      onSaved(`Items saved. The order total is now ${money(order, saved.body.total)}.`);
    } catch (thrown) {
      const error = thrown as RestError;
      const named: Record<string, string> = {};
      for (const [param, message] of Object.entries(error.data?.params ?? {})) {
        const m = /^line_items\[(\d+)\]/.exec(param);
        const key = m ? rowOfItem[Number(m[1])] : null;
        if (key) named[key] = message.replace(/^line_items\[\d+\]\.[a-z_]+:?\s*/, "");
      }
      setErrors(named);
      if (Object.keys(named).length) {
        focusFirstInvalid();
        onRefused(`The items were not saved: ${Object.values(named)[0]}`, false);
      } else onRefused(`The items were not saved: ${error.message}`, error.code === "woocommerce_rest_order_changed");
    } finally {
      setBusy(false);
    }
  }

  const head = (
    <thead>
      <tr>
        <th scope="col">Product</th>
        <th scope="col">SKU</th>
        <th scope="col">Quantity</th>
        <th scope="col">Total</th>
        {editing ? <th scope="col">Remove</th> : null}
      </tr>
    </thead>
  );

  if (!rows) {
    return (
      <>
        <div className="admin-card-head">
          <h2 id="order-items">Items</h2>
          {order.is_editable ? (
            <Button ref={editRef} variant="secondary" icon={pencil} onClick={() => setRows(order.line_items.map(rowOf))} __next40pxDefaultSize>
              Edit items
            </Button>
          ) : null}
        </div>
        <div className="admin-table-scroll">
          <table className="admin-table">
            {head}
            <tbody>
              {order.line_items.map((l) => (
                <tr key={l.id}>
                  <td>{l.name}</td>
                  <td>{l.sku || "–"}</td>
                  <td>{l.quantity}</td>
                  <td>{money(order, l.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </>
    );
  }

  const options = found.map((p) => ({
    value: String(p.id),
    label: `${p.name}${p.sku ? ` (${p.sku})` : ""}${p.type === "variable" ? " – choose a variation" : ` – ${money(order, p.price || 0)}`}`,
  }));
  return (
    <form onSubmit={(e) => void save(e)} aria-labelledby="order-items" noValidate>
      <div className="admin-card-head">
        <h2 id="order-items">Items</h2>
      </div>
      <p>Change a quantity, remove a line or add a product, then save: the totals, tax and stock are recalculated by the shop.</p>
      <div className="admin-table-scroll">
        <table className="admin-table admin-order-items-edit" ref={tableRef}>
          {head}
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <td>{r.name}</td>
                <td>{r.sku || "–"}</td>
                <td data-row={r.key}>
                  <TextControl
                    {...text}
                    type="number"
                    min={1}
                    label={`Quantity of ${r.name}`}
                    hideLabelFromVision
                    value={r.quantity}
                    onChange={(quantity) => {
                      setRows(rows.map((x) => (x.key === r.key ? { ...x, quantity } : x)));
                      if (errors[r.key]) setErrors({ ...errors, [r.key]: "" });
                    }}
                    {...(errors[r.key] ? { help: <span className="admin-field-error">{errors[r.key]}</span>, "aria-invalid": true } : {})}
                  />
                </td>
                <td>{r.total === null ? "New" : money(order, r.total)}</td>
                <td>
                  <Button variant="tertiary" isDestructive aria-label={`Remove ${r.name}`} onClick={() => remove(r)} __next40pxDefaultSize>
                    Remove
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <fieldset className="admin-fieldset admin-order-add">
        <legend>Add product</legend>
        <div ref={picker}>
          <ComboboxControl
            {...text}
            label="Product"
            placeholder="Search products by name or SKU…"
            options={options}
            value={choice}
            onFilterValueChange={search}
            onChange={(v) => {
              setChoice(v ?? null);
              setVariations(null);
              setVariation("");
              setAddError(null);
            }}
            help={
              addError && !(chosen?.type === "variable") ? (
                <span className="admin-field-error" role="alert">
                  {addError}
                </span>
              ) : (
                "Type at least two letters of a name or SKU."
              )
            }
          />
        </div>
        {chosen?.type === "variable" ? (
          <SelectControl
            {...text}
            id="order-items-variation"
            label={`Variation of ${chosen.name}`}
            value={variation}
            options={[
              { value: "", label: variations ? "Choose a variation…" : "Loading variations…" },
              ...(variations ?? []).map((v) => ({
                value: String(v.id),
                label: `${v.attributes.map((a) => a.option).join(", ") || `#${v.id}`}${v.sku ? ` (${v.sku})` : ""} – ${money(order, v.price || 0)}`,
              })),
            ]}
            onChange={(v) => {
              setVariation(v);
              setAddError(null);
            }}
            {...(addError ? { help: <span className="admin-field-error">{addError}</span>, "aria-invalid": true } : {})}
          />
        ) : null}
        <Button variant="secondary" onClick={add} __next40pxDefaultSize>
          Add to order
        </Button>
      </fieldset>
      <div className="admin-buttons">
        <Button variant="primary" type="submit" isBusy={busy} aria-disabled={busy} __next40pxDefaultSize>
          {busy ? "Saving…" : "Save items"}
        </Button>
        <Button variant="tertiary" onClick={close} __next40pxDefaultSize>
          Cancel
        </Button>
      </div>
    </form>
  );
}
