/**
 * The promotion simulator (docs/contract/admin.md 'Promotion simulator'): the owner builds a cart — products with
 * quantities, coupon codes, optionally a customer and a moment — and `POST shop/v1/discount-simulations` prices it with
 * the checkout's own engine under the current rules and, in the rule editor, under the rule being edited (as if
 * published), side by side. Nothing is stored.
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import { Button, Notice, SelectControl, TextControl } from "@wordpress/components";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { shopMoney } from "./orders-shared.ts";
import "./admin-screens.css";

interface SimLine {
  product_id: number;
  name: string;
  details: string;
  quantity: number;
  free_item: boolean;
  regular_unit_price: number;
  unit_price: number;
  subtotal: number;
  total: number;
  discounts: { source: string; code: string; title: string; amount: number }[];
}
interface SimCart {
  lines: SimLine[];
  totals: { subtotal: number; discount_total: number; coupon_discount: number; shipping: number; total: number };
  applied_rules: { code: string; title: string; discount: number }[];
  coupons: { applied: { code: string; discount: number }[]; refused: { code: string; message: string }[] };
  free_shipping_by: string[];
  nudges: string[];
}
interface Simulation {
  date: string;
  current: SimCart;
  draft: SimCart | null;
}

interface Product {
  id: number;
  name: string;
  type: string;
}
interface Variation {
  id: number;
  attributes: { name: string; option: string }[];
}
interface CartRow {
  product: string;
  variation: string;
  quantity: string;
}

const cents = (n: number) => shopMoney(n / 100);

function CartColumn({ heading, cart, highlight }: { heading: string; cart: SimCart; highlight?: string }) {
  const headingId = useId();
  return (
    <section className="admin-sim-column" aria-labelledby={headingId} data-column={highlight ?? "current"}>
      <h3 id={headingId}>{heading}</h3>
      <table className="admin-table admin-sim-table">
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Each</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {cart.lines.map((l, i) => (
            <tr key={i}>
              <td>
                {l.name}
                {l.details ? <span className="admin-hint"> ({l.details})</span> : null} × {l.quantity}
                {l.free_item ? <span className="admin-hint"> — free item</span> : null}
                {l.discounts.length ? (
                  <span className="admin-hint admin-sim-discounts">{l.discounts.map((d) => `${d.title}: −${cents(d.amount)}`).join("; ")}</span>
                ) : null}
              </td>
              <td className="admin-sim-unit">
                {l.unit_price < l.regular_unit_price ? (
                  <>
                    <del>{cents(l.regular_unit_price)}</del> <ins>{cents(l.unit_price)}</ins>
                  </>
                ) : (
                  cents(l.unit_price)
                )}
              </td>
              <td>{cents(l.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="admin-totals admin-sim-totals">
        <div className="admin-totals-row">
          <dt>Subtotal</dt>
          <dd>{cents(cart.totals.subtotal)}</dd>
        </div>
        <div className="admin-totals-row">
          <dt>Discounts</dt>
          <dd>−{cents(cart.totals.discount_total)}</dd>
        </div>
        <div className="admin-totals-row">
          <dt>Shipping</dt>
          <dd>{cart.totals.shipping === 0 && cart.free_shipping_by.length ? "Free" : cents(cart.totals.shipping)}</dd>
        </div>
        <div className="admin-totals-row">
          <dt>
            <strong>Total</strong>
          </dt>
          <dd>
            <strong className="admin-sim-total">{cents(cart.totals.total)}</strong>
          </dd>
        </div>
      </dl>
      <p className="admin-hint">Rules applied: {cart.applied_rules.length ? cart.applied_rules.map((r) => `${r.title} (${r.code})`).join(", ") : "none"}.</p>
      {cart.coupons.refused.map((c) => (
        <p key={c.code} className="admin-field-error">
          Coupon “{c.code}”: {c.message}
        </p>
      ))}
      {cart.nudges.map((n) => (
        <p key={n} className="admin-hint">
          Shoppers see: “{n}”
        </p>
      ))}
    </section>
  );
}

/**
 * `draft` gives the rule being edited (its `ruleOf` shape); its refusals go back through `onDraftErrors` (the editor
 * marks its own inputs) and the simulator shows its own.
 */
export function PromotionSimulator({
  draft,
  onDraftErrors,
}: {
  draft?: () => Record<string, unknown>;
  onDraftErrors?: (params: Record<string, string>) => void;
}) {
  const [products, setProducts] = useState<Product[]>([]);
  const [customers, setCustomers] = useState<{ id: number; label: string }[]>([]);
  const [variations, setVariations] = useState<Record<string, Variation[]>>({});
  const [rows, setRows] = useState<CartRow[]>([{ product: "", variation: "", quantity: "1" }]);
  const [coupons, setCoupons] = useState("");
  const [customer, setCustomer] = useState("");
  const [date, setDate] = useState("");
  const [result, setResult] = useState<Simulation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const headingId = useId();

  useEffect(() => {
    let live = true;
    getWithHeaders<Product[]>("/wc/v3/products?per_page=100&orderby=title&order=asc&status=publish&_fields=id,name,type").then(
      ({ body }) => live && setProducts(body.filter((p) => p.type !== "grouped" && p.type !== "external")),
      () => {},
    );
    getWithHeaders<{ id: number; email: string; first_name: string; last_name: string }[]>(
      "/wc/v3/customers?per_page=100&role=customer&_fields=id,email,first_name,last_name",
    ).then(
      ({ body }) =>
        live &&
        setCustomers(body.map((c) => ({ id: c.id, label: [[c.first_name, c.last_name].filter(Boolean).join(" "), c.email].filter(Boolean).join(" — ") }))),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);

  const typeOf = (id: string) => products.find((p) => String(p.id) === id)?.type;
  function chooseProduct(index: number, product: string) {
    setRows(rows.map((r, i) => (i === index ? { ...r, product, variation: "" } : r)));
    if (typeOf(product) === "variable" && !variations[product]) {
      getWithHeaders<Variation[]>(`/wc/v3/products/${product}/variations?per_page=100&_fields=id,attributes`).then(
        ({ body }) => setVariations((v) => ({ ...v, [product]: body })),
        () => {},
      );
    }
  }

  async function simulate(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const items = rows
      .map((r, index) => ({ r, index }))
      .filter(({ r }) => r.product)
      .map(({ r }) => ({
        product_id: Number(typeOf(r.product) === "variable" ? r.variation || r.product : r.product),
        quantity: /^\d+$/.test(r.quantity.trim()) ? Number(r.quantity.trim()) : (r.quantity as unknown as number),
      }));
    const body: Record<string, unknown> = {
      items,
      coupons: coupons
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean),
      ...(customer ? { customer_id: Number(customer) } : {}),
      ...(date ? { date: `${date}:00Z` } : {}),
      ...(draft ? { rule: draft() } : {}),
    };
    setBusy(true);
    setError(null);
    setErrors({});
    try {
      const { body: answer } = await send<Simulation>("/shop/v1/discount-simulations", "POST", body);
      setResult(answer);
      onDraftErrors?.({});
    } catch (e) {
      const err = e as RestError;
      const params = err.data?.params ?? {};
      const own: Record<string, string> = {};
      for (const [name, message] of Object.entries(params)) {
        if (name === "rule") continue;
        const row = /^items\[(\d+)\]/.exec(message);
        own[row ? `items.${row[1]}` : name === "items" && items.length === 0 ? "items.0" : name] = message.replace(/^\S+ /, "");
      }
      setErrors(own);
      if (params.rule) onDraftErrors?.({ rule: params.rule });
      setResult(null);
      setError(
        params.rule
          ? "The rule being edited needs correcting before it can be tried: see the marked fields above."
          : items.length === 0
            ? "Add a product to the cart first."
            : err.message,
      );
    } finally {
      setBusy(false);
    }
  }

  const productOptions = [{ value: "", label: "Choose a product…" }, ...products.map((p) => ({ value: String(p.id), label: p.name }))];
  return (
    <section className="admin-fieldset admin-simulator" aria-labelledby={headingId}>
      <h2 id={headingId}>Promotion simulator</h2>
      <p className="admin-hint">
        A cart priced by the checkout’s own engine{draft ? ": with the rules in effect, and with this rule as it stands in the form, as if published" : ""}.
        Nothing is saved.
      </p>
      <form onSubmit={simulate} noValidate>
        {rows.map((r, i) => {
          const err = errors[`items.${i}`];
          const vars = variations[r.product];
          return (
            <div className="admin-row admin-sim-row" key={i} role="group" aria-label={`Cart line ${i + 1}`}>
              <SelectControl
                __next40pxDefaultSize
                label={`Product ${i + 1}`}
                value={r.product}
                options={productOptions}
                onChange={(v) => chooseProduct(i, v)}
                {...(err ? { help: <span className="admin-field-error">{err}</span>, "aria-invalid": true } : {})}
              />
              {typeOf(r.product) === "variable" ? (
                <SelectControl
                  __next40pxDefaultSize
                  label={`Variation ${i + 1}`}
                  value={r.variation}
                  options={[
                    { value: "", label: "Choose a variation…" },
                    ...(vars ?? []).map((v) => ({ value: String(v.id), label: v.attributes.map((a) => a.option).join(", ") || `#${v.id}` })),
                  ]}
                  onChange={(v) => setRows(rows.map((x, j) => (j === i ? { ...x, variation: v } : x)))}
                />
              ) : null}
              <TextControl
                __next40pxDefaultSize
                type="number"
                min={1}
                label={`Quantity ${i + 1}`}
                value={r.quantity}
                onChange={(v) => setRows(rows.map((x, j) => (j === i ? { ...x, quantity: v } : x)))}
              />
              {rows.length > 1 ? (
                <Button variant="tertiary" isDestructive onClick={() => setRows(rows.filter((_, j) => j !== i))} className="admin-sim-remove">
                  Remove line {i + 1}
                </Button>
              ) : null}
            </div>
          );
        })}
        <p>
          <Button variant="secondary" onClick={() => setRows([...rows, { product: "", variation: "", quantity: "1" }])}>
            Add a cart line
          </Button>
        </p>
        <div className="admin-row">
          <TextControl
            __next40pxDefaultSize
            label="Coupon codes"
            help={errors.coupons ? <span className="admin-field-error">{errors.coupons}</span> : "Separated by commas."}
            value={coupons}
            onChange={setCoupons}
            {...(errors.coupons ? { "aria-invalid": true } : {})}
          />
          <SelectControl
            __next40pxDefaultSize
            label="Customer"
            value={customer}
            options={[{ value: "", label: "A guest (signed out)" }, ...customers.map((c) => ({ value: String(c.id), label: c.label }))]}
            onChange={setCustomer}
            {...(errors.customer_id ? { help: <span className="admin-field-error">{errors.customer_id}</span>, "aria-invalid": true } : {})}
          />
          <TextControl
            __next40pxDefaultSize
            type="datetime-local"
            label="Priced at (UTC)"
            help={errors.date ? <span className="admin-field-error">{errors.date}</span> : "Empty: now. For a schedule."}
            value={date}
            onChange={setDate}
          />
        </div>
        <Button variant="primary" type="submit" isBusy={busy} aria-disabled={busy} __next40pxDefaultSize>
          {busy ? "Pricing…" : "Price this cart"}
        </Button>
      </form>
      <div role="status" className="admin-sim-status">
        {error ? (
          <Notice status="error" isDismissible={false}>
            {error}
          </Notice>
        ) : null}
      </div>
      {result ? (
        <div className="admin-sim-columns">
          <CartColumn heading="Current rules" cart={result.current} />
          {result.draft ? <CartColumn heading="With this rule (draft)" cart={result.draft} highlight="draft" /> : null}
        </div>
      ) : null}
    </section>
  );
}
