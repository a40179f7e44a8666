/** The server half of the root route: its loader (and action), everything that reaches the database; the route module renders. */
import { cartSummaryView } from "./components/cart/cart-view.ts";
import { navigationCategories } from "../core/db/repositories/navigation.ts";
import { browserGlobals, type PageKind } from "./lib/browser-globals.server.ts";
import { readUserMeta } from "../core/db/repositories/user-meta.ts";
import { REST_NONCE_ACTION } from "../core/security/nonce.ts";
import { REGISTRATION_SESSION_FLAG } from "../core/domain/tracking/events.ts";
import type { Route } from "./+types/root";
import { popupsForPage } from "../core/commerce/popups.ts";
import { currentSiteConfig } from "../core/commerce/site-settings.ts";
import type { PagePopup } from "../core/domain/popups/settings.ts";
import { readSiteOptions } from "../core/commerce/site-options.ts";
import { menusAtLocations } from "../core/commerce/menus.ts";
import { productsByIds } from "../core/db/repositories/catalog.ts";
import { featuredProductIds, type HeaderFeatured } from "../core/domain/menus/header.ts";
import { mediaUrl, productUrl } from "./lib/format.ts";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, shop, origin, storefront, forEveryone } = context;
  const session = await shop.session();
  // A one-shot flag set by a registration: this page prints CompleteRegistration, later pages do not.
  const registered = session?.data[REGISTRATION_SESSION_FLAG] === true;
  if (registered) await shop.updateSessionData((d) => delete d[REGISTRATION_SESSION_FLAG]);
  const [categories, notices, pricedCart, customer, options, menus] = await Promise.all([
    navigationCategories(services.db),
    shop.takeNotices(),
    storefront.cart.get(),
    storefront.customer(),
    // The site's title, tagline and time zone as staff last set them (wp/v2/settings), read per page so a change shows at once.
    readSiteOptions(services.db, services.config),
    // The header's menu, and the footer's links to the shop's own pages (About, Contact…: issue 14), read together.
    menusAtLocations(services.db, ["primary", "footer"]),
  ]);
  const menu = menus.get("primary") ?? null;
  const footerMenu = menus.get("footer") ?? null;
  // The mega menu's featured product cards (docs/contract/header-menus.md): name, address, image and price.
  const featuredIds = menu ? featuredProductIds(menu.items) : [];
  const featured: HeaderFeatured[] = featuredIds.length
    ? (await productsByIds(services.db, featuredIds)).map((p) => ({
        id: p.id,
        name: p.name,
        href: productUrl(p.slug),
        image: mediaUrl(p.imageSlugs[0]),
        price: { regular: p.regularPrice, sale: p.salePrice, min: p.priceMin, max: p.priceMax },
      }))
    : [];
  // Like WooCommerce on every page load: cart cookies that went stale (sign-in merge, another device) are corrected.
  storefront.cart.syncCookies(pricedCart);
  const path = new URL(request.url).pathname;
  const page: PageKind = path === "/cart/" ? "cart" : path === "/checkout/" ? "checkout" : "other";
  // The owner's saved settings (store notice, banner, attribution, consent) apply from the next page on.
  const config = await currentSiteConfig(services);
  const customerName = customer ? customer.firstName || customer.displayName || null : null;
  // The coming-soon footer banner: signed-in visitors only (its dismissal is their own user meta, sent with a nonce).
  const comingSoon =
    config.comingSoonBanner.enabled && customer && (await readUserMeta(services.db, customer.id)).coming_soon_banner_dismissed !== "yes"
      ? { text: config.comingSoonBanner.text, restUrl: `${origin}/wp-json/wp/v2/users/${customer.id}`, nonce: shop.nonce(REST_NONCE_ACTION) }
      : null;
  // A popup that cannot apply here is never sent; a failure to read them costs the page its popups, nothing more.
  let popups: PagePopup[] = [];
  try {
    popups = await popupsForPage(services.db, { path, customerId: shop.customerId(), cart: pricedCart, now: services.now(), timeZone: options.timezone });
  } catch (error) {
    services.logger.error("popups for the page failed", { path, error });
  }
  return {
    site: { name: options.title, tagline: options.description },
    categories,
    menu: menu?.items ?? null,
    footerLinks: (footerMenu?.items ?? []).map((i) => ({ id: i.id, title: i.title, href: i.href })),
    featured,
    header: config.header,
    isRtl: config.layout.isRtl,
    logoutNonce: customer ? shop.nonce("log-out") : null,
    notices,
    registered,
    cart: cartSummaryView(pricedCart, storefront.cart.nonce()),
    customerName,
    comingSoon,
    fieldDescriptionSlideMs: config.timings.fieldDescriptionSlideMs,
    storeNotice: { ...config.storeNotice, hidden: shop.cookies[`store_notice${config.storeNotice.noticeId}`] === "hidden" },
    globals: browserGlobals(config, shop, origin, services.siteUrl, page),
    // A page for everyone (the page cache's): the cart count and mini-cart are placeholders the fragments fill.
    cartPlaceholder: forEveryone,
    popups: { popups, timeZone: options.timezone, focusDelayMs: config.popups.focusDelayMs },
    searchOverlay: { ...config.searchOverlay, fadeMs: config.timings.searchOverlayFadeMs },
    cspNonce: context.cspNonce,
    hydrate: context.hydrate,
  };
}
