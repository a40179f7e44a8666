/**
 * /wp-admin/: the owner's admin (issue 14, docs/contract/admin.md, decision 0024). The server renders the frame —
 * who is signed in, the menu, the screen's heading — for staff only (everyone else is sent to sign in), as a bare
 * document without the storefront's scripts. A screen that works in the browser (the product list, the product
 * editor) is rendered into `#admin-screen` by the admin's own bundle, /wp-admin-app/admin.js, built apart from the
 * storefront (scripts/build-admin.ts): the storefront's pages never load any of it, and their files are unchanged.
 */
import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/wp-admin";
import { loader as serverLoader } from "./wp-admin.server.ts";
import { BARE_DOCUMENT } from "../lib/bare-document.ts";
import { screenKey, screenTitle, type AdminScreen } from "../admin/screens.ts";
import adminStyles from "../styles/wp-admin.css?url";

export const handle = BARE_DOCUMENT;

/**
 * The admin bundle's files: built by scripts/build-admin.ts and asked for by the version of their bytes, so a new
 * release is never run from an old cached copy (server/http/admin-assets.ts); in development, Vite serves the entry
 * from source.
 */
const adminScript = (version: string) => (import.meta.env.DEV ? "/app/admin/main.tsx" : `/wp-admin-app/admin.js?v=${version}`);
const adminCss = (version: string) => `/wp-admin-app/admin.css?v=${version}`;
/** Development only: React Router's React Refresh preamble, which its `<Scripts>` would add and this page has not. */
const DEV_PREAMBLE = import.meta.env.DEV
  ? [
      'import RefreshRuntime from "/@id/__x00__virtual:react-router/hmr-runtime";',
      "RefreshRuntime.injectIntoGlobalHook(window);",
      "window.$RefreshReg$ = () => {};",
      "window.$RefreshSig$ = () => (type) => type;",
      "window.__vite_plugin_react_preamble_installed__ = true;",
    ].join("\n")
  : "";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `${screenTitle(data.screen)} ‹ ${data.siteName}` : "Admin" },
  { name: "robots", content: "noindex, nofollow" },
];

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

/** Where the admin bundle renders a screen: the screen's name and the REST nonce, and a placeholder until then. */
function BrowserScreen({ screen, nonce, currency, assetVersion }: { screen: AdminScreen; nonce: string; currency: string; assetVersion: string }) {
  const csp = useRouteLoaderData<{ cspNonce?: string }>("root")?.cspNonce || undefined;
  return (
    <>
      <div id="admin-screen" data-screen={JSON.stringify(screen)} data-nonce={nonce} data-currency={currency} aria-busy="true">
        <p className="admin-loading">Loading…</p>
        <noscript>
          <p>This screen of the admin needs JavaScript.</p>
        </noscript>
      </div>
      {DEV_PREAMBLE ? <script type="module" dangerouslySetInnerHTML={{ __html: DEV_PREAMBLE }} /> : null}
      {/* React puts a stylesheet with a precedence in the document's head. */}
      {import.meta.env.DEV ? null : <link rel="stylesheet" href={adminCss(assetVersion)} precedence="admin" />}
      <script type="module" src={adminScript(assetVersion)} nonce={csp} />
    </>
  );
}

/** The screens the admin bundle renders in the browser (app/admin/main.tsx). */
const BROWSER_SCREENS = new Set<AdminScreen["name"]>([
  "dashboard",
  "products",
  "product",
  "product-new",
  "attributes",
  "attribute",
  "product-import",
  "product-export",
  "orders",
  "order",
  "packing-slip",
  "customers",
  "customer",
  "customer-new",
  "coupons",
  "coupon",
  "store-notice",
  "menus",
  "staff",
  "staff-user",
  "comments",
  "live",
  "discounts",
  "discount",
  "discount-simulator",
  "popups",
  "popup",
  "settings",
  "content-list",
  "edit-content",
  "messages",
  "outbox",
  "outbox-message",
]);

export default function WpAdmin({ loaderData }: Route.ComponentProps) {
  const { screen, siteName, user, logoutUrl, restNonce, currency, menu, assetVersion } = loaderData;
  return (
    <div className="admin-app">
      <a className="admin-skip-link" href="#admin-main">
        Skip to main content
      </a>
      <header className="admin-bar">
        <a href="/" className="admin-site">
          {siteName}
          <span className="screen-reader-text"> (visit the shop)</span>
        </a>
        <p className="admin-user">
          {user.name} ({user.role === "administrator" ? "Administrator" : "Shop manager"}) · <a href={logoutUrl}>Log Out</a>
        </p>
      </header>
      <nav className="admin-menu" aria-label="Admin menu">
        <ul>
          {menu.map((item) => (
            <li key={item.href}>
              <a href={item.href} aria-current={item.screens.includes(screenKey(screen)) ? "page" : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="admin-main" className="admin-main" tabIndex={-1}>
        <h1>{screenTitle(screen)}</h1>
        {BROWSER_SCREENS.has(screen.name) ? (
          <BrowserScreen screen={screen} nonce={restNonce} currency={currency} assetVersion={assetVersion} />
        ) : screen.name === "not-allowed" ? (
          <section className="admin-card" role="alert">
            <p>{screen.message}</p>
          </section>
        ) : screen.name === "missing" ? (
          <section className="admin-card">
            <p>You attempted to edit an item that doesn’t exist. Perhaps it was deleted?</p>
          </section>
        ) : (
          <section className="admin-card">
            <p>This screen of the admin is not built yet: the admin’s screens come with issue 14.</p>
          </section>
        )}
      </main>
    </div>
  );
}
