/** The server half of the page route: a published page (wp/v2/pages) at its slug; anything else is the 404 page. */
import { data } from "react-router";
import { findPublishedPage } from "../../core/db/repositories/content.ts";
import { sanitizePostHtml } from "../../core/domain/text/kses.ts";
import type { Route } from "./+types/page";

export async function loader({ context, params }: Route.LoaderArgs) {
  const page = await findPublishedPage(context.services.db, params.slug);
  if (!page) throw data(null, { status: 404 });
  // Staff-written HTML through the allow-list (docs/contract/rest/content.md 'Sanitising').
  return { page: { ...page, content: sanitizePostHtml(page.content) }, origin: context.origin };
}
