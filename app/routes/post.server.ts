/** The server half of the post route: its loader (and action), everything that reaches the database; the route module renders. */
import { data } from "react-router";
import { findPost } from "../../core/db/repositories/catalog.ts";
import { commentsSection } from "../../core/commerce/comments.ts";
import { shareSettings } from "../components/share/share-settings.ts";
import { staffEditLink } from "../lib/staff.server.ts";
import type { Route } from "./+types/post";

export async function loader({ context, params }: Route.LoaderArgs) {
  const post = await findPost(context.services.db, params.slug);
  if (!post) throw data(null, { status: 404 });
  const comments = await commentsSection(context.services.db, context.shop, context.services.config.comments, post.id);
  return { post, comments, origin: context.origin, share: shareSettings(context.services.config.share), ...(await staffEditLink(context, "post", post.id)) };
}
