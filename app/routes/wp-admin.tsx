/**
 * /wp-admin/: the staff landing page until the admin's screens exist (issue 14), WordPress's 403 for customers,
 * and the edit screens' addresses that post.php sends to. A bare document without scripts.
 */
import type { Route } from "./+types/wp-admin";
import { loader as serverLoader } from "./wp-admin.server.ts";
import { BARE_DOCUMENT } from "../lib/bare-document.ts";
import adminStyles from "../styles/wp-admin.css?url";

export const handle = BARE_DOCUMENT;

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

const EDIT_LABEL = { product: "Edit Product", post: "Edit Post", page: "Edit Page" } as const;

export const meta: Route.MetaFunction = ({ data }) => {
  const site = data?.siteName ?? "";
  const title =
    data?.view === "forbidden"
      ? `${site} › Error`
      : data?.view === "edit"
        ? `${EDIT_LABEL[data.target.kind]} ‹ ${site}`
        : data?.view === "dashboard"
          ? `Dashboard ‹ ${site}`
          : `Page not found ‹ ${site}`;
  return [{ title }, { name: "robots", content: "noindex, nofollow" }];
};

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export default function WpAdmin({ loaderData }: Route.ComponentProps) {
  if (loaderData.view === "forbidden") {
    return (
      <main className="wp-login">
        <h1>Access denied</h1>
        <div className="notice notice-error">
          <p>Sorry, you are not allowed to access this page.</p>
        </div>
        <p id="backtoblog">
          <a href="/my-account/">Go to My account</a>
        </p>
      </main>
    );
  }
  const { user, logoutUrl, restRoot, siteName } = loaderData;
  return (
    <div className="wp-admin-page">
      <header>
        <p>
          <a href="/">{siteName}</a>
        </p>
        <nav aria-label="Account">
          <p>
            Signed in as {user.name} ({user.role === "administrator" ? "Administrator" : "Shop manager"}) · <a href={logoutUrl}>Log Out</a>
          </p>
        </nav>
      </header>
      <main>
        {loaderData.view === "dashboard" ? (
          <>
            <h1>Dashboard</h1>
            <section aria-labelledby="admin-status">
              <h2 id="admin-status">The admin is not built yet</h2>
              <p>
                The screens for products, orders, content and settings come with the admin (issue 14). Until then, the shop is managed through its REST API,
                with the same permissions your role has here.
              </p>
              <ul>
                <li>
                  The REST index: <a href={restRoot}>{restRoot}</a>
                </li>
                <li>
                  Application passwords for integrations (HTTP Basic), created and revoked through <code>/wp-json/wp/v2/users/me/application-passwords</code>;
                  each is shown once.
                </li>
              </ul>
            </section>
            <section aria-labelledby="admin-site">
              <h2 id="admin-site">Your shop</h2>
              <ul>
                <li>
                  <a href="/">Visit the shop</a>
                </li>
                <li>
                  <a href="/my-account/edit-account/">Change your name, e-mail address or password</a>
                </li>
              </ul>
            </section>
          </>
        ) : loaderData.view === "edit" ? (
          <>
            <h1>{EDIT_LABEL[loaderData.target.kind]}</h1>
            <section aria-labelledby="edit-title">
              <h2 id="edit-title">{loaderData.target.title}</h2>
              <p>The edit screen comes with the admin (issue 14). Until then, edit this {loaderData.target.kind} through the REST API:</p>
              <p>
                <code>{loaderData.target.restUrl}</code>
              </p>
              <p>
                <a href={loaderData.target.viewUrl}>View {loaderData.target.kind === "product" ? "product" : "post"}</a> · <a href="/wp-admin/">Dashboard</a>
              </p>
            </section>
          </>
        ) : loaderData.view === "missing" ? (
          <>
            <h1>Not found</h1>
            <section>
              <p>You attempted to edit an item that doesn’t exist. Perhaps it was deleted?</p>
              <p>
                <a href="/wp-admin/">Dashboard</a>
              </p>
            </section>
          </>
        ) : (
          <>
            <h1>Not found</h1>
            <section>
              <p>This screen of the admin is not built yet: the admin’s screens come with issue 14.</p>
              <p>
                <a href="/wp-admin/">Dashboard</a>
              </p>
            </section>
          </>
        )}
      </main>
    </div>
  );
}
