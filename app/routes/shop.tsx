import { useEffect, useState } from "react";
import type { Route } from "./+types/shop";
// Single modules: only the loader uses the zod-backed parser, so the browser's bundle drops it with the loader.
import { Listing } from "../components/listing/Listing.tsx";
import { pageTitle } from "../lib/listing-params.ts";
import { THEME_TEMPLATES } from "../lib/theme-templates.ts";
import { ChangeCountryForm } from "../components/listing/ChangeCountryForm.tsx";
import { loader as serverLoader } from "./shop.server.ts";
import { QuickViewScope } from "../components/quick-view/QuickView.tsx";

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
  const { heading, description, listing } = loaderData;
  // Filter changes push addresses React Router did not make; on back/forward the listing is
  // rebuilt from the loader's data for the address shown (the loader re-runs when it differs).
  const [pops, setPops] = useState(0);
  useEffect(() => {
    const onPop = () => setPops((n) => n + 1);
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  return (
    <div className="woocommerce listing" data-elementor-type="product-archive" data-elementor-id={THEME_TEMPLATES.productArchive}>
      <header className="woocommerce-products-header">
        <h1 className="woocommerce-products-header__title page-title">{heading}</h1>
        {description ? <div className="term-description">{description}</div> : null}
      </header>
      {/* Keyed by the address: back/forward and new searches start from the server's data. */}
      <QuickViewScope>
        <Listing key={`${listing.loop.basePath}${listing.loop.query}|${listing.loop.page}|${pops}`} {...listing} />
      </QuickViewScope>
      <ChangeCountryForm current={loaderData.country} returnTo={`${listing.loop.basePath}${listing.loop.query}`} />
    </div>
  );
}
