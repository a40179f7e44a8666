// Quick view on a listing (docs/contract/sticky-quick-view.md §2), turned on through SHOP_SETTINGS: opened by
// keyboard, a variation chosen and added in place through the product page's form (the mini-cart count changes and
// the server's cart has the line), an out-of-stock choice refused in place, focus kept inside and given back, axe-core.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";

let shop: TestShop;
let browser: Browser;

beforeAll(async () => {
  shop = await startTestShop({
    // Out-of-stock swatches clickable, so an out-of-stock variation can be chosen and refused.
    SHOP_SETTINGS: JSON.stringify({ shop: { quickViewEnable: true }, swatches: { clickable_out_of_stock: true, disable_out_of_stock: false } }),
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

async function open(width: number, path = "/product-category/ties/"): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addCookies([{ name: "shop_consent", value: `v1.0.0.${Math.floor(Date.now() / 1000)}`, url: shop.url }]);
  const page = await context.newPage();
  page.on("close", () => void context.close().catch(() => undefined));
  await page.goto(shop.url + path);
  await page.waitForSelector('.astra-shop-filter-button[data-hydrated="1"]', { state: "attached" });
  return page;
}

const card = (page: Page, name: string) =>
  page.locator("ul.products li.product").filter({ has: page.locator(".woocommerce-loop-product__title", { hasText: name }) });
const focusedInDialog = (page: Page) => page.evaluate(() => !!document.activeElement?.closest("dialog.ast-quick-view-dialog"));

describe("quick view", () => {
  it("is off by default: no button, no dialog code on a listing", async () => {
    const plain = await startTestShop();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(plain.url + "/shop/");
      await page.waitForSelector('.astra-shop-filter-button[data-hydrated="1"]', { state: "attached" });
      expect(await page.locator(".ast-quick-view-button").count()).toBe(0);
      await context.close();
    } finally {
      await plain.close();
    }
  });

  for (const width of [1280, 400]) {
    it(`at ${width} px: opened by keyboard, a variation added in place, an out-of-stock choice refused, focus trapped and returned, axe clean`, async () => {
      const page = await open(width);
      const requests: string[] = [];
      page.on("request", (r) => requests.push(r.url()));
      // The dialog's script is not part of the listing: it loads when a quick view opens.
      expect(requests.some((u) => /QuickViewDialog/.test(u))).toBe(false);
      const button = card(page, "Silk Necktie").locator(".ast-quick-view-button");
      await button.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Silk Necktie" });
      await dialog.waitFor();
      expect(await dialog.getAttribute("aria-modal")).toBe("true");
      expect(requests.some((u) => u.includes("/quick-view/silk-necktie/"))).toBe(true);
      expect(await focusedInDialog(page)).toBe(true);
      const colors = dialog.locator('ul[aria-labelledby="attribute_pa_color-label"] [role="radio"]');
      await colors.first().waitFor();
      await page.screenshot({ path: `tmp/shots/quick-view-${width}.png` });

      // Focus stays inside: Shift+Tab from the first control goes to the last, Tab from the last to the first.
      await dialog.locator(".quick-view-close").focus();
      await page.keyboard.press("Shift+Tab");
      expect(await focusedInDialog(page)).toBe(true);
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.className)).toContain("quick-view-close");

      // Choose navy by keyboard (the roving tab stop, then Space).
      await dialog.locator('[role="radio"][data-value="navy"]').focus();
      await page.keyboard.press("Space");
      await expect.poll(() => dialog.locator('input[name="variation_id"]').inputValue()).not.toBe("0");
      const count = page.locator(".ast-site-header-cart .count").first();
      const before = Number(await count.innerText());
      await dialog.locator(".single_add_to_cart_button").focus();
      await page.keyboard.press("Enter");
      // The demo's discount adds a free bow tie with a necktie: the count grows by one or two.
      await expect.poll(async () => Number(await count.innerText())).toBeGreaterThan(before);
      const after = Number(await count.innerText());
      await expect.poll(() => dialog.locator(".product-added-notice .woocommerce-message").innerText()).toContain("Silk Necktie");
      // The add used the product page's in-place single-product add, and the server's cart has the line.
      expect(requests.some((u) => u.includes("/wp-admin/admin-ajax.php"))).toBe(true);
      const cart = await page.request.get(shop.url + "/cart/");
      const cartHtml = await cart.text();
      expect(cartHtml).toContain("woocommerce-cart-form");
      expect(cartHtml).toMatch(/class="[^"]*cart_item[^"]*"[\s\S]*?Silk Necktie/);
      expect(await page.locator(".woocommerce-cart-form, .cart_item").count()).toBe(0); // still the listing
      expect(await page.evaluate(() => location.pathname)).toBe("/product-category/ties/");

      // floral is out of stock: chosen, the add is refused in place and nothing is sent.
      await dialog.locator('[role="radio"][data-value="floral"]').click();
      await expect.poll(() => dialog.locator(".woocommerce-variation-availability").innerText()).toMatch(/out of stock/i);
      const sent = requests.length;
      // aria-disabled (it stays focusable and explains itself): pressed from the keyboard.
      await dialog.locator(".single_add_to_cart_button").focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => dialog.getByRole("alert").innerText()).toContain("unavailable");
      expect(requests.slice(sent).some((u) => u.includes("admin-ajax"))).toBe(false);
      expect(Number(await count.innerText())).toBe(after);

      expect(await seriousAxeViolations(page, "dialog.ast-quick-view-dialog")).toEqual([]);

      if (width === 1280) {
        // The gallery's lightbox opens inside the dialog (outside it everything is inert); Escape closes only the lightbox.
        await dialog.locator(".gallery-main a").click();
        const lightbox = dialog.locator(".yarl__root");
        await lightbox.waitFor();
        await page.keyboard.press("Escape");
        await lightbox.waitFor({ state: "detached" });
        expect(await dialog.isVisible()).toBe(true);
        // The lightbox hands the focus back (to its opener in the dialog) once it has gone; the next key waits for it.
        await expect.poll(() => focusedInDialog(page)).toBe(true);
      }

      // Escape closes it and the quick-view button has focus again.
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      expect(await page.evaluate(() => document.activeElement?.classList.contains("ast-quick-view-button"))).toBe(true);
      expect(await page.evaluate(() => document.activeElement?.closest("li.product")?.textContent)).toContain("Silk Necktie");

      // The close button also returns focus.
      await page.keyboard.press("Enter");
      await dialog.waitFor();
      await dialog.locator(".quick-view-close").click();
      await dialog.waitFor({ state: "detached" });
      expect(await page.evaluate(() => document.activeElement?.classList.contains("ast-quick-view-button"))).toBe(true);

      // Closed and opened again in one task (as a quick Escape then Enter can fall): the closed dialog's `close` event
      // comes a task later and must not close the new one.
      await page.keyboard.press("Enter");
      await dialog.waitFor();
      await page.evaluate(() => {
        document.querySelector<HTMLDialogElement>("dialog.ast-quick-view-dialog")!.close();
        (document.activeElement as HTMLElement).click();
      });
      await dialog.waitFor();
      await expect.poll(() => dialog.evaluate((el) => (el as HTMLDialogElement).open)).toBe(true);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      await page.close();
    });
  }
});
