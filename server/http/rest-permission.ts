/**
 * The permission check of a staff REST route, as WordPress's permission_callback does it: a cookie counts only with
 * a valid X-WP-Nonce (the CSRF guard), an application password counts by itself (server/http/rest.ts resolves
 * `input.user`), and the user's role must grant the capability (core/security/capabilities.ts). Answers
 * `rest_not_logged_in` 401 or `rest_forbidden` 403, else null.
 */
import { restError, type RestInput, type RestUser } from "./rest.ts";
import type { Reply } from "./dispatch.ts";
import { restPermission, roleCan, type Capability } from "../../core/security/capabilities.ts";

export async function requireCapability(input: RestInput, capability: Capability): Promise<Reply | null> {
  const denied = restPermission(await input.user(), capability);
  return denied ? restError(denied.code, denied.message, denied.status) : null;
}

/**
 * The caller when they hold the capability, else the refusal. WordPress answers a guest's write with its own code
 * (`rest_cannot_create` 401, say): pass it as `guestError` to keep that shape.
 */
export async function staffUser(input: RestInput, capability: Capability, guestError?: { code: string; message: string }): Promise<RestUser | Reply> {
  const user = await input.user();
  if (user && roleCan(user.role, capability)) return user;
  if (guestError) return restError(guestError.code, guestError.message, user ? 403 : 401);
  const denied = restPermission(user, capability)!;
  return restError(denied.code, denied.message, denied.status);
}

export const isReply = (value: unknown): value is Reply =>
  typeof value === "object" && value !== null && "kind" in value && ["json", "text", "empty"].includes((value as Reply).kind);
