/**
 * The rules of wp-login.php and /wp-admin/ (docs/contract/rest/auth.md): where a sign-in may send the browser
 * (`redirect_to`, never another site), where it sends it by default, and the admin's edit-screen addresses.
 */

/**
 * `redirect_to` when it is a safe address on this site, as a path ("/wp-admin/?x=1"), else null. Accepted: a path
 * starting with a single "/", or an absolute http(s) URL on `origin`. Refused: other hosts, "//host" and "/\host"
 * (browsers read both as another host), backslashes, control characters, other schemes.
 */
export function safeRedirectPath(value: unknown, origin: string): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > 2000) return null;
  if (/[\p{Cc}\\]/u.test(value)) return null;
  let url: URL;
  try {
    const base = new URL(origin);
    url = new URL(value, base);
    if (url.origin !== base.origin) return null;
  } catch {
    return null;
  }
  if (!value.startsWith("/") && !/^https?:\/\//i.test(value)) return null;
  if (value.startsWith("//")) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Whether a path is the admin's (where a customer is never sent). */
export function isAdminPath(path: string): boolean {
  return path === "/wp-admin" || path.startsWith("/wp-admin/");
}

/**
 * Where a successful sign-in goes: staff to `redirect_to` or the dashboard; a customer to `redirect_to` unless it
 * is in the admin, else to My account (as WordPress sends a user who cannot edit posts to their profile).
 */
export function signInDestination(staff: boolean, redirect: string | null): string {
  if (staff) return redirect ?? "/wp-admin/";
  return redirect && !isAdminPath(redirect) ? redirect : "/my-account/";
}

/** The kinds of object the admin edits, and their edit screens: `/wp-admin/edit/{kind}/{id}/`. */
export const EDIT_KINDS = ["product", "post", "page"] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

export function editScreenPath(kind: EditKind, id: number): string {
  return `/wp-admin/edit/${kind}/${id}/`;
}

/** WordPress's edit link of a post or product: `/wp-admin/post.php?post={id}&action=edit` (a post adds its type). */
export function editLinkPath(kind: EditKind, id: number): string {
  return kind === "product" ? `/wp-admin/post.php?post=${id}&action=edit` : `/wp-admin/post.php?post=${id}&action=edit&post_type=${kind}`;
}
