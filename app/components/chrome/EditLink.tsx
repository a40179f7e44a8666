/**
 * WordPress's "Edit" link of a product or post, for staff only (docs/contract/rest/auth.md 'Edit links'). Renders
 * nothing without `href`, which the loader sets only for a signed-in staff user (app/lib/staff.server.ts), so other
 * visitors' pages are unchanged.
 */
export function EditLink({ href, title }: { href?: string; title: string }) {
  if (!href) return null;
  return (
    <p className="edit-link">
      <a className="post-edit-link" href={href}>
        Edit<span className="screen-reader-text"> “{title}”</span>
      </a>
    </p>
  );
}
