/**
 * The order screen's actions (issue 14, docs/contract/admin.md 'Orders', 'Order', 'Packing slip') in Chromium: a
 * signed-in customer's order of two products is found by a date range; ONE line is refunded with restock (its
 * product's stock goes up by that quantity, the other's does not, and the customer's My account order view shows the
 * refund), then the shipping alone (no line, no stock); a note to the customer reaches the outbox; a private note is deleted; the order e-mail is resent; the
 * status moves along an allowed transition only; the packing slip lists the lines without prices and prints without
 * the admin's frame. axe-core on each screen; no sideways scrolling at 400 px; screenshots to tmp/shots/.
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
const ADMIN = "order-actions-admin@example.com";
const BUYER = "order-actions-buyer@example.com";
let customer: SignedIn;
let squareId: number;
let clipId: number;
let orderId: number;

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  await signInAs(shop, ADMIN, "administrator");
  squareId = await productWithStock(shop, "silk-pocket-square", 40, 1500);
  clipId = await productWithStock(shop, "tie-clip", 30, 900);
  // The customer orders on the storefront, signed in: 2 pocket squares and 1 tie clip.
  customer = await signInAs(shop, BUYER, "customer");
  for (const [id, quantity] of [
    [squareId, 2],
    [clipId, 1],
  ]) {
    const res = await customer.client.post("/?wc-ajax=add_to_cart", { product_id: String(id), quantity: String(quantity) });
    expect(((await res.json()) as { fragments?: unknown }).fragments).toBeTruthy();
  }
  const reply = await submitCheckout(customer.client, await openCheckout(customer.client), { ...billing(BUYER), ...cardFields() });
  expect(reply.result).toBe("success");
  orderId = Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const stockOf = async (id: number) => (await shop.services.db.query<{ n: number }>(`SELECT stock_quantity AS n FROM products WHERE id = $1`, [id]))[0]!.n;
const outbox = (kind: string) =>
  shop.services.db.query<{ to_address: string; subject: string; body: string }>(
    `SELECT to_address, subject, body FROM email_outbox WHERE order_id = $1 AND kind = $2`,
    [orderId, kind],
  );
const statusText = (page: Page) => page.locator(".admin-order > [role=status], .admin-order > [role=alert]").first().innerText();

describe("the order's actions", () => {
  it("filters by date, refunds one line with restock, notes, resends, changes status, prints the packing slip", { timeout: 300_000 }, async () => {
    const { context, page } = await signedIn(browser, shop.url, ADMIN, TEST_PASSWORD);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

    // Orders: a date range that holds today lists the order; one that starts tomorrow lists none; an inverted one is refused.
    await page.goto(`${shop.url}/wp-admin/orders/`);
    const table = page.locator(".dataviews-view-table tbody");
    await expect.poll(() => table.innerText()).toContain(BUYER);
    await page.getByLabel("Created from").fill(today);
    await page.getByLabel("Created until").fill(today);
    await expect.poll(() => page.locator(".admin-orders-found").innerText()).toMatch(/^[1-9]\d* orders? found\.$/);
    expect(await table.innerText()).toContain(BUYER);
    await page.getByLabel("Created from").fill(tomorrow);
    await expect.poll(() => page.getByRole("alert").innerText()).toContain("The end date is before the start date.");
    await page.getByLabel("Created until").fill("");
    await expect.poll(() => page.locator(".admin-orders-found").innerText()).toBe("0 orders found.");
    await page.getByLabel("Created from").fill(today);
    await expect.poll(() => table.innerText()).toContain(BUYER);
    await page.screenshot({ path: "tmp/shots/admin_1280_orders-range.png" });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The order: the status select offers only the allowed transitions (refunded is reached by refunding).
    await page.goto(`${shop.url}/wp-admin/orders/${orderId}/`);
    await page.getByRole("heading", { level: 2, name: "Items" }).waitFor();
    const statusSelect = page.getByLabel("Status", { exact: true });
    expect(await statusSelect.locator("option").allInnerTexts()).toEqual(["Processing (current)", "Completed", "Cancelled"]);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Refund ONE line: 1 of the 2 pocket squares, restocked. The amount follows the units; the total as typed.
    const squareBefore = await stockOf(squareId);
    const clipBefore = await stockOf(clipId);
    await page.getByRole("button", { name: "Refund by line…" }).click();
    const square = page.getByRole("group", { name: /^Silk Pocket Square/ });
    await square.getByLabel("Units to refund").fill("3");
    await expect.poll(() => square.innerText()).toContain("At most 2.");
    await square.getByLabel("Units to refund").fill("1");
    expect(await square.getByLabel("Amount to refund").inputValue()).toBe("15.00");
    expect(await page.locator(".admin-refund-total").innerText()).toBe("Refund total: $15.00");
    expect(await page.getByLabel("Put the refunded units back in stock").isChecked()).toBe(true);
    await page.locator(".admin-line-refund").getByLabel("Reason (optional)").fill("Torn seam");
    await page.screenshot({ path: "tmp/shots/admin_1280_order-line-refund.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    const refunded = page.waitForResponse((r) => r.url().includes(`/wp-json/wc/v3/orders/${orderId}/refunds`) && r.request().method() === "POST");
    // By keyboard: focus the button and press Enter.
    await page.getByRole("button", { name: "Refund $15.00" }).focus();
    await page.keyboard.press("Enter");
    expect((await refunded).status()).toBe(201);
    await expect.poll(() => statusText(page)).toContain("Refunded $15.00 through");
    expect(await statusText(page)).toContain("Silk Pocket Square × 1");
    expect(await stockOf(squareId)).toBe(squareBefore + 1);
    expect(await stockOf(clipId)).toBe(clipBefore);
    const refunds = page.getByRole("region", { name: "Refunds" });
    await expect.poll(() => refunds.innerText()).toContain("Silk Pocket Square × 1");
    expect(await refunds.innerText()).toContain("$15.00");
    expect(await refunds.innerText()).toContain("Reason: Torn seam");
    expect(await page.locator("#order-summary").innerText()).toContain("Processing");
    // The same line now offers only what is left.
    await page.getByRole("button", { name: "Refund by line…" }).click();
    expect(
      await page
        .getByRole("group", { name: /^Silk Pocket Square/ })
        .locator("legend")
        .innerText(),
    ).toContain("1 of 2 left");
    // Shipping alone, tied to no line: an amount above what is left is refused, then the $5.00 shipping is refunded.
    const shipping = page.getByLabel("Shipping or another amount");
    await shipping.fill("999");
    await page.getByRole("button", { name: "Refund $999.00" }).click();
    await expect.poll(() => page.locator(".admin-line-refund [role=alert]").innerText()).toMatch(/^Only \$\d+\.\d\d is left to refund on this order\.$/);
    await shipping.fill("5.00");
    expect(await page.locator(".admin-refund-total").innerText()).toBe("Refund total: $5.00");
    const shippingRefund = page.waitForResponse((r) => r.url().includes(`/wp-json/wc/v3/orders/${orderId}/refunds`) && r.request().method() === "POST");
    await page.getByRole("button", { name: "Refund $5.00" }).click();
    const sent = (await shippingRefund).request().postDataJSON() as { amount: string; line_items: unknown[] };
    expect(sent).toMatchObject({ amount: "5.00", line_items: [] });
    await expect.poll(() => statusText(page)).toContain("Refunded $5.00 through");
    expect(await statusText(page)).toContain("$5.00 shipping or other");
    expect(await stockOf(squareId)).toBe(squareBefore + 1);
    expect(await stockOf(clipId)).toBe(clipBefore);
    await expect.poll(async () => (await refunds.innerText()).match(/\$5\.00/g)?.length ?? 0).toBeGreaterThan(0);

    // The customer's My account order view shows the refund.
    const page0 = await (await customer.client.get(`/my-account/view-order/${orderId}/`)).text();
    const totals = page0.slice(page0.indexOf("<tfoot>"), page0.indexOf("</tfoot>")).replace(/<!-- -->/g, "");
    expect(totals).toMatch(/<th>Refund:<\/th><td>-\$15(\.00)?<small class="refund-reason"> Torn seam<\/small>/);
    expect(totals).toMatch(/<th>Refund:<\/th><td>-\$5(\.00)?<\/td>/);
    expect(totals).toContain("Net total:");

    // A note to the customer: listed, and e-mailed through the outbox.
    await page.getByLabel("Add a note").fill("Your parcel left our warehouse today.");
    await page.getByLabel("Note type").selectOption("customer");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect.poll(() => statusText(page)).toContain("Note added and e-mailed to the customer.");
    const notes = page.getByRole("region", { name: "Notes" });
    await expect.poll(() => notes.innerText()).toContain("Your parcel left our warehouse today.");
    const noteMails = await outbox("order_note");
    expect(noteMails).toHaveLength(1);
    expect(noteMails[0]!.to_address).toBe(BUYER);
    expect(noteMails[0]!.body).toContain("Your parcel left our warehouse today.");
    // An empty note is refused at its field.
    await page.getByRole("button", { name: "Add note" }).click();
    await expect.poll(() => notes.innerText()).toContain("Write the note first.");
    expect(await page.getByLabel("Add a note").getAttribute("aria-invalid")).toBe("true");

    // A private note, then deleted after a confirmation.
    await page.getByLabel("Add a note").fill("Checked the seam with the supplier.");
    await page.getByLabel("Note type").selectOption("private");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect.poll(() => statusText(page)).toContain("Private note added.");
    await page.getByRole("button", { name: /^Delete the note of .*: Checked the seam/ }).click();
    await page.getByRole("button", { name: "Delete note" }).click();
    await expect.poll(() => statusText(page)).toContain("Note deleted.");
    await expect.poll(() => notes.innerText()).not.toContain("Checked the seam with the supplier.");
    expect(await outbox("order_note")).toHaveLength(1);

    // Resend the order e-mail.
    await page.getByRole("button", { name: "Resend order details to the customer" }).click();
    await expect.poll(() => statusText(page)).toContain(`Order details sent to ${BUYER}, via REST API.`);
    const details = await outbox("order_details");
    expect(details).toHaveLength(1);
    expect(details[0]!.subject).toBe(`Details for order #${orderId}`);

    // Status: Processing → Completed; then nothing but a refund can follow.
    await statusSelect.selectOption("completed");
    await page.getByRole("button", { name: "Change status" }).click();
    await expect.poll(() => statusText(page)).toContain("Status changed from Processing to Completed.");
    await expect.poll(() => page.locator("#order-summary").innerText()).toContain("Completed");
    expect(await page.getByLabel("Status", { exact: true }).count()).toBe(0);
    await page.screenshot({ path: "tmp/shots/admin_1280_order-actions.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The packing slip: addresses, lines with SKU and quantity, no prices; printed without the admin's frame.
    await Promise.all([page.waitForURL(`${shop.url}/wp-admin/orders/${orderId}/packing-slip/`), page.getByRole("link", { name: "Packing slip" }).click()]);
    await page.getByRole("heading", { level: 2, name: "Items" }).waitFor();
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(`Packing slip for order #${orderId}`);
    const slip = await page.locator(".admin-packing-slip").innerText();
    expect(slip).toContain("Silk Pocket Square");
    expect(slip).toContain("Tie Clip");
    expect(slip).toContain("1 Analytical Way");
    expect(slip).not.toContain("$");
    const rows = await page.locator(".admin-packing-slip tbody tr").allInnerTexts();
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.includes("Silk Pocket Square"))).toMatch(/\t2$/);
    expect(await page.getByRole("button", { name: "Print" }).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin_1280_packing-slip.png", fullPage: true });
    await page.emulateMedia({ media: "print" });
    expect(await page.locator(".admin-menu").isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Print" }).isVisible()).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_1280_packing-slip-print.png", fullPage: true });
    await page.emulateMedia({ media: "screen" });

    // 400 px: nothing scrolls sideways.
    await page.setViewportSize({ width: 400, height: 900 });
    await page.reload();
    await page.getByRole("heading", { level: 2, name: "Items" }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_packing-slip.png", fullPage: true });
    await page.goto(`${shop.url}/wp-admin/orders/${orderId}/`);
    await page.getByRole("heading", { level: 2, name: "Items" }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_order-actions.png", fullPage: true });
    await page.goto(`${shop.url}/wp-admin/orders/`);
    await expect.poll(() => page.locator(".dataviews-view-list__item").count()).toBeGreaterThan(0);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_orders-range.png", fullPage: true });
    await context.close();
  });

  it("the packing slip is staff only", async () => {
    const res = await customer.client.get(`/wp-admin/orders/${orderId}/packing-slip/`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toContain("/wp-login.php");
  });
});
