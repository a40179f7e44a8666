import type { ProductSummary } from "../../../core/domain/catalog/products.ts";
import { mediaUrl, productUrl } from "../../lib/format.ts";
import { ProductImage } from "./ProductImage.tsx";
import { Price } from "./Price.tsx";
import { StarRating } from "./StarRating.tsx";
import { Amount } from "./Price.tsx";
import type { CardExtras } from "../listing/types.ts";
import { TrackingProductData } from "../tracking/TrackingData.tsx";
import { productTrackingData } from "../../../core/domain/tracking/browser-tracking.ts";
import { SITE_CONFIG } from "../../../core/config/site-config.ts";
import { QuickViewButton } from "../quick-view/QuickView.tsx";

/** The add-to-cart button of a listing item, with the data attributes the cart scripts send (docs/contract/wire.md §1.3). */
export function LoopAddToCart({ product }: { product: ProductSummary }) {
  const inStock = product.stockStatus !== "outofstock";
  const label = `“${product.name}”`;
  if (product.type === "external") {
    const url = String(product.details.productUrl ?? productUrl(product.slug));
    return (
      <a href={url} className="button product_type_external" rel="nofollow noopener" target="_blank" aria-label={`Buy ${label} at the partner store`}>
        {String(product.details.buttonText ?? "Buy product")}
      </a>
    );
  }
  if (product.type === "simple" && inStock) {
    return (
      <a
        href={`?add-to-cart=${product.id}`}
        data-quantity="1"
        className="button product_type_simple add_to_cart_button ajax_add_to_cart"
        data-product_id={product.id}
        data-product_sku={product.sku ?? ""}
        aria-label={`Add to cart: ${label}`}
        aria-describedby={`woocommerce_loop_add_to_cart_link_describedby_${product.id}`}
        rel="nofollow"
        data-success_message={`${label} has been added to your cart`}
      >
        Add to cart
      </a>
    );
  }
  const text = !inStock ? "Read more" : product.type === "variable" ? "Select options" : product.type === "grouped" ? "View products" : "Choose options";
  return (
    <a href={productUrl(product.slug)} className={`button product_type_${product.type}`} aria-label={`${text}: ${label}`} rel="nofollow">
      {text}
    </a>
  );
}

/** Colour swatches of a variable product's item: links to the product page with that colour chosen. */
function LoopSwatches({ product, swatches }: { product: ProductSummary; swatches: CardExtras["swatches"] }) {
  if (!swatches.length) return null;
  return (
    <ul className="cfvsw-swatches-container loop-swatches" aria-label={`Colours of ${product.name}`}>
      {swatches.map((s) => (
        <li key={s.slug}>
          <a
            className="cfvsw-swatches-option"
            href={`${productUrl(product.slug)}?attribute_${s.taxonomy}=${encodeURIComponent(s.slug)}`}
            title={s.name}
            style={s.color ? { backgroundColor: s.color } : undefined}
            data-slug={s.slug}
          >
            <span className="screen-reader-text">{s.name}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * Individual variations offered on category archives: each is an add-to-cart button for
 * action=jck_wssv_add_to_cart carrying every datum the request sends (docs/contract/storefront.md §3 'Variation add-to-cart request').
 */
function LoopVariationButtons({ product, variations }: { product: ProductSummary; variations: CardExtras["variations"] }) {
  if (!variations.length) return null;
  return (
    <details className="loop-variations">
      <summary>Choose a variation</summary>
      <ul>
        {variations.map((v) => {
          const attrs = Object.fromEntries(Object.entries(v.attributes).map(([k, val]) => [`data-${k}`, val]));
          const label = `“${product.name} - ${v.label}”`;
          return (
            <li key={v.id}>
              <a
                href={`?add-to-cart=${v.id}`}
                data-quantity="1"
                className="button product_type_variation add_to_cart_button jck_wssv_add_to_cart"
                data-product_id={product.id}
                data-variation_id={v.id}
                data-product_sku={v.sku ?? ""}
                data-success_message={`${label} has been added to your cart`}
                aria-label={`Add to cart: ${label}`}
                rel="nofollow"
                {...attrs}
              >
                {v.label} — <Amount cents={v.price} />
              </a>
            </li>
          );
        })}
      </ul>
    </details>
  );
}

/**
 * `priority`: the item is in a listing's first row, above the fold: its image is the page's largest paint, so it loads
 * at once and first instead of lazily.
 */
export function ProductCard({
  product,
  headingLevel = 2,
  extras,
  priority = false,
}: {
  product: ProductSummary;
  headingLevel?: 2 | 3;
  extras?: CardExtras;
  priority?: boolean;
}) {
  const Heading = `h${headingLevel}` as "h2";
  const classes = ["product", `type-product`, `post-${product.id}`, `product-type-${product.type}`, product.stockStatus, product.onSale ? "sale" : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <li className={classes}>
      <a href={productUrl(product.slug)} className="woocommerce-LoopProduct-link woocommerce-loop-product__link">
        {product.onSale ? <span className="onsale">Sale!</span> : null}
        <ProductImage
          upload={product.imageUploads?.[0]}
          size="woocommerce_thumbnail"
          sizes="300px"
          src={mediaUrl(product.imageSlugs[0])}
          alt={product.imageAlts[0] ?? product.name}
          width={300}
          height={300}
          loading={priority ? "eager" : "lazy"}
          fetchPriority={priority ? "high" : undefined}
          decoding="async"
        />
        <Heading className="woocommerce-loop-product__title">{product.name}</Heading>
        <StarRating average={product.ratingAverage} count={product.ratingCount} />
        <Price regular={product.regularPrice} sale={product.salePrice} min={product.priceMin} max={product.priceMax} />
      </a>
      {extras ? <LoopSwatches product={product} swatches={extras.swatches} /> : null}
      {product.stockStatus === "outofstock" ? <span className="stock out-of-stock">Out of stock</span> : null}
      <LoopAddToCart product={product} />
      <QuickViewButton product={product} />
      {(product.type === "simple" && product.stockStatus !== "outofstock") || extras?.variations.length ? (
        <TrackingProductData
          productId={product.id}
          data={productTrackingData(
            {
              id: product.id,
              priceCents: product.salePrice ?? product.regularPrice ?? product.priceMin,
              children: extras?.variations.map((v) => ({ id: v.id, priceCents: v.price })),
            },
            SITE_CONFIG.currency.code,
          )}
        />
      ) : null}
      {extras ? <LoopVariationButtons product={product} variations={extras.variations} /> : null}
      <span id={`woocommerce_loop_add_to_cart_link_describedby_${product.id}`} className="screen-reader-text">
        {product.type === "variable" ? "This product has multiple variants. The options may be chosen on the product page" : ""}
      </span>
    </li>
  );
}

export function ProductGrid({ products, view = "grid", extras }: { products: ProductSummary[]; view?: "grid" | "list"; extras?: Record<number, CardExtras> }) {
  return (
    <ul className={`products columns-4 view-${view}`}>
      {products.map((p) => (
        <ProductCard key={p.id} product={p} extras={extras?.[p.id]} />
      ))}
    </ul>
  );
}
