import { useEffect } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useMatches, useRouteLoaderData } from "react-router";
import { installFieldDescriptions } from "./lib/field-descriptions.ts";
import { scrollToThemeTemplate } from "./lib/theme-templates.ts";
import type { Route } from "./+types/root";
import stylesheet from "./styles/shop.css?url";
import { Header } from "./components/chrome/Header.tsx";
import { Footer } from "./components/chrome/Footer.tsx";
import { Notices } from "./components/chrome/Notices.tsx";
import { PageErrors } from "./components/chrome/PageErrors.tsx";
import { StoreNotice } from "./components/chrome/StoreNotice.tsx";
import { ScrollToTop } from "./components/chrome/ScrollToTop.tsx";
import { EMPTY_CART, CartDrawer } from "./components/cart/HeaderCart.tsx";
import { CartScripts } from "./components/cart/CartScripts.tsx";
import { StickyHeader } from "./components/sticky/StickyHeader.tsx";
import { AttributionScript } from "./components/checkout/Attribution.tsx";
import { ConsentBanner } from "./components/consent/ConsentBanner.tsx";
import attributionEarly from "./components/checkout/attribution-early.ts?iife";
import { PopupBoot } from "./components/popups/PopupBoot.tsx";
import { TrackingScript } from "./components/tracking/TrackingScript.tsx";
import { TrackingRegistrationEvent } from "./components/tracking/TrackingData.tsx";
import { loader as serverLoader } from "./root.server.ts";
import { pageTitle } from "./lib/listing-params.ts";
import { globalsScript, listingPagingOf, withListingPaging } from "./lib/page-globals.ts";
import { isBareDocument } from "./lib/bare-document.ts";
import { SITE_CONFIG } from "../core/config/site-config.ts";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><text y='14' font-size='14'>🎭</text></svg>" },
];

/**
 * Only the error page's title: a page's own meta wins where it renders, and an error (a 404 thrown by any loader, or
 * an unmatched address) renders the root's boundary, whose route modules' meta are not called.
 */
export const meta: Route.MetaFunction = ({ error }) =>
  error ? [{ title: pageTitle(isRouteErrorResponse(error) && error.status === 404 ? "Page not found" : "Something went wrong") }] : [];

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

/**
 * Marks <html> (data-cart-pending) before the first paint when the cart cookie says the cart has items: the
 * placeholders' "0" and empty mini-cart stay invisible, their boxes kept, until the fragments replace them (shop.css).
 */
const CART_PENDING_SCRIPT = `if(/(?:^|;\\s*)woocommerce_items_in_cart=/.test(document.cookie))document.documentElement.setAttribute("data-cart-pending","")`;

/** The pre-hydration attribution script's text: server-rendered only (the client build drops the string). */
const EARLY_SCRIPT = import.meta.env.SSR ? attributionEarly : "";

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const nonce = root?.cspNonce || undefined;
  const paging = listingPagingOf(useMatches().map((m) => m.loaderData));
  const slideMs = root?.fieldDescriptionSlideMs ?? 250;
  useEffect(() => installFieldDescriptions(slideMs), [slideMs]);
  useEffect(() => void scrollToThemeTemplate(window.location.search), []);
  if (isBareDocument(useMatches())) {
    return (
      <html lang="en-US">
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <Meta />
          <Links />
        </head>
        <body className="wp-core-ui">{children}</body>
      </html>
    );
  }
  return (
    // The inline script below sets data-consent on <html> before hydration (the banner's CSS keys on it).
    <html lang="en-US" dir={root?.isRtl ? "rtl" : "ltr"} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {root ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: globalsScript(withListingPaging(root.globals, paging)) }} /> : null}
        <noscript>
          <style>{".description { max-height: none !important; opacity: 1 !important; }"}</style>
        </noscript>
        {root ? <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: EARLY_SCRIPT }} /> : null}
        {/* A page for everyone: a shopper with a cart sees the cart count's box, not its "0", until the fragments fill it. */}
        {root?.cartPlaceholder ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: CART_PENDING_SCRIPT }} /> : null}
      </head>
      <body className="woocommerce-js">
        <a className="skip-link screen-reader-text" href="#content">
          Skip to content
        </a>
        {root?.storeNotice.enabled ? <StoreNotice noticeId={root.storeNotice.noticeId} text={root.storeNotice.text} hidden={root.storeNotice.hidden} /> : null}
        <Header
          siteName={root?.site.name ?? "Shop"}
          tagline={root?.site.tagline ?? ""}
          categories={root?.categories ?? []}
          menu={root?.menu ?? null}
          featured={root?.featured ?? []}
          settings={root?.header ?? SITE_CONFIG.header}
          cart={root?.cart ?? EMPTY_CART}
          cartPlaceholder={root?.cartPlaceholder ?? false}
          customerName={root?.customerName ?? null}
          logoutNonce={root?.logoutNonce ?? null}
        />
        <main id="content" className="site-content container" tabIndex={-1}>
          <Notices notices={root?.notices ?? []} />
          <PageErrors />
          {children}
        </main>
        <Footer
          siteName={root?.site.name ?? "Shop"}
          categories={root?.categories ?? []}
          links={root?.footerLinks ?? []}
          comingSoon={root?.comingSoon ?? null}
        />
        <CartDrawer cart={root?.cart ?? EMPTY_CART} placeholder={root?.cartPlaceholder ?? false} />
        <ConsentBanner />
        <ScrollToTop />
        <CartScripts />
        <StickyHeader />
        <AttributionScript />
        <PopupBoot data={root?.popups ?? null} />
        {root?.registered ? <TrackingRegistrationEvent /> : null}
        <TrackingScript cart={root?.cart ?? EMPTY_CART} config={root?.globals.shop_tracking} registered={root?.registered ?? false} />
        {root?.hydrate === false ? null : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="error-404 not-found">
      <h1 className="page-title">{notFound ? "Oops! That page can’t be found." : "Something went wrong"}</h1>
      <p>{notFound ? "It looks like nothing was found at this location. Try a search, or start from the shop." : "Please try again in a moment."}</p>
      <form role="search" action="/shop/" method="get" className="search-form">
        <label htmlFor="not-found-search">Search products</label>
        <input id="not-found-search" type="search" name="s" />
        <button type="submit">Search</button>
      </form>
      <p>
        <a className="button" href="/shop/">
          Return to shop
        </a>
      </p>
    </section>
  );
}
