/**
 * WordPress's own REST client, the unmodified `@wordpress/api-fetch` from npm, drives the shop/v1 staff routes as a
 * signed-in administrator's browser would (docs/contract/wire.md §2.7, docs/contract/rest/shop-v1.md 'With
 * @wordpress/api-fetch'), with its nonce and root-URL middlewares: (a) a PATCH it sends as POST with
 * X-HTTP-Method-Override, (b) `per_page=-1` over more than 100 items, followed through `Link` in pages of 100, and
 * (c) a wrong nonce refreshed through admin-ajax.php?action=rest-nonce and the call retried, transparently.
 *
 * It runs in Node as wire.md §2.7 says (`window` = globalThis); `globalThis.fetch` is wrapped only while a call runs,
 * to carry the administrator's cookies as the browser would (same origin) and to record what was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type ApiFetchType from "@wordpress/api-fetch";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

type ApiFetch = typeof ApiFetchType;
type Middleware = Parameters<ApiFetch["use"]>[0];

let shop: TestShop;
let admin: SignedIn;
let apiFetch: ApiFetch;
let nonceMiddleware: ReturnType<ApiFetch["createNonceMiddleware"]>;
let rootMiddleware: Middleware;
const hadWindow = "window" in globalThis;
const hadNavigator = "navigator" in globalThis;

interface Sent {
  method: string;
  url: string;
  headers: Headers;
  status: number;
}
let sent: Sent[] = [];

/** Runs `fn` with a browser-like fetch: the administrator's cookies on the shop's own origin, every request recorded. */
async function asBrowser<T>(fn: () => Promise<T>): Promise<T> {
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = String(input instanceof Request ? input.url : input);
    const headers = new Headers(init.headers);
    if (url.startsWith(shop.url)) headers.set("cookie", admin.client.cookieHeader());
    const res = await realFetch(url, { ...init, headers });
    sent.push({ method: init.method ?? "GET", url, headers, status: res.status });
    return res;
  };
  try {
    return await fn();
  } finally {
    globalThis.fetch = realFetch;
  }
}

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "api-fetch-admin@example.com", "administrator");
  (globalThis as { window?: unknown }).window ??= globalThis;
  // api-fetch reads navigator.onLine when a request fails (Node 20 has no navigator).
  (globalThis as { navigator?: unknown }).navigator ??= { onLine: true };
  apiFetch = (await import("@wordpress/api-fetch")).default;
  // As WordPress's inline set-up does it (wp_default_scripts): the root URL, the nonce, and where to refresh it.
  rootMiddleware = apiFetch.createRootURLMiddleware(`${shop.url}/wp-json/`) as Middleware;
  nonceMiddleware = apiFetch.createNonceMiddleware(admin.nonce);
  apiFetch.use(nonceMiddleware as Middleware);
  apiFetch.use(rootMiddleware);
  (apiFetch as ApiFetch & { nonceMiddleware?: unknown }).nonceMiddleware = nonceMiddleware;
  apiFetch.nonceEndpoint = `${shop.url}/wp-admin/admin-ajax.php?action=rest-nonce`;
});
afterAll(async () => {
  if (apiFetch) {
    apiFetch.unregister(nonceMiddleware as Middleware);
    apiFetch.unregister(rootMiddleware);
  }
  if (!hadWindow) delete (globalThis as { window?: unknown }).window;
  if (!hadNavigator) delete (globalThis as { navigator?: unknown }).navigator;
  await shop?.close();
});

describe("@wordpress/api-fetch against shop/v1", () => {
  it("(a) sends PATCH as POST with X-HTTP-Method-Override, and the change is there afterwards", async () => {
    sent = [];
    const rule = await asBrowser(() =>
      apiFetch<{ code: string; enabled: boolean }>({ path: "shop/v1/discount-rules/travel-case-20", method: "PATCH", data: { enabled: false } }),
    );
    expect(rule).toMatchObject({ code: "travel-case-20", enabled: false });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.method).toBe("POST");
    expect(sent[0]!.headers.get("x-http-method-override")).toBe("PATCH");
    expect(sent[0]!.headers.get("x-wp-nonce")).toBe(admin.nonce);
    expect(sent[0]!.url).toBe(`${shop.url}/wp-json/shop/v1/discount-rules/travel-case-20?_locale=user`);

    const notice = await asBrowser(() =>
      apiFetch<{ text: string }>({ path: "shop/v1/settings/store-notice", method: "PUT", data: { text: "Sent by api-fetch." } }),
    );
    expect(notice.text).toBe("Sent by api-fetch.");
    expect(sent[1]).toMatchObject({ method: "POST" });
    expect(sent[1]!.headers.get("x-http-method-override")).toBe("PUT");

    // Visible afterwards: over REST, and on the storefront's next page.
    expect(await asBrowser(() => apiFetch({ path: "shop/v1/discount-rules/travel-case-20" }))).toMatchObject({ enabled: false });
    expect(await (await fetch(`${shop.url}/shop/`)).text()).toContain("Sent by api-fetch.");
  });

  it("(b) fetches per_page=-1 over more than 100 items, in pages of 100 through Link", async () => {
    // 105 audited writes through the routes themselves (a rule each), so both collections pass 100.
    for (let i = 0; i < 105; i++) {
      const res = await admin.client.request("/wp-json/shop/v1/discount-rules", {
        method: "POST",
        headers: { "X-WP-Nonce": admin.nonce },
        json: {
          code: `bulk-${i}`,
          title: `Bulk ${i}`,
          priority: 500 + i,
          enabled: false,
          filters: [],
          conditions: [],
          action: { kind: "cart_fixed", amount: 1 },
          stacking: "combinable",
        },
      });
      expect(res.status).toBe(201);
    }
    const total = Number((await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM discount_rules`))[0]!.n);
    expect(total).toBeGreaterThan(105);

    sent = [];
    const rules = await asBrowser(() => apiFetch<{ code: string }[]>({ path: "shop/v1/discount-rules?per_page=-1" }));
    expect(rules).toHaveLength(total);
    expect(new Set(rules.map((r) => r.code)).size).toBe(total);
    expect(sent.map((s) => new URL(s.url).searchParams.get("page") ?? "1")).toEqual(["1", "2"]);
    expect(sent.every((s) => new URL(s.url).searchParams.get("per_page") === "100")).toBe(true);

    const log = await asBrowser(() =>
      apiFetch<{ object: { type: string; id: string } }[]>({ path: "shop/v1/audit-log?object_type=discount_rule&per_page=-1" }),
    );
    const created = log.filter((l) => l.object.id.startsWith("bulk-"));
    expect(created).toHaveLength(105);
    expect(new Set(created.map((l) => l.object.id)).size).toBe(105);
  });

  it("(c) refreshes a wrong nonce through admin-ajax.php?action=rest-nonce and retries, transparently", async () => {
    nonceMiddleware.nonce = "0123456789"; // stale: from another session, or past its lifetime
    sent = [];
    const saved = await asBrowser(() =>
      apiFetch<{ text: string }>({ path: "shop/v1/settings/coming-soon", method: "PATCH", data: { text: "Retried after a fresh nonce." } }),
    );
    expect(saved.text).toBe("Retried after a fresh nonce.");
    expect(sent.map((s) => [s.method, new URL(s.url).pathname, s.status])).toEqual([
      ["POST", "/wp-json/shop/v1/settings/coming-soon", 403],
      ["GET", "/wp-admin/admin-ajax.php", 200],
      ["POST", "/wp-json/shop/v1/settings/coming-soon", 200],
    ]);
    expect(sent[0]!.headers.get("x-wp-nonce")).toBe("0123456789");
    expect(nonceMiddleware.nonce).not.toBe("0123456789");
    expect(sent[2]!.headers.get("x-wp-nonce")).toBe(nonceMiddleware.nonce);
    // The write happened once, by the administrator.
    const log = await asBrowser(() =>
      apiFetch<{ action: string; actor: { label: string } }[]>({ path: "shop/v1/audit-log?object_type=setting&object_id=coming-soon" }),
    );
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ action: "update", actor: { label: "api-fetch-admin@example.com" } });
  });
});
