/**
 * The GET for consent filter values (docs/contract/wire.md §4.8): PixelYourSite's
 * `admin-ajax.php?action=pys_get_gdpr_filters_values`, answered per visitor from the consent cookie, the browser's
 * Global Privacy Control header (`Sec-GPC: 1`) and the owner's consent settings. Read from a script after the page
 * loads, so a cached page still gets this visitor's answer.
 */
import { json } from "../http/dispatch.ts";
import type { Endpoints, Feature } from "./feature.ts";
import { currentSiteConfig } from "../../core/commerce/site-settings.ts";
import { CONSENT_COOKIE, consentFilterValues, effectiveChoice } from "../../core/domain/tracking/consent.ts";

export const consentFeature: Feature = { name: "consent", endpoints: registerConsentEndpoints };

function registerConsentEndpoints({ adminAjax }: Endpoints): void {
  adminAjax.register("pys_get_gdpr_filters_values", async ({ req, services }) => {
    const { consent } = await currentSiteConfig(services);
    const gpc = req.get("sec-gpc")?.trim() === "1";
    const choice = effectiveChoice(req.shop.cookies[CONSENT_COOKIE], gpc, consent.required, services.now().getTime());
    return json({ success: true, data: consentFilterValues(choice, consent.disabledCookies) });
  });
}
