import type { CSSProperties } from "react";
import { THEME_TEMPLATES } from "../../lib/theme-templates.ts";
import { HeaderCartLink, MiniCartContent, type CartSummaryView } from "../cart/HeaderCart.tsx";
import type { DisplayMenuItem } from "../../../core/domain/menus/menus.ts";
import type { HeaderFeatured } from "../../../core/domain/menus/header.ts";
import type { SiteConfig } from "../../../core/config/site-config.ts";
import { AccountMenu, MobileMenu, PrimaryMenu } from "./HeaderMenus.tsx";
import { SearchOverlay } from "../search/SearchOverlay.tsx";

export interface NavCategory {
  slug: string;
  name: string;
}

/** Without a 'primary' menu (an owner deleted it): the shop and the first categories, as before menus were data. */
function fallbackMenu(categories: NavCategory[]): DisplayMenuItem[] {
  const item = (id: number, title: string, href: string): DisplayMenuItem => ({
    id,
    title,
    href,
    kind: "custom",
    mega: false,
    featured: false,
    object_id: null,
    children: [],
  });
  return [
    item(-1, "Shop", "/shop/"),
    ...categories.slice(0, 4).map((c, i) => item(-2 - i, c.name, `/product-category/${c.slug}/`)),
    item(-10, "Blog", "/blog/"),
  ];
}

export function Header({
  siteName,
  tagline,
  categories,
  menu,
  featured,
  settings,
  cart,
  cartPlaceholder = false,
  customerName,
  logoutNonce,
}: {
  siteName: string;
  tagline: string;
  categories: NavCategory[];
  menu: DisplayMenuItem[] | null;
  featured: HeaderFeatured[];
  settings: SiteConfig["header"];
  cart: CartSummaryView;
  /** A page for everyone: the cart parts are placeholders the fragments fill (HeaderCart.tsx). */
  cartPlaceholder?: boolean;
  customerName: string | null;
  logoutNonce: string | null;
}) {
  const items = menu ?? fallbackMenu(categories);
  const { logo, logoWidths } = settings;
  // docs/contract/header-menus.md 'Mega menu widths': the CSS reads these; sizing applies above the break point only.
  const style = {
    "--mega-custom-width": `${settings.megaMenuCustomWidthPx}px`,
    "--mega-offset": `${settings.megaMenuOffsetPx}px`,
    "--logo-desktop": `${logoWidths.desktop}px`,
    "--logo-tablet": `${logoWidths.tablet}px`,
    "--logo-mobile": `${logoWidths.mobile}px`,
  } as CSSProperties;
  return (
    <header
      className={`site-header mega-width--${settings.megaMenuWidth}`}
      id="masthead"
      data-elementor-type="header"
      data-elementor-id={THEME_TEMPLATES.header}
      style={style}
    >
      <div className="site-header__inner container">
        <MobileMenu
          items={items}
          fullscreen={settings.mobileMenuStyle === "fullscreen"}
          accountLink={
            <a className="mobile-account-link" href="/my-account/">
              {customerName ? `My account (${customerName})` : "My account"}
            </a>
          }
        />
        <div className="site-branding">
          <a className="custom-logo-link" href="/" rel="home">
            {/* Width and height set: the box is reserved before the image arrives (no layout shift). */}
            <img
              className="custom-logo"
              src={logo.src}
              width={logo.width}
              height={logo.height}
              alt={logo.alt || siteName}
              fetchPriority="high"
              decoding="async"
            />
          </a>
          {tagline ? <p className="site-title__tagline">{tagline}</p> : null}
        </div>
        <PrimaryMenu items={items} featured={featured} />
        <div className="header-tools">
          <SearchOverlay />
          <AccountMenu customerName={customerName} withMenu={settings.accountMenu} logoutNonce={logoutNonce} />
          <div id="ast-site-header-cart" className="ast-site-header-cart">
            <HeaderCartLink cart={cart} placeholder={cartPlaceholder} />
            <div className={`widget woocommerce widget_shopping_cart${cart.count === 0 ? " hide_cart_widget_if_empty" : ""}`}>
              <MiniCartContent cart={cart} placeholder={cartPlaceholder} />
            </div>
          </div>
        </div>
      </div>
    </header>
  );
}
