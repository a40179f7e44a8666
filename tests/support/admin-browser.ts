/** The admin's browser tests (tests/e2e/admin-*.test.ts): a browser signed in through wp-login.php, and the 400 px check. */
import type { Browser, BrowserContext, Page } from "playwright-core";

/** A new browser context signed in as `email` through wp-login.php's form, on the page it then sends to. */
export async function signedIn(
  browser: Browser,
  shopUrl: string,
  email: string,
  password: string,
  width = 1280,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${shopUrl}/wp-login.php`);
  await page.locator("#user_login").fill(email);
  await page.locator("#user_pass").fill(password);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/wp-login.php")), page.locator("#wp-submit").click()]);
  return { context, page };
}

export const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** The admin's rich-text editor chunk (RichTextEditor-{hash}.js, decisions 0046, 0049): the addresses `page` fetches from now on. */
export function richTextChunkRequests(page: Page): string[] {
  const chunks: string[] = [];
  page.on("request", (r) => {
    if (/\/wp-admin-app\/RichTextEditor-/.test(r.url())) chunks.push(r.url());
  });
  return chunks;
}
