/** The server half of the post route: its loader (and action), everything that reaches the database; the route module renders. */
import { data } from "react-router";
import { findPost } from "../../core/db/repositories/catalog.ts";
import { commentsSection } from "../../core/commerce/comments.ts";
import { shareSettings } from "../components/share/share-settings.ts";
import { staffEditLink } from "../lib/staff.server.ts";
import { richTextHtml } from "../../core/domain/text/kses.ts";
import { formatPhpDate } from "../../core/domain/text/date.ts";
import { readSiteOptions } from "../../core/commerce/site-options.ts";
import type { Route } from "./+types/post";

export async function loader({ context, params }: Route.LoaderArgs) {
  const post = await findPost(context.services.db, params.slug);
  if (!post) throw data(null, { status: 404 });
  const options = await readSiteOptions(context.services.db, context.services.config);
  const date = formatPhpDate(post.publishedAt, options.date_format, options.timezone); // wp/v2/settings' date_format
  const comments = await commentsSection(context.services.db, context.shop, context.services.config.comments, post.id);
  // Bodies are sanitised when staff write them (docs/contract/rest/content.md 'Sanitising'); again here for rows written
  // otherwise, and a text without tags is printed as paragraphs (autop).
  return {
    post: { ...post, content: richTextHtml(post.content), date },
    comments,
    origin: context.origin,
    share: shareSettings(context.services.config.share),
    ...(await staffEditLink(context, "post", post.id)),
  };
}
