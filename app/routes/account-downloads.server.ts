/** The server half of My account › Downloads: the signed-in customer's available downloads. */
import { redirect } from "react-router";
import { customerDownloads } from "../../core/commerce/downloads.ts";
import type { Route } from "./+types/account-downloads";

export async function loader({ context }: Route.LoaderArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  return { downloads: await customerDownloads(context.services.db, session.customerId, context.services.now()) };
}
