import { data } from "react-router";
import type { Route } from "./+types/product";
import { findProductBySlug, productsByIds, termsOf } from "../../core/db/repositories/catalog.ts";
import { ProductGrid } from "../components/product/ProductCard.tsx";
import { Price } from "../components/product/Price.tsx";
import { StarRating } from "../components/product/StarRating.tsx";
import { AddToCartForm } from "../components/product/AddToCartForm.tsx";
import { mediaUrl } from "../lib/format.ts";
import { pageTitle } from "../lib/listing-params.ts";
import { DiscountPricing } from "../components/discounts/DiscountPricing.tsx";
import { discountPageData } from "../components/discounts/discount-page-data.server.ts";

export async function loader({ context, params }: Route.LoaderArgs) {
  const db = context.services.db;
  const product = await findProductBySlug(db, params.slug);
  if (!product) throw data(null, { status: 404 });
  const [upsells, related, children, bundled, terms] = await Promise.all([
    productsByIds(db, product.links.upsell),
    productsByIds(db, product.links.cross_sell),
    productsByIds(db, product.links.grouped_child),
    productsByIds(db, product.links.bundled),
    termsOf(db, product.attributes.map((a) => a.name)),
  ]);
  return { product, upsells, related, children, bundled, terms, origin: context.origin, discounts: await discountPageData(context.services, context.shop, product) };
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

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, upsells, related, children, bundled, terms } = loaderData;
  const category = product.categories[0];
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
          <div className="woocommerce-product-gallery" data-columns="4">
            {product.onSale ? <span className="onsale">Sale!</span> : null}
            <ul className="woocommerce-product-gallery__wrapper">
              {product.imageSlugs.map((slug, i) => (
                <li key={slug} className="woocommerce-product-gallery__image" data-thumb={mediaUrl(slug)}>
                  <a href={mediaUrl(slug)}>
                    <img src={mediaUrl(slug)} alt={product.imageAlts[i] ?? product.name} width={600} height={600} loading={i === 0 ? "eager" : "lazy"} />
                  </a>
                </li>
              ))}
            </ul>
          </div>
          <div className="summary entry-summary">
            <h1 className="product_title entry-title">{product.name}</h1>
            <StarRating average={product.ratingAverage} count={product.ratingCount} />
            <p className="price">
              <Price className="price-inner" regular={product.regularPrice} sale={product.salePrice} min={product.priceMin} max={product.priceMax} />
            </p>
            <div className="woocommerce-product-details__short-description">
              <p>{product.shortDescription}</p>
            </div>
            <AddToCartForm product={product} childProducts={children} bundledProducts={bundled} terms={terms} />
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
    </div>
  );
}
