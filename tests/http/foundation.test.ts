import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";

let shop: TestShop;
let client: TestClient;

beforeAll(async () => {
  shop = await startTestShop();
  client = new TestClient(shop.url);
});
afterAll(async () => shop?.close());

describe("pages are server-rendered from the database", () => {
  it("home lists bestsellers, categories and journal posts", async () => {
    const res = await client.get("/");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("6 masks for $15");
    expect(html).toMatch(/<li class="product type-product post-\d+/);
    expect(html).toContain('href="/product-category/mask-and-tie-sets/"');
    expect(html).toContain("From the journal");
  });

  it("the shop lists at least 40 products over pages, and a page past the end is a 404", async () => {
    const first = await (await client.get("/shop/")).text();
    const total = Number(/Showing 1–12 of (\d+) results/.exec(first)?.[1]);
    expect(total).toBeGreaterThanOrEqual(40);
    const lastPage = Math.ceil(total / 12);
    const last = await client.get(`/shop/page/${lastPage}/`);
    expect(last.status).toBe(200);
    expect((await client.get(`/shop/page/${lastPage + 1}/`)).status).toBe(404);
    expect((await client.get("/shop/page/0/")).status).toBe(404);
    expect((await client.get("/shop/page/abc/")).status).toBe(404);
  });

  it("sorting by price really orders by price, and an unknown sort falls back to the default", async () => {
    const prices = (html: string) =>
      [
        ...html.matchAll(
          /<span class="price"><span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">\$<\/span>([\d,]+)/g,
        ),
      ].map((m) => Number(m[1]!.replace(",", "")));
    const asc = prices(await (await client.get("/shop/?orderby=price")).text());
    expect(asc.length).toBeGreaterThan(3);
    expect([...asc].sort((a, b) => a - b)).toEqual(asc);
    const bogus = await client.get("/shop/?orderby=%3Cscript%3E");
    expect(bogus.status).toBe(200);
    expect(await bogus.text()).toContain('<option value="menu_order" selected="">');
  });

  it("category archives are titled '{Category} Archives' and unknown ones are 404", async () => {
    const html = await (await client.get("/product-category/mask-and-tie-sets/")).text();
    expect(html).toContain("<title>Mask and Tie Sets Archives – Maskerade</title>");
    expect(html).toContain("Classic Mask and Tie Set");
    expect((await client.get("/product-category/no-such-thing/")).status).toBe(404);
  });

  it("a product page carries its gallery, variation data, structured data and a canonical URL", async () => {
    const html = await (await client.get("/product/cotton-face-mask/")).text();
    expect(html).toContain('<h1 class="product_title entry-title">Cotton Face Mask</h1>');
    expect(html).toContain('"@type":"Product"');
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/product\/cotton-face-mask\/"/);
    const variations = JSON.parse(/data-product_variations="([^"]+)"/.exec(html)![1]!.replace(/&quot;/g, '"'));
    expect(variations.length).toBe(32);
    expect(variations.some((v: { is_in_stock: boolean }) => !v.is_in_stock)).toBe(true);
    expect((html.match(/woocommerce-product-gallery__image/g) ?? []).length).toBeGreaterThanOrEqual(3);
  });

  it("every product kind has a page with its own form", async () => {
    expect(await (await client.get("/product/office-essentials/")).text()).toMatch(/name="quantity\[\d+\]"/);
    expect(await (await client.get("/product/groomsmen-gift-box/")).text()).toContain('name="base_price"');
    expect(await (await client.get("/product/designer-silk-tie-partner/")).text()).toContain("https://atelier.example.com/designer-silk-tie");
    expect(await (await client.get("/product/tie-pattern-collection/")).text()).toContain('name="edd_options[price_id][]"');
    expect(await (await client.get("/product/face-mask-sewing-pattern/")).text()).toContain('name="edd_download_quantity"');
    expect((await client.get("/product/discontinued-mask/")).status).toBe(404); // a draft is not public
  });

  it("generated images are served from the database with long caching", async () => {
    const res = await client.get("/media/cotton-face-mask-front.svg");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("image/svg+xml");
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(await res.text()).toMatch(/^<svg /);
    expect((await client.get("/media/..%2Fetc.svg")).status).toBe(404);
    // A product without images shows the placeholder (mediaUrl(null)), an image, not a 404.
    const placeholder = await client.get("/media/placeholder.svg");
    expect(placeholder.status).toBe(200);
    expect(placeholder.headers.get("content-type")).toContain("image/svg+xml");
    expect(await placeholder.text()).toMatch(/^<svg [^>]*viewBox="0 0 300 300"/);
    expect((await client.get("/media/no-such-image.svg")).status).toBe(404);
  });

  it("blog is paginated and unknown pages are 404", async () => {
    expect(await (await client.get("/blog/")).text()).toContain('href="/blog/page/2/"');
    expect(await (await client.get("/blog/page/3/")).text()).toContain("No more posts to show.");
    expect((await client.get("/blog/page/4/")).status).toBe(404);
    expect((await client.get("/definitely/not/here/")).status).toBe(404);
  });

  it("addresses without a trailing slash redirect to the canonical one", async () => {
    const res = await client.get("/shop?orderby=price");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/shop/?orderby=price");
  });

  it("pages print the cart scripts' globals with WordPress's string flags, and no secrets", async () => {
    const html = await (await client.get("/cart/")).text();
    const add = pageGlobal(html, "wc_add_to_cart_params");
    expect(add).toMatchObject({
      ajax_url: "/wp-admin/admin-ajax.php",
      wc_ajax_url: "/?wc-ajax=%%endpoint%%",
      i18n_view_cart: "View cart",
      is_cart: "1",
      cart_redirect_after_add: "no",
    });
    expect(String(add.cart_url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cart\/$/);
    expect(pageGlobal(html, "wc_cart_fragments_params")).toMatchObject({ request_timeout: "5000" });
    expect(pageGlobal(html, "wc_cart_params").apply_coupon_nonce).toMatch(/^[0-9a-f]{10}$/);
    const checkout = pageGlobal(await (await client.get("/checkout/")).text(), "wc_checkout_params");
    expect(checkout).toMatchObject({ is_checkout: "1", option_guest_checkout: "yes", checkout_url: "/?wc-ajax=checkout" });
    expect(html).not.toMatch(/session_secret|SESSION_SECRET|DATABASE_URL/);
  });
});

describe("security basics", () => {
  it("sends security headers and a per-request CSP nonce that the inline scripts carry", async () => {
    // The cart page is rendered for each request (a kept page lists its scripts' hashes instead: page-cache.test.ts).
    const res = await client.get("/cart/");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    const csp = res.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    const html = await res.text();
    expect(html).toContain(`nonce="${nonce}"`);
    expect(res.headers.get("x-powered-by")).toBeNull();
  });

  it("registers, signs in with a rotated HttpOnly session cookie, and rejects a bad nonce", async () => {
    const browser = new TestClient(shop.url);
    const page = await (await browser.get("/my-account/")).text();
    const registerNonce = /name="woocommerce-register-nonce" value="([0-9a-f]+)"/.exec(page)![1]!;
    const bad = await browser.post("/my-account/?index", {
      intent: "register",
      email: "eve@example.com",
      password: "long-enough-pw",
      "woocommerce-register-nonce": "0000000000",
    });
    expect(await bad.text()).toContain("Your session has expired");
    const res = await browser.post("/my-account/", {
      intent: "register",
      email: "ada@example.com",
      password: "long-enough-pw",
      "woocommerce-register-nonce": registerNonce,
    });
    expect(res.status).toBe(302);
    const [name, cookie] = browser.cookieStartingWith("wp_woocommerce_session_")!;
    expect(name).toMatch(/^wp_woocommerce_session_[0-9a-f]{32}$/);
    expect(cookie.attributes).toMatch(/HttpOnly/);
    expect(cookie.attributes).toMatch(/SameSite=Lax/);
    const account = await (await browser.get("/my-account/")).text();
    expect(account).toContain("ada@example.com");
    expect(account).toContain("Your account was created");

    // A second browser can sign in; a wrong password says so and signs nobody in.
    const other = new TestClient(shop.url);
    const loginPage = await (await other.get("/my-account/")).text();
    const loginNonce = /name="woocommerce-login-nonce" value="([0-9a-f]+)"/.exec(loginPage)![1]!;
    const wrong = await other.post("/my-account/", {
      intent: "login",
      username: "ada@example.com",
      password: "nope-nope",
      "woocommerce-login-nonce": loginNonce,
    });
    expect(await wrong.text()).toContain("incorrect");
    const before = other.cookieStartingWith("wp_woocommerce_session_")?.[1].value;
    const ok = await other.post("/my-account/", {
      intent: "login",
      username: "ada@example.com",
      password: "long-enough-pw",
      "woocommerce-login-nonce": loginNonce,
    });
    expect(ok.status).toBe(302);
    const after = other.cookieStartingWith("wp_woocommerce_session_")![1].value;
    expect(after).not.toBe(before);
    expect(await (await other.get("/my-account/")).text()).toContain("Hello");
  });
});

describe("wc-ajax entry", () => {
  it("answers an unknown endpoint with an empty 200 on any path and method, uncached", async () => {
    for (const [method, path] of [
      ["GET", "/?wc-ajax=nope"],
      ["POST", "/shop/?wc-ajax=nope"],
      ["PUT", "/product/x/?wc-ajax=%3Cb%3E"],
    ] as const) {
      const res = await client.request(path, { method });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("");
      expect(res.headers.get("x-robots-tag")).toBe("noindex");
      expect(res.headers.get("cache-control")).toContain("no-cache");
    }
  });

  it("drops a body over the size limit or malformed and answers 200 in the endpoint's own failure shape (as PHP drops it)", async () => {
    const big = { method: "POST", body: "x=" + "a".repeat(1_100_000), headers: { "content-type": "application/x-www-form-urlencoded" } };
    // add_to_cart without a product_id answers an empty 200, as WooCommerce's does.
    const add = await client.request("/?wc-ajax=add_to_cart", big);
    expect(add.status).toBe(200);
    expect(await add.text()).toBe("");
    const checkout = await client.request("/?wc-ajax=checkout", big);
    expect(checkout.status).toBe(200);
    const failure = (await checkout.json()) as { result: string; messages: string };
    expect(failure.result).toBe("failure");
    expect(failure.messages).toContain("We were unable to process your order, please try again.");
    const review = await client.request("/?wc-ajax=update_order_review", {
      method: "POST",
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(review.status).toBe(200);
    expect(review.headers.get("content-type")).toContain("application/json");
    expect(await review.json()).toMatchObject({ result: "failure" });
    expect((await client.get("/healthz")).status).toBe(200);
  });
});

describe("admin-ajax entry", () => {
  it("answers an unknown or missing action with 0 and status 400", async () => {
    for (const res of [
      await client.post("/wp-admin/admin-ajax.php", { action: "no_such_action" }),
      await client.get("/wp-admin/admin-ajax.php?action=nope"),
      await client.post("/wp-admin/admin-ajax.php", {}),
    ]) {
      expect(res.status).toBe(400);
      expect(await res.text()).toBe("0");
    }
  });

  it("dispatches on the action from the query or the body: rest-nonce gives a raw nonce", async () => {
    const viaQuery = await client.get("/wp-admin/admin-ajax.php?action=rest-nonce");
    expect(viaQuery.status).toBe(200);
    expect(await viaQuery.text()).toMatch(/^[0-9a-f]{10}$/);
    const viaBody = await client.post("/wp-admin/admin-ajax.php", { action: "rest-nonce" });
    expect(await viaBody.text()).toMatch(/^[0-9a-f]{10}$/);
  });

  it("413 on an oversized body", async () => {
    const res = await client.request("/wp-admin/admin-ajax.php", {
      method: "POST",
      body: "action=x&y=" + "a".repeat(1_100_000),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(413);
  });
});

describe("REST entry", () => {
  it("an unknown route is WordPress's rest_no_route 404", async () => {
    for (const path of ["/wp-json/nope", "/wp-json/wp/v2/posts/1/nothing", "/?rest_route=/no/where"]) {
      const res = await client.get(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: "rest_no_route", message: "No route was found matching the URL and request method.", data: { status: 404 } });
    }
  });

  it("a collection pages with X-WP-Total, X-WP-TotalPages and Link rel=next", async () => {
    const res = await client.get("/wp-json/wp/v2/posts?per_page=5&_locale=user");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-wp-total")).toBe("14");
    expect(res.headers.get("x-wp-totalpages")).toBe("3");
    const next = /<([^>]+)>; rel="next"/.exec(res.headers.get("link") ?? "")![1]!;
    const page2 = await client.get(next.replace(/^http:\/\/[^/]+/, ""));
    expect((await page2.json()).length).toBe(5);
    expect(page2.headers.get("link")).toContain('rel="prev"');
  });

  it("search: matches title or excerpt literally; no match is [] with X-WP-Total 0; past the last page of matches is 400", async () => {
    const masks = await client.get("/wp-json/wp/v2/posts?search=MASK&per_page=2");
    expect(masks.status).toBe(200);
    expect(masks.headers.get("x-wp-total")).toBe("4");
    expect(masks.headers.get("x-wp-totalpages")).toBe("2");
    expect(((await masks.json()) as { title: { rendered: string } }[]).every((p) => /mask/i.test(p.title.rendered))).toBe(true);
    for (const search of ["no-such-post-anywhere", "100%", "_"]) {
      const none = await client.get(`/wp-json/wp/v2/posts?search=${encodeURIComponent(search)}`);
      expect(none.status).toBe(200);
      expect(await none.json()).toEqual([]);
      expect(none.headers.get("x-wp-total")).toBe("0");
      expect(none.headers.get("x-wp-totalpages")).toBe("1");
    }
    // A page past the end has no rows: the total comes from the count alone, with the search applied.
    const past = await client.get("/wp-json/wp/v2/posts?search=mask&per_page=2&page=3");
    expect(past.status).toBe(400);
    expect((await past.json()).code).toBe("rest_post_invalid_page_number");
  });

  it("bad parameters are rest_invalid_param 400; a malformed JSON body is 400; a method override is honoured", async () => {
    const bad = await client.get("/wp-json/wp/v2/posts?per_page=500");
    expect(bad.status).toBe(400);
    expect((await bad.json()).code).toBe("rest_invalid_param");
    const malformed = await client.request("/wp-json/wp/v2/posts", { method: "POST", body: "{not json", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).code).toBe("rest_invalid_json");
    const del = await client.request("/wp-json/wp/v2/posts", {
      method: "POST",
      headers: { "X-HTTP-Method-Override": "DELETE", "content-type": "application/json" },
      body: "{}",
    });
    expect(del.status).toBe(404); // no DELETE route: the override was applied, not treated as POST
  });

  it("a wrong nonce is 403 rest_cookie_invalid_nonce; a fresh one from rest-nonce works", async () => {
    const bad = await client.get("/wp-json/wp/v2/posts", { headers: { "X-WP-Nonce": "0123456789" } });
    expect(bad.status).toBe(403);
    expect(await bad.json()).toEqual({ code: "rest_cookie_invalid_nonce", message: "Cookie check failed", data: { status: 403 } });
    const nonce = await (await client.get("/wp-admin/admin-ajax.php?action=rest-nonce")).text();
    const good = await client.get("/wp-json/wp/v2/posts", { headers: { "X-WP-Nonce": nonce } });
    expect(good.status).toBe(200);
  });

  it("413 with a WordPress error body on an oversized body", async () => {
    const res = await client.request("/wp-json/wp/v2/posts", {
      method: "POST",
      body: JSON.stringify({ a: "x".repeat(1_100_000) }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe("rest_request_too_large");
  });
});

describe("websocket upgrade", () => {
  it("refuses upgrades anywhere but /ws", async () => {
    const { default: WebSocket } = await import("ws");
    const code = await new Promise<number>((resolve) => {
      const ws = new WebSocket(shop.url.replace("http", "ws") + "/not-ws");
      ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.on("error", () => resolve(-1));
    });
    expect(code).toBe(404);
  });

  it("serves the live hub at /ws to the real centrifuge client", async () => {
    const { default: WebSocket } = await import("ws");
    const { Centrifuge } = await import("centrifuge");
    const client = new Centrifuge(shop.url.replace("http", "ws") + "/ws", { websocket: WebSocket, timeout: 60_000, maxServerPingDelay: 10_000 });
    const sub = client.newSubscription("football");
    const subscribed = new Promise<void>((resolve) => sub.on("subscribed", () => resolve()));
    const publication = new Promise<unknown>((resolve) => sub.on("publication", (ctx) => resolve(ctx.data)));
    sub.subscribe();
    client.connect();
    await subscribed;
    await shop.realtime.hub.publish("football", { slug: "a-vs-b", stage: "live", home: { score: 1, periods: {} }, away: { score: 0, periods: {} } });
    expect(await publication).toMatchObject({ slug: "a-vs-b", home: { score: 1 } });
    client.disconnect();
  });
});
