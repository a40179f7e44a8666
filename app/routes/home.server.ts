/** The server half of the home route: its loader (and action), everything that reaches the database; the route module renders. */
import { featuredProducts, listCategories, listPosts } from "../../core/db/repositories/catalog.ts";
import { readSiteOptions } from "../../core/commerce/site-options.ts";
import { formatPhpDate } from "../../core/domain/text/date.ts";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const db = context.services.db;
  const [featured, categories, posts, options] = await Promise.all([
    featuredProducts(db, 8),
    listCategories(db),
    listPosts(db, 1, 3),
    readSiteOptions(db, context.services.config),
  ]);
  // Post dates in the site's date_format and time zone (wp/v2/settings).
  return { featured, categories, posts: posts.items.map((p) => ({ ...p, date: formatPhpDate(p.publishedAt, options.date_format, options.timezone) })) };
}
