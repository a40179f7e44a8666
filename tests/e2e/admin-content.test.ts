/**
 * The admin's Reviews & comments and Live scores screens (issue 14, docs/contract/admin.md 'Reviews & comments',
 * 'Live scores') in Chromium: a shopper's review is held for moderation, the owner approves it and the (cached)
 * product page shows it; an approved review marked spam in bulk disappears from it; a refused action goes back with an
 * alert; the live screen lists the simulator's matches and its viewer count rises when a browser opens the live page;
 * a shop manager at 400 px; a customer gets the sign-in page. axe-core on both screens; screenshots to tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn as signInAs } from "../support/admin-browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";
import { COMMENT_MESSAGES } from "../../core/domain/comments/comments.ts";

const SLUG = "silk-pocket-square";
const PASSWORD = "content screens pass 1";
const ADMIN = "content-owner@example.com";
const MANAGER = "content-manager@example.com";
const CUSTOMER = "content-shopper@example.com";
const HELD = "The stitching is neat and the silk feels heavy. Held for the owner.";
const JUNK = "Cheap watches at an address nobody should visit.";

let shop: TestShop;
let browser: Browser;

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([
    startTestShop({ SIMULATOR: "on", SHOP_SETTINGS: JSON.stringify({ comments: { allowGuests: true } }) }),
    launchBrowser(),
  ]);
  for (const [email, role] of [
    [ADMIN, "administrator"],
    [MANAGER, "shop_manager"],
    [CUSTOMER, "customer"],
  ] as const) {
    const made = await registerCustomer(shop.services.db, { email, password: PASSWORD, first_name: "Mo", last_name: "Staff" });
    if (!made.ok) throw new Error(made.message);
    await shop.services.db.query(`UPDATE customers SET role = $2 WHERE id = $1`, [made.customerId, role]);
  }
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const signedIn = (email: string, width = 1280) => signInAs(browser, shop.url, email, PASSWORD, width);

/** The product page as an anonymous visitor sees it (the page cache serves it), and its reviews' text. */
async function anonymousReviews(): Promise<string> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${shop.url}/product/${SLUG}/`);
  const text = (await page.locator(".commentlist").allInnerTexts()).join("\n");
  await context.close();
  return text;
}

/** A moderation row by its text. */
const row = (page: Page, text: string) => page.locator(".admin-mod-item").filter({ hasText: text });
const notice = (page: Page) => page.locator(".admin-mod-result .components-notice__content");

describe("reviews & comments", () => {
  it("a shopper's held review is approved by the owner and shows on the product page; a refusal rolls back; spam in bulk hides one", async () => {
    // The shopper posts a review: held for moderation.
    const shopper = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const sp = await shopper.newPage();
    await sp.goto(`${shop.url}/product/${SLUG}/`);
    await sp.waitForFunction(() => document.querySelector("#commentform")?.hasAttribute("novalidate"));
    await sp.locator('input[name="rating"][value="4"]').check();
    await sp.locator("#comment").fill(HELD);
    await sp.locator("#author").fill("Hana Shopper");
    await sp.locator("#email").fill("hana@example.com");
    await sp.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => sp.locator("#respond").getByRole("status").textContent()).toBe(COMMENT_MESSAGES.thanks.review);
    await shopper.close();
    expect(await anonymousReviews()).not.toContain(HELD); // and the page is now in the cache

    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${shop.url}/wp-admin/comments/`);
    await page.getByRole("heading", { level: 1, name: "Reviews & comments" }).waitFor();
    expect(await page.getByRole("link", { name: "Reviews", exact: true }).getAttribute("aria-current")).toBe("page");
    await row(page, HELD).waitFor();
    expect(await page.getByRole("tab", { name: /^Pending \(\d+\)$/ }).getAttribute("aria-selected")).toBe("true");
    const held = row(page, HELD);
    expect(await held.innerText()).toContain("hana@example.com");
    expect(await held.innerText()).toContain("Rated 4 out of 5");
    expect(await held.getByRole("link", { name: "Silk Pocket Square" }).getAttribute("href")).toContain(`/product/${SLUG}/`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin_1280_comments.png", fullPage: true });

    // The API refuses once: the row is approved at once, then goes back with an alert.
    await page.route("**/wp-json/wc/v3/products/reviews/**", (route) =>
      route.fulfill({
        status: 403,
        contentType: "application/json",
        body: JSON.stringify({ code: "woocommerce_rest_cannot_edit", message: "Sorry, you cannot edit this resource.", data: { status: 403 } }),
      }),
    );
    await held.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "was not approved" }).count()).toBe(1);
    expect(await notice(page).innerText()).toContain("Sorry, you cannot edit this resource. It is back as it was.");
    expect(await held.locator(".admin-mod-status").textContent()).toBe("Pending");
    await page.unroute("**/wp-json/wc/v3/products/reviews/**");

    // Approved for real: the row says so at once, keeps focus, and the anonymous product page shows the review.
    await held.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => held.locator(".admin-mod-status").textContent()).toBe("Approved");
    await expect.poll(() => notice(page).textContent()).toBe("Review by Hana Shopper approved.");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Unapprove");
    await expect.poll(() => page.getByRole("tab", { name: /^Approved/ }).textContent()).toMatch(/\(\d+\)/);
    expect(await anonymousReviews()).toContain(HELD);

    // Another approved review, marked spam in bulk from the Approved tab: gone from the product page.
    const [product] = await shop.services.db.query<{ id: number }>(`SELECT id FROM products WHERE slug = $1`, [SLUG]);
    const made = await page.evaluate(
      async ({ productId, text }) => {
        const nonce = document.getElementById("admin-screen")!.dataset.nonce!;
        const res = await fetch("/wp-json/wc/v3/products/reviews", {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-WP-Nonce": nonce },
          body: JSON.stringify({ product_id: productId, review: text, reviewer: "Spam Bot", reviewer_email: "bot@example.com", rating: 5, status: "approved" }),
        });
        return res.status;
      },
      { productId: product!.id, text: JUNK },
    );
    expect(made).toBe(201);
    expect(await anonymousReviews()).toContain(JUNK);
    await page.getByRole("tab", { name: /^Approved/ }).click();
    await row(page, JUNK).waitFor();
    await row(page, JUNK).getByRole("checkbox", { name: "Select the review by Spam Bot" }).check();
    await page.getByLabel("Bulk action").selectOption("spam");
    await page.getByRole("button", { name: "Apply to 1 selected" }).click();
    await expect.poll(() => row(page, JUNK).locator(".admin-mod-status").textContent()).toBe("Spam");
    await expect.poll(() => notice(page).textContent()).toBe("Review by Spam Bot marked as spam.");
    const text = await anonymousReviews();
    expect(text).not.toContain(JUNK);
    expect(text).toContain(HELD);

    // The Spam tab offers Not spam and Delete permanently.
    await page.getByRole("tab", { name: /^Spam/ }).click();
    await row(page, JUNK).getByRole("button", { name: "Delete permanently" }).waitFor();
    expect(await row(page, JUNK).getByRole("button", { name: "Not spam" }).count()).toBe(1);
    await context.close();
  }, 240_000);

  it("post comments: a reply as the shop; a shop manager at 400 px; a customer gets the sign-in page", async () => {
    const [post] = await shop.services.db.query<{ id: number; slug: string }>(
      "SELECT id, slug FROM posts WHERE type = 'post' ORDER BY published_at DESC LIMIT 1",
    );
    await shop.services.db.query(
      `INSERT INTO comments (type, post_id, author, author_email, content, status) VALUES ('comment', $1, 'Cy Reader', 'cy@example.com', 'Which mask is best for running?', 'pending')`,
      [post!.id],
    );
    const { context, page } = await signedIn(MANAGER, 400);
    await page.goto(`${shop.url}/wp-admin/comments/`);
    await page.getByLabel("Show").selectOption("comment");
    const asked = row(page, "Which mask is best for running?");
    await asked.waitFor();
    expect(await asked.getByRole("link").last().getAttribute("href")).toContain(`/blog/${post!.slug}/`);
    await asked.getByRole("button", { name: "Reply" }).click();
    await page.getByLabel("Reply to Cy Reader as the shop").fill("The cotton one breathes best.");
    await page.getByRole("button", { name: "Post reply" }).click();
    await expect.poll(() => notice(page).textContent()).toBe("Reply to Cy Reader posted.");
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin_400_comments.png", fullPage: true });
    const [reply] = await shop.services.db.query<{ status: string; parent_id: number | null }>(
      `SELECT status, parent_id FROM comments WHERE content = 'The cotton one breathes best.'`,
    );
    expect(reply).toMatchObject({ status: "approved" });
    await context.close();

    const customer = await signedIn(CUSTOMER);
    await customer.page.goto(`${shop.url}/wp-admin/comments/`);
    expect(new URL(customer.page.url()).pathname).toBe("/wp-login.php");
    expect(await customer.page.locator(".admin-moderation").count()).toBe(0);
    await customer.context.close();
  });
});

describe("live scores", () => {
  it("lists the simulator's matches; the viewer count rises when a browser opens the live page", async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${shop.url}/wp-admin/live/`);
    await page.getByRole("heading", { level: 1, name: "Live scores" }).waitFor();
    const rows = page.locator(".admin-live-table tbody tr");
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    const viewers = async () => Number(await page.getByTestId("live-viewers").textContent());
    const before = await viewers();
    expect(await page.locator('[role="status"][aria-live="polite"]').count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin_1280_live.png", fullPage: true });

    const fan = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const live = await fan.newPage();
    await live.goto(`${shop.url}/live/`);
    await expect
      .poll(
        async () => {
          await page.getByRole("button", { name: "Refresh now" }).click();
          await page.waitForTimeout(300);
          return viewers();
        },
        { timeout: 20_000 },
      )
      .toBe(before + 1);
    await fan.close();

    const small = await signedIn(MANAGER, 400);
    await small.page.goto(`${shop.url}/wp-admin/live/`);
    await expect.poll(() => small.page.locator(".admin-live-table tbody tr").count()).toBeGreaterThan(0);
    expect(await scrollsSideways(small.page)).toBe(false);
    expect(await seriousAxeViolations(small.page)).toEqual([]);
    await small.page.screenshot({ path: "tmp/shots/admin_400_live.png", fullPage: true });
    await small.context.close();
    await context.close();
  }, 180_000);
});
