import { NavLink } from "react-router";
import { THEME_TEMPLATES } from "../../lib/theme-templates.ts";
import { HeaderCartLink, MiniCartContent, type CartSummaryView } from "../cart/HeaderCart.tsx";
import { SearchOverlay } from "../search/SearchOverlay.tsx";

export interface NavCategory {
  slug: string;
  name: string;
}

export function Header({
  siteName,
  tagline,
  categories,
  cart,
  customerName,
}: {
  siteName: string;
  tagline: string;
  categories: NavCategory[];
  cart: CartSummaryView;
  customerName: string | null;
}) {
  const links = [
    { to: "/shop/", label: "Shop" },
    ...categories.slice(0, 4).map((c) => ({ to: `/product-category/${c.slug}/`, label: c.name })),
    { to: "/blog/", label: "Journal" },
  ];
  return (
    <header className="site-header" id="masthead" data-elementor-type="header" data-elementor-id={THEME_TEMPLATES.header}>
      <div className="site-header__inner container">
        <details className="mobile-menu">
          <summary aria-label="Menu">
            <span aria-hidden="true">☰</span>
          </summary>
          <nav aria-label="Mobile">
            <ul>
              {links.map((l) => (
                <li key={l.to}>
                  <a href={l.to}>{l.label}</a>
                </li>
              ))}
            </ul>
          </nav>
        </details>
        <a className="site-title" href="/" rel="home">
          <span className="site-title__name">{siteName}</span>
          <span className="site-title__tagline">{tagline}</span>
        </a>
        <nav className="main-navigation" aria-label="Primary">
          <ul>
            {links.map((l) => (
              <li key={l.to}>
                <NavLink to={l.to} prefetch="intent">
                  {l.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="header-tools">
          <SearchOverlay />
          <a className="account-link" href="/my-account/">
            {customerName ? `Hi, ${customerName}` : "Account"}
          </a>
          <div id="ast-site-header-cart" className="ast-site-header-cart">
            <HeaderCartLink cart={cart} />
            <div className={`widget woocommerce widget_shopping_cart${cart.count === 0 ? " hide_cart_widget_if_empty" : ""}`}>
              <MiniCartContent cart={cart} />
            </div>
          </div>
        </div>
      </div>
    </header>
  );
}
