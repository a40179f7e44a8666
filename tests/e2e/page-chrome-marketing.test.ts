/**
 * The storefront-wide elements of the marketing layer in Chromium (docs/contract/storefront.md §2 'Storefront-wide
 * elements', §4 'Banners and fields'): share buttons, the 'change country' form, the coming-soon footer banner (its
 * own dismiss link, and the REST call made with WordPress's real @wordpress/api-fetch, nonce refresh included),
 * field descriptions, and the ?theme_template_id scroll. axe-core checks each new element.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser, letPageSettle } from "../support/browser.ts";
import { apiFetchScript } from "../support/api-fetch.ts";
import type WpApiFetch from "@wordpress/api-fetch";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;

beforeAll(async () => {
  shop = await startTestShop();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

async function newPage(opts: { width?: number; bypassCSP?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: 900 }, bypassCSP: opts.bypassCSP ?? false });
  // A visitor who has already answered the consent banner (refused): the fixed banner neither covers nor pads the page.
  await context.addCookies([{ name: "shop_consent", value: `v1.0.0.${Math.floor(Date.now() / 1000)}`, url: shop.url }]);
  return { context, page: await context.newPage() };
}

/** Hydrated: the print button, disabled in the server's render, is enabled. */
const hydratedProduct = (page: Page) => page.waitForSelector(".share-print:not([disabled])");
/** Hydrated: the change-country form hid its region field. */
const hydratedShop = (page: Page) => page.waitForSelector("#region_field[hidden]", { state: "attached" });

async function signIn(page: Page, email: string): Promise<void> {
  const r = await registerCustomer(shop.services.db, { email, password: "account pass 1", first_name: "Ada", last_name: "" });
  if (!r.ok) throw new Error(r.message);
  await page.goto(`${shop.url}/my-account/`);
  await page.locator("#username").fill(email);
  await page.locator("#password").fill("account pass 1");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByText("From your account dashboard").waitFor();
}

describe("share buttons", () => {
  it("open the network's share window at its size, and pass axe", async () => {
    const { context, page } = await newPage();
    // No network here: the share page is answered locally, so only the address and the window size are checked.
    await context.route("https://www.facebook.com/**", (route) => route.fulfill({ contentType: "text/html", body: "<title>share</title>" }));
    await page.goto(`${shop.url}/product/silk-pocket-square/`);
    await hydratedProduct(page);
    expect(await seriousAxeViolations(page, ".share-buttons")).toEqual([]);
    const popup = context.waitForEvent("page");
    await page.getByRole("link", { name: "Share on Facebook" }).click();
    const win = await popup;
    await win.waitForLoadState();
    // The window was asked for at the network's size (626 × 436); the address is the canonical page's.
    expect(win.url()).toBe(`https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(`${shop.url}/product/silk-pocket-square/`)}`);
    expect(await win.evaluate(() => [window.innerWidth, window.innerHeight])).toEqual([626, 436]);
    expect(page.url()).toBe(`${shop.url}/product/silk-pocket-square/`); // the shop page stays
    await context.close();
  });
});

describe("change country", () => {
  it("hides the region field and stamps the browser's time on load, and the chosen country reaches the checkout", async () => {
    const { context, page } = await newPage({ width: 400 });
    await page.goto(`${shop.url}/shop/`);
    await hydratedShop(page);
    expect(await seriousAxeViolations(page, ".change-country")).toEqual([]);
    const stamped = Number(await page.locator('input[name="se_current_time"]').inputValue());
    expect(Math.abs(stamped - (await page.evaluate(() => Date.now())))).toBeLessThan(120_000);
    await page.locator("#current_country").selectOption("CA");
    const sent = page.waitForRequest((r) => r.method() === "POST" && r.url().startsWith(`${shop.url}/change-country`));
    await page.getByRole("button", { name: "Change country" }).click();
    const body = new URLSearchParams((await sent).postData() ?? "");
    expect([body.get("current_country"), body.get("redirect_to"), body.get("se_current_time")]).toEqual(["CA", "/shop/", String(stamped)]);
    await expect.poll(() => page.getByRole("alert").first().textContent()).toContain("Your country is now Canada.");
    await page.goto(
      `${shop.url}/?add-to-cart=${(await shop.services.db.query<{ id: number }>("SELECT id FROM products WHERE slug = 'silk-pocket-square'"))[0]!.id}`,
    );
    await page.goto(`${shop.url}/checkout/`);
    expect(await page.locator("#billing_country").inputValue()).toBe("CA");
    await expect.poll(() => page.locator("#billing_state_field label").textContent()).toContain("Province");
    await context.close();
  });
});

describe("coming-soon banner", () => {
  it("its dismiss link posts the user meta with the nonce and hides the banner; it stays gone", async () => {
    const { context, page } = await newPage();
    await signIn(page, "banner-link@example.com");
    await page.goto(`${shop.url}/blog/`);
    const banner = page.getByRole("region", { name: "Coming soon" });
    await banner.waitFor();
    expect(await seriousAxeViolations(page, ".coming-soon-footer-banner")).toEqual([]);
    const link = banner.getByRole("button", { name: "Dismiss" });
    const [restUrl, nonce] = [await link.getAttribute("data-rest-url"), await link.getAttribute("data-rest-nonce")];
    const withoutLocale = (url: string) => {
      const u = new URL(url);
      u.searchParams.delete("_locale");
      return u.href;
    };
    const sent = page.waitForRequest((r) => r.method() === "POST" && withoutLocale(r.url()) === withoutLocale(restUrl!));
    await link.click();
    const req = await sent;
    // docs/contract/storefront.md §7 'REST client': REST calls carry _locale=user.
    expect(new URL(req.url()).searchParams.get("_locale")).toBe("user");
    expect(req.headers()["x-wp-nonce"]).toBe(nonce);
    expect(req.postDataJSON()).toEqual({ meta: { coming_soon_banner_dismissed: "yes" } });
    await banner.waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("FOOTER");
    await page.reload();
    await page.waitForSelector("footer.site-footer");
    expect(await page.locator(".coming-soon-footer-banner").count()).toBe(0);
    await context.close();
  });

  it("hides even when the request fails", async () => {
    const { context, page } = await newPage();
    await signIn(page, "banner-fail@example.com");
    await page.goto(`${shop.url}/blog/`);
    await page.route("**/wp-json/wp/v2/users/**", (route) => route.abort());
    await page.getByRole("region", { name: "Coming soon" }).getByRole("button", { name: "Dismiss" }).click();
    await page.locator(".coming-soon-footer-banner").waitFor({ state: "detached" });
    await page.unroute("**/wp-json/wp/v2/users/**");
    await page.reload();
    await page.waitForSelector("footer.site-footer");
    expect(await page.locator(".coming-soon-footer-banner").count()).toBe(1); // nothing was stored
    await context.close();
  });

  it("is dismissed through WordPress's @wordpress/api-fetch, which refreshes a stale nonce and retries", async () => {
    const { context, page } = await newPage({ bypassCSP: true });
    await signIn(page, "banner-apifetch@example.com");
    await page.goto(`${shop.url}/blog/`);
    const link = page.getByRole("region", { name: "Coming soon" }).getByRole("button", { name: "Dismiss" });
    const restUrl = (await link.getAttribute("data-rest-url"))!;
    await page.addScriptTag({ content: await apiFetchScript() });
    const refreshed = page.waitForRequest((r) => r.url().endsWith("/wp-admin/admin-ajax.php?action=rest-nonce"));
    const answer = await page.evaluate(
      async ({ restUrl, origin }) => {
        type ApiFetch = typeof WpApiFetch & { nonceMiddleware?: unknown };
        const apiFetch = (window as unknown as { wpApiFetch: ApiFetch }).wpApiFetch;
        // As WordPress's own inline set-up does it: the refresh writes the new nonce into apiFetch.nonceMiddleware.
        apiFetch.nonceMiddleware = apiFetch.createNonceMiddleware("stale-nonce");
        apiFetch.use(apiFetch.nonceMiddleware as Parameters<ApiFetch["use"]>[0]);
        apiFetch.nonceEndpoint = `${origin}/wp-admin/admin-ajax.php?action=rest-nonce`;
        return apiFetch({ url: restUrl, method: "POST", data: { meta: { coming_soon_banner_dismissed: "yes" } } });
      },
      { restUrl, origin: shop.url },
    );
    expect(answer).toMatchObject({ meta: { coming_soon_banner_dismissed: "yes" } });
    await refreshed; // the first try was refused for its stale nonce; the retry carried a fresh one
    await page.reload();
    await page.waitForSelector("footer.site-footer");
    expect(await page.locator(".coming-soon-footer-banner").count()).toBe(0);
    await context.close();
  });
});

describe("field descriptions", () => {
  it("slide open on focus or click, and close on Escape, another field's focus or a click outside", async () => {
    const { context, page } = await newPage();
    await signIn(page, "describe@example.com");
    await page.goto(`${shop.url}/my-account/edit-account/`);
    const description = page.locator("#account_display_name_description");
    const isOpen = () => description.evaluate((el) => el.classList.contains("is-open"));
    const height = () => description.evaluate((el) => el.getBoundingClientRect().height);
    await page.waitForFunction(() => document.documentElement.style.getPropertyValue("--field-description-slide") === "250ms");
    expect(await height()).toBe(0);
    await page.locator("#account_display_name").focus();
    await expect.poll(isOpen).toBe(true);
    await expect.poll(height).toBeGreaterThan(10);
    await page.keyboard.press("Escape");
    await expect.poll(isOpen).toBe(false);
    await page.locator("#account_display_name").click();
    await expect.poll(isOpen).toBe(true);
    await page.locator("#account_email").focus();
    await expect.poll(isOpen).toBe(false);
    await page.locator("#account_display_name").click();
    await expect.poll(isOpen).toBe(true);
    await page.locator("h1").click();
    await expect.poll(isOpen).toBe(false);
    await context.close();
  });
});

describe("?theme_template_id", () => {
  it("scrolls to that template's element on load, and ignores an id that is not a number", async () => {
    const { context, page } = await newPage({ width: 400 });
    await page.goto(`${shop.url}/shop/?theme_template_id=102`);
    await hydratedShop(page);
    // The footer's top at the window's top, or as near as the page can scroll (the footer ends the page).
    const offset = () =>
      page.evaluate(() => {
        const top = document.querySelector("footer")!.getBoundingClientRect().top + window.scrollY;
        const reachable = Math.min(top, document.documentElement.scrollHeight - window.innerHeight);
        return Math.abs(window.scrollY - reachable);
      });
    await expect.poll(offset).toBeLessThan(5);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await page.goto(`${shop.url}/shop/?theme_template_id=102%22]`);
    await hydratedShop(page);
    await letPageSettle(page, { frames: 3 });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await context.close();
  });
});
