import { useCallback, useEffect, useRef, useState } from "react";
import { data } from "react-router";
import type { Route } from "./+types/product";
import { findProductBySlug, productsByIds, termsOf } from "../../core/db/repositories/catalog.ts";
import { ProductGrid } from "../components/product/ProductCard.tsx";
import { Price } from "../components/product/Price.tsx";
import { StarRating } from "../components/product/StarRating.tsx";
import { AddToCartForm, productFormId } from "../components/product/AddToCartForm.tsx";
import { ProductGallery } from "../components/product/ProductGallery.tsx";
import { StickyAddToCart } from "../components/product/StickyAddToCart.tsx";
import { variationJson, type VariationJson } from "../components/product/variation-json.ts";
import type { VariationAttributeView } from "../components/product/VariationsForm.tsx";
// The pure modules, not the catalogue's index: that one carries zod schemas the browser does not need.
import { DEFAULT_SWATCH_SETTINGS, SALE_BADGE } from "../../core/domain/catalog/settings.ts";
import { saleBadgeForVariation, salePercentagesByVariation } from "../../core/domain/catalog/sale-badge.ts";
import { mediaUrl } from "../lib/format.ts";
import { pageTitle } from "../lib/listing-params.ts";
import { DiscountPricing } from "../components/discounts/DiscountPricing.tsx";
import { discountPageData } from "../components/discounts/discount-page-data.server.ts";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const db = context.services.db;
  const config = context.services.config;
  const product = await findProductBySlug(db, params.slug);
  if (!product) throw data(null, { status: 404 });
  const [upsells, related, children, bundled, terms] = await Promise.all([
    productsByIds(db, product.links.upsell),
    productsByIds(db, product.links.cross_sell),
    productsByIds(db, product.links.grouped_child),
    productsByIds(db, product.links.bundled),
    termsOf(db, product.attributes.map((a) => a.name)),
  ]);
  const url = new URL(request.url);
  const attributes: VariationAttributeView[] = product.attributes
    .filter((a) => a.variation)
    .map((a) => ({
      name: `attribute_${a.name}`,
      label: a.label,
      style: a.name === "pa_color" ? "color" : a.name === "pa_size" ? "label" : "radio",
      values: a.options.map((slug) => {
        const term = terms.find((t) => t.taxonomy === a.name && t.slug === slug);
        return { value: slug, title: term?.name ?? slug, color: term?.meta?.color ?? null };
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
          salePercentages: salePercentagesByVariation(product.variations.map((v) => ({ variation_id: v.id, regularCents: v.regularPrice, saleCents: v.salePrice }))),
        }
      : null;
  const discounts = await discountPageData(context.storefront, product);
  return {
    // The variations travel as the form's data (or not at all when there are many), not twice.
    product: { ...product, variations: [] as typeof product.variations },
    variable,
    upsells,
    related,
    children,
    bundled,
    origin: context.origin,
    discounts,
    gallery: { breakpoint: config.layout.galleryBreakPoint, resizeDebounceMs: config.timings.galleryResizeDebounceMs, saleBadgeTemplate: config.shop.saleBadgeTemplate },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  const { product, origin } = loaderData;
  const url = `${origin}/product/${product.slug}/`;
  return [
    { title: pageTitle(product.name) },
    { name: "description", content: product.shortDescription },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:title", content: product.name },
    { property: "og:image", content: `${origin}${mediaUrl(product.imageSlugs[0])}` },
    {
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "Product",
        name: product.name,
        sku: product.sku,
        description: product.shortDescription,
        image: product.imageSlugs.map((s) => `${origin}${mediaUrl(s)}`),
        url,
        ...(product.ratingCount ? { aggregateRating: { "@type": "AggregateRating", ratingValue: product.ratingAverage, reviewCount: product.ratingCount } } : {}),
        offers: {
          "@type": product.priceMin !== product.priceMax ? "AggregateOffer" : "Offer",
          priceCurrency: "USD",
          ...(product.priceMin !== product.priceMax
            ? { lowPrice: ((product.priceMin ?? 0) / 100).toFixed(2), highPrice: ((product.priceMax ?? 0) / 100).toFixed(2) }
            : { price: ((product.priceMin ?? 0) / 100).toFixed(2) }),
          availability: product.stockStatus === "outofstock" ? "https://schema.org/OutOfStock" : "https://schema.org/InStock",
          url,
        },
      },
    },
  ];
};

/** §5 'Minimum on load': quantity inputs outside the cart's quantity column are raised to their minimum. */
function useQuantityMinimumOnLoad() {
  useEffect(() => {
    for (const input of document.querySelectorAll<HTMLInputElement>("input.qty")) {
      if (input.closest(".product-quantity")) continue;
      const min = Number(input.min);
      if (input.min !== "" && Number.isFinite(min) && min >= 0 && Number(input.value) < min) input.value = String(min);
    }
  }, []);
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, upsells, related, children, bundled, variable, gallery, origin } = loaderData;
  const category = product.categories[0];
  const [variation, setVariation] = useState<VariationJson | null>(null);
  const onVariation = useCallback((v: VariationJson | null) => setVariation(v), []);
  const formAnchor = useRef<HTMLDivElement>(null);
  useQuantityMinimumOnLoad();
  const images = product.imageSlugs.map((slug, i) => ({ src: mediaUrl(slug), alt: product.imageAlts[i] ?? product.name }));
  const badgeText = variable ? saleBadgeForVariation(variable.salePercentages, variation?.variation_id, gallery.saleBadgeTemplate) : null;
  const badge = badgeText ? (
    <span className="onsale sale-percentage" data-notification={SALE_BADGE.notificationType}>
      {badgeText}
    </span>
  ) : product.onSale ? (
    <span className="onsale">Sale!</span>
  ) : null;
  const url = `${origin}/product/${product.slug}/`;
  return (
    <div className="woocommerce">
      <nav className="woocommerce-breadcrumb" aria-label="Breadcrumb">
        <a href="/">Home</a> <span aria-hidden="true">/</span> <a href="/shop/">Shop</a>
        {category ? (
          <>
            {" "}
            <span aria-hidden="true">/</span> <a href={`/product-category/${category.slug}/`}>{category.name}</a>
          </>
        ) : null}{" "}
        <span aria-hidden="true">/</span> <span aria-current="page">{product.name}</span>
      </nav>
      <div id={`product-${product.id}`} className={`product type-product product-type-${product.type} ${product.stockStatus}${product.onSale ? " sale" : ""}`}>
        <div className="product-layout">
          <ProductGallery
            images={images}
            variationImage={variation?.image ?? null}
            breakpoint={gallery.breakpoint}
            resizeDebounceMs={gallery.resizeDebounceMs}
            badge={badge}
            shareUrl={url}
            title={product.name}
          />
          <div className="summary entry-summary" ref={formAnchor}>
            <h1 className="product_title entry-title">{product.name}</h1>
            <StarRating average={product.ratingAverage} count={product.ratingCount} />
            <p className="price">
              <Price className="price-inner" regular={product.regularPrice} sale={product.salePrice} min={product.priceMin} max={product.priceMax} />
            </p>
            <div className="woocommerce-product-details__short-description">
              <p>{product.shortDescription}</p>
            </div>
            <AddToCartForm product={product} childProducts={children} bundledProducts={bundled} variable={variable ? { ...variable, onVariation } : undefined} />
            <DiscountPricing data={loaderData.discounts} />
            <div className="product_meta">
              {product.sku ? (
                <span className="sku_wrapper">
                  SKU: <span className="sku">{product.sku}</span>
                </span>
              ) : null}
              {product.categories.length ? (
                <span className="posted_in">
                  {product.categories.length > 1 ? "Categories: " : "Category: "}
                  {product.categories.map((c, i) => (
                    <span key={c.slug}>
                      {i ? ", " : ""}
                      <a href={`/product-category/${c.slug}/`} rel="tag">
                        {c.name}
                      </a>
                    </span>
                  ))}
                </span>
              ) : null}
            </div>
          </div>
        </div>
        <section className="woocommerce-tabs" aria-labelledby="description-heading">
          <h2 id="description-heading">Description</h2>
          <p>{product.description}</p>
          <h2 id="reviews">Reviews ({product.ratingCount})</h2>
          {product.reviews.length ? (
            <ol className="commentlist">
              {product.reviews.map((r, i) => (
                <li key={i} className="review">
                  <StarRating average={r.rating} count={1} />
                  <p className="meta">
                    <strong className="woocommerce-review__author">{r.author}</strong>
                  </p>
                  <p>{r.content}</p>
                </li>
              ))}
            </ol>
          ) : (
            <p className="woocommerce-noreviews">There are no reviews yet.</p>
          )}
        </section>
        {upsells.length ? (
          <section className="up-sells upsells products">
            <h2>You may also like…</h2>
            <ProductGrid products={upsells} />
          </section>
        ) : null}
        {related.length ? (
          <section className="related products">
            <h2>Related products</h2>
            <ProductGrid products={related} />
          </section>
        ) : null}
      </div>
      <StickyAddToCart product={product} formId={productFormId(product.id)} anchor={formAnchor} variationPriceHtml={variation?.price_html ?? null} />
    </div>
  );
}
