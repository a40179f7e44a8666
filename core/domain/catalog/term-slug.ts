/**
 * Slugs of product terms and global attributes, as WordPress's sanitize_title and WooCommerce's
 * wc_sanitize_taxonomy_name make them (docs/contract/rest/taxonomies.md): lower case, accents dropped, anything
 * else than letters, digits, `-` and `_` turned into one `-`. An empty result means no usable slug.
 */
export function sanitizeSlug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 200);
}

/** WooCommerce's limit on an attribute slug (the taxonomy name pa_* must fit WordPress's 32 characters). */
export const ATTRIBUTE_SLUG_MAX = 28;

/** Slugs WordPress reserves as query variables; WooCommerce refuses them for attributes (wc_check_if_attribute_name_is_reserved). */
const RESERVED = new Set(
  "attachment attachment_id author author_name calendar cat category category__and category__in category__not_in category_name comments_per_page comments_popup cpage day debug error exact feed hour link minute monthnum more name nav_menu nopaging offset order orderby p page page_id paged pagename pb perm post post__in post__not_in post_format post_mime_type post_status post_tag post_type posts posts_per_archive_page posts_per_page preview robots s search second sentence showposts static subpost subpost_id tag tag__and tag__in tag__not_in tag_id tag_slug__and tag_slug__in taxonomy tb term type w withcomments withoutcomments year".split(
    " ",
  ),
);

/** Why WooCommerce would refuse this attribute slug (its own messages), or null. */
export function attributeSlugProblem(slug: string): string | null {
  if (slug.length > ATTRIBUTE_SLUG_MAX) return `Slug "${slug}" is too long (${ATTRIBUTE_SLUG_MAX} characters max). Shorten it, please.`;
  if (RESERVED.has(slug)) return `Slug "${slug}" is not allowed because it is a reserved term. Change it, please.`;
  return null;
}

/** Strips markup from a term or attribute name, as WordPress's kses filter does for names. */
export const plainName = (name: string) => name.replace(/<[^>]*>/g, "").trim();
