/** The server half of the blog route: its loader (and action), everything that reaches the database; the route module renders. */
import { data } from "react-router";
import { listPosts } from "../../core/db/repositories/catalog.ts";
import { parsePage } from "../lib/listing-params.ts";
import { readSiteOptions } from "../../core/commerce/site-options.ts";
import { formatPhpDate } from "../../core/domain/text/date.ts";
import type { Route } from "./+types/blog";

export async function loader({ context, params }: Route.LoaderArgs) {
  const page = parsePage(params.page);
  if (page === null) throw data(null, { status: 404 });
  // WordPress's posts_per_page and date_format (wp/v2/settings): 6 a page, "F j, Y", unless staff changed them.
  const options = await readSiteOptions(context.services.db, context.services.config);
  const perPage = options.posts_per_page;
  const { items, total } = await listPosts(context.services.db, page, perPage);
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  if (page > totalPages) throw data(null, { status: 404 });
  return {
    items: items.map((p) => ({ ...p, date: formatPhpDate(p.publishedAt, options.date_format, options.timezone) })),
    page,
    totalPages,
    noMore: context.services.config.shop.noMoreBlogMessage,
    showComments: context.services.config.shop.blogShowCommentsLabel,
  };
}
