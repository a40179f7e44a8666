/**
 * WordPress / WooCommerce roles and the capabilities they grant (docs/contract/wire.md §2.3). The roles are
 * `customers.role`'s values; a capability no role lists is granted to nobody. Every staff REST route names one of
 * these (server/http/rest-permission.ts). A guest has no role and no capability. The REST answers for a missing or
 * insufficient sign-in are WordPress's: `rest_not_logged_in` 401 and `rest_forbidden` 403.
 */

export const ROLES = ["customer", "shop_manager", "administrator"] as const;
export type Role = (typeof ROLES)[number];

export const CAPABILITIES = [
  "read",
  // content (wp/v2 posts, pages, media, terms, comments)
  "edit_posts",
  "publish_posts",
  "delete_posts",
  "edit_others_posts",
  "edit_pages",
  "upload_files",
  "manage_categories",
  "moderate_comments",
  // people
  "list_users",
  "create_users",
  "edit_users",
  "delete_users",
  "promote_users",
  // the shop
  "manage_woocommerce",
  "view_woocommerce_reports",
  "edit_products",
  // WooCommerce's product categories, tags and attribute terms (its taxonomies' manage_terms / edit_terms)
  "manage_product_terms",
  "edit_shop_orders",
  "edit_shop_coupons",
  // the site
  "manage_options",
] as const;
export type Capability = (typeof CAPABILITIES)[number];

const SHOP_MANAGER: readonly Capability[] = [
  "read",
  "edit_posts",
  "publish_posts",
  "delete_posts",
  "edit_others_posts",
  "edit_pages",
  "upload_files",
  "manage_categories",
  "moderate_comments",
  // WooCommerce lets a shop manager see and edit customers, never staff (server/features enforce "customers only").
  "list_users",
  "edit_users",
  "manage_woocommerce",
  "view_woocommerce_reports",
  "edit_products",
  "manage_product_terms",
  "edit_shop_orders",
  "edit_shop_coupons",
];

/** What each role may do, as WordPress and WooCommerce grant it: the administrator everything, the shop manager the shop. */
const ROLE_CAPABILITIES: Record<Role, readonly Capability[]> = {
  customer: ["read"],
  shop_manager: SHOP_MANAGER,
  administrator: CAPABILITIES,
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function isStaffRole(role: string | null | undefined): boolean {
  return role === "administrator" || role === "shop_manager";
}

/** Whether a user of this role has the capability (an unknown role has none). */
export function roleCan(role: string | null | undefined, capability: Capability): boolean {
  return isRole(role) && ROLE_CAPABILITIES[role].includes(capability);
}

/** The capabilities a role grants, as WordPress's `capabilities` map of a user object. */
export function roleCapabilities(role: string | null | undefined): Record<string, true> {
  return isRole(role) ? Object.fromEntries(ROLE_CAPABILITIES[role].map((c) => [c, true as const])) : {};
}

/** WordPress's REST answers when a route's permission check fails. */
export const REST_PERMISSION_ERRORS = {
  notLoggedIn: { code: "rest_not_logged_in", message: "You are not currently logged in.", status: 401 },
  forbidden: { code: "rest_forbidden", message: "Sorry, you are not allowed to do that.", status: 403 },
} as const;

/** The permission check of a route that needs `capability`: null when allowed, else the error to answer. */
export function restPermission(
  user: { role: string } | null,
  capability: Capability,
): null | (typeof REST_PERMISSION_ERRORS)[keyof typeof REST_PERMISSION_ERRORS] {
  if (!user) return REST_PERMISSION_ERRORS.notLoggedIn;
  return roleCan(user.role, capability) ? null : REST_PERMISSION_ERRORS.forbidden;
}
