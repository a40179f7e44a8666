/**
 * The signed-in user's own record in WordPress's shape (docs/contract/wire.md §2 'Users'): GET/POST
 * /wp-json/wp/v2/users/me and /wp-json/wp/v2/users/{id} for one's own id. What may be written is the registered
 * `meta` (core/domain/users/meta.ts), e.g. the coming-soon banner's dismissal. Cookie sign-in counts only with a
 * valid X-WP-Nonce, as in WordPress, so another site cannot make a visitor's browser write here.
 */
import { json } from "../http/dispatch.ts";
import { restError, type RestInput } from "../http/rest.ts";
import { findCustomerProfile } from "../../core/db/repositories/customers.ts";
import { readUserMeta, writeUserMeta } from "../../core/db/repositories/user-meta.ts";
import { parseUserMetaUpdate, userMetaView } from "../../core/domain/users/meta.ts";
import type { Endpoints, Feature } from "./feature.ts";
import type { Reply } from "../http/dispatch.ts";

export const usersFeature: Feature = { name: "users", endpoints: registerUsersEndpoints };

const notLoggedIn = () => restError("rest_not_logged_in", "You are not currently logged in.", 401);

/** The signed-in user's id when the request is authenticated (cookie + nonce), else an error reply. */
async function currentUserId(input: RestInput): Promise<number | Reply> {
  const user = await input.user();
  return user ? user.id : notLoggedIn();
}

/** `me` or a number: the user the path names, and whether the current user may touch it (only themselves). */
async function targetUser(input: RestInput): Promise<number | Reply> {
  const current = await currentUserId(input);
  if (typeof current !== "number") return current;
  const raw = input.pathParams.id ?? "me";
  if (raw === "me") return current;
  if (!/^\d{1,9}$/.test(raw)) return restError("rest_user_invalid_id", "Invalid user ID.", 404);
  const id = Number(raw);
  if (id !== current) {
    const exists = await findCustomerProfile(input.services.db, id);
    if (!exists) return restError("rest_user_invalid_id", "Invalid user ID.", 404);
    return input.method === "GET"
      ? restError("rest_user_cannot_view", "Sorry, you are not allowed to view this user.", 403)
      : restError("rest_cannot_edit", "Sorry, you are not allowed to edit this user.", 403);
  }
  return id;
}

async function userView(input: RestInput, id: number): Promise<Reply> {
  const { db, siteUrl } = input.services;
  const [profile, meta] = await Promise.all([findCustomerProfile(db, id), readUserMeta(db, id)]);
  if (!profile) return restError("rest_user_invalid_id", "Invalid user ID.", 404);
  const name = profile.displayName || [profile.firstName, profile.lastName].filter(Boolean).join(" ") || profile.email.split("@")[0]!;
  return json({
    id,
    name,
    url: "",
    description: "",
    link: `${siteUrl}/my-account/`,
    slug: `user-${id}`,
    avatar_urls: {},
    meta: userMetaView(meta),
  });
}

function registerUsersEndpoints({ rest }: Endpoints): void {
  const read = async (input: RestInput) => {
    const id = await targetUser(input);
    return typeof id === "number" ? userView(input, id) : id;
  };
  const update = async (input: RestInput) => {
    const id = await targetUser(input);
    if (typeof id !== "number") return id;
    const body = (input.body ?? {}) as Record<string, unknown>;
    if (typeof body !== "object" || Array.isArray(body)) return restError("rest_invalid_json", "Invalid JSON body passed.", 400);
    if ("meta" in body) {
      const meta = parseUserMetaUpdate(body.meta);
      if (!meta.ok) return restError("rest_invalid_param", `Invalid parameter(s): ${meta.param}`, 400, { params: { [meta.param]: meta.message } });
      await writeUserMeta(input.services.db, id, meta.values);
    }
    return userView(input, id);
  };
  for (const path of ["wp/v2/users/me", "wp/v2/users/:id"]) {
    rest.register("GET", path, read);
    // WordPress's EDITABLE methods; api-fetch sends PUT/PATCH as POST with X-HTTP-Method-Override.
    for (const method of ["POST", "PUT", "PATCH"]) rest.register(method, path, update);
  }
}
