/**
 * Reviews and blog comments in a browser (docs/contract/storefront.md §4 'Reviews and comments'): the star rating is a
 * keyboard radio group, refusals are announced (an alert that takes focus, the field marked invalid), a sent review
 * appears at once as awaiting approval, the form also works with JavaScript off, and axe-core finds no serious or
 * critical issue in the reviews and comments sections.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { COMMENT_MESSAGES } from "../../core/domain/comments/comments.ts";

const SLUG = "silk-pocket-square";

let shop: TestShop;
let browser: Browser;
let postSlug: string;

beforeAll(async () => {
  shop = await startTestShop({ SHOP_SETTINGS: JSON.stringify({ comments: { allowGuests: true } }) });
  browser = await launchBrowser();
  postSlug = (await shop.services.db.query<{ slug: string }>("SELECT slug FROM posts WHERE type = 'post' ORDER BY published_at DESC LIMIT 1"))[0]!.slug;
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

async function openPage(path: string, opts: { width?: number; javaScriptEnabled?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: 900 }, javaScriptEnabled: opts.javaScriptEnabled ?? true });
  const page = await context.newPage();
  await page.goto(shop.url + path);
  if (opts.javaScriptEnabled ?? true) await page.waitForFunction(() => document.querySelector("#commentform")?.hasAttribute("novalidate"));
  return page;
}

describe("the review form", () => {
  it("chooses stars with the keyboard, announces a refusal in an alert that takes focus, then shows the sent review as awaiting approval", async () => {
    const page = await openPage(`/product/${SLUG}/`);
    expect(await seriousAxeViolations(page, ".woocommerce-Reviews")).toEqual([]);

    // The stars are one radio group: Shift+Tab from the text reaches it (its last star), arrow keys move the choice.
    await page.locator("#comment").focus();
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe("rating");
    await page.keyboard.press("ArrowLeft");
    expect(await page.locator('input[name="rating"]:checked').getAttribute("value")).toBe("4");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowRight");
    expect(await page.locator('input[name="rating"]:checked').getAttribute("value")).toBe("4");
    expect(await page.getByRole("radio", { name: "4 stars" }).isChecked()).toBe(true);

    // No name: refused before posting, the alert takes focus and the field is marked.
    await page.locator("#comment").fill("Soft, and the colour is exactly as pictured.");
    await page.locator("#email").fill("ada@example.com");
    await page.getByRole("button", { name: "Submit" }).click();
    const alert = page.locator("#respond").getByRole("alert");
    await expect.poll(() => alert.textContent()).toBe(COMMENT_MESSAGES.requireNameEmail);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("comment-form-error");
    expect(await page.locator("#author").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#author").getAttribute("aria-describedby")).toBe("comment-form-error");
    expect(await seriousAxeViolations(page, ".woocommerce-Reviews")).toEqual([]);

    await page.locator("#author").fill("Ada <b>L</b>");
    const sent = page.waitForResponse((r) => r.url().endsWith("/wp-comments-post.php"));
    await page.getByRole("button", { name: "Submit" }).click();
    expect((await sent).status()).toBe(201);
    await expect.poll(() => page.locator("#respond").getByRole("status").textContent()).toBe(COMMENT_MESSAGES.thanks.review);
    const mine = page.locator(".commentlist li.comment-awaiting-moderation");
    await expect.poll(() => mine.count()).toBe(1);
    expect(await mine.innerText()).toContain(COMMENT_MESSAGES.reviewPending);
    expect(await mine.innerText()).toContain("Soft, and the colour is exactly as pictured.");
    // The form is empty again, ready for another review.
    expect(await page.locator("#comment").inputValue()).toBe("");
    expect(await page.locator('input[name="rating"]:checked').count()).toBe(0);

    // The same words again, from this browser: the server's refusal is announced the same way.
    await page.locator('input[name="rating"][value="4"]').check();
    await page.locator("#comment").fill("Soft, and the colour is exactly as pictured.");
    await page.locator("#author").fill("Ada <b>L</b>");
    await page.locator("#email").fill("ada@example.com");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => page.locator("#respond").getByRole("alert").textContent()).toBe(COMMENT_MESSAGES.duplicate);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("comment-form-error");
    await page.context().close();
  });

  it("a missing rating is refused with WooCommerce's message", async () => {
    const page = await openPage(`/product/${SLUG}/`, { width: 400 });
    await page.locator("#comment").fill("No stars given");
    await page.locator("#author").fill("Ben");
    await page.locator("#email").fill("ben@example.com");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => page.locator("#respond").getByRole("alert").textContent()).toBe(COMMENT_MESSAGES.requireRating);
    expect(await page.locator(".comment-form-rating").getAttribute("aria-describedby")).toBe("comment-form-error");
    expect(await seriousAxeViolations(page, ".woocommerce-Reviews")).toEqual([]);
    await page.context().close();
  });

  it("works without JavaScript: the post redirects back to the review, awaiting approval", async () => {
    const page = await openPage(`/product/${SLUG}/`, { javaScriptEnabled: false });
    await page.locator('label.star-option:has(input[value="5"])').click();
    await page.locator("#comment").fill("Posted without scripts.");
    await page.locator("#author").fill("Chloé");
    await page.locator("#email").fill("chloe@example.com");
    await Promise.all([page.waitForURL(/#comment-\d+$/), page.getByRole("button", { name: "Submit" }).click()]);
    const id = /#comment-(\d+)$/.exec(page.url())![1];
    expect(await page.locator(`#comment-${id}`).innerText()).toContain(COMMENT_MESSAGES.reviewPending);
    await page.context().close();
  });
});

describe("blog comments", () => {
  it("the post's comments section lists approved comments and takes a new one, shown as awaiting moderation", async () => {
    const page = await openPage(`/blog/${postSlug}/#comments`);
    expect(await page.locator("#comments .comment-list > li").count()).toBeGreaterThan(0);
    expect(await seriousAxeViolations(page, "#comments")).toEqual([]);
    await page.locator("#comment").fill("Thanks, this helped.");
    await page.locator("#author").fill("Dmitri");
    await page.locator("#email").fill("dmitri@example.com");
    await page.getByRole("button", { name: "Post Comment" }).click();
    await expect.poll(() => page.locator("#respond").getByRole("status").textContent()).toBe(COMMENT_MESSAGES.thanks.comment);
    const mine = page.locator("#comments li.comment-awaiting-moderation");
    await expect.poll(() => mine.count()).toBe(1);
    expect(await mine.innerText()).toContain(COMMENT_MESSAGES.commentPending);
    expect(await seriousAxeViolations(page, "#comments")).toEqual([]);
    await page.context().close();
  });
});
