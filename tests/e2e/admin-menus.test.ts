/**
 * Menus (issue 14 Settings "menus", docs/contract/admin.md 'Menus') in Chromium: the owner opens the header's menu,
 * adds a category with its own title and a custom link (a script address refused at its field), moves the category
 * up and under the item above with the keyboard-usable buttons (focus stays on the moved item), removes an item,
 * saves, and the storefront's header shows the change at once; the unsaved-changes mark; axe; 400 px.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn } from "../support/admin-browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
const ADMIN = "menus-admin@example.com";
const PASSWORD = "menus editor pass 1";

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const made = await registerCustomer(shop.services.db, { email: ADMIN, password: PASSWORD, first_name: "Olive", last_name: "Owner" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'shop_manager' WHERE id = $1`, [made.customerId]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

/** The header's navigation as a visitor gets it. */
const headerNav = async () => {
  const html = await (await fetch(`${shop.url}/`)).text();
  return html.slice(html.indexOf("<header"), html.indexOf("</header>"));
};

describe("menus", () => {
  it("edits the header menu with buttons only, and the storefront header follows", { timeout: 180_000 }, async () => {
    expect(await headerNav()).toContain("Live scores");
    const { context, page } = await signedIn(browser, shop.url, ADMIN, PASSWORD);
    try {
      await page.goto(`${shop.url}/wp-admin/menus/`);
      const items = page.getByRole("region", { name: /^Items of/ });
      await items.waitFor();
      expect(await page.getByLabel("Menu to edit").inputValue()).not.toBe("");
      expect(await items.getByRole("group", { name: "Menu item Live scores" }).count()).toBe(1);
      expect(await seriousAxeViolations(page)).toEqual([]);

      // A custom link to a script is refused at its field; a category is added with its own title.
      const adder = page.getByRole("region", { name: "Add menu items" });
      await adder.getByLabel("Kind").selectOption("custom");
      await adder.getByLabel("Address").fill("javascript:alert(1)");
      await adder.getByRole("button", { name: "Add to menu" }).click();
      expect(await adder.getByLabel("Address").getAttribute("aria-invalid")).toBe("true");
      await adder.getByLabel("Kind").selectOption("product_cat");
      await adder.getByLabel("Category").selectOption({ label: "Ties" });
      await adder.getByLabel("Title (optional)").fill("Neckties");
      await adder.getByRole("button", { name: "Add to menu" }).click();
      const added = items.getByRole("group", { name: "Menu item Neckties" });
      await added.waitFor();
      expect(await items.innerText()).toContain("Unsaved changes.");

      // Up once (above the mail link), then under the item above it (Blog), by keyboard; focus stays on it.
      await page.getByRole("button", { name: "Move Neckties up" }).focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe("Neckties");
      await added.getByRole("button", { name: "Indent" }).click();
      await expect.poll(() => page.locator('[data-menu-item] [data-menu-item] input[value="Neckties"]').count()).toBe(1);

      // Remove the mail link, then save.
      await items.getByRole("button", { name: "Remove Contact" }).click();
      await page.screenshot({ path: "tmp/shots/admin_1280_menus.png", fullPage: true });
      const saved = page.waitForResponse((r) => /\/wp-json\/shop\/v1\/menus\/\d+/.test(r.url()) && r.request().method() !== "GET");
      await page.getByRole("button", { name: "Save menu" }).click();
      expect((await saved).status()).toBe(200);
      await expect.poll(() => page.getByRole("status").innerText()).toContain("the header shows it now");
      expect(await items.innerText()).not.toContain("Unsaved changes.");

      const nav = await headerNav();
      expect(nav).toContain("Neckties");
      expect(nav).not.toContain("mailto:hello@maskerade.example");

      await page.setViewportSize({ width: 400, height: 900 });
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: "tmp/shots/admin_400_menus.png", fullPage: true });
    } finally {
      await context.close();
    }
  });
});
