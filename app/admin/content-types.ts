/** A post or page as `wp/v2/posts|pages?context=edit` answers it (docs/contract/rest/content.md), the fields the admin reads. */
export interface RestContent {
  id: number;
  date_gmt: string;
  modified_gmt: string;
  slug: string;
  status: "publish" | "future" | "draft" | "pending" | "private" | "trash";
  type: "post" | "page";
  link: string;
  title: { raw?: string; rendered: string };
  content: { raw?: string; rendered: string };
  excerpt: { raw?: string; rendered: string };
}

export const CONTENT_STATUS_LABELS: Record<RestContent["status"], string> = {
  publish: "Published",
  future: "Scheduled",
  draft: "Draft",
  pending: "Pending review",
  private: "Private",
  trash: "Trash",
};

export const restBase = (kind: "post" | "page") => (kind === "page" ? "pages" : "posts");
export const editUrl = (kind: "post" | "page", id: number) => `/wp-admin/edit/${kind}/${id}/`;
