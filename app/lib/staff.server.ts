/** Who is signed in, for the pages that differ for staff: wp-login.php, /wp-admin/, the storefront's Edit links. */
import type { AppLoadContext } from "react-router";
import { findCustomerRole } from "../../core/db/repositories/customers.ts";
import { isStaffRole } from "../../core/security/capabilities.ts";
import { editLinkPath, type EditKind } from "../../core/domain/users/sign-in.ts";

export interface SignedInUser {
  id: number;
  role: string;
  staff: boolean;
}

/** The signed-in account and its role, or null for a guest (and for a session whose account is gone). */
export async function signedInUser(context: AppLoadContext): Promise<SignedInUser | null> {
  const id = (await context.shop.session())?.customerId ?? 0;
  if (!(id > 0)) return null;
  const role = await findCustomerRole(context.services.db, id);
  return role === null ? null : { id, role, staff: isStaffRole(role) };
}

/**
 * The storefront's Edit link of a product or post: `{editLink}` for staff, `{}` for everyone else, so an anonymous
 * page's loader data (and bytes) stay as they were. Spread it into the loader's answer.
 */
export async function staffEditLink(context: AppLoadContext, kind: EditKind, id: number): Promise<{ editLink?: string }> {
  if (!((await context.shop.session())?.customerId ?? 0)) return {};
  const user = await signedInUser(context);
  return user?.staff ? { editLink: editLinkPath(kind, id) } : {};
}
