/**
 * The admin's Popups screens (issue 14, docs/contract/admin.md 'Popups', 'Popup') in Chromium: the owner configures a
 * popup (content, a page-load trigger, a page rule, frequency), the live preview follows the typing, a refused width is
 * shown at its field, which takes the focus; published, a new visitor of the storefront gets it with that content from
 * that trigger, and the list's impressions column counts it; two tabs: the second save is refused as changed since it
 * was opened; leaving with unsaved changes asks first; disabling and deleting; a shop manager uses the screens at
 * 400 px without sideways scrolling; a customer gets the sign-in page. axe-core on every screen; screenshots to
 * tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn as signInAs } from "../support/admin-browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
const PASSWORD = "popup screens pass 1";
const ADMIN = "pop-owner@example.com";
const MANAGER = "pop-manager@example.com";
const CUSTOMER = "pop-shopper@example.com";
let popupId = 0;

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  for (const [email, role] of [
    [ADMIN, "administrator"],
    [MANAGER, "shop_manager"],
    [CUSTOMER, "customer"],
  ] as const) {
    const made = await registerCustomer(shop.services.db, { email, password: PASSWORD, first_name: "Po", last_name: "Staff" });
    if (!made.ok) throw new Error(made.message);
    await shop.services.db.query(`UPDATE customers SET role = $2 WHERE id = $1`, [made.customerId, role]);
  }
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

/** A notice on the screen (not the copy in the a11y-speak live region). */
const said = (page: Page, text: string) => page.locator(".components-notice").getByText(text, { exact: false });
const signedIn = (email: string, width = 1280) => signInAs(browser, shop.url, email, PASSWORD, width);
const preview = (page: Page) => page.locator(".admin-popup-preview");

describe("popups", () => {
  it("the owner configures a popup with a live preview; a new visitor sees it on the storefront and the list counts the impression", async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${shop.url}/wp-admin/popups/`);
    await page.getByRole("link", { name: "Add popup", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Add popup" }).waitFor();
    expect(await page.getByRole("link", { name: "Popups", exact: true }).getAttribute("aria-current")).toBe("page");

    await page.getByLabel("Title", { exact: true }).fill("Admin winter offer");
    await page.getByLabel("Heading", { exact: true }).fill("Winter warmers");
    // The preview is the storefront's dialog, and follows the typing.
    await expect.poll(() => preview(page).locator("h2").innerText()).toBe("Winter warmers");
    await page.getByLabel("Text", { exact: true }).fill("Scarves and masks, 20% off.\n\nThis week only.");
    await page.getByLabel("Button", { exact: true }).check();
    await page.getByLabel("Button text").fill("See the scarves");
    await page.getByLabel("Button link").fill("/shop/");
    await page.getByLabel("“No thanks” link").check();
    await expect
      .poll(async () => (await preview(page).locator("p").allInnerTexts()).map((t) => t.replace(/\s+/g, " ")))
      .toEqual(["Scarves and masks, 20% off.", "This week only.", "See the scarves No thanks"]);
    expect(await preview(page).locator("a.button").innerText()).toBe("See the scarves");
    // A page-load trigger is on for a new popup; its delay, a page rule, a frequency.
    expect(await page.getByLabel("On page load").isChecked()).toBe(true);
    await page.getByLabel("Delay (seconds)").first().fill("0.2");
    await page.getByRole("button", { name: "Add a page rule" }).click();
    await page.getByLabel("Pages", { exact: true }).selectOption("shop");
    await page.getByLabel("At most a number of times").check();
    await page.getByLabel("Times", { exact: true }).fill("3");
    await page.getByLabel("Period").selectOption("day");
    await page.getByLabel("Close button", { exact: true }).selectOption("outside");
    await expect.poll(() => preview(page).locator(".shop-popup-close--outside").count()).toBe(1);

    // The API refuses a width under 200: the message at the field, which takes the focus.
    await page.getByLabel("Width (px)").fill("100");
    await page.getByRole("button", { name: "Publish" }).click();
    const width = page.getByLabel("Width (px)");
    await expect.poll(() => width.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByRole("alert").innerText()).toContain("The popup was not saved");
    expect(await page.locator(".admin-field-error").innerText()).toBe("Must be 200 or more.");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-invalid"))).toBe("true");
    await page.screenshot({ path: "tmp/shots/admin_1280_popup_error.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await width.fill("480");
    await Promise.all([page.waitForURL(/\/wp-admin\/popups\/\d+\/\?saved=created$/), page.getByRole("button", { name: "Publish" }).click()]);
    popupId = Number(/popups\/(\d+)\//.exec(page.url())![1]);
    await said(page, "Popup created.").waitFor();
    expect(await page.getByLabel("Heading", { exact: true }).inputValue()).toBe("Winter warmers");
    const [row] = await shop.services.db.query<{ settings: Record<string, unknown> }>(`SELECT settings FROM popups WHERE id = $1`, [popupId]);
    expect(row!.settings).toMatchObject({
      title: "Admin winter offer",
      enabled: true,
      content: {
        heading: "Winter warmers",
        text: ["Scarves and masks, 20% off.", "This week only."],
        cta: { label: "See the scarves", href: "/shop/" },
        dismiss: { label: "No thanks", do_not_show_again: true },
      },
      triggers: { page_load: { delay: 0.2 } },
      timing: { times: { times: 3, period: "day" } },
      conditions: { pages: [{ type: "include", name: "shop" }] },
      display: { width: 480, close_button_position: "outside" },
    });
    await page.screenshot({ path: "tmp/shots/admin_1280_popup.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A new visitor: the popup opens on the shop page from its page-load trigger, with the owner's content…
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const shopper = await visitor.newPage();
    await shopper.goto(`${shop.url}/shop/`);
    const dialog = shopper.locator(`[data-popup-id="${popupId}"] [role="dialog"]`);
    await dialog.waitFor({ timeout: 15_000 });
    expect(await dialog.locator("h2").innerText()).toBe("Winter warmers");
    expect(await dialog.getByRole("link", { name: "See the scarves" }).getAttribute("href")).toBe("/shop/");
    // …but not on a page its rule leaves out.
    const other = await visitor.newPage();
    await other.goto(`${shop.url}/cart/`);
    await other.waitForFunction(() => document.readyState === "complete");
    await other.waitForTimeout(1500);
    expect(await other.locator(`[data-popup-id="${popupId}"]`).count()).toBe(0);
    await visitor.close();

    // The list: status, triggers, and the impression counted.
    await page.goto(`${shop.url}/wp-admin/popups/`);
    const listed = page.locator("tr", { has: page.getByRole("link", { name: "Admin winter offer" }) });
    await listed.waitFor();
    await expect
      .poll(async () => {
        await page.reload();
        await listed.waitFor();
        return listed.innerText();
      })
      .toMatch(/Enabled[\s\S]*On page load[\s\S]*\b1\b[\s\S]*\b0\b[\s\S]*0%[\s\S]*\$0/);
    await page.screenshot({ path: "tmp/shots/admin_1280_popups.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it("refuses the second of two tabs' saves as changed since it was opened, and asks before leaving unsaved changes", async () => {
    const { context, page: first } = await signedIn(ADMIN);
    const second = await context.newPage();
    for (const tab of [first, second]) {
      await tab.goto(`${shop.url}/wp-admin/popups/${popupId}/`);
      await tab.getByLabel("Heading", { exact: true }).waitFor();
    }
    await first.getByLabel("Heading", { exact: true }).fill("Winter warmers, first tab");
    await first.getByRole("button", { name: "Update" }).click();
    await said(first, "Popup updated.").waitFor();
    await second.getByLabel("Heading", { exact: true }).fill("Second tab");
    await second.getByRole("button", { name: "Update" }).click();
    await second.getByRole("alert").getByText("This popup was changed since you opened it.", { exact: false }).waitFor();
    const [row] = await shop.services.db.query<{ heading: string }>(`SELECT settings->'content'->>'heading' AS heading FROM popups WHERE id = $1`, [popupId]);
    expect(row!.heading).toBe("Winter warmers, first tab");
    await second.screenshot({ path: "tmp/shots/admin_1280_popup_conflict.png", fullPage: true });
    await second.getByRole("button", { name: /Reload the popup/ }).click();
    await expect.poll(() => second.getByLabel("Heading", { exact: true }).inputValue()).toBe("Winter warmers, first tab");

    await second.getByLabel("Title", { exact: true }).fill("Changed, not saved");
    await second.getByText("Unsaved changes.").waitFor();
    const asked = new Promise<string>((resolve) => second.once("dialog", (d) => (resolve(d.type()), void d.dismiss())));
    await second.getByRole("link", { name: "Popups", exact: true }).click();
    expect(await asked).toBe("beforeunload");
    expect(new URL(second.url()).pathname).toBe(`/wp-admin/popups/${popupId}/`);
    await context.close();
  });
});

describe("who gets the screens", () => {
  it("a shop manager disables and deletes a popup; nothing scrolls sideways at 400 px", async () => {
    const { context, page } = await signedIn(MANAGER, 400);
    for (const [path, ready, shot] of [
      ["/wp-admin/popups/", () => page.getByText("Admin winter offer").first().waitFor(), "popups"],
      ["/wp-admin/popups/new/", () => page.getByLabel("Heading", { exact: true }).waitFor(), "popup_new"],
      [`/wp-admin/popups/${popupId}/`, () => page.getByLabel("Heading", { exact: true }).waitFor(), "popup"],
    ] as const) {
      await page.goto(`${shop.url}${path}`);
      await ready();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `tmp/shots/admin_400_${shot}.png`, fullPage: true });
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
    // Switched off in the editor, the storefront no longer carries it.
    await page.getByLabel("Enabled (shown on the storefront)").uncheck();
    await page.getByRole("button", { name: "Update" }).click();
    await said(page, "It is switched off.").waitFor();
    const [row] = await shop.services.db.query<{ enabled: boolean }>(`SELECT (settings->>'enabled')::boolean AS enabled FROM popups WHERE id = $1`, [popupId]);
    expect(row!.enabled).toBe(false);

    // Deleting asks first, then returns to the list.
    await page.getByRole("button", { name: "Delete popup" }).click();
    await page.getByText("Delete the popup “Admin winter offer” and its figures for good?").waitFor();
    await Promise.all([page.waitForURL(/\/wp-admin\/popups\/\?deleted=/), page.getByRole("button", { name: "Delete permanently" }).click()]);
    await page.getByText("Popup “Admin winter offer” deleted.").first().waitFor();
    expect(await shop.services.db.query(`SELECT id FROM popups WHERE id = $1`, [popupId])).toHaveLength(0);
    await context.close();
  });

  it("a customer gets the sign-in page", async () => {
    const { context, page } = await signedIn(CUSTOMER);
    await page.goto(`${shop.url}/wp-admin/popups/`);
    expect(new URL(page.url()).pathname).toBe("/wp-login.php");
    expect(await page.content()).not.toContain("Admin winter offer");
    await context.close();
  });
});
