/**
 * Editing an order's shipping address on the admin Order screen (issue 14, docs/contract/admin.md 'Order') in
 * Chromium, by keyboard: Edit opens the form with focus on its first field, "Copy billing address" fills it, a postcode
 * that is not a ZIP code is refused at its field (focus there), fixed and saved; the success is announced, the new
 * address is on the Order screen after a reload and on the customer's My account order view. axe-core on the form;
 * no sideways scrolling at 400 px; screenshots to tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn } from "../support/admin-browser.ts";
import { signInAs, TEST_PASSWORD, type SignedIn } from "../support/staff.ts";
import { billing, cardFields, openCheckout, productWithStock, submitCheckout } from "../http/checkout-support.ts";

let shop: TestShop;
let browser: Browser;
const ADMIN = "order-address-admin@example.com";
const BUYER = "order-address-buyer@example.com";
let customer: SignedIn;
let orderId: number;

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  await signInAs(shop, ADMIN, "administrator");
  const productId = await productWithStock(shop, "silk-pocket-square", 40, 1500);
  customer = await signInAs(shop, BUYER, "customer");
  const res = await customer.client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
  expect(((await res.json()) as { fragments?: unknown }).fragments).toBeTruthy();
  const reply = await submitCheckout(customer.client, await openCheckout(customer.client), { ...billing(BUYER), ...cardFields() });
  expect(reply.result).toBe("success");
  orderId = Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]);
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

/** Replaces a field's text from the keyboard: focus by Tab order is not asserted here, the typing is. */
async function retype(page: Page, label: string, value: string) {
  await page.getByLabel(label, { exact: true }).focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(value);
}

describe("editing an order's shipping address", () => {
  it("refuses a bad postcode at its field, saves the fixed address, shows it after reload and to the customer", { timeout: 300_000 }, async () => {
    const { context, page } = await signedIn(browser, shop.url, ADMIN, TEST_PASSWORD);
    await page.goto(`${shop.url}/wp-admin/orders/${orderId}/`);
    const edit = page.getByRole("button", { name: "Edit shipping address" });
    await edit.focus();
    await page.keyboard.press("Enter");
    const form = page.getByRole("region", { name: "Edit shipping address" });
    await form.waitFor();
    await expect.poll(() => focusedLabel(page)).toBe("First name");

    // "Copy billing address" from the keyboard, then the street, city and a postcode that is not a ZIP code.
    await form.getByRole("button", { name: "Copy billing address" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => form.getByLabel("Country / Region").inputValue()).toBe("US");
    await retype(page, "First name", "Grace");
    await retype(page, "Last name", "Hopper");
    await retype(page, "Address line 1", "200 Navy Pier");
    await retype(page, "City", "Chicago");
    await retype(page, "ZIP Code", "ABCDE");
    await page.keyboard.press("Enter");

    const postcode = form.getByLabel("ZIP Code", { exact: true });
    await expect.poll(() => postcode.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => focusedLabel(page)).toBe("ZIP Code");
    expect(await form.innerText()).toMatch(/ZIP Code is not a valid zip code for United States/);
    expect(await notice(page).innerText()).toContain("The shipping address was not saved");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin_1280_order-address-refused.png", fullPage: true });

    // Fixed from the keyboard and saved with Enter: announced, and the block shows the address again.
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("60611");
    await page.keyboard.press("Enter");
    await expect.poll(() => notice(page).innerText()).toContain("Shipping address saved.");
    const block = page.getByRole("region", { name: "Shipping" });
    await expect.poll(() => block.innerText()).toContain("200 Navy Pier");
    await expect.poll(() => focusedLabel(page)).toContain("Edit");

    await page.reload();
    await expect.poll(() => page.getByRole("region", { name: "Shipping" }).innerText()).toContain("60611 Chicago");
    expect(await page.getByRole("region", { name: "Shipping" }).innerText()).toContain("Grace Hopper");
    expect(await page.getByRole("region", { name: "Notes" }).innerText()).toContain("Shipping address changed from");
    expect(await seriousAxeViolations(page)).toEqual([]);

    const view = await (await customer.client.get(`/my-account/view-order/${orderId}/`)).text();
    const shipping = view.slice(view.indexOf("woocommerce-column--shipping-address"));
    expect(shipping).toContain("Grace Hopper");
    expect(shipping).toContain("200 Navy Pier");
    expect(shipping.replace(/<!-- -->/g, "")).toContain("Chicago IL 60611");

    // 400 px: the form fits, nothing scrolls sideways.
    await page.setViewportSize({ width: 400, height: 900 });
    await page.getByRole("button", { name: "Edit billing address" }).click();
    await page.getByRole("region", { name: "Edit billing address" }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_order-address-edit.png", fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: "tmp/shots/admin_1280_order-address-edit.png", fullPage: true });
    await context.close();
  });
});
