/**
 * WordPress / WooCommerce roles and the capabilities they grant, for the checks the shop makes (today: reading the
 * reports). The roles are `customers.role`'s values; a capability no role lists is granted to nobody. The REST
 * answers for a missing or insufficient sign-in are WordPress's (docs/contract/wire.md §2.3):
 * `rest_not_logged_in` 401 and `rest_forbidden` 403.
 */

export const ROLES = ["customer", "shop_manager", "administrator"] as const;
export type Role = (typeof ROLES)[number];

export type Capability = "read" | "view_woocommerce_reports" | "manage_woocommerce";

/** What each role may do: WooCommerce gives the reports and the shop's management to shop managers and administrators. */
const ROLE_CAPABILITIES: Record<Role, readonly Capability[]> = {
  customer: ["read"],
  shop_manager: ["read", "view_woocommerce_reports", "manage_woocommerce"],
  administrator: ["read", "view_woocommerce_reports", "manage_woocommerce"],
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** Whether a user of this role has the capability (an unknown role has none). */
export function roleCan(role: string | null | undefined, capability: Capability): boolean {
  return isRole(role) && ROLE_CAPABILITIES[role].includes(capability);
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
