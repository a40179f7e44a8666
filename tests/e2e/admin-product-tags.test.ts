/**
 * Creating tags from the product editor (docs/contract/admin.md 'Edit Product') in Chromium, from the keyboard: the
 * owner types a new name in Tags and presses Enter — the tag is created (`POST wc/v3/products/tags`) and added; a
 * name an existing tag has in another case takes that tag, creating nothing; a name the API refuses is said under
 * the field and left out. After Update and a reload the product has both tags. axe-core; 1280 and 400 px without
 * sideways scrolling; screenshots to tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn as signInAs } from "../support/admin-browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";
import { saveProduct, type WriteHooks } from "../../core/commerce/products-admin.ts";
import { saveTerm } from "../../core/commerce/taxonomies.ts";

let shop: TestShop;
let browser: Browser;
const PASSWORD = "product tags pass 1";
const ADMIN = "tags-owner@example.org";
const noAudit: WriteHooks = { snapshot: async () => null, record: async () => {} };
let productId: number;
let summerId: number;

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const account = await registerCustomer(shop.services.db, { email: ADMIN, password: PASSWORD, first_name: "Tia", last_name: "Tagger" });
  if (!account.ok) throw new Error(account.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [account.customerId]);
  const saved = await saveProduct(shop.services.db, null, { name: "Tagtest Hat", type: "simple", status: "publish", regularPrice: 2500 }, noAudit);
  if (!saved.ok) throw new Error(saved.error.message);
  productId = saved.id;
  const summer = await saveTerm(shop.services.db, "product_tag", null, { name: "Summer Sale" });
  if (!summer.ok) throw new Error(summer.message);
  summerId = summer.id;
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

/** The Tags field's tokens as shown (each token also has a hidden "name (1 of 2)" for screen readers). */
const tokens = (page: Page) =>
  page
    .locator(".admin-linked .components-form-token-field")
    .first()
    .locator('.components-form-token-field__token-text > [aria-hidden="true"]')
    .evaluateAll((els) => els.map((e) => e.textContent?.trim()));
const tagsNamed = async (name: string) =>
  (await shop.services.db.query<{ id: number }>(`SELECT id FROM terms WHERE taxonomy = 'product_tag' AND lower(name) = lower($1)`, [name])).map((r) => r.id);

describe("tags from the product editor", () => {
  it("creates a new tag from the keyboard, reuses an existing one in any case, says a refusal at the field, and keeps them after Update and a reload", async () => {
    const { context, page } = await signInAs(browser, shop.url, ADMIN, PASSWORD);
    await page.goto(`${shop.url}/wp-admin/edit/product/${productId}/`);
    await page.getByLabel("Title", { exact: true }).waitFor();
    const field = page.getByRole("combobox", { name: "Tags" });

    // A new name: created, then shown as a token.
    const created = page.waitForResponse((r) => r.url().includes("/wp-json/wc/v3/products/tags") && r.request().method() === "POST");
    await field.focus();
    await page.keyboard.type("Festival Wear");
    await page.keyboard.press("Enter");
    expect((await created).status()).toBe(201);
    await expect.poll(() => tokens(page)).toEqual(["Festival Wear"]);
    const [festivalId] = await tagsNamed("Festival Wear");
    expect(festivalId).toBeGreaterThan(0);

    // An existing tag's name in other letters: that tag, nothing created.
    await page.keyboard.type("summer sale");
    await page.keyboard.press("Enter");
    await expect.poll(() => tokens(page)).toEqual(["Festival Wear", "Summer Sale"]);
    expect(await tagsNamed("summer sale")).toEqual([summerId]);

    // A name the API refuses (no slug can be made of it): said under the field, left out.
    await page.keyboard.type("!!!");
    await page.keyboard.press("Enter");
    const alert = page.locator(".admin-linked").getByRole("alert");
    await expect.poll(() => alert.innerText()).toContain("The tag “!!!” was not added");
    expect(await tokens(page)).toEqual(["Festival Wear", "Summer Sale"]);
    await page.screenshot({ path: "tmp/shots/admin_1280_edit-product-new-tag.png", fullPage: true });

    await page.getByRole("button", { name: "Update" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Product updated." }).waitFor();
    // axe with the focus out of the field (FormTokenField's open suggestion list lacks aria-expanded, as elsewhere).
    expect(await alert.innerText()).toContain("The tag “!!!” was not added");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.reload();
    await page.getByLabel("Title", { exact: true }).waitFor();
    // The API answers a product's tags in its own order (by id), so compare the names.
    await expect.poll(async () => (await tokens(page)).sort()).toEqual(["Festival Wear", "Summer Sale"]);
    const linked = await shop.services.db.query<{ term_id: number }>(`SELECT term_id FROM product_terms WHERE product_id = $1 ORDER BY term_id`, [productId]);
    expect(linked.map((r) => r.term_id).filter((id) => id === festivalId || id === summerId)).toEqual([summerId, festivalId!].sort((a, b) => a - b));

    await page.setViewportSize({ width: 400, height: 900 });
    await page.getByRole("combobox", { name: "Tags" }).scrollIntoViewIfNeeded();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_edit-product-tags.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  }, 180_000);
});
