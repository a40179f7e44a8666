/**
 * The Order screen's "Downloadable product permissions" box in Chromium, by keyboard only (docs/contract/admin.md
 * 'Order', issue 14): the owner grants access to another product's file, resets a used-up permission by giving it
 * downloads remaining, and revokes access after a confirmation; the shopper's download link follows each change
 * (it downloads, then refuses). Focus is managed (the confirmation takes it, the heading gets it after a revoke),
 * axe-core finds nothing serious, nothing scrolls sideways at 400 px; screenshots in tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn } from "../support/admin-browser.ts";
import { signInAs, TEST_PASSWORD, type SignedIn } from "../support/staff.ts";
import { TestClient } from "../support/client.ts";
import { billing, cardFields, openCheckout, submitCheckout } from "../http/checkout-support.ts";

let shop: TestShop;
let browser: Browser;
let admin: SignedIn;
let orderId = 0;
const ADMIN = "od-admin@example.com";
const BUYER = "od-buyer@example.com";
const PATTERN = Buffer.from("%PDF-1.4\nThe lantern pattern.\n%%EOF\n");
const GUIDE = Buffer.from("%PDF-1.4\nThe lantern guide.\n%%EOF\n");

function api(method: string, path: string, body?: unknown) {
  return admin.client.request(`/wp-json/${path}`, {
    method,
    headers: { "X-WP-Nonce": admin.nonce, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function downloadableProduct(name: string, fileName: string, bytes: Buffer, limit: number): Promise<number> {
  const uploaded = await admin.client.request("/wp-json/shop/v1/downloadable-files", {
    method: "POST",
    headers: { "X-WP-Nonce": admin.nonce, "Content-Type": "application/octet-stream", "Content-Disposition": `attachment; filename="${fileName}.pdf"` },
    body: new Uint8Array(bytes),
  });
  expect(uploaded.status).toBe(201);
  const { file } = (await uploaded.json()) as { file: string };
  const res = await api("POST", "wc/v3/products", {
    name,
    status: "publish",
    regular_price: "5.00",
    downloadable: true,
    downloads: [{ name: fileName, file }],
    download_limit: limit,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

/** What the shopper's link for `fileName` answers now (the e-mailed link, opened by anyone holding it); 0 when the order has no such link. */
async function linkStatus(fileName: string): Promise<number> {
  const perms = (await (await api("GET", `shop/v1/orders/${orderId}/downloads`)).json()) as { download_name: string; download_url: string }[];
  const url = perms.find((p) => p.download_name === fileName)?.download_url;
  if (!url) return 0;
  const u = new URL(url);
  return (await new TestClient(shop.url).get(u.pathname + u.search)).status;
}
let guideUrl = "";

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  admin = await signInAs(shop, ADMIN, "administrator");
  const patternId = await downloadableProduct("Lantern Pattern", "Lantern pattern", PATTERN, 1);
  await downloadableProduct("Lantern Guide", "Lantern guide", GUIDE, 2);
  const buyer = await signInAs(shop, BUYER, "customer");
  await buyer.client.post("/?wc-ajax=add_to_cart", { product_id: String(patternId), quantity: "1" });
  const reply = await submitCheckout(buyer.client, await openCheckout(buyer.client), { ...billing(BUYER), ...cardFields() });
  expect(reply.result).toBe("success");
  orderId = Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]);
  // The one download the limit allows, used: the link now refuses.
  expect(await linkStatus("Lantern pattern")).toBe(200);
  expect(await linkStatus("Lantern pattern")).toBe(403);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

describe("the Order screen's download permissions", () => {
  it("grants, resets and revokes by keyboard; the shopper's link follows", async () => {
    const { context, page } = await signedIn(browser, shop.url, ADMIN, TEST_PASSWORD, 1280);
    await page.goto(`${shop.url}/wp-admin/orders/${orderId}/`);
    const box = page.getByRole("region", { name: "Downloadable product permissions" });
    const pattern = box.getByRole("group", { name: "Lantern Pattern — Lantern pattern" });
    await pattern.waitFor();
    expect(await pattern.innerText()).toContain("Downloaded 1 time");
    expect(await pattern.innerText()).toContain("Used up: the link refuses");

    // Grant: search the picker, choose with the arrow key and Enter, then Tab to "Grant access".
    const picker = box.getByRole("combobox", { name: "Grant access to a file" });
    await picker.focus();
    await page.keyboard.type("Guide");
    await box.getByRole("option", { name: "Lantern Guide — Lantern guide" }).waitFor();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    expect(await picker.inputValue()).toBe("Lantern Guide — Lantern guide");
    // Tab past the picker's own "Reset" button to "Grant access".
    const grant = box.getByRole("button", { name: "Grant access", exact: true });
    for (let tabs = 0; tabs < 3 && !(await grant.evaluate((b) => b === document.activeElement)); tabs++) await page.keyboard.press("Tab");
    expect(await grant.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Access granted to Lantern Guide — Lantern guide." }).waitFor();
    const guide = box.getByRole("group", { name: "Lantern Guide — Lantern guide" });
    await guide.waitFor();
    expect(await guide.innerText()).toContain("2 downloads remaining");
    expect(await linkStatus("Lantern guide")).toBe(200);

    // Reset: the used-up permission gets 2 downloads remaining.
    const remaining = pattern.getByRole("spinbutton", { name: "Downloads remaining" });
    await remaining.focus();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("2");
    await page.keyboard.press("Tab"); // Access expires (a date field: its day, month and year parts)
    const save = pattern.getByRole("button", { name: "Save access" });
    for (let tabs = 0; tabs < 6 && !(await save.evaluate((b) => b === document.activeElement)); tabs++) await page.keyboard.press("Tab");
    expect(await save.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Access to Lantern pattern saved: 2 downloads remaining, never expires." }).waitFor();
    expect(await save.evaluate((b) => b === document.activeElement)).toBe(true);
    await expect.poll(() => pattern.innerText()).toContain("The link works.");
    expect(await linkStatus("Lantern pattern")).toBe(200);
    await page.screenshot({ path: "tmp/shots/admin_1280_order-downloads.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Revoke: the confirmation takes the focus ("Keep access"); Shift+Tab to "Yes, revoke access".
    const perms = (await (await api("GET", `shop/v1/orders/${orderId}/downloads`)).json()) as { download_name: string; download_url: string }[];
    guideUrl = perms.find((p) => p.download_name === "Lantern guide")!.download_url;
    await guide.getByRole("button", { name: "Revoke access…" }).focus();
    await page.keyboard.press("Enter");
    const keep = guide.getByRole("button", { name: "Keep access" });
    await expect.poll(() => keep.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Yes, revoke access");
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Access to Lantern guide revoked: the customer's link no longer works." }).waitFor();
    await guide.waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Downloadable product permissions");
    const u = new URL(guideUrl);
    expect((await new TestClient(shop.url).get(u.pathname + u.search)).status).toBe(404);
    expect(await linkStatus("Lantern pattern")).toBe(200);

    await page.setViewportSize({ width: 400, height: 900 });
    expect(await scrollsSideways(page)).toBe(false);
    await box.screenshot({ path: "tmp/shots/admin_400_order-downloads.png" });
    await context.close();
  });

  it("a refused value is shown under its field as an alert and takes the focus", async () => {
    const { context, page } = await signedIn(browser, shop.url, ADMIN, TEST_PASSWORD, 1280);
    await page.goto(`${shop.url}/wp-admin/orders/${orderId}/`);
    const pattern = page.getByRole("group", { name: "Lantern Pattern — Lantern pattern" });
    const remaining = pattern.getByRole("spinbutton", { name: "Downloads remaining" });
    await remaining.fill("-3");
    await pattern.getByRole("button", { name: "Save access" }).press("Enter");
    await pattern.getByRole("alert").filter({ hasText: "Enter a whole number of downloads" }).waitFor();
    await expect.poll(() => remaining.evaluate((i) => i === document.activeElement)).toBe(true);
    expect(await remaining.getAttribute("aria-invalid")).toBe("true");
    // The grant button with nothing chosen says so at the picker.
    await page.getByRole("button", { name: "Grant access", exact: true }).press("Enter");
    await page.getByRole("alert").filter({ hasText: "Choose a file to grant access to first." }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});
