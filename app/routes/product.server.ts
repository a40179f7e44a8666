/** The server half of the product route: its loader (and action), everything that reaches the database; the route module renders. */
import { data } from "react-router";
import { findProductBySlug, productsByIds, termsOf } from "../../core/db/repositories/catalog.ts";
import { attributeLabels, mediaById } from "../../core/db/repositories/taxonomies.ts";
import { variationJson } from "../components/product/variation-json.ts";
import type { VariationAttributeView } from "../components/product/VariationsForm.tsx";
import { DEFAULT_SWATCH_SETTINGS } from "../../core/domain/catalog/settings.ts";
import { salePercentagesByVariation } from "../../core/domain/catalog/sale-badge.ts";
import { discountPageData } from "../components/discounts/discount-page-data.server.ts";
import { commentsSection } from "../../core/commerce/comments.ts";
import { shareSettings } from "../components/share/share-settings.ts";
import { productPageGlobals } from "../lib/browser-globals.server.ts";
import { staffEditLink } from "../lib/staff.server.ts";
import { plainText, richTextHtml } from "../../core/domain/text/kses.ts";
import type { Route } from "./+types/product";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const db = context.services.db;
  const config = context.services.config;
  const product = await findProductBySlug(db, params.slug);
  if (!product) throw data(null, { status: 404 });
  const [upsells, related, children, bundled, terms, labels] = await Promise.all([
    // Up-sells and cross-sells only when the catalogue lists them; children and bundled items whatever their visibility.
    productsByIds(db, product.links.upsell, { listed: "catalog" }),
    productsByIds(db, product.links.cross_sell, { listed: "catalog" }),
    productsByIds(db, product.links.grouped_child),
    productsByIds(db, product.links.bundled),
    termsOf(
      db,
      product.attributes.map((a) => a.name),
    ),
    attributeLabels(db),
  ]);
  const url = new URL(request.url);
  // Swatch pictures set through products/attributes/{id}/terms (terms.meta.image_id).
  const swatchImages = await mediaById(
    db,
    terms.flatMap((t) => (typeof t.meta?.image_id === "number" ? [t.meta.image_id] : [])),
  );
  const attributes: VariationAttributeView[] = product.attributes
    .filter((a) => a.variation)
    .map((a) => ({
      name: `attribute_${a.name}`,
      // A global attribute's label is its own (products/attributes, docs/contract/rest/taxonomies.md), as WooCommerce's wc_attribute_label.
      label: labels.get(a.name) ?? a.label,
      style: a.name === "pa_color" ? "color" : a.name === "pa_size" ? "label" : "radio",
      values: a.options.map((slug) => {
        const term = terms.find((t) => t.taxonomy === a.name && t.slug === slug);
        const image = term?.meta?.image_id === undefined ? undefined : swatchImages.get(term.meta.image_id);
        return {
          value: slug,
          title: term?.name ?? slug,
          color: term?.meta?.color ?? null,
          ...(term?.meta?.label ? { swatch: term.meta.label } : {}),
          ...(image ? { image: `/media/${image.slug}.svg` } : {}),
        };
      }),
    }));
  // A shared address may preselect attributes (?attribute_pa_color=red); only known values count.
  const initialChosen: Record<string, string> = {};
  for (const a of attributes) {
    const v = url.searchParams.get(a.name);
    if (v && a.values.some((x) => x.value === v)) initialChosen[a.name] = v;
  }
  const many = product.variations.length > config.shop.ajaxVariationThreshold;
  const variable =
    product.type === "variable"
      ? {
          attributes,
          variations: many ? null : product.variations.map(variationJson),
          initialChosen,
          settings: { ...DEFAULT_SWATCH_SETTINGS, ...config.swatches, display_limit: config.shop.swatchDisplayLimit },
          salePercentages: salePercentagesByVariation(
            product.variations.map((v) => ({ variation_id: v.id, regularCents: v.regularPrice, saleCents: v.salePrice })),
          ),
        }
      : null;
  const [discounts, reviews] = await Promise.all([
    discountPageData(context.storefront, product),
    commentsSection(db, context.shop, config.comments, product.id),
  ]);
  return {
    // The variations travel as the form's data (or not at all when there are many), not twice.
    // The descriptions are WooCommerce's HTML, sanitised again on the way out (a text without tags becomes
    // paragraphs): only that HTML reaches the page and its data. `summary` is the short description as text (meta).
    product: {
      ...product,
      description: richTextHtml(product.description),
      shortDescription: richTextHtml(product.shortDescription),
      variations: [] as typeof product.variations,
    },
    summary: plainText(product.shortDescription),
    variable,
    upsells,
    related,
    children,
    bundled,
    origin: context.origin,
    share: shareSettings(config.share),
    discounts,
    reviews,
    // WooCommerce's product-page script globals and the nonce their <script> needs (docs/contract/wire.md §1.11).
    wc: { globals: productPageGlobals(config, product.type === "variable"), cspNonce: context.cspNonce },
    gallery: {
      breakpoint: config.layout.galleryBreakPoint,
      resizeDebounceMs: config.timings.galleryResizeDebounceMs,
      saleBadgeTemplate: config.shop.saleBadgeTemplate,
    },
    ...(await staffEditLink(context, "product", product.id)),
  };
}
