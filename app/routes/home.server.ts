/** The server half of the home route: its loader (and action), everything that reaches the database; the route module renders. */
import { data } from "react-router";
import { featuredProducts, listCategories, listPosts } from "../../core/db/repositories/catalog.ts";
import { searchPosts } from "../../core/db/repositories/posts.ts";
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
    const posts = productsOnly || term === null ? null : (await searchPosts(db, { page: 1, perPage: SEARCH_POSTS, search: term })).items;
    return { kind: "search" as const, ...listing, posts };
  }
  if (params.page !== undefined) throw data(null, { status: 404 });
  const [featured, categories, posts] = await Promise.all([featuredProducts(db, 8), listCategories(db), listPosts(db, 1, 3)]);
  return { kind: "home" as const, featured, categories, posts: posts.items };
}
