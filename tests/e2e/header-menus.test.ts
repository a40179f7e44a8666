/**
 * The header's menus (docs/contract/header-menus.md) in Chromium, keyboard only: the primary menu and the 'Shop'
 * mega menu at 1280 px, the ☰ flyout with the whole tree, search and the account link at 400 px, the mega-menu
 * widths, the account menu, right-to-left mode and the logo; axe-core finds no serious or critical issue with the
 * menus open; an item whose target is deleted leaves the server-rendered header.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { signInAs } from "../support/staff.ts";

let shop: TestShop;
let custom: TestShop;
let browser: Browser;

beforeAll(async () => {
  [shop, custom, browser] = await Promise.all([
    startTestShop(),
    startTestShop({
      SHOP_SETTINGS: JSON.stringify({ layout: { isRtl: true }, header: { megaMenuWidth: "custom", accountMenu: true, mobileMenuStyle: "fullscreen" } }),
    }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([shop?.close(), custom?.close()]);
});

async function openPage(on: TestShop, width: number, path = "/", prepare?: (c: BrowserContext) => Promise<void>): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  // A visitor who has answered the consent banner: it does not cover the header.
  await context.addCookies([{ name: "shop_consent", value: `v1.0.0.${Math.floor(Date.now() / 1000)}`, url: on.url }]);
  await prepare?.(context);
  const page = await context.newPage();
  await page.goto(on.url + path);
  await expect.poll(() => page.evaluate(() => Boolean((window as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules))).toBe(true);
  return page;
}

/** Presses Tab until `selector` has the focus (keyboard only), failing after `max` presses. */
async function tabTo(page: Page, selector: string, max = 40, key = "Tab"): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`${selector} never took the focus`);
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? document.activeElement?.getAttribute("aria-label") ?? "");
const box = (page: Page, selector: string) => page.locator(selector).first().boundingBox();

describe("above the break point (1280 px)", () => {
  it("the header is the menu's data, server-rendered, with real addresses", async () => {
    const html = await (await fetch(shop.url + "/")).text();
    const nav = html.slice(html.indexOf('aria-label="Primary"'), html.indexOf("header-tools"));
    for (const title of ["Shop", "Masks", "Mask and Tie Sets", "Live scores", "Blog", "Contact"]) expect(nav).toContain(`>${title}</a>`);
    expect(nav).toContain('href="/product-category/face-masks/"');
    expect(nav).toContain('href="/contact/"'); // the Contact page (issue 14)
    expect(nav).not.toContain("Journal"); // the hard-coded links are gone
    // The logo reserves its box: width and height set.
    expect(html).toMatch(/<img class="custom-logo" src="\/maskerade-logo.svg" width="341" height="64"/);
  });

  it("the 'Shop' mega menu opens by keyboard, arrows move, Escape closes and returns the focus", async () => {
    const page = await openPage(shop, 1280);
    const toggle = page.getByRole("button", { name: "Shop submenu" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await tabTo(page, ".main-navigation .mega-menu > .submenu-toggle");
    await page.keyboard.press("Enter");
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await page.locator(".mega-panel").isVisible()).toBe(true);
    // Its category columns and its featured product.
    const panel = page.locator(".mega-panel");
    expect(await panel.locator(".mega-column__title").allTextContents()).toEqual(expect.arrayContaining(["Face Masks", "Ties", "Mask and Tie Sets"]));
    expect(await panel.locator(".mega-featured img").count()).toBe(1);
    // Width 'content' (the default): the content container's box.
    const [panelBox, container] = [await box(page, ".mega-panel"), await box(page, ".site-header__inner")];
    expect(Math.round(panelBox!.width)).toBe(Math.round(container!.width));
    expect(await seriousAxeViolations(page, "#masthead")).toEqual([]);

    // From the toggle, the first link takes the focus on the next animation frame (the panel's render): wait for it.
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => focused(page)).toBe("Face Masks");
    await page.keyboard.press("ArrowDown");
    const second = await focused(page);
    expect(second).not.toBe("Face Masks");
    await page.keyboard.press("ArrowUp");
    expect(await focused(page)).toBe("Face Masks");
    await page.keyboard.press("Escape");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await page.locator(".mega-panel").isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Shop submenu");

    // ArrowDown on the toggle opens it with the focus on its first link; Space closes it.
    await page.keyboard.press("ArrowDown");
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    await expect.poll(() => focused(page)).toBe("Face Masks");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Space");
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    await page.keyboard.press("Space");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");

    // ArrowRight moves to the next top-level item; a link in the menu goes where the data says.
    await page.keyboard.press("ArrowRight");
    expect(await focused(page)).toBe("Masks");
    await page.keyboard.press("Enter");
    await page.waitForURL("**/product-category/face-masks/");
    await page.context().close();
  });

  it("an outside click closes an open submenu; the mobile toggle is not shown", async () => {
    const page = await openPage(shop, 1280);
    expect(await page.locator(".menu-toggle").isVisible()).toBe(false);
    await page.getByRole("button", { name: "Shop submenu" }).click();
    expect(await page.locator(".mega-panel").isVisible()).toBe(true);
    await page.mouse.click(640, 600);
    expect(await page.locator(".mega-panel").isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Shop submenu" }).getAttribute("aria-expanded")).toBe("false");
    await page.context().close();
  });

  it("the logo is drawn at 341 px wide, 227 px below the break point and 132 px on mobile", async () => {
    for (const [width, logo] of [
      [1280, 341],
      [800, 227],
      [400, 132],
    ] as const) {
      const page = await openPage(shop, width);
      expect(Math.round((await box(page, ".custom-logo"))!.width)).toBe(logo);
      await page.context().close();
    }
  });
});

describe("below the break point (400 px)", () => {
  it("☰ opens a flyout with the whole tree, search and the account link; focus is trapped; Escape returns it", async () => {
    const page = await openPage(shop, 400);
    expect(await page.locator(".main-navigation").isVisible()).toBe(false);
    const toggle = page.getByRole("button", { name: "Menu", exact: true });
    await tabTo(page, ".menu-toggle");
    await page.keyboard.press("Enter");
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    const dialog = page.getByRole("dialog", { name: "Menu" });
    expect(await dialog.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Close menu");
    expect(await dialog.getByRole("searchbox", { name: "Search products" }).isVisible()).toBe(true);
    expect(await dialog.getByRole("link", { name: "My account" }).isVisible()).toBe(true);
    expect(await dialog.locator(".mega-panel").count()).toBe(0); // never a mega-menu width in the flyout
    // The focus stays inside: 30 Tabs and 5 Shift+Tabs never leave the dialog.
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.closest("[role=dialog]") !== null)).toBe(true);
    }
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Shift+Tab");
      expect(await page.evaluate(() => document.activeElement?.closest("[role=dialog]") !== null)).toBe(true);
    }
    // The 'Shop' group expands in place.
    const group = dialog.getByRole("button", { name: "Shop submenu" });
    await tabTo(page, "[role=dialog] .submenu-toggle[aria-label='Shop submenu']");
    await page.keyboard.press("Enter");
    expect(await group.getAttribute("aria-expanded")).toBe("true");
    expect(await dialog.getByRole("link", { name: "Ties", exact: true }).isVisible()).toBe(true);
    expect(await dialog.getByRole("link", { name: "Bow Ties" }).isVisible()).toBe(false);
    // A group inside a group: 'Ties' holds 'Bow Ties'.
    await tabTo(page, "[role=dialog] .submenu-toggle[aria-label='Ties submenu']");
    await page.keyboard.press("Space");
    expect(await dialog.getByRole("link", { name: "Bow Ties" }).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page, "#masthead")).toEqual([]);
    await page.keyboard.press("Escape");
    expect(await dialog.isVisible()).toBe(false);
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await page.evaluate(() => document.activeElement?.classList.contains("menu-toggle"))).toBe(true);

    // Search is one tap away: a GET to /?s=…&post_type=product.
    await page.keyboard.press("Enter");
    await tabTo(page, "[role=dialog] input[type=search]");
    await page.keyboard.type("mask");
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.pathname === "/" && u.searchParams.get("s") === "mask" && u.searchParams.get("post_type") === "product");
    await page.context().close();
  });

  it("the close button closes the flyout and returns the focus to ☰", async () => {
    const page = await openPage(shop, 400);
    await tabTo(page, ".menu-toggle");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter"); // the close button has the focus
    expect(await page.getByRole("dialog", { name: "Menu" }).isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.classList.contains("menu-toggle"))).toBe(true);
    await page.context().close();
  });
});

describe("without JavaScript, and one overlay at a time", () => {
  it("at 400 px the ☰ link opens the whole menu with search and the account link, and its × closes it", async () => {
    const context = await browser.newContext({ viewport: { width: 400, height: 900 }, javaScriptEnabled: false });
    await context.addCookies([{ name: "shop_consent", value: `v1.0.0.${Math.floor(Date.now() / 1000)}`, url: shop.url }]);
    const page = await context.newPage();
    await page.goto(shop.url + "/");
    const panel = page.locator("#mobile-menu-panel");
    expect(await panel.isVisible()).toBe(false);
    await page.locator("a.menu-toggle").click();
    expect(await panel.isVisible()).toBe(true);
    for (const name of ["Blog", "Live scores"]) expect(await panel.getByRole("link", { name, exact: true }).isVisible()).toBe(true);
    expect(await panel.locator('input[name="s"]').isVisible()).toBe(true);
    expect(await panel.locator(".mobile-account-link").isVisible()).toBe(true);
    await panel.locator("a.mobile-menu__close").click();
    expect(await panel.isVisible()).toBe(false);
    await context.close();
  });

  it("the ☰ menu and the filter panel close when another overlay asks (shop:close-overlays)", async () => {
    const page = await openPage(shop, 400, "/shop/");
    const toggle = page.locator("button.menu-toggle");
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    await page.evaluate(() => document.dispatchEvent(new CustomEvent("shop:close-overlays")));
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    const filter = page.locator("button.astra-shop-filter-button");
    await filter.click();
    await expect.poll(() => filter.getAttribute("aria-expanded")).toBe("true");
    await page.evaluate(() => document.dispatchEvent(new CustomEvent("shop:close-overlays")));
    await expect.poll(() => filter.getAttribute("aria-expanded")).toBe("false");
    await page.context().close();
  });
});

describe("settings: custom mega width, account menu, right-to-left", () => {
  it("renders dir=rtl, mirrors the header, and sizes the mega menu at the custom width with its offset", async () => {
    const page = await openPage(custom, 1280);
    expect(await page.getAttribute("html", "dir")).toBe("rtl");
    // Mirrored: the logo on the right, the tools on the left.
    const [logo, tools] = [await box(page, ".custom-logo"), await box(page, ".header-tools")];
    expect(logo!.x).toBeGreaterThan(tools!.x);
    await tabTo(page, ".main-navigation .mega-menu > .submenu-toggle");
    await page.keyboard.press("Enter");
    const panel = await box(page, ".mega-panel");
    expect(Math.round(panel!.width)).toBe(1200);
    // The offset (130 px) runs from the item's start edge, the right one in right-to-left mode; the panel stays in the window.
    const item = await box(page, ".main-navigation .mega-menu");
    expect(panel!.x + panel!.width).toBeGreaterThan(item!.x + item!.width + 100);
    expect(panel!.x).toBeGreaterThanOrEqual(19);
    expect(panel!.x + panel!.width).toBeLessThanOrEqual(1261);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(1280);
    expect(await seriousAxeViolations(page, "#masthead")).toEqual([]);
    // ArrowLeft is 'next' in right-to-left mode.
    await page.keyboard.press("Escape");
    await page.keyboard.press("ArrowLeft");
    expect(await focused(page)).toBe("Masks");
    await page.context().close();
  });

  it("at 400 px the flyout opens from the start edge (the right in right-to-left mode); 'fullscreen' covers the window", async () => {
    const page = await openPage(shop, 400);
    await tabTo(page, ".menu-toggle");
    await page.keyboard.press("Enter");
    const flyout = await box(page, ".mobile-menu__panel");
    expect(Math.round(flyout!.x)).toBe(0);
    expect(flyout!.width).toBeLessThan(400);
    await page.context().close();

    const rtl = await openPage(custom, 400);
    await tabTo(rtl, ".menu-toggle");
    await rtl.keyboard.press("Enter");
    const full = await box(rtl, ".mobile-menu__panel");
    expect([Math.round(full!.x), Math.round(full!.width)]).toEqual([0, 400]);
    expect(await rtl.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Close menu");
    expect(await seriousAxeViolations(rtl, "#masthead")).toEqual([]);
    await rtl.keyboard.press("Escape");
    expect(await rtl.evaluate(() => document.activeElement?.classList.contains("menu-toggle"))).toBe(true);
    await rtl.context().close();
  });

  it("the account link opens its menu for a signed-in customer; a guest gets the link", async () => {
    const guest = await openPage(custom, 1280);
    expect(await guest.locator(".header-tools a.account-link").getAttribute("href")).toBe("/my-account/");
    await guest.context().close();

    const { client } = await signInAs(custom, "header-menu@example.com", "customer");
    await client.get("/"); // takes the 'signed in' notice, which would take the focus on the browser's first page
    const page = await openPage(custom, 1280, "/", (c) =>
      c.addCookies([...client.cookies.entries()].map(([name, v]) => ({ name, value: v.value, url: custom.url }))),
    );
    const account = page.locator(".header-tools button.account-link");
    await tabTo(page, ".header-tools button.account-link");
    expect(await account.getAttribute("aria-expanded")).toBe("false");
    await page.keyboard.press("Enter");
    expect(await account.getAttribute("aria-expanded")).toBe("true");
    const menu = page.locator(".account-menu__list");
    expect(await menu.locator("a, button").allTextContents()).toEqual(["Dashboard", "Orders", "Addresses", "Payment methods", "Log out"]);
    expect(await seriousAxeViolations(page, "#masthead")).toEqual([]);
    await page.keyboard.press("ArrowDown");
    // Focus moves on the next animation frame: wait for it, not for the clock.
    await expect.poll(() => focused(page)).toBe("Dashboard");
    await page.keyboard.press("Escape");
    expect(await account.getAttribute("aria-expanded")).toBe("false");
    expect(await page.evaluate(() => document.activeElement?.classList.contains("account-link"))).toBe(true);
    // Log out from the menu signs the customer out.
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL("**/my-account/");
    expect(await page.locator(".header-tools a.account-link").textContent()).toBe("Account");
    await page.context().close();
  });
});

describe("a menu item whose target is deleted", () => {
  it("disappears from the header instead of linking to a 404", async () => {
    const admin = await signInAs(shop, "header-admin@example.com", "administrator");
    const db = shop.services.db;
    const [post] = await db.query<{ id: number }>(
      `INSERT INTO posts (slug, title, content, author) VALUES ('header-menu-post', 'Header menu post', 'Hello', 'Ada') RETURNING id`,
    );
    const headers = { "X-WP-Nonce": admin.nonce };
    const [main] = (await (await admin.client.request("/wp-json/shop/v1/menus", { headers })).json()) as { id: number; items: unknown[] }[];
    const put = await admin.client.request(`/wp-json/shop/v1/menus/${main!.id}`, {
      method: "PUT",
      headers,
      json: { items: [...main!.items, { kind: "post", object_id: post!.id }] },
    });
    expect(put.status).toBe(200);
    const header = async () => {
      const html = await (await fetch(shop.url + "/")).text();
      return html.slice(html.indexOf('aria-label="Primary"'), html.indexOf("header-tools"));
    };
    expect(await header()).toContain(">Header menu post</a>");
    await db.query(`DELETE FROM posts WHERE id = $1`, [post!.id]);
    const after = await header();
    expect(after).not.toContain("Header menu post");
    expect(after).toContain(">Contact</a>");
  });
});
