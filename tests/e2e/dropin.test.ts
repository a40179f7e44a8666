/**
 * Issue 19, compatibility breaks in the browser (docs/contract/wire.md §1.8, §1.11, §4.4): real jQuery (npm) on our
 * pages, listening and triggering the WooCommerce way. WooCommerce's own scripts are not shipped or committed; each
 * check replays exactly what they send, read and trigger, as read in woocommerce/woocommerce
 * plugins/woocommerce/client/legacy/js/frontend/ (add-to-cart.js @00b72db, checkout.js @00e23ee,
 * add-to-cart-variation.js), cited at each step. One shop and one browser for the file; three page loads.
 */
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser, letPageSettle } from "../support/browser.ts";

const require = createRequire(import.meta.url);
const JQUERY = require.resolve("jquery/dist/jquery.min.js");
const UNDERSCORE = require.resolve("underscore/underscore-umd-min.js");

let shop: TestShop;
let browser: Browser;

beforeAll(async () => {
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  await shop.services.db.query(`UPDATE products SET stock_quantity = 500, stock_status = 'instock' WHERE type = 'simple'`);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

/** jQuery objects and page globals inside page.evaluate: untyped, as the scripts that use them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
type Win = Window & Record<string, Loose>;

/** Our shim of wp-includes/js/wp-util.js wp.template: an underscore template with WordPress's delimiters, read from #tmpl-<id>. */
const WP_SHIM = `
window.wp = { template: function (id) { return function (data) {
  var settings = { evaluate: /<#([\\s\\S]+?)#>/g, interpolate: /\\{\\{\\{([\\s\\S]+?)\\}\\}\\}/g, escape: /\\{\\{([^}]+?)\\}\\}(?!\\})/g, variable: "data" };
  return _.template(jQuery("#tmpl-" + id).html(), settings)(data);
}; } };
window.__log = [];
jQuery(function ($) { $(document.body).on("updated_checkout", function (e, data) { window.__log.push({ name: "updated_checkout", data: data }); }); });
`;

/**
 * A page with jQuery and underscore (+ wp.template) as a WordPress theme prints them: classic same-origin scripts at
 * the top of <head>, before any of ours, under the page's own CSP (script-src 'self').
 */
async function withJQuery(path: string): Promise<{ context: BrowserContext; page: Page; errors: string[]; csp: string }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // A visitor who accepted analytics (decision 0017): order attribution runs only with that consent.
  await context.addCookies([{ name: "shop_consent", value: `v1.1.0.${Math.floor(Date.now() / 1000)}`, url: shop.url }]);
  await context.route(/\/__wp\/(jquery|underscore|wp-util)\.js$/, (route) => {
    const name = /\/__wp\/([\w-]+)\.js$/.exec(route.request().url())![1];
    if (name === "wp-util") return route.fulfill({ contentType: "application/javascript", body: WP_SHIM });
    return route.fulfill({ contentType: "application/javascript", path: name === "jquery" ? JQUERY : UNDERSCORE });
  });
  await context.route(
    (url) => url.origin === shop.url,
    async (route) => {
      if (route.request().resourceType() !== "document") return route.fallback();
      const response = await route.fetch();
      const tags = ["jquery", "underscore", "wp-util"].map((n) => `<script src="/__wp/${n}.js"></script>`).join("");
      return route.fulfill({ response, body: (await response.text()).replace("<head>", `<head>${tags}`) });
    },
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const response = await page.goto(`${shop.url}${path}`);
  await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null); // the cart script is mounted
  expect(await page.evaluate(() => typeof (window as Win).jQuery)).toBe("function");
  return { context, page, errors, csp: (await response?.allHeaders())?.["content-security-policy"] ?? "" };
}

const log = (page: Page) => page.evaluate(() => (window as Win).__log as { name: string; [k: string]: unknown }[]);

describe("jQuery events on a listing", () => {
  it("listeners get WooCommerce's arguments, triggers reach our code, and add-to-cart.js on the page means one add per click", async () => {
    const { context, page, errors } = await withJQuery("/shop/");
    await page.evaluate(() => {
      const w = window as Win;
      const $ = w.jQuery;
      // add-to-cart.js onAddToCart / updateButton: trigger('adding_to_cart', [$thisbutton, data]),
      // trigger('added_to_cart', [response.fragments, response.cart_hash, $thisbutton]), trigger('wc_cart_button_updated', [$button]).
      $(document.body).on("adding_to_cart", (_e: unknown, $b: Loose, data: unknown) =>
        w.__log.push({ name: "adding_to_cart", id: $b.attr("data-product_id"), data }),
      );
      $(document.body).on("added_to_cart", (_e: unknown, fragments: Record<string, string>, hash: string, $b: Loose) =>
        w.__log.push({ name: "added_to_cart", keys: Object.keys(fragments ?? {}), hash, id: $b?.jquery ? $b.attr("data-product_id") : null }),
      );
      $(document.body).on("wc_cart_button_updated", (_e: unknown, $b: Loose) =>
        w.__log.push({ name: "wc_cart_button_updated", id: $b.attr("data-product_id") }),
      );
      document.body.addEventListener("added_to_cart", (e) => w.__log.push({ name: "dom:added_to_cart", hash: (e as CustomEvent).detail.cart_hash }));
    });
    const buttons = page.locator("a.ajax_add_to_cart[data-product_id]");
    const firstId = (await buttons.nth(0).getAttribute("data-product_id"))!;
    await buttons.nth(0).click();
    await page.waitForFunction(() => (window as Win).__log.some((x: { name: string }) => x.name === "added_to_cart"));
    const hash = decodeURIComponent((await context.cookies()).find((c) => c.name === "woocommerce_cart_hash")!.value);
    expect(await log(page)).toEqual([
      { name: "adding_to_cart", id: firstId, data: expect.objectContaining({ product_id: firstId, quantity: "1" }) },
      { name: "wc_cart_button_updated", id: firstId },
      // Our DOM listeners first, then jQuery's, each once.
      { name: "dom:added_to_cart", hash },
      { name: "added_to_cart", keys: expect.arrayContaining(["div.widget_shopping_cart_content"]), hash, id: firstId },
    ]);

    // Triggered through jQuery by another script: cart-fragments.js's wc_fragment_refresh, a theme's added_to_cart.
    const refreshed = page.waitForRequest((r) => r.url().endsWith("?wc-ajax=get_refreshed_fragments"));
    await page.evaluate(() => (window as Win).jQuery(document.body).trigger("wc_fragment_refresh"));
    expect((await refreshed).method()).toBe("POST");
    await page.evaluate(() => {
      const $ = (window as Win).jQuery;
      (window as Win).__log = [];
      $(document.body).trigger("added_to_cart", [{ "div.none": "<div></div>" }, "from-theme", $("a.ajax_add_to_cart").first()]);
    });
    // Our listener heard it once, with its arguments as the detail (the bridge is bound first); the jQuery listener
    // once, not again through the DOM event.
    expect((await log(page)).map((x) => `${x.name}:${String(x.hash)}`)).toEqual(["dom:added_to_cart:from-theme", "added_to_cart:from-theme"]);

    // add-to-cart.js's constructor binds $(document.body).on('click', '.add_to_cart_button:not(.wc-interactive)',
    // { addToCartHandler: this }, this.onAddToCart); onAddToCart posts every data-* of an .ajax_add_to_cart button with
    // a product id to wc_ajax_url's add_to_cart and triggers added_to_cart. Bound here with that exact shape.
    await page.evaluate(() => {
      const w = window as Win;
      const $ = w.jQuery;
      w.__log = [];
      $(document.body).on("click", ".add_to_cart_button:not(.wc-interactive)", { addToCartHandler: {} }, function (this: HTMLElement, e: Event) {
        const $b = $(this);
        if (!$b.is(".ajax_add_to_cart") || !$b.attr("data-product_id")) return true;
        e.preventDefault();
        $.ajax({
          type: "POST",
          url: w.wc_add_to_cart_params!.wc_ajax_url.toString().replace("%%endpoint%%", "add_to_cart"),
          data: { ...this.dataset },
          dataType: "json",
          success: (r: { fragments: unknown; cart_hash: string }) => $(document.body).trigger("added_to_cart", [r.fragments, r.cart_hash, $b]),
        });
      });
    });
    const adds: string[] = [];
    page.on("request", (r) => r.url().includes("wc-ajax=add_to_cart") && adds.push(r.postData() ?? ""));
    const secondId = (await buttons.nth(1).getAttribute("data-product_id"))!;
    await buttons.nth(1).click();
    await page.waitForFunction(() => (window as Win).__log.some((x: { name: string }) => x.name === "dom:added_to_cart"));
    await letPageSettle(page, { ms: 50 });
    expect(adds).toHaveLength(1);
    expect(new URLSearchParams(adds[0]).get("product_id")).toBe(secondId);
    // Its added_to_cart reached our code (the fragments cache, the notice) once.
    expect((await log(page)).filter((x) => x.name === "dom:added_to_cart")).toHaveLength(1);

    // add-to-cart.js also binds ('click', '.remove_from_cart_button', { addToCartHandler: this }, onRemoveFromCart),
    // which posts { cart_item_key } to remove_from_cart and triggers removed_from_cart: one removal request per click.
    await page.evaluate(() => {
      const w = window as Win;
      const $ = w.jQuery;
      w.__log = [];
      document.body.addEventListener("removed_from_cart", () => w.__log.push({ name: "dom:removed_from_cart" }));
      $(document.body).on("click", ".remove_from_cart_button", { addToCartHandler: {} }, function (this: HTMLElement, e: Event) {
        const $b = $(this);
        e.preventDefault();
        $.ajax({
          type: "POST",
          url: w.wc_add_to_cart_params!.wc_ajax_url.toString().replace("%%endpoint%%", "remove_from_cart"),
          data: { cart_item_key: $b.data("cart_item_key") },
          dataType: "json",
          success: (r: { fragments: unknown; cart_hash: string }) => $(document.body).trigger("removed_from_cart", [r.fragments, r.cart_hash, $b]),
        });
      });
    });
    const removals: string[] = [];
    page.on("request", (r) => r.url().includes("wc-ajax=remove_from_cart") && removals.push(r.postData() ?? ""));
    await page.evaluate(() => document.querySelector<HTMLElement>(".widget_shopping_cart_content .remove_from_cart_button")!.click());
    await page.waitForFunction(() => (window as Win).__log.some((x: { name: string }) => x.name === "dom:removed_from_cart"));
    await letPageSettle(page, { ms: 50 });
    expect(removals).toHaveLength(1);
    expect(new URLSearchParams(removals[0]).get("cart_item_key")).toMatch(/^[0-9a-f]{32}$/);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("add-to-cart-variation.js's page parts on a variable product", () => {
  it("prints its globals under our CSP and its two templates; a found variation renders, and our own form keeps working", async () => {
    const { context, page, errors, csp } = await withJQuery("/product/silk-necktie/");
    // Inline scripts by nonce, or on a page the page cache keeps (this one), by their hashes (decision 0028).
    expect(csp).toMatch(/script-src 'self' '(?:nonce|sha256)-/);
    const globals = await page.evaluate(() => ({ v: (window as Win).wc_add_to_cart_variation_params, s: (window as Win).wc_single_product_params }));
    expect(globals.v).toEqual({
      wc_ajax_url: "/?wc-ajax=%%endpoint%%",
      i18n_no_matching_variations_text: "Sorry, no products matched your selection. Please choose a different combination.",
      i18n_make_a_selection_text: "Please select some product options before adding this product to your cart.",
      i18n_unavailable_text: "Sorry, this product is unavailable. Please choose a different combination.",
      i18n_reset_alert_text: "Your selection has been reset. Please select some product options before adding this product to your cart.",
    });
    expect(Object.keys(globals.s).sort()).toEqual(
      [
        "flexslider",
        "flexslider_enabled",
        "i18n_product_gallery_trigger_text",
        "i18n_rating_options",
        "i18n_required_rating_text",
        "photoswipe_enabled",
        "photoswipe_options",
        "review_rating_required",
        "zoom_enabled",
        "zoom_options",
      ].sort(),
    );
    // add-to-cart-variation.js: template = wp.template('variation-template'), unavailable_template =
    // wp.template('unavailable-variation-template'); on found_variation it renders { variation } from the form's
    // data-product_variations and puts it in $form.find('.single_variation').html(…).
    const rendered = await page.evaluate(() => {
      const w = window as Win;
      const $ = w.jQuery;
      const variations = $("form.variations_form").data("product_variations") as {
        attributes: Record<string, string>;
        price_html: string;
        availability_html: string;
      }[];
      const variation = variations.find((v) => v.attributes.attribute_pa_color === "red")!;
      const html = w.wp.template("variation-template")({ variation });
      $("form.variations_form .single_variation").html(html);
      return {
        html,
        expected: `<div class="woocommerce-variation-description"></div><div class="woocommerce-variation-price">${variation.price_html}</div><div class="woocommerce-variation-availability">${variation.availability_html}</div>`,
        unavailable: w.wp.template("unavailable-variation-template")({}),
        types: [$("#tmpl-variation-template").attr("type"), $("#tmpl-unavailable-variation-template").attr("type")],
      };
    });
    expect(rendered.html).toBe(rendered.expected);
    expect(rendered.unavailable).toBe(`<p role="alert">Sorry, this product is unavailable. Please choose a different combination.</p>`);
    expect(rendered.types).toEqual(["text/template", "text/template"]);
    expect(await page.locator("form.variations_form .single_variation .woocommerce-variation-price").count()).toBe(1);

    // Our React form after the script wrote into .single_variation: choosing and adding still work, without an error.
    await page.selectOption("form.variations_form select#attribute_pa_color", "red");
    await page.waitForFunction(() => (document.querySelector("form.variations_form input.variation_id") as HTMLInputElement).value !== "0");
    const [added] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/wp-admin/admin-ajax.php") && (r.request().postData() ?? "").includes("astra_add_cart_single_product")),
      page.locator("form.variations_form button.single_add_to_cart_button").click(),
    ]);
    expect(((await added.json()) as { cart_hash?: string }).cart_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("checkout events and attribution with jQuery on the page", () => {
  it("updated_checkout carries the answer, update_checkout refreshes, a place-order handler vetoes; checkout.js's fragment swap keeps the attribution", async () => {
    const { context, page } = await withJQuery("/shop/?utm_source=dropin&utm_medium=email&utm_campaign=bridge");
    const firstId = (await page.locator("a.ajax_add_to_cart[data-product_id]").first().getAttribute("data-product_id"))!;
    expect((await page.request.post(`${shop.url}/?wc-ajax=add_to_cart`, { form: { product_id: firstId, quantity: "1" } })).ok()).toBe(true);
    await page.goto(`${shop.url}/checkout/`);
    await page.waitForSelector('form.checkout[data-hydrated="1"]');
    // checkout.js update_checkout_action success: trigger('updated_checkout', [data]).
    await page.waitForFunction(() => (window as Win).__log.some((x: { name: string }) => x.name === "updated_checkout"));
    const [first] = (await log(page)) as unknown as { data: { result: string; fragments: Record<string, string> } }[];
    expect(first!.data.result).toBe("success");
    expect(Object.keys(first!.data.fragments)).toEqual([".woocommerce-checkout-review-order-table", ".woocommerce-checkout-payment"]);
    // checkout.js trigger_update_checkout: $(document.body).trigger('update_checkout', { current_target }) → one refresh.
    const refresh = page.waitForRequest((r) => r.url().endsWith("?wc-ajax=update_order_review"));
    await page.evaluate(() => (window as Win).jQuery(document.body).trigger("update_checkout", { current_target: null }));
    expect(new URLSearchParams((await refresh).postData() ?? "").get("security")).toBeTruthy();
    await page.waitForFunction(() => (window as Win).__log.filter((x: { name: string }) => x.name === "updated_checkout").length >= 2);

    // WooCommerce stamps the attribution inputs after the customer details, outside any fragment checkout.js replaces.
    await expect.poll(() => page.locator("#customer_details wc-order-attribution-inputs input[type=hidden]").count()).toBe(16);
    expect(await page.locator(".woocommerce-checkout-payment wc-order-attribution-inputs").count()).toBe(0);

    await page.fill("#billing_email", "bridge@example.com");
    await page.fill("#billing_first_name", "Ada");
    await page.fill("#billing_last_name", "Lovelace");
    await page.fill("#billing_address_1", "1 Analytical Way");
    await page.fill("#billing_city", "Springfield");
    await page.selectOption("#billing_state", "IL");
    await page.fill("#billing_postcode", "62701");
    await page.fill("#billing_phone", "555 123 4567");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4242424242424242");
    await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1234");
    await page.fill("#wc-sandbox-credit-card-csc", "123");

    // checkout.js submit: $form.triggerHandler('checkout_place_order', [wc_checkout_form]) !== false &&
    // $form.triggerHandler('checkout_place_order_' + get_payment_method(), [wc_checkout_form]) !== false.
    await page.evaluate(() => {
      const w = window as Win;
      const $ = w.jQuery;
      w.__log = [];
      $("form.checkout").on("checkout_place_order", (_e: unknown, api: Loose) => w.__log.push({ name: "any", method: api.get_payment_method() }));
      $("form.checkout").on("checkout_place_order_sandbox_credit_card", (_e: unknown, api: Loose) => {
        w.__log.push({ name: "gateway", method: api.get_payment_method(), form: api.$checkout_form.is("form.checkout") });
        return false;
      });
    });
    const checkoutPosts: string[] = [];
    page.on("request", (r) => r.url().endsWith("?wc-ajax=checkout") && checkoutPosts.push(r.postData() ?? ""));
    await page.getByRole("button", { name: "Place order" }).click();
    await page.waitForFunction(() => (window as Win).__log.length === 2);
    await letPageSettle(page, { ms: 50 });
    expect(await log(page)).toEqual([
      { name: "any", method: "sandbox_credit_card" },
      { name: "gateway", method: "sandbox_credit_card", form: true },
    ]);
    expect(checkoutPosts).toEqual([]);

    // checkout.js as a theme would run it: update_order_review, each fragment swapped in with $(key).replaceWith(value),
    // then the serialized form posted to wc_checkout_params.checkout_url.
    const outcome = await page.evaluate(async () => {
      const w = window as Win;
      const $ = w.jQuery;
      const p = w.wc_checkout_params;
      $("form.checkout").off("checkout_place_order_sandbox_credit_card");
      const data = await $.ajax({
        type: "POST",
        url: p.wc_ajax_url.toString().replace("%%endpoint%%", "update_order_review"),
        data: {
          security: p.update_order_review_nonce,
          payment_method: "sandbox_credit_card",
          country: "US",
          state: "IL",
          postcode: "62701",
          city: "Springfield",
          address: "1 Analytical Way",
          address_2: "",
          has_full_address: true,
          post_data: $("form.checkout").serialize(),
        },
      });
      $.each(data.fragments, (key: string, value: string) => void $(key).replaceWith(value));
      $("#wc-sandbox-credit-card-account-number").val("4242424242424242");
      $("#wc-sandbox-credit-card-expiry").val("12 / 34");
      $("#wc-sandbox-credit-card-csc").val("123");
      const inputs = $("form.checkout wc-order-attribution-inputs input").length;
      const answer = await $.ajax({ type: "POST", url: p.checkout_url, data: $("form.checkout").serialize(), dataType: "json" });
      return { inputs, answer };
    });
    expect(outcome.inputs).toBe(16);
    expect(outcome.answer.result).toBe("success");
    const orderId = Number(/order-received\/(\d+)\//.exec(outcome.answer.redirect)![1]);
    const rows = await shop.services.db.query<{ key: string; value: string }>(
      `SELECT key, value FROM order_meta WHERE order_id = $1 AND key LIKE '_wc_order_attribution_%'`,
      [orderId],
    );
    expect(Object.fromEntries(rows.map((r) => [r.key.replace("_wc_order_attribution_", ""), r.value]))).toMatchObject({
      source_type: "utm",
      utm_source: "dropin",
      utm_medium: "email",
      utm_campaign: "bridge",
    });
    await context.close();
  });
});
