/**
 * A bundle's items in the editor (docs/contract/admin.md 'Edit Product'): each a simple product with its units per
 * bundle, whether the shopper may leave it out (optional) and the bundle's discount on it, as WooCommerce Product
 * Bundles' `bundled_items` (docs/contract/rest/products.md 'Kinds'). Saved with the editor's Update; the API refuses
 * an unknown or non-simple product, a quantity outside 1–1000 and a discount outside 0–100 under this panel.
 */
import { Button, CheckboxControl, SelectControl, TextControl } from "@wordpress/components";

export interface FormBundledItem {
  /** Kept for an item that exists (WooCommerce's bundled_item_id); absent for one added in the editor. */
  bundled_item_id?: number;
  product_id: number;
  quantity_default: string;
  optional: boolean;
  discount: string;
}

type Update = (change: (items: FormBundledItem[]) => FormBundledItem[]) => void;

export function BundledItemsPanel({
  items,
  products,
  update,
  error,
}: {
  items: FormBundledItem[];
  products: { id: number; name: string }[];
  update: Update;
  error?: string;
}) {
  const nameOf = (id: number) => products.find((p) => p.id === id)?.name ?? `#${id}`;
  const change = (index: number, patch: Partial<FormBundledItem>) => update((all) => all.map((item, i) => (i === index ? { ...item, ...patch } : item)));
  const unused = products.filter((p) => !items.some((item) => item.product_id === p.id));
  return (
    <fieldset className="admin-fieldset" aria-describedby={error ? "bundled-items-error" : undefined}>
      <legend>Bundled items</legend>
      {items.length === 0 ? <p className="admin-hint">No items yet: add the products the bundle contains.</p> : null}
      {items.map((item, i) => {
        const name = nameOf(item.product_id);
        return (
          <fieldset key={item.bundled_item_id ?? `new-${i}`} className="admin-attribute">
            <legend>{name}</legend>
            <SelectControl
              __next40pxDefaultSize
              label={`Product (item ${i + 1})`}
              value={String(item.product_id)}
              options={[
                ...(products.some((p) => p.id === item.product_id) ? [] : [{ value: String(item.product_id), label: name }]),
                ...products
                  .filter((p) => p.id === item.product_id || !items.some((x) => x.product_id === p.id))
                  .map((p) => ({ value: String(p.id), label: p.name })),
              ]}
              onChange={(v) => change(i, { product_id: Number(v) })}
              // The API names the field, not the item: the first item's product takes the mark and the focus.
              {...(error && i === 0 ? { "aria-invalid": true as const, "aria-describedby": "bundled-items-error" } : {})}
            />
            <div className="admin-row">
              <TextControl
                __next40pxDefaultSize
                type="number"
                min={1}
                step={1}
                label={`Quantity (${name})`}
                value={item.quantity_default}
                onChange={(v) => change(i, { quantity_default: v })}
              />
              <TextControl
                __next40pxDefaultSize
                type="number"
                min={0}
                max={100}
                step="any"
                label={`Discount % (${name})`}
                value={item.discount}
                onChange={(v) => change(i, { discount: v })}
              />
            </div>
            <CheckboxControl label={`Optional (${name})`} checked={item.optional} onChange={(v) => change(i, { optional: v })} />
            <Button variant="secondary" isDestructive onClick={() => update((all) => all.filter((_, j) => j !== i))}>
              Remove {name}
            </Button>
          </fieldset>
        );
      })}
      <Button
        variant="secondary"
        disabled={!unused.length}
        accessibleWhenDisabled
        onClick={() => update((all) => [...all, { product_id: unused[0]!.id, quantity_default: "1", optional: false, discount: "0" }])}
      >
        Add an item
      </Button>
      <p className="admin-hint">
        Simple products. The bundle's price is its base price plus each item at its own price less the discount, times its quantity; an optional item counts
        only when the shopper ticks it.
      </p>
      {error ? (
        <p id="bundled-items-error" className="admin-field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
