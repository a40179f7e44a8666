import type { Route } from "./+types/shop";
// Single modules: only the loader uses the zod-backed parser, so the browser's bundle drops it with the loader.
import { ListingPage } from "../components/listing/ListingPage.tsx";
import { pageTitle } from "../lib/listing-params.ts";
import { loader as serverLoader } from "./shop.server.ts";

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? [
        { title: pageTitle(loaderData.title) },
        { name: "description", content: loaderData.description || "Shop face masks, ties and matching sets." },
        { tagName: "link", rel: "canonical", href: loaderData.canonical },
      ]
    : [];

export default function Shop({ loaderData }: Route.ComponentProps) {
  return <ListingPage data={loaderData} />;
}
