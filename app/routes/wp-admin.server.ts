/**
 * The server half of /wp-admin/ and everything under it except admin-ajax.php (docs/contract/rest/auth.md
 * '/wp-admin/'): a signed-out visitor is sent to wp-login.php, a customer gets WordPress's 403, staff get the
 * landing page, `post.php?post={id}&action=edit` sends them to the edit screen's address, and the edit screens
 * (`/wp-admin/edit/{kind}/{id}/`) say what they will be. The admin's own screens come with the admin (issue 14).
 */
import { data, redirect } from "react-router";
import type { Route } from "./+types/wp-admin";
import { signedInUser } from "../lib/staff.server.ts";
import { findCustomerProfile } from "../../core/db/repositories/customers.ts";
import { findPostEditTarget, findProductEditTarget, type EditTarget } from "../../core/db/repositories/edit-targets.ts";
import { editScreenPath, type EditKind } from "../../core/domain/users/sign-in.ts";
import type { Queryable } from "../../core/db/client.ts";

/** The object `post.php` names: with `post_type`, only that kind; without, a product first, then a post. */
async function findTarget(db: Queryable, id: number, kind: EditKind | null): Promise<EditTarget | null> {
  if (kind === "post" || kind === "page") {
    const target = await findPostEditTarget(db, id);
    return target?.kind === kind ? target : null;
  }
  return (await findProductEditTarget(db, id)) ?? (kind === null ? findPostEditTarget(db, id) : null);
}

const restUrlOf = (origin: string, t: EditTarget) =>
  t.kind === "product" ? `${origin}/wp-json/wc/v3/products/${t.id}` : `${origin}/wp-json/wp/v2/${t.kind}s/${t.id}`;
const viewUrlOf = (t: EditTarget) => (t.kind === "product" ? `/product/${t.slug}/` : t.kind === "page" ? `/${t.slug}/` : `/blog/${t.slug}/`);

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { services, shop } = context;
  const url = new URL(request.url);
  const user = await signedInUser(context);
  if (!user) {
    // WordPress's auth_redirect(): back here after signing in.
    throw redirect(`/wp-login.php?redirect_to=${encodeURIComponent(`${context.origin}${url.pathname}${url.search}`)}&reauth=1`, 302);
  }
  const siteName = services.config.siteName;
  if (!user.staff) return data({ view: "forbidden" as const, siteName }, { status: 403 });

  const profile = await findCustomerProfile(services.db, user.id);
  const common = {
    siteName,
    user: { name: profile?.displayName || profile?.email || `user ${user.id}`, email: profile?.email ?? "", role: user.role },
    logoutUrl: `/wp-login.php?action=logout&_wpnonce=${encodeURIComponent(shop.nonce("log-out"))}`,
    restRoot: `${context.origin}/wp-json/`,
  };
  const path = (params["*"] ?? "").replace(/\/+$/, "");
  if (path === "") return { view: "dashboard" as const, ...common };

  if (path === "post.php") {
    const q = url.searchParams;
    const id = /^\d{1,9}$/.test(q.get("post") ?? "") ? Number(q.get("post")) : 0;
    const type = q.get("post_type");
    const kind = type === "product" || type === "post" || type === "page" ? type : null;
    const target = q.get("action") === "edit" && id > 0 && (type === null || kind !== null) ? await findTarget(services.db, id, kind) : null;
    if (target) throw redirect(editScreenPath(target.kind, target.id), 302);
    return data({ view: "missing" as const, ...common }, { status: 404 });
  }

  const edit = /^edit\/(product|post|page)\/(\d{1,9})$/.exec(path);
  if (edit) {
    const target = await findTarget(services.db, Number(edit[2]), edit[1] as EditKind);
    if (target && target.kind === edit[1]) {
      return { view: "edit" as const, ...common, target: { ...target, restUrl: restUrlOf(context.origin, target), viewUrl: viewUrlOf(target) } };
    }
    return data({ view: "missing" as const, ...common }, { status: 404 });
  }
  return data({ view: "not-built" as const, ...common }, { status: 404 });
}
