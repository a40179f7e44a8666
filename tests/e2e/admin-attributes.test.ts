/**
 * Products → Attributes (issue 14 "swatch settings per term", docs/contract/admin.md 'Attributes', 'Attribute terms')
 * in Chromium: the owner adds an attribute (an empty name refused at its field), sets a colour term's swatch colour
 * (a bad colour refused at its field), label and an uploaded image, and the product page draws the new swatch at
 * once; a size term's label shows on the product page's label swatch. axe-core on both screens; no sideways
 * scrolling at 400 px; screenshots to tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { mkdirSync } from "node:fs";
import sharp from "sharp";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn } from "../support/admin-browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
const ADMIN = "attributes-admin@example.com";
const PASSWORD = "attribute swatches 1";

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const made = await registerCustomer(shop.services.db, { email: ADMIN, password: PASSWORD, first_name: "Olive", last_name: "Owner" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

/** The product page's swatch of one term as a shopper's browser draws it (swatches are drawn once hydrated). */
async function swatchOf(slug: string): Promise<{ style: string; text: string }> {
  const page = await browser.newPage();
  try {
    await page.goto(`${shop.url}/product/cotton-face-mask/`);
    const swatch = page.locator(`li.cfvsw-swatch[data-value="${slug}"]`).first();
    await swatch.waitFor();
    return { style: (await swatch.getAttribute("style")) ?? "", text: await swatch.innerText() };
  } finally {
    await page.close();
  }
}

describe("attributes and swatches", () => {
  it("adds an attribute, then sets a colour's swatch and a size's label, and the product page draws them", { timeout: 180_000 }, async () => {
    const { context, page } = await signedIn(browser, shop.url, ADMIN, PASSWORD);
    try {
      await page.goto(`${shop.url}/wp-admin/products/`);
      await Promise.all([page.waitForURL(`${shop.url}/wp-admin/products/attributes/`), page.getByRole("link", { name: "Attributes" }).click()]);
      const list = page.getByRole("region", { name: "Attributes" });
      await expect.poll(() => list.innerText()).toContain("Color");
      expect(await list.innerText()).toContain("Size");
      expect(await seriousAxeViolations(page)).toEqual([]);

      // An empty name is refused at its field, with focus on it; a name is added and listed.
      await page.getByRole("button", { name: "Add attribute" }).click();
      const name = page.getByRole("region", { name: "Add attribute" }).getByLabel("Name");
      await expect.poll(() => name.getAttribute("aria-invalid")).toBe("true");
      await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true);
      await name.fill("Material");
      await page.getByRole("button", { name: "Add attribute" }).click();
      await expect.poll(() => page.getByRole("status").innerText()).toContain("Attribute “Material” added.");
      await expect.poll(() => list.innerText()).toContain("Material");
      await page.screenshot({ path: "tmp/shots/admin_1280_attributes.png", fullPage: true });

      // Color → Red: a bad colour refused at its field, then a colour, a label and an uploaded image.
      await Promise.all([page.waitForURL(/\/wp-admin\/products\/attributes\/\d+\/$/), list.getByRole("link", { name: "Color" }).click()]);
      await page.getByRole("button", { name: "Edit Red" }).click();
      const colour = page.getByLabel("Swatch colour", { exact: true });
      await colour.fill("crimson");
      await page.getByRole("button", { name: "Save Red" }).click();
      await expect.poll(() => colour.getAttribute("aria-invalid")).toBe("true");
      await colour.fill("#123456");
      await page.getByLabel("Swatch label", { exact: true }).fill("Deep red");
      const image = await sharp({ create: { width: 120, height: 120, channels: 3, background: { r: 200, g: 20, b: 40 } } })
        .png()
        .toBuffer();
      const chooser = page.waitForEvent("filechooser");
      await page.getByRole("button", { name: "Upload swatch image" }).click();
      await (await chooser).setFiles({ name: "red-swatch.png", mimeType: "image/png", buffer: image });
      await page.getByRole("img", { name: "Swatch of Red" }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: "tmp/shots/admin_1280_attribute-terms.png", fullPage: true });
      await page.getByRole("button", { name: "Save Red" }).click();
      await expect.poll(() => page.getByRole("status").innerText()).toContain("“Red” saved");
      await expect.poll(() => page.getByRole("region", { name: /^Color/ }).innerText()).toContain("#123456");

      const red = await swatchOf("red");
      expect(red.style).toMatch(/background-color: (#123456|rgb\(18, 52, 86\))/);
      expect(red.style).toMatch(/background-image: url\("[^"]*red-swatch[^"]*"\)/);

      // Size → M: a label, drawn on the product page's label swatch instead of the name.
      await page.goto(`${shop.url}/wp-admin/products/attributes/`);
      await Promise.all([page.waitForURL(/\/wp-admin\/products\/attributes\/\d+\/$/), list.getByRole("link", { name: "Size" }).click()]);
      await page.getByRole("button", { name: "Edit M" }).click();
      await page.getByLabel("Swatch label", { exact: true }).fill("Medium");
      await page.getByRole("button", { name: "Save M" }).click();
      await expect.poll(() => page.getByRole("status").innerText()).toContain("“M” saved");
      expect((await swatchOf("m")).text).toContain("Medium");

      // 400 px: nothing scrolls sideways.
      await page.setViewportSize({ width: 400, height: 900 });
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: "tmp/shots/admin_400_attribute-terms.png", fullPage: true });
    } finally {
      await context.close();
    }
  });
});
