import type { ProductSummary } from "../../../core/db/repositories/catalog.ts";
import { mediaUrl, productUrl } from "../../lib/format.ts";
import { Price } from "./Price.tsx";
import { StarRating } from "./StarRating.tsx";

/** The add-to-cart button of a listing item, with the data attributes the cart scripts send (wire-contracts §1.3). */
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

export function ProductCard({ product, headingLevel = 2 }: { product: ProductSummary; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as "h2";
  const classes = ["product", `type-product`, `post-${product.id}`, `product-type-${product.type}`, product.stockStatus, product.onSale ? "sale" : ""].filter(Boolean).join(" ");
  return (
    <li className={classes}>
      <a href={productUrl(product.slug)} className="woocommerce-LoopProduct-link woocommerce-loop-product__link">
        {product.onSale ? <span className="onsale">Sale!</span> : null}
        <img src={mediaUrl(product.imageSlugs[0])} alt={product.imageAlts[0] ?? product.name} width={300} height={300} loading="lazy" decoding="async" />
        <Heading className="woocommerce-loop-product__title">{product.name}</Heading>
        <StarRating average={product.ratingAverage} count={product.ratingCount} />
        <Price regular={product.regularPrice} sale={product.salePrice} min={product.priceMin} max={product.priceMax} />
      </a>
      {product.stockStatus === "outofstock" ? <span className="stock out-of-stock">Out of stock</span> : null}
      <LoopAddToCart product={product} />
      <span id={`woocommerce_loop_add_to_cart_link_describedby_${product.id}`} className="screen-reader-text">
        {product.type === "variable" ? "This product has multiple variants. The options may be chosen on the product page" : ""}
      </span>
    </li>
  );
}

export function ProductGrid({ products, view = "grid" }: { products: ProductSummary[]; view?: "grid" | "list" }) {
  return (
    <ul className={`products columns-4 view-${view}`}>
      {products.map((p) => (
        <ProductCard key={p.id} product={p} />
      ))}
    </ul>
  );
}
