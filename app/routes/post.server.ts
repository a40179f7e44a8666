/** The server half of the post route: its loader (and action), everything that reaches the database; the route module renders. */
import { data } from "react-router";
import { findPost } from "../../core/db/repositories/catalog.ts";
import { commentsSection } from "../../core/commerce/comments.ts";
import { shareSettings } from "../components/share/share-settings.ts";
import { sanitizePostHtml } from "../../core/domain/text/kses.ts";
import type { Route } from "./+types/post";

export async function loader({ context, params }: Route.LoaderArgs) {
  const post = await findPost(context.services.db, params.slug);
  if (!post) throw data(null, { status: 404 });
  const comments = await commentsSection(context.services.db, context.shop, context.services.config.comments, post.id);
  // Bodies are sanitised when staff write them (docs/contract/rest/content.md 'Sanitising'); again here for rows written otherwise.
  return { post: { ...post, content: sanitizePostHtml(post.content) }, comments, origin: context.origin, share: shareSettings(context.services.config.share) };
}
