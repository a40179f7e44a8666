import type { Route } from "./+types/account-downloads";
import { pageTitle } from "../lib/listing-params.ts";
import { AccountNav, DownloadsTable } from "../components/account/AccountNav.tsx";
import { loader as serverLoader } from "./account-downloads.server.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Downloads") }, { name: "robots", content: "noindex" }];

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export default function AccountDownloads({ loaderData }: Route.ComponentProps) {
  return (
    <div className="woocommerce my-account">
      <h1 className="page-title">Downloads</h1>
      <AccountNav current="downloads" />
      {loaderData.downloads.length ? (
        <DownloadsTable downloads={loaderData.downloads} />
      ) : (
        <div className="woocommerce-info" role="status">
          No downloads available yet. <a href="/shop/">Browse products</a>
        </div>
      )}
    </div>
  );
}
