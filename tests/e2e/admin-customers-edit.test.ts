/**
 * Editing customers and replying to reviews in the admin (issue 14, docs/contract/admin.md 'Add customer',
 * 'Customer', 'Reviews & comments') in Chromium: the owner adds a customer (a taken e-mail refused at its field, with
 * focus there), who gets the New account e-mail; edits their shipping address; replies to a product review, and the
 * reply shows under the review on the product page. axe-core on both admin screens; screenshots at 1280 and 400 px
 * to tmp/shots/.
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
const PASSWORD = "customers edit pass 1";
const OWNER = "ce-owner@example.com";
let product: { id: number; slug: string; name: string };

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const db = shop.services.db;
  for (const email of [OWNER, "ce-taken@example.com"]) {
    const made = await registerCustomer(db, { email, password: PASSWORD, first_name: "Olive", last_name: "Owner" });
    if (!made.ok) throw new Error(made.message);
    if (email === OWNER) await db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
  }
  product = (await db.query<{ id: number; slug: string; name: string }>(`SELECT id, slug, name FROM products WHERE slug = 'silk-pocket-square'`))[0]!;
  await db.query(
    `INSERT INTO comments (type, product_id, author, author_email, rating, content, status) VALUES ('review', $1, 'Penny Pocket', 'penny@example.com', 2, 'The colour faded after one wash.', 'approved')`,
    [product.id],
  );
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

describe("the owner edits customers and replies to a review", () => {
  it("adds a customer, edits their shipping address, replies to a review shown on the product page", async () => {
    const { context, page } = await signedIn(browser, shop.url, OWNER, PASSWORD);
    try {
      // Add customer: a taken e-mail is refused at its field, which takes focus.
      await page.goto(`${shop.url}/wp-admin/customers/`);
      await page.getByRole("link", { name: "Add customer" }).click();
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Add customer");
      await page.getByLabel("E-mail (required)").fill("ce-taken@example.com");
      await page.getByLabel("First name").first().fill("Nora");
      await page.getByLabel("Last name").first().fill("New");
      await page.getByRole("button", { name: "Add customer" }).click();
      const email = page.getByLabel("E-mail (required)");
      await expect.poll(() => email.getAttribute("aria-invalid")).toBe("true");
      await expect.poll(() => email.evaluate((el) => el === document.activeElement)).toBe(true);
      await expect.poll(() => page.getByText("Another account already uses this e-mail address.").count()).toBe(1);
      await email.fill("ce-nora@example.com");
      const billing = page.getByRole("group", { name: "Billing address" });
      await billing.getByLabel("Address line 1").fill("5 Mill Lane");
      await billing.getByLabel("City").fill("Leeds");
      await billing.getByLabel("Country").selectOption("GB");
      await billing.getByLabel("Postcode").fill("LS1 4AP");
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: "tmp/shots/admin_1280_customer_new.png", fullPage: true });
      await Promise.all([page.waitForURL(/\/wp-admin\/customers\/\d+\/\?saved=created$/), page.getByRole("button", { name: "Add customer" }).click()]);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Nora New");
      await expect.poll(() => page.locator(".components-notice", { hasText: "Customer added. They were sent an e-mail" }).count()).toBe(1);
      const mail = await shop.services.db.query<{ kind: string }>(`SELECT kind FROM email_outbox WHERE to_address = 'ce-nora@example.com'`);
      expect(mail.map((m) => m.kind)).toEqual(["new_account"]);

      // Edit the shipping address.
      const shipping = page.getByRole("group", { name: "Shipping address" });
      await shipping.getByLabel("Address line 1").fill("9 Dock Street");
      await shipping.getByLabel("City").fill("Hull");
      await shipping.getByLabel("Country").selectOption("GB");
      await page.getByRole("button", { name: "Update customer" }).click();
      await expect.poll(() => page.locator(".components-notice", { hasText: "Customer updated." }).count()).toBe(1);
      const stored = await shop.services.db.query<{ address_1: string; city: string }>(
        `SELECT a.address_1, a.city FROM customer_addresses a JOIN customers c ON c.id = a.customer_id WHERE c.email = 'ce-nora@example.com' AND a.kind = 'shipping'`,
      );
      expect(stored).toEqual([{ address_1: "9 Dock Street", city: "Hull" }]);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: "tmp/shots/admin_1280_customer_edit.png", fullPage: true });
      await page.setViewportSize({ width: 400, height: 900 });
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: "tmp/shots/admin_400_customer_edit.png", fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });

      // Reply to the review as the shop.
      await page.goto(`${shop.url}/wp-admin/comments/`);
      await page.getByRole("tab", { name: /^Approved/ }).click();
      const row = page.locator(".admin-mod-item", { hasText: "The colour faded after one wash." });
      await row.getByRole("button", { name: "Reply" }).click();
      await row.getByLabel("Reply to Penny Pocket as the shop").fill("Sorry, Penny: wash it cold, inside out. We are sending a new one.");
      await row.getByRole("button", { name: "Post reply" }).click();
      await expect.poll(() => page.locator(".components-notice", { hasText: "Reply to Penny Pocket posted." }).count()).toBe(1);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: "tmp/shots/admin_1280_review_reply.png", fullPage: true });

      const storefront = await browser.newPage();
      try {
        await storefront.goto(`${shop.url}/product/${product.slug}/`);
        const review = storefront.locator(".commentlist > li", { hasText: "The colour faded after one wash." });
        await expect.poll(() => review.locator("ul.children li").textContent()).toContain("wash it cold, inside out");
      } finally {
        await storefront.close();
      }
    } finally {
      await context.close();
    }
  }, 60_000);
});
