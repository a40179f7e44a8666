/** What GET /quick-view/{slug}/ answers (app/routes/quick-view.server.ts): the product page loader's form and gallery data. */
import type { ProductDetail, ProductSummary } from "../../../core/domain/catalog/products.ts";
import type { VariableFormProps } from "../product/AddToCartForm.tsx";

export interface QuickViewData {
  product: ProductDetail;
  variable: (Omit<VariableFormProps, "onVariation"> & { salePercentages: unknown }) | null;
  children: ProductSummary[];
  bundled: ProductSummary[];
  gallery: { breakpoint: number; resizeDebounceMs: number; saleBadgeTemplate: string };
  /** The product page's address ('View full details'). */
  url: string;
}
