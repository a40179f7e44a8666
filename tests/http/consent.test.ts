/**
 * Consent over HTTP: the GET for consent filter values (docs/contract/wire.md §4.8) answers this visitor's consent
 * and the cookies the owner turned off, and the pages print the consent and attribution settings for the browser.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";

let shop: TestShop;

beforeAll(async () => {
  shop = await startTestShop({
    SHOP_SETTINGS: JSON.stringify({
      consent: { disabledCookies: ["landing_page", "utmId"] },
      attribution: { sessionMinutes: 45, campaignParam: "cid", organics: [{ host: "ddg.example", param: "q" }], promocode: { enabled: true } },
    }),
  });
});
afterAll(async () => shop?.close());

const filters = async (cookie?: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${shop.url}/wp-admin/admin-ajax.php?action=pys_get_gdpr_filters_values`, { headers: { ...(cookie ? { cookie } : {}), ...headers } });
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toContain("no-store");
  return (await res.json()) as { success: boolean; data: Record<string, unknown> & { consent: Record<string, boolean> } };
};

describe("GET pys_get_gdpr_filters_values", () => {
  it("no choice yet (opt-in mode): everything off, nothing decided", async () => {
    const body = await filters();
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({
      all_disabled_by_api: true,
      analytics_disabled_by_api: true,
      facebook_disabled_by_api: true,
      externalID_disabled_by_api: true,
      disabled_all_cookie: true,
      consent: { necessary: true, analytics: false, marketing: false, decided: false },
    });
  });

  it("analytics only: analytics on, ad pixels and the external id off; the owner's cookie groups stay off", async () => {
    const body = await filters("shop_consent=v1.1.0.1790000000");
    expect(body.data).toMatchObject({
      all_disabled_by_api: false,
      analytics_disabled_by_api: false,
      google_ads_disabled_by_api: true,
      externalID_disabled_by_api: true,
      disabled_all_cookie: false,
      disabled_landing_page_cookie: true,
      disabled_utmId_cookie: true,
      disabled_utmTerms_cookie: false,
      disabled_trafficsource_cookie: false,
      consent: { analytics: true, marketing: false, decided: true },
    });
  });

  it("GPC (Sec-GPC: 1) is a refusal without a choice, and an explicit choice wins over it; a broken cookie is no choice", async () => {
    expect((await filters(undefined, { "sec-gpc": "1" })).data).toMatchObject({ all_disabled_by_api: true, consent: { analytics: false, decided: true } });
    expect((await filters("shop_consent=v1.1.1.1790000000", { "sec-gpc": "1" })).data).toMatchObject({
      facebook_disabled_by_api: false,
      consent: { marketing: true },
    });
    expect((await filters("shop_consent=v9.1.1.x")).data).toMatchObject({ consent: { decided: false, analytics: false } });
  });

  it("pages print the consent settings and the attribution options", async () => {
    const res = await new TestClient(shop.url).get("/");
    const html = await res.text();
    expect(pageGlobal(html, "shop_consent")).toEqual({ required: true, disabledCookies: ["landing_page", "utmId"] });
    expect(pageGlobal(html, "wc_order_attribution")).toMatchObject({
      params: {
        session: "45",
        lifetime: "0.00001",
        allowTracking: true,
        campaign_param: "cid",
        organics: [{ host: "ddg.example", param: "q" }],
        promocode: { min: 100000, max: 999999 },
      },
      fields: { source_type: "current.typ", session_count: "udata.vst" },
    });
    // The pre-hydration attribution script is inline, allowed by the CSP: by the page's nonce, or on a page the page
    // cache keeps (this one), by its hash (docs/decisions/0028-page-cache.md).
    const script = /<script(?: nonce="([^"]+)")?>(\(function\(\)\{"use strict";[\s\S]*?)<\/script>/.exec(html);
    expect(script).toBeTruthy();
    const csp = res.headers.get("content-security-policy") ?? "";
    const allowedBy = script![1] ? `'nonce-${script![1]}'` : `'sha256-${createHash("sha256").update(script![2]!).digest("base64")}'`;
    expect(csp).toContain(allowedBy);
  });
});
