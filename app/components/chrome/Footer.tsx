import type { NavCategory } from "./Header.tsx";
import { THEME_TEMPLATES } from "../../lib/theme-templates.ts";
import { ComingSoonBanner, type ComingSoonData } from "./ComingSoonBanner.tsx";
import { CookieSettingsButton } from "../consent/ConsentBanner.tsx";

/** A link of the footer menu (location `footer`: the shop's own pages, issue 14). */
export interface FooterLink {
  id: number;
  title: string;
  href: string;
}

export function Footer({
  siteName,
  categories,
  links,
  comingSoon,
}: {
  siteName: string;
  categories: NavCategory[];
  links: FooterLink[];
  comingSoon: ComingSoonData | null;
}) {
  return (
    <footer className="site-footer" tabIndex={-1} data-elementor-type="footer" data-elementor-id={THEME_TEMPLATES.footer}>
      <div className="container site-footer__grid">
        <section>
          <h2>{siteName}</h2>
          <p>Masks, ties and matching sets, sewn in small batches. Free shipping on all mask purchases.</p>
        </section>
        <section>
          <h2>Shop</h2>
          <ul>
            {categories.map((c) => (
              <li key={c.slug}>
                <a href={`/product-category/${c.slug}/`}>{c.name}</a>
              </li>
            ))}
          </ul>
        </section>
        {links.length ? (
          <section>
            <h2>Information</h2>
            <ul>
              {links.map((l) => (
                <li key={l.id}>
                  <a href={l.href}>{l.title}</a>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <section>
          <h2>Help</h2>
          <ul>
            <li>
              <a href="/my-account/">My account</a>
            </li>
            <li>
              <a href="/cart/">Cart</a>
            </li>
            <li>
              <a href="/blog/">Journal</a>
            </li>
            <li>
              <a href="/live/">Live scores</a>
            </li>
            <li>
              <CookieSettingsButton />
            </li>
          </ul>
        </section>
      </div>
      <p className="site-footer__legal container">
        © {new Date().getUTCFullYear()} {siteName}. Prices in USD.
      </p>
      {comingSoon ? <ComingSoonBanner data={comingSoon} /> : null}
    </footer>
  );
}
