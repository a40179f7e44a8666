/** GET /quick-view/{slug}/ (no page): the quick view's data as JSON; the loader is in the sibling .server.ts. */
import type { Route } from "./+types/quick-view";
import { loader as serverLoader } from "./quick-view.server.ts";

export function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}
