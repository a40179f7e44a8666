/** POST /newsletter/ (no page): the action is in the sibling .server.ts. */
import type { Route } from "./+types/newsletter";
import { action as serverAction, loader as serverLoader } from "./newsletter.server.ts";

export async function action(args: Route.ActionArgs) {
  return serverAction(args);
}

export function loader() {
  return serverLoader();
}
