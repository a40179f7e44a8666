/**
 * Bulk edit on the Products list (docs/contract/admin.md 'Products'): the products selected on the page get the same
 * regular price, sale price (or none), stock quantity or status through one `POST wc/v3/products/batch` `update`
 * (100 items a request). The API checks every item as it checks a single update, so some may be refused while the
 * others are saved; the result (how many changed, which were refused and why) is shown in the list's live region.
 */
import { useState } from "react";
import { Button, CheckboxControl, SelectControl, TextControl } from "@wordpress/components";
import { send, type RestError } from "./api.ts";
import type { RestProduct } from "./types.ts";
import "./catalog.css";

export interface BulkResult {
  /** How many products the API saved. */
  updated: number;
  /** The refused ones, with the API's reason in the form's words. */
  failed: { id: number; name: string; reason: string }[];
  /** The request as a whole was refused (permission, network): nothing is known to be saved. */
  error?: string;
}

const LABELS: Record<string, string> = {
  regular_price: "Regular price",
  sale_price: "Sale price",
  stock_quantity: "Stock quantity",
  manage_stock: "Stock quantity",
  status: "Status",
};
const humane = (m: string) => m.replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (w) => LABELS[w] ?? w);

/** The API's reason for one refused item: each named field's message, else its message. */
function reasonOf(error: RestError): string {
  const params = Object.values(error.data?.params ?? {});
  return humane(params.length ? params.join("; ") : error.message);
}

const STATUS_OPTIONS = [
  { value: "", label: "— No change —" },
  { value: "publish", label: "Published" },
  { value: "draft", label: "Draft" },
  { value: "pending", label: "Pending review" },
  { value: "private", label: "Private" },
];

/** The changes the form sends (as typed: the server checks them); empty when nothing is set. */
function changesOf(form: { regular: string; sale: string; removeSale: boolean; stock: string; status: string }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (form.regular.trim()) out.regular_price = form.regular.trim();
  if (form.removeSale) out.sale_price = "";
  else if (form.sale.trim()) out.sale_price = form.sale.trim();
  const stock = form.stock.trim();
  if (stock) out.stock_quantity = /^\d+$/.test(stock) ? Number(stock) : stock;
  if (form.status) out.status = form.status;
  return out;
}

export async function applyBulk(items: RestProduct[], changes: Record<string, unknown>): Promise<BulkResult> {
  const result: BulkResult = { updated: 0, failed: [] };
  const names = new Map(items.map((p) => [p.id, p.name]));
  try {
    for (let i = 0; i < items.length; i += 100) {
      const update = items.slice(i, i + 100).map((p) => ({ id: p.id, ...changes }));
      const { body } = await send<{ update: (RestProduct | { id: number; error: RestError })[] }>("/wc/v3/products/batch", "POST", { update });
      for (const item of body.update) {
        if ("error" in item) result.failed.push({ id: item.id, name: names.get(item.id) ?? `#${item.id}`, reason: reasonOf(item.error) });
        else result.updated++;
      }
    }
  } catch (e) {
    result.error = (e as RestError).message;
  }
  return result;
}

export function BulkEditForm({ items, onDone, onCancel }: { items: RestProduct[]; onDone: (result: BulkResult) => void; onCancel: () => void }) {
  const [form, setForm] = useState({ regular: "", sale: "", removeSale: false, stock: "", status: "" });
  const [busy, setBusy] = useState(false);
  const changes = changesOf(form);
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const count = `${items.length} product${items.length === 1 ? "" : "s"}`;

  return (
    <form
      className="admin-bulk-edit"
      onSubmit={async (e) => {
        e.preventDefault();
        if (busy || !Object.keys(changes).length) return;
        setBusy(true);
        onDone(await applyBulk(items, changes));
      }}
    >
      <p className="admin-hint">
        For the {count} selected: {items.map((p) => p.name).join(", ")}. Leave a field empty to keep each product's own value. A variable or grouped product's
        prices and stock are its variations' or children's.
      </p>
      <TextControl __next40pxDefaultSize label="Regular price" inputMode="decimal" value={form.regular} onChange={(regular) => set({ regular })} />
      <TextControl
        __next40pxDefaultSize
        label="Sale price"
        inputMode="decimal"
        value={form.sale}
        disabled={form.removeSale}
        onChange={(sale) => set({ sale })}
      />
      <CheckboxControl label="Remove the sale price" checked={form.removeSale} onChange={(removeSale) => set({ removeSale })} />
      <TextControl
        __next40pxDefaultSize
        label="Stock quantity"
        type="number"
        min={0}
        step={1}
        help="Sets the quantity and counts the stock from now on."
        value={form.stock}
        onChange={(stock) => set({ stock })}
      />
      <SelectControl __next40pxDefaultSize label="Status" value={form.status} options={STATUS_OPTIONS} onChange={(status) => set({ status })} />
      <div className="admin-bulk-edit__buttons">
        <Button variant="tertiary" onClick={onCancel} disabled={busy} __next40pxDefaultSize>
          Cancel
        </Button>
        <Button variant="primary" type="submit" isBusy={busy} accessibleWhenDisabled disabled={busy || !Object.keys(changes).length} __next40pxDefaultSize>
          {busy ? "Saving…" : `Apply to ${count}`}
        </Button>
      </div>
    </form>
  );
}

/** The result in words, for the list's live region. */
export function BulkResultNotice({ result }: { result: BulkResult }) {
  if (result.error) return <p>Nothing was changed: {result.error}</p>;
  const { updated, failed } = result;
  return (
    <>
      <p>
        {updated === 0 ? "No product was updated." : `${updated} product${updated === 1 ? "" : "s"} updated.`}
        {failed.length ? ` ${failed.length} ${failed.length === 1 ? "was" : "were"} not changed (still selected):` : ""}
      </p>
      {failed.length ? (
        <ul>
          {failed.map((f) => (
            <li key={f.id}>
              {f.name}: {f.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
