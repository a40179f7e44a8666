import { moneyParts } from "../../lib/format.ts";
import { formatMoney } from "../../../core/domain/money/money.ts";

/** WooCommerce's price markup, so themes' and add-ons' selectors keep working. */
export function Amount({ cents }: { cents: number }) {
  const p = moneyParts(cents);
  const symbol = <span className="woocommerce-Price-currencySymbol">{p.symbol}</span>;
  return (
    <span className="woocommerce-Price-amount amount">
      <bdi>
        {p.symbolFirst ? symbol : null}
        {p.number}
        {p.symbolFirst ? null : symbol}
      </bdi>
    </span>
  );
}

export interface PriceProps {
  regular: number | null;
  sale?: number | null;
  min?: number | null;
  max?: number | null;
  className?: string;
}

export function Price({ regular, sale, min, max, className = "price" }: PriceProps) {
  if (min != null && max != null && min !== max) {
    return (
      <span className={className}>
        <Amount cents={min} /> <span aria-hidden="true">–</span>
        <span className="screen-reader-text">
          Price range: {formatMoney(min)} through {formatMoney(max)}
        </span>{" "}
        <Amount cents={max} />
      </span>
    );
  }
  // The listing's price (min, what the shop sorts by) wins over the stored regular price: a bundle's is the box
  // with its mandatory items, not the box alone.
  const current = sale != null && regular != null && sale < regular ? sale : (min ?? regular ?? null);
  if (current == null) return <span className={className} />;
  if (sale != null && regular != null && sale < regular) {
    return (
      <span className={className}>
        <del aria-hidden="true">
          <Amount cents={regular} />
        </del>{" "}
        <span className="screen-reader-text">Original price was: {formatMoney(regular)}.</span>
        <ins aria-hidden="true">
          <Amount cents={sale} />
        </ins>
        <span className="screen-reader-text">Current price is: {formatMoney(sale)}.</span>
      </span>
    );
  }
  return (
    <span className={className}>
      <Amount cents={current} />
    </span>
  );
}
