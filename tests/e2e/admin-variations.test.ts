/**
 * A variable product's variations in the editor (issue 14, docs/contract/admin.md 'Variations') in Chromium: a
 * variation someone else saved after the editor read it is refused with "changed since you opened it" (nothing
 * overwritten), saved after "Reload the variations"; a variation is deleted after an inline confirmation (Cancel
 * keeps it and returns the focus). axe on the editor; screenshots in tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn as signInAs } from "../support/admin-browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";
import { saveVariation, type WriteHooks } from "../../core/commerce/products-admin.ts";

let shop: TestShop;
let browser: Browser;
const PASSWORD = "variation screens pass 1";
const ADMIN = "variations-admin@example.com";
const noAudit: WriteHooks = { snapshot: async () => null, record: async () => {} };

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const account = await registerCustomer(shop.services.db, { email: ADMIN, password: PASSWORD, first_name: "Vera", last_name: "Ation" });
  if (!account.ok) throw new Error(account.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [account.customerId]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const signedIn = (width = 1280) => signInAs(browser, shop.url, ADMIN, PASSWORD, width);

describe("variations", () => {
  it("refuses a save over someone else's, then deletes a variation after asking", async () => {
    const [variable] = await shop.services.db.query<{ id: number; slug: string }>(
      `SELECT p.id, p.slug FROM products p JOIN variations v ON v.product_id = p.id WHERE p.type = 'variable' AND p.status = 'publish'
       GROUP BY p.id HAVING count(*) BETWEEN 2 AND 12 ORDER BY p.id LIMIT 1`,
    );
    const variations = await shop.services.db.query<{ id: number }>(`SELECT id FROM variations WHERE product_id = $1 ORDER BY id`, [variable!.id]);
    const [first, second] = variations;
    const { context, page } = await signedIn();
    await page.goto(`${shop.url}/wp-admin/edit/product/${variable!.id}/`);
    const fieldsets = page.locator("fieldset.admin-variation");
    await expect.poll(() => fieldsets.count()).toBe(variations.length);
    const firstSet = fieldsets.filter({ hasText: `#${first!.id}` });

    // Someone else saves the first variation after the editor read it.
    const other = await saveVariation(shop.services.db, variable!.id, first!.id, { regularPrice: 6100 }, noAudit);
    expect(other.ok).toBe(true);
    await firstSet.getByLabel(/^Regular price/).fill("55.00");
    await page.getByRole("button", { name: "Save variations" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "changed since you opened it" });
    await alert.waitFor();
    const [kept] = await shop.services.db.query<{ regular_price: number }>(`SELECT regular_price FROM variations WHERE id = $1`, [first!.id]);
    expect(Number(kept!.regular_price)).toBe(6100);
    await page.screenshot({ path: "tmp/shots/admin_1280_variation-conflict.png", fullPage: true });

    // Reloading shows the other save; the same edit then goes through.
    await page.getByRole("button", { name: "Reload the variations" }).click();
    await expect.poll(() => firstSet.getByLabel(/^Regular price/).inputValue()).toBe("61.00");
    await firstSet.getByLabel(/^Regular price/).fill("55.00");
    await page.getByRole("button", { name: "Save variations" }).click();
    await page.getByRole("status").filter({ hasText: "Variations saved." }).waitFor();

    // Delete the second: asked first (Cancel keeps it), then gone from the screen, the API and the product page.
    const secondSet = fieldsets.filter({ hasText: `#${second!.id}` });
    const deleteButton = secondSet.getByRole("button", { name: /^Delete variation/ });
    await deleteButton.click();
    await secondSet.getByRole("alert").filter({ hasText: "for good?" }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press("Enter"); // the focus is on Cancel
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? "")).toMatch(/^Delete variation/);
    await deleteButton.click();
    await secondSet.getByRole("button", { name: "Delete permanently" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /Variation .* deleted\./ })
      .waitFor();
    await expect.poll(() => fieldsets.count()).toBe(variations.length - 1);
    const [gone] = await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM variations WHERE id = $1`, [second!.id]);
    expect(gone!.n).toBe(0);
    await page.screenshot({ path: "tmp/shots/admin_1280_variation-deleted.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    // At 400 px: the variations and their delete buttons fit without sideways scrolling.
    await page.setViewportSize({ width: 400, height: 900 });
    await fieldsets
      .first()
      .getByRole("button", { name: /^Delete variation/ })
      .click();
    await page.screenshot({ path: "tmp/shots/admin_400_variations.png", fullPage: true });
    expect(await scrollsSideways(page)).toBe(false);
    await context.close();
  });
});
