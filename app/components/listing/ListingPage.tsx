import { useEffect, useState, type ComponentProps } from "react";
import { Listing } from "./Listing.tsx";
import { QuickViewScope } from "../quick-view/QuickView.tsx";
import { ChangeCountryForm } from "./ChangeCountryForm.tsx";
import { ProductGrid } from "../product/ProductCard.tsx";
import { THEME_TEMPLATES } from "../../lib/theme-templates.ts";
import { productUrl } from "../../lib/format.ts";
import type { ProductSummary } from "../../../core/domain/catalog/products.ts";

/** What a search adds to the listing page (docs/contract/storefront-search.md 'Results page'). */
export interface SearchView {
  term: string;
  correctedTo: string | null;
  timedOut: boolean;
  suggestions: { nearest: { id: number; name: string; slug: string } | null; popular: ProductSummary[] } | null;
}

export interface ListingPageData {
  heading: string;
  description: string;
  listing: ComponentProps<typeof Listing>;
  country: string;
  search: SearchView | null;
}

function SearchNotice({ search }: { search: SearchView }) {
  if (search.correctedTo !== null)
    return (
      <p className="search-notice search-notice--corrected" role="status">
        No products matched “{search.term}”. Showing results for <strong>{search.correctedTo}</strong>.
      </p>
    );
  if (search.timedOut)
    return (
      <p className="search-notice" role="status">
        The search took too long. Please try fewer or different words.
      </p>
    );
  return null;
}

function SearchSuggestions({ suggestions }: { suggestions: NonNullable<SearchView["suggestions"]> }) {
  return (
    <section className="search-suggestions" aria-label="Search suggestions">
      {suggestions.nearest ? (
        <p className="search-suggestions__nearest">
          Did you mean <a href={productUrl(suggestions.nearest.slug)}>{suggestions.nearest.name}</a>?
        </p>
      ) : null}
      {suggestions.popular.length ? (
        <>
          <h2 className="section-title">Popular products</h2>
          <ProductGrid products={suggestions.popular} />
        </>
      ) : null}
    </section>
  );
}

/** The product listing page: the shop, a category archive, or search results. */
export function ListingPage({ data }: { data: ListingPageData }) {
  const { heading, description, listing, search } = data;
  // Filter changes push addresses React Router did not make; on back/forward the listing is
  // rebuilt from the loader's data for the address shown (the loader re-runs when it differs).
  const [pops, setPops] = useState(0);
  useEffect(() => {
    const onPop = () => setPops((n) => n + 1);
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  return (
    <div className="woocommerce listing" data-elementor-type="product-archive" data-elementor-id={THEME_TEMPLATES.productArchive}>
      <header className="woocommerce-products-header">
        <h1 className="woocommerce-products-header__title page-title">{heading}</h1>
        {description ? <div className="term-description">{description}</div> : null}
      </header>
      {search ? <SearchNotice search={search} /> : null}
      {/* Keyed by the address: back/forward and new searches start from the server's data. */}
      <QuickViewScope>
        <Listing key={`${listing.loop.basePath}${listing.loop.query}|${listing.loop.page}|${pops}`} {...listing} />
      </QuickViewScope>
      {search?.suggestions ? <SearchSuggestions suggestions={search.suggestions} /> : null}
      <ChangeCountryForm current={data.country} returnTo={`${listing.loop.basePath}${listing.loop.query}`} />
    </div>
  );
}
