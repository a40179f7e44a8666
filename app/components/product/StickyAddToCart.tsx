/**
 * The sticky add-to-cart bar (docs/contract/storefront.md §2 'Add to cart'): shown once the product's own form has
 * scrolled out of view. A simple product's button submits that form; other kinds take the
 * shopper back to their form, where the options are.
 */
import { useEffect, useState } from "react";
import type { ProductSummary } from "../../../core/domain/catalog/products.ts";
import { Price } from "./Price.tsx";

export function StickyAddToCart({
  product,
  formId,
  anchor,
  variationPriceHtml,
}: {
  product: ProductSummary;
  formId: string;
  anchor: React.RefObject<HTMLElement | null>;
  variationPriceHtml: string | null;
}) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const el = anchor.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(([entry]) => setVisible(!!entry && !entry.isIntersecting && entry.boundingClientRect.top < 0));
    observer.observe(el);
    return () => observer.disconnect();
  }, [anchor]);
  if (product.type === "external" || product.stockStatus === "outofstock") return null;
  const direct = product.type === "simple";
  return (
    <div className={`ast-sticky-add-to-cart${visible ? " is-visible" : ""}`} aria-hidden={!visible} inert={!visible}>
      <div className="inner">
        <span className="sticky-title">{product.name}</span>
        {variationPriceHtml ? (
          <span className="price" dangerouslySetInnerHTML={{ __html: variationPriceHtml }} />
        ) : (
          <Price regular={product.regularPrice} sale={product.salePrice} min={product.priceMin} max={product.priceMax} />
        )}
        {direct ? (
          <button type="submit" form={formId} name="add-to-cart" value={product.id} className="single_add_to_cart_button button alt">
            Add to cart
          </button>
        ) : (
          <button
            type="button"
            className="button alt"
            onClick={() => {
              const form = document.getElementById(formId);
              form?.scrollIntoView({ behavior: "smooth", block: "center" });
              form?.querySelector<HTMLElement>('[role="radio"][tabindex="0"], select, input:not([type="hidden"]), button')?.focus({ preventScroll: true });
            }}
          >
            {product.type === "variable" ? "Select options" : "Choose options"}
          </button>
        )}
      </div>
    </div>
  );
}
