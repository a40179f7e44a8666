import { data, Form, useSubmit } from "react-router";
import type { Route } from "./+types/shop";
import { findCategory, listProducts } from "../../core/db/repositories/catalog.ts";
import { ProductGrid } from "../components/product/ProductCard.tsx";
import { ORDER_OPTIONS, pageTitle, parseOrder, parsePage, parsePriceFilter } from "../lib/listing-params.ts";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { services } = context;
  const url = new URL(request.url);
  const page = parsePage(params.page);
  if (page === null) throw data(null, { status: 404 });
  const categorySlug = params.category;
  const category = categorySlug ? await findCategory(services.db, categorySlug) : null;
  if (categorySlug && !category) throw data(null, { status: 404 });
  const search = (url.searchParams.get("s") ?? "").trim().slice(0, 100) || undefined;
  const orderby = parseOrder(url.searchParams.get("orderby"));
  let minPrice = parsePriceFilter(url.searchParams.get("min_price"));
  let maxPrice = parsePriceFilter(url.searchParams.get("max_price"));
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice) [minPrice, maxPrice] = [maxPrice, minPrice];
  const perPage = services.config.shop.perPage;
  const { items, total } = await listProducts(services.db, { categorySlug, search, orderby, page, perPage, minPrice, maxPrice });
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  if (page > totalPages) throw data(null, { status: 404 });
  const view = url.searchParams.get("view") === "list" ? "list" : "grid";
  const basePath = categorySlug ? `/product-category/${categorySlug}/` : "/shop/";
  return {
    title: category ? `${category.name} Archives` : search ? `Search results: “${search}”` : "Shop",
    heading: category ? category.name : search ? `Search results: “${search}”` : "Shop",
    description: category?.description ?? "",
    items,
    total,
    page,
    perPage,
    totalPages,
    orderby,
    view,
    basePath,
    query: url.search,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData ? [{ title: pageTitle(loaderData.title) }, { name: "description", content: loaderData.description || "Shop face masks, ties and matching sets." }] : [];

function resultCountText(page: number, perPage: number, total: number): string {
  if (total === 0) return "No products were found matching your selection.";
  if (total === 1) return "Showing the single result";
  if (total <= perPage) return `Showing all ${total} results`;
  const first = (page - 1) * perPage + 1;
  return `Showing ${first}–${Math.min(total, page * perPage)} of ${total} results`;
}

/** 1 … 4 5 [6] 7 8 … 417: the first, the last and two either side of the current page. */
export function pageWindow(current: number, total: number): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let n = 1; n <= total; n++) {
    if (n === 1 || n === total || Math.abs(n - current) <= 2) pages.push(n);
    else if (pages[pages.length - 1] !== null) pages.push(null);
  }
  return pages;
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  const { heading, description, items, total, page, perPage, totalPages, orderby, view, basePath, query } = loaderData;
  const submit = useSubmit();
  const pageHref = (n: number) => `${basePath}${n > 1 ? `page/${n}/` : ""}${query}`;
  const search = new URLSearchParams(query);
  return (
    <div className="woocommerce listing">
      <header className="woocommerce-products-header">
        <h1 className="woocommerce-products-header__title page-title">{heading}</h1>
        {description ? <div className="term-description">{description}</div> : null}
      </header>
      <div className="listing-toolbar">
        <p className="woocommerce-result-count" role="status" aria-live="polite">
          {resultCountText(page, perPage, total)}
        </p>
        <Form method="get" className="woocommerce-ordering" onChange={(e) => submit(e.currentTarget)}>
          <label htmlFor="orderby" className="screen-reader-text">
            Shop order
          </label>
          <select name="orderby" id="orderby" className="orderby" defaultValue={orderby} aria-label="Shop order">
            {ORDER_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          {[...search.entries()]
            .filter(([k]) => k !== "orderby")
            .map(([k, v]) => (
              <input key={k} type="hidden" name={k} value={v} />
            ))}
          <noscript>
            <button type="submit">Sort</button>
          </noscript>
        </Form>
      </div>
      {items.length ? <ProductGrid products={items} view={view as "grid" | "list"} /> : <p className="woocommerce-info">No products were found matching your selection.</p>}
      {totalPages > 1 ? (
        <nav className="woocommerce-pagination" aria-label="Product Pagination">
          <ul className="page-numbers">
            {page > 1 ? (
              <li>
                <a className="prev page-numbers" href={pageHref(page - 1)} rel="prev">
                  ← Previous
                </a>
              </li>
            ) : null}
            {pageWindow(page, totalPages).map((n, i) => (
              <li key={n ?? `gap-${i}`}>
                {n === null ? (
                  <span className="page-numbers dots">…</span>
                ) : n === page ? (
                  <span aria-current="page" className="page-numbers current">
                    {n}
                  </span>
                ) : (
                  <a className="page-numbers" href={pageHref(n)}>
                    {n}
                  </a>
                )}
              </li>
            ))}
            {page < totalPages ? (
              <li>
                <a className="next page-numbers" href={pageHref(page + 1)} rel="next">
                  Next →
                </a>
              </li>
            ) : null}
          </ul>
        </nav>
      ) : null}
    </div>
  );
}
