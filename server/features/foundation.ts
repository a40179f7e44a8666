/** Endpoints that belong to the foundation: the REST nonce refresh (the blog's posts are in content.ts). */
import { text } from "../http/dispatch.ts";
import { REST_NONCE_ACTION } from "../http/rest.ts";
import type { Endpoints, Feature } from "./feature.ts";

export const foundationFeature: Feature = { name: "foundation", endpoints: registerFoundationEndpoints };

function registerFoundationEndpoints({ adminAjax }: Endpoints): void {
  // api-fetch refreshes a stale REST nonce here and needs the raw nonce as text.
  // WordPress answers only signed-in users; we answer guests too (docs/contract/wire.md §2.4).
  adminAjax.register("rest-nonce", async ({ req }) => {
    await req.shop.session();
    return text(req.shop.nonce(REST_NONCE_ACTION), 200);
  });
}
