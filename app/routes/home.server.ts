/** The server half of the home route: its loader (and action), everything that reaches the database; the route module renders. */
import { data } from "react-router";
import { featuredProducts, listCategories, listPosts } from "../../core/db/repositories/catalog.ts";
import { readSiteOptions } from "../../core/commerce/site-options.ts";
import { formatPhpDate } from "../../core/domain/text/date.ts";
import { listContent } from "../../core/db/repositories/content.ts";
import { normalizeSearch } from "../../core/domain/catalog/listing-query.ts";
import { listingPage } from "./shop.server.ts";
import type { Route } from "./+types/home";

/** Posts shown under the products on a plain /?s=… (docs/contract/storefront-search.md). */
const SEARCH_POSTS = 10;

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const db = context.services.db;
  const url = new URL(request.url);
  // WordPress's search address: /?s=… (and /page/{n}/?s=…) is the search results page, not the home page.
  if (url.searchParams.has("s")) {
    const productsOnly = url.searchParams.get("post_type") === "product";
    const listing = await listingPage(context, request, params, "/");
    const term = normalizeSearch(url.searchParams.get("s"));
    let posts = null;
    if (!productsOnly && term !== null) {
      const [found, options] = await Promise.all([
        listContent(db, { type: "post", statuses: ["publish"], search: term, orderby: "date", order: "desc", limit: SEARCH_POSTS, offset: 0 }),
        readSiteOptions(db, context.services.config),
      ]);
      posts = found.items.map((p) => ({
        id: p.id,
        slug: p.slug,
        title: p.title,
        excerpt: p.excerpt,
        date: formatPhpDate(p.publishedAt, options.date_format, options.timezone),
      }));
    }
    return { kind: "search" as const, ...listing, posts };
  }
  if (params.page !== undefined) throw data(null, { status: 404 });
  const [featured, categories, posts, options] = await Promise.all([
    featuredProducts(db, 8),
    listCategories(db),
    listPosts(db, 1, 3),
    readSiteOptions(db, context.services.config),
  ]);
  // Post dates in the site's date_format and time zone (wp/v2/settings).
  return {
    kind: "home" as const,
    featured,
    categories,
    posts: posts.items.map((p) => ({ ...p, date: formatPhpDate(p.publishedAt, options.date_format, options.timezone) })),
  };
}
