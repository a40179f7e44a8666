/**
 * The quick view's data (docs/contract/sticky-quick-view.md §2): exactly what the product page's loader gives its
 * gallery and add-to-cart form, taken from that loader so both forms get the same product, variations, swatch
 * settings and stock. Asked only when a shopper opens a quick view; 404 for a product that does not exist.
 */
import { loader as productLoader } from "./product.server.ts";
import type { QuickViewData } from "../components/quick-view/quick-view-data.ts";
import type { Route } from "./+types/quick-view";

export async function loader(args: Route.LoaderArgs): Promise<Response> {
  const { product, variable, children, bundled, gallery, origin } = await productLoader(args as unknown as Parameters<typeof productLoader>[0]);
  const body: QuickViewData = { product, variable, children, bundled, gallery, url: `${origin}/product/${product.slug}/` };
  return Response.json(body, { headers: { "Cache-Control": "private, no-store" } });
}
