/**
 * The discount add-on on a product page: the promotion text (mask products), the bulk-discount table
 * ('.awdr-bulk-customizable-table', server-rendered so it is there without JavaScript) and, once
 * hydrated, the live price and table script driven by the page's `awdr_params` (loaded on the first touch of the form).
 */
import { useEffect } from "react";
import type { AwdrParams, DiscountPageData } from "./awdr-params.ts";
import { mountDynamicPricingOnDemand } from "./dynamic-pricing-boot.ts";

/** The live price and table script, loaded when the shopper first touches the product form (issue 18). */
const load = () => import("./dynamic-pricing.ts");

declare global {
  interface Window {
    awdr_params?: AwdrParams;
    /** `awdr_get_product_discount` for other scripts; the answer also fires the add-on's event. */
    awdr_get_product_discount?: (productId: number | string, qty: number, customPrice?: string) => Promise<unknown>;
  }
}

export function DiscountPricing({ data }: { data: DiscountPageData }) {
  useEffect(() => {
    const params = window.awdr_params;
    if (!params) return;
    window.awdr_get_product_discount = (productId, qty, customPrice) => load().then((m) => m.getProductDiscount(params, productId, qty, customPrice));
    const stop = mountDynamicPricingOnDemand(params, load);
    return () => {
      stop();
      delete window.awdr_get_product_discount;
    };
  }, [data.productId]);

  return (
    // Keyed by product: the script rewrites the table, so another product gets fresh nodes, not patched ones.
    <div className="awdr-product-discounts" key={data.productId}>
      {data.promotion.length ? (
        <div className="awdr-promotion" role="note" aria-label="Promotion">
          <ul>
            {data.promotion.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="awdr-bulk-customizable-table" aria-live="polite" dangerouslySetInnerHTML={{ __html: data.bulkTableHtml }} />
    </div>
  );
}
