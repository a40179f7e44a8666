/**
 * The permission check of a staff REST route, as WordPress's permission_callback does it: a cookie counts only with
 * a valid X-WP-Nonce (the CSRF guard), and the signed-in user's role must grant the capability
 * (core/security/capabilities.ts). Answers `rest_not_logged_in` 401 or `rest_forbidden` 403, else null.
 */
import { restError, type RestInput } from "./rest.ts";
import type { Reply } from "./dispatch.ts";
import { findCustomerRole } from "../../core/db/repositories/customers.ts";
import { restPermission, type Capability } from "../../core/security/capabilities.ts";

export async function requireCapability(input: RestInput, capability: Capability): Promise<Reply | null> {
  const session = input.authenticated ? await input.req.shop.session() : null;
  const role = session?.customerId ? await findCustomerRole(input.services.db, session.customerId) : null;
  const denied = restPermission(role === null ? null : { role }, capability);
  return denied ? restError(denied.code, denied.message, denied.status) : null;
}
