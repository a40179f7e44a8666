import { useCallback, useEffect, useRef, useState } from "react";
import type { Route } from "./+types/product";
import { EditLink } from "../components/chrome/EditLink.tsx";
import { ProductGrid } from "../components/product/ProductCard.tsx";
import { Price } from "../components/product/Price.tsx";
import { StarRating } from "../components/product/StarRating.tsx";
import { Reviews } from "../components/comments/CommentsSection.tsx";
import { AddToCartForm, bundleView, productFormId } from "../components/product/AddToCartForm.tsx";
import { ProductGallery } from "../components/product/ProductGallery.tsx";
import { AddedToCartNotice } from "../components/product/AddedToCartNotice.tsx";
import { WooCommerceProductScripts } from "../components/product/WooCommerceProductScripts.tsx";
import { StickyAddToCart } from "../components/product/StickyAddToCart.tsx";
import { type VariationJson } from "../components/product/variation-json.ts";
// The pure modules, not the catalogue's index: that one carries zod schemas the browser does not need.
import { SALE_BADGE } from "../../core/domain/catalog/settings.ts";
import { saleBadgeForVariation } from "../../core/domain/catalog/sale-badge.ts";
import { mediaUrl } from "../lib/format.ts";
import { pageTitle } from "../lib/listing-params.ts";
import { ShareButtons } from "../components/share/ShareButtons.tsx";
import { THEME_TEMPLATES } from "../lib/theme-templates.ts";
import { DiscountPricing } from "../components/discounts/DiscountPricing.tsx";
import type { CommentsSectionData } from "../../core/domain/comments/comments.ts";
import { loader as serverLoader } from "./product.server.ts";
import { SizeGuideLink } from "../components/popups/SizeGuideLink.tsx";
import { TrackingPageEvent, TrackingProductData } from "../components/tracking/TrackingData.tsx";
import { productTrackingData } from "../../core/domain/tracking/browser-tracking.ts";
import { SITE_CONFIG } from "../../core/config/site-config.ts";

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  const { product, origin, summary } = loaderData;
  const url = `${origin}/product/${product.slug}/`;
  return [
    { title: pageTitle(product.name) },
    { name: "description", content: summary },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:title", content: product.name },
    { property: "og:image", content: `${origin}${mediaUrl(product.imageSlugs[0])}` },
    {
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "Product",
        name: product.name,
        sku: product.sku,
        description: summary,
        image: product.imageSlugs.map((s) => `${origin}${mediaUrl(s)}`),
        url,
        ...(product.ratingCount
          ? {
              aggregateRating: {
                "@type": "AggregateRating",
                ratingValue: product.ratingAverage,
                reviewCount: product.ratingCount,
                bestRating: 5,
                worstRating: 1,
              },
            }
          : {}),
        ...reviewsJsonLd(loaderData.reviews),
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

/** Approved reviews only (never one awaiting moderation that only its author sees). */
function reviewsJsonLd(data: CommentsSectionData | null) {
  const approved = (data?.comments ?? []).filter((c) => !c.pending && c.rating);
  if (!approved.length) return {};
  return {
    review: approved.map((c) => ({
      "@type": "Review",
      author: { "@type": "Person", name: c.author },
      datePublished: c.createdAt.slice(0, 10),
      reviewBody: c.content,
      reviewRating: { "@type": "Rating", ratingValue: c.rating, bestRating: 5, worstRating: 1 },
    })),
  };
}

/** docs/contract/storefront.md §5 'Minimum on load': quantity inputs outside the cart's quantity column are raised to their minimum. */
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
  const images = product.imageSlugs.map((slug, i) => ({ src: mediaUrl(slug), alt: product.imageAlts[i] ?? product.name, upload: product.imageUploads?.[i] }));
  const badgeText = variable ? saleBadgeForVariation(variable.salePercentages, variation?.variation_id, gallery.saleBadgeTemplate) : null;
  const badge = badgeText ? (
    <span className="onsale sale-percentage" data-notification={SALE_BADGE.notificationType}>
      {badgeText}
    </span>
  ) : product.onSale ? (
    <span className="onsale">Sale!</span>
  ) : null;
  const url = `${origin}/product/${product.slug}/`;
  // docs/contract/storefront.md §3 'Tracking data': a grouped product's children, a variable product's variations.
  const tracking = productTrackingData(
    {
      id: product.id,
      priceCents: product.type === "bundle" ? bundleView(product, bundled).requiredTotal : (product.salePrice ?? product.regularPrice ?? product.priceMin),
      children:
        product.type === "grouped"
          ? children.map((c) => ({ id: c.id, priceCents: c.salePrice ?? c.regularPrice ?? c.priceMin }))
          : variable?.variations?.map((v) => ({ id: v.variation_id, priceCents: Math.round(v.display_price * 100) })),
    },
    SITE_CONFIG.currency.code,
  );
  return (
    <div className="woocommerce" data-elementor-type="product" data-elementor-id={THEME_TEMPLATES.singleProduct}>
      <TrackingProductData productId={product.id} data={tracking} />
      <TrackingPageEvent event="ViewContent" params={tracking.params} />
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
            <EditLink href={loaderData.editLink} title={product.name} />
            <StarRating average={product.ratingAverage} count={product.ratingCount} />
            <p className="price">
              {product.type === "bundle" ? (
                // The box with its mandatory items (the cart's price), not the box alone; the discount script keeps it current.
                <Price className="price-inner" regular={bundleView(product, bundled).requiredTotal} />
              ) : (
                <Price className="price-inner" regular={product.regularPrice} sale={product.salePrice} min={product.priceMin} max={product.priceMax} />
              )}
            </p>
            {/* Both descriptions are HTML sanitised by the loader (richTextHtml), the only HTML printed here. */}
            <div className="woocommerce-product-details__short-description" dangerouslySetInnerHTML={{ __html: product.shortDescription }} />
            <AddedToCartNotice productName={product.name} formId={productFormId(product.id)} />
            <AddToCartForm
              product={product}
              childProducts={children}
              bundledProducts={bundled}
              variable={variable ? { ...variable, onVariation } : undefined}
            />
            <SizeGuideLink hasSizes={product.attributes.some((a) => a.name === "pa_size")} />
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
            <ShareButtons url={url} title={product.name} settings={loaderData.share} />
          </div>
        </div>
        <section className="woocommerce-tabs" aria-labelledby="description-heading">
          <h2 id="description-heading">Description</h2>
          <div className="woocommerce-product-description" dangerouslySetInnerHTML={{ __html: product.description }} />
          <h2 id="reviews">Reviews ({product.ratingCount})</h2>
          {loaderData.reviews ? <Reviews data={loaderData.reviews} /> : null}
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
      <WooCommerceProductScripts globals={loaderData.wc.globals} nonce={loaderData.wc.cspNonce} variable={product.type === "variable"} />
    </div>
  );
}
