/** The server half of the blog route: its loader (and action), everything that reaches the database; the route module renders. */
import { data } from "react-router";
import { listPosts } from "../../core/db/repositories/catalog.ts";
import { parsePage } from "../lib/listing-params.ts";
import type { Route } from "./+types/blog";

const PER_PAGE = 6;

export async function loader({ context, params }: Route.LoaderArgs) {
  const page = parsePage(params.page);
  if (page === null) throw data(null, { status: 404 });
  const { items, total } = await listPosts(context.services.db, page, PER_PAGE);
  const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
  if (page > totalPages) throw data(null, { status: 404 });
  return { items, page, totalPages, noMore: context.services.config.shop.noMoreBlogMessage, showComments: context.services.config.shop.blogShowCommentsLabel };
}
