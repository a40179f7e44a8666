/**
 * Editing a pending order's items on the admin Order screen (issue 14, docs/contract/admin.md 'Order', decision 0048)
 * in Chromium, by keyboard: "Edit items" opens the form with focus on the first quantity, a quantity of 0 is refused
 * at its field (focus there), a line is removed, a product found by name through the "Add product" combobox is added,
 * Save announces the new total, and the new total, lines and note are there after a reload. A processing order shows
 * no "Edit items". axe-core on the form; no sideways scrolling at 400 px; screenshots to tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn } from "../support/admin-browser.ts";
import { signInAs, TEST_PASSWORD, type SignedIn } from "../support/staff.ts";
import { productWithStock } from "../http/checkout-support.ts";

let shop: TestShop;
let browser: Browser;
let admin: SignedIn;
const ADMIN = "order-lines-admin@example.com";
let orderId = 0;
let paidOrderId = 0;

async function newOrder(lines: { product_id: number; quantity: number }[]): Promise<number> {
  const res = await admin.client.request("/wp-json/wc/v3/orders", {
    method: "POST",
    headers: { "X-WP-Nonce": admin.nonce, "Content-Type": "application/json" },
    body: JSON.stringify({
      billing: { email: "lines-buyer@example.com", first_name: "Ada", last_name: "Lovelace", country: "US", state: "IL", postcode: "62701" },
      line_items: lines,
      shipping_lines: [{ method_id: "flat_rate", method_title: "Flat rate", total: "5.00" }],
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  admin = await signInAs(shop, ADMIN, "administrator");
  const square = await productWithStock(shop, "silk-pocket-square", 40, 1500);
  const clip = await productWithStock(shop, "tie-clip", 40, 1400);
  await productWithStock(shop, "mask-lanyard", 40, 500);
  orderId = await newOrder([
    { product_id: square, quantity: 2 },
    { product_id: clip, quantity: 1 },
  ]);
  paidOrderId = await newOrder([{ product_id: square, quantity: 1 }]);
  await shop.services.db.query(`UPDATE orders SET status = 'processing', paid_at = now() WHERE id = $1`, [paidOrderId]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const notice = (page: Page) => page.locator(".admin-order > [role=status], .admin-order > [role=alert]").first();
const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return el?.labels?.[0]?.textContent ?? el?.getAttribute("aria-label") ?? el?.textContent ?? "";
  });
const items = (page: Page) => page.getByRole("region", { name: "Items" });

describe("editing a pending order's items", () => {
  it("changes a quantity, removes a line, adds a product, and shows the new total after a reload", { timeout: 300_000 }, async () => {
    const { context, page } = await signedIn(browser, shop.url, ADMIN, TEST_PASSWORD);
    await page.goto(`${shop.url}/wp-admin/orders/${paidOrderId}/`);
    await page.getByRole("heading", { name: "Items" }).waitFor();
    expect(await page.getByRole("button", { name: "Edit items" }).count()).toBe(0);

    await page.goto(`${shop.url}/wp-admin/orders/${orderId}/`);
    const edit = page.getByRole("button", { name: "Edit items" });
    await edit.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => focusedLabel(page)).toBe("Quantity of Silk Pocket Square");

    // A quantity of 0 is refused at its field, the focus goes there.
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("0");
    await page.keyboard.press("Enter");
    const square = page.getByLabel("Quantity of Silk Pocket Square");
    await expect.poll(() => square.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => focusedLabel(page)).toBe("Quantity of Silk Pocket Square");
    expect(await notice(page).innerText()).toContain("The items were not saved");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("3");

    // Remove the clip from the keyboard.
    await page.getByRole("button", { name: "Remove Brushed Steel Tie Clip" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByLabel("Quantity of Brushed Steel Tie Clip").count()).toBe(0);

    // Add a product found by name: type, choose with the arrow keys, add.
    await page.getByRole("combobox", { name: "Product" }).focus();
    await page.keyboard.type("Lanyard");
    await page.getByRole("option", { name: /Mask Lanyard/ }).waitFor();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Add to order" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => focusedLabel(page)).toBe("Quantity of Mask Lanyard");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("2");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin_1280_order-lines-edit.png", fullPage: true });
    await page.setViewportSize({ width: 400, height: 900 });
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_order-lines-edit.png", fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Saved with Enter from a quantity field: 3 × 15.00 + 2 × 5.00 + 5.00 shipping = $60.00 (tax is off).
    await page.getByLabel("Quantity of Mask Lanyard").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => notice(page).innerText()).toContain("Items saved. The order total is now $60.00.");
    await expect.poll(() => focusedLabel(page)).toBe("Edit items");

    await page.reload();
    await items(page).waitFor();
    await expect.poll(() => page.locator(".admin-totals").innerText()).toMatch(/Order total\s*\$60\.00/);
    const text = await items(page).innerText();
    expect(text).toContain("Mask Lanyard");
    expect(text).not.toContain("Brushed Steel Tie Clip");
    expect(await page.getByRole("region", { name: "Notes" }).innerText()).toContain("Changed quantity of Silk Pocket Square from 2 to 3.");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin_1280_order-lines-saved.png", fullPage: true });
    await page.setViewportSize({ width: 400, height: 900 });
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_order-lines-saved.png", fullPage: true });
    await context.close();
  });
});
