/**
 * Add product in Chromium, as an owner works (issue 14 'Proof', docs/contract/admin.md 'Add product'): the owner
 * creates a variable product from the product list, uploads three real PNG images (made by sharp here: one through
 * the "Upload images" button, two dropped on the panel), puts the second first, adds the global Color attribute with
 * three colours, generates the three variations, sets their prices, stock, SKUs and an image (a refusal shown at
 * the variation's field first), publishes; a shopper then picks one colour on the storefront, pays with the sandbox
 * card, and that variation's stock goes down by one. axe-core on each new screen, no sideways scrolling at 400 px,
 * screenshots at 1280 and 400 px in tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import sharp from "sharp";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn as signInAs } from "../support/admin-browser.ts";
import { fillBillingDetails } from "../support/checkout-page.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
const PASSWORD = "admin product create 1";
const ADMIN = "creator-admin@example.com";
const CUSTOMER = "creator-customer@example.com";

/** A 480×480 PNG of one colour with a white square in it (a real image for sharp to decode and resize). */
const png = (r: number, g: number, b: number) =>
  sharp({ create: { width: 480, height: 480, channels: 3, background: { r, g, b } } })
    .composite([{ input: { create: { width: 120, height: 120, channels: 3, background: { r: 255, g: 255, b: 255 } } }, left: 180, top: 180 }])
    .png()
    .toBuffer();

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  for (const [email, role] of [
    [ADMIN, "administrator"],
    [CUSTOMER, "customer"],
  ] as const) {
    const made = await registerCustomer(shop.services.db, { email, password: PASSWORD, first_name: "Olive", last_name: "Owner" });
    if (!made.ok) throw new Error(made.message);
    await shop.services.db.query(`UPDATE customers SET role = $2 WHERE id = $1`, [made.customerId, role]);
  }
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const signedIn = (email: string, width = 1280) => signInAs(browser, shop.url, email, PASSWORD, width);

/** Drops `files` on the gallery's drop zone as a browser does (a DataTransfer with File objects). */
async function dropFiles(page: Page, files: { name: string; bytes: Buffer }[]): Promise<void> {
  const transfer = await page.evaluateHandle(
    (list) => {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: "image/png" }));
      return dt;
    },
    files.map((f) => ({ name: f.name, b64: f.bytes.toString("base64") })),
  );
  await page.getByTestId("gallery-dropzone").dispatchEvent("drop", { dataTransfer: transfer });
}

const thumbnails = (page: Page) => page.locator(".admin-gallery-list img").evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src.split("/").pop()));

describe("an owner creates a variable product that a shopper then buys", () => {
  let productId = 0;
  let permalink = "";

  it("Add product: from the list, a variable draft, then its editor", async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${shop.url}/wp-admin/products/`);
    await Promise.all([page.waitForURL(`${shop.url}/wp-admin/products/new/`), page.getByRole("link", { name: "Add product" }).click()]);
    expect(await page.locator("h1").innerText()).toBe("Add product");
    const title = page.getByLabel("Title", { exact: true });
    await title.waitFor();
    // A title is needed: refused at the field, which takes the focus.
    await page.getByRole("button", { name: "Create draft and continue" }).click();
    await expect.poll(() => title.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => title.evaluate((f) => f === document.activeElement)).toBe(true);
    await page.screenshot({ path: "tmp/shots/admin_1280_add-product.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await title.fill("Harbour Scarf");
    await page.getByRole("radio", { name: /^Variable product/ }).check();
    await Promise.all([page.waitForURL(/\/wp-admin\/edit\/product\/\d+\/$/), page.getByRole("button", { name: "Create draft and continue" }).click()]);
    productId = Number(/product\/(\d+)\//.exec(page.url())![1]);
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Draft created." }).count()).toBe(1);
    const [row] = await shop.services.db.query<{ type: string; status: string; name: string }>(`SELECT type, status, name FROM products WHERE id = $1`, [
      productId,
    ]);
    expect(row).toEqual({ type: "variable", status: "draft", name: "Harbour Scarf" });
    await context.close();
  });

  it("images, the Color attribute, three generated variations with prices and stock, published", async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${shop.url}/wp-admin/edit/product/${productId}/`);
    await page.getByLabel("Title", { exact: true }).waitFor();
    expect(await page.getByLabel("Regular price", { exact: true }).count()).toBe(0); // prices live on the variations

    // Images: one through the button (the keyboard's way), two dropped.
    const [red, navy, green] = await Promise.all([png(185, 28, 28), png(30, 58, 138), png(21, 128, 61)]);
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Upload images" }).click()]);
    await chooser.setFiles({ name: "scarf-red.png", mimeType: "image/png", buffer: red! });
    await expect.poll(() => thumbnails(page)).toHaveLength(1);
    await dropFiles(page, [
      { name: "scarf-navy.png", bytes: navy! },
      { name: "scarf-green.png", bytes: green! },
    ]);
    await expect.poll(() => thumbnails(page), { timeout: 30_000 }).toHaveLength(3);
    expect(await thumbnails(page)).toEqual(["scarf-red.png", "scarf-navy.png", "scarf-green.png"]);
    // Reordering with the keyboard: the navy image becomes the main image, the focus stays on its button.
    await page.getByRole("button", { name: "Move image 2 earlier" }).focus();
    await page.keyboard.press("Enter");
    expect(await thumbnails(page)).toEqual(["scarf-navy.png", "scarf-red.png", "scarf-green.png"]);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Move image 1 earlier");

    // The global Color attribute with three of its terms, used for variations.
    await page.getByLabel("Add an attribute").selectOption({ label: "Color" });
    await page.getByRole("button", { name: "Add", exact: true }).click();
    const colour = page.getByRole("group", { name: "Color" });
    for (const name of ["Red", "Navy", "Green"]) await colour.getByRole("checkbox", { name, exact: true }).check();
    expect(await colour.getByRole("checkbox", { name: "Used for variations" }).isChecked()).toBe(true);
    await page.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Product updated." }).count()).toBe(1);
    const [saved] = await shop.services.db.query<{ attributes: unknown }>(`SELECT attributes FROM products WHERE id = $1`, [productId]);
    expect(saved!.attributes).toMatchObject([{ name: "pa_color", options: ["navy", "red", "green"], variation: true }]);

    // Generate: the price is needed first.
    const generate = page.getByRole("button", { name: "Generate variations (3)" });
    await generate.click();
    const newPrice = page.getByLabel("Regular price of the new variations");
    await expect.poll(() => newPrice.getAttribute("aria-invalid")).toBe("true");
    await newPrice.fill("30");
    await generate.click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "3 variations created." }).count()).toBe(1);
    for (const name of ["Navy", "Red", "Green"]) await page.getByRole("group", { name: `Variation ${name}` }).waitFor();
    expect(await page.getByText("Every combination of the attributes has its variation.").count()).toBe(1);

    // Prices, stock, SKUs and an image; a sale price above the price is refused at its field.
    await page.getByLabel("Sale price (Red)").fill("40");
    await page.getByLabel("Stock quantity (Red)").fill("5");
    await page.getByLabel("Stock quantity (Navy)").fill("6");
    await page.getByLabel("Stock quantity (Green)").fill("7");
    await page.getByLabel("SKU (Red)").fill("SCARF-RED");
    await page.getByLabel("Regular price (Green)").fill("32.50");
    await page.getByLabel("Image (Red)").selectOption({ label: "Gallery image 1" });
    await page.getByRole("button", { name: "Save variations" }).click();
    const sale = page.getByLabel("Sale price (Red)");
    await expect.poll(() => sale.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => sale.evaluate((f) => f === document.activeElement)).toBe(true);
    await page.screenshot({ path: "tmp/shots/admin_1280_variations-field-error.png", fullPage: true });
    await sale.fill("25");
    await page.getByRole("button", { name: "Save variations" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Variations saved." }).count()).toBe(1);

    // A shopper's listing, newest first, before: without the draft (and now in the page cache, if it caches).
    const guest = await browser.newPage();
    const newest = `${shop.url}/shop/?orderby=date`;
    await guest.goto(newest);
    expect(await guest.locator("ul.products").innerText()).not.toContain("Harbour Scarf");

    // Publish.
    await page.getByLabel("Status").selectOption("publish");
    await page.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Product updated." }).count()).toBe(1);
    permalink = new URL((await page.getByRole("link", { name: "View product" }).getAttribute("href"))!, shop.url).pathname;
    expect(permalink).toBe("/product/harbour-scarf/");
    // The same listing shows it at once: the product write's tags purged the cached pages (decision 0028).
    await guest.goto(newest);
    expect(await guest.locator("ul.products li.product").first().innerText()).toContain("Harbour Scarf");
    await guest.close();
    await page.screenshot({ path: "tmp/shots/admin_1280_edit-variable-product.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    const variations = await shop.services.db.query<{
      sku: string;
      regular_price: number;
      sale_price: number | null;
      stock_quantity: number;
      image_id: number | null;
    }>(`SELECT sku, regular_price, sale_price, stock_quantity, image_id FROM variations WHERE product_id = $1 ORDER BY stock_quantity`, [productId]);
    expect(variations.map((v) => [v.stock_quantity, Number(v.regular_price), v.sale_price === null ? null : Number(v.sale_price)])).toEqual([
      [5, 3000, 2500],
      [6, 3000, null],
      [7, 3250, null],
    ]);
    expect(variations[0]!.sku).toBe("SCARF-RED");
    expect(variations[0]!.image_id).not.toBeNull();

    // At 400 px: nothing scrolls sideways.
    await page.setViewportSize({ width: 400, height: 900 });
    await page.goto(`${shop.url}/wp-admin/edit/product/${productId}/`);
    await page.getByRole("group", { name: "Variation Red" }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_edit-variable-product.png", fullPage: true });
    await page.goto(`${shop.url}/wp-admin/products/new/`);
    await page.getByLabel("Title", { exact: true }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_add-product.png", fullPage: true });
    await context.close();
  });

  it("the storefront shows it at once; a shopper buys the red one and its stock goes down", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${shop.url}${permalink}`);
    expect(await page.locator("h1.product_title").innerText()).toBe("Harbour Scarf");
    await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null);
    await page.selectOption("form.variations_form select#attribute_pa_color", "red");
    await page.waitForFunction(() => (document.querySelector("form.variations_form input.variation_id") as HTMLInputElement).value !== "0");
    await expect.poll(() => page.locator("form.variations_form .woocommerce-variation-price").innerText()).toContain("$25");
    await page.screenshot({ path: "tmp/shots/storefront_1280_new-variable-product.png", fullPage: true });
    await Promise.all([
      page.waitForResponse(
        (r) => r.url().endsWith("/wp-admin/admin-ajax.php") && (r.request().postData() ?? "").includes("action=astra_add_cart_single_product"),
      ),
      page.locator("form.variations_form button.single_add_to_cart_button").click(),
    ]);
    await page.goto(`${shop.url}/checkout/`);
    await page.waitForSelector('form.checkout[data-hydrated="1"]');
    await fillBillingDetails(page, "scarf-buyer@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.getByText("Back to my details").waitFor();
    await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4242424242424242");
    await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1234");
    await page.fill("#wc-sandbox-credit-card-csc", "123");
    await Promise.all([page.waitForURL(/\/checkout\/order-received\/\d+\/\?key=/), page.getByRole("button", { name: "Place order" }).click()]);
    expect(await page.locator(".woocommerce-thankyou-order-received").innerText()).toContain("Thank you. Your order has been received.");
    const stock = await shop.services.db.query<{ sku: string; stock_quantity: number }>(
      `SELECT sku, stock_quantity FROM variations WHERE product_id = $1 ORDER BY id`,
      [productId],
    );
    expect(stock.find((v) => v.sku === "SCARF-RED")!.stock_quantity).toBe(4);
    expect(stock.map((v) => v.stock_quantity).sort()).toEqual([4, 6, 7]);
    await page.close();
  });

  it("a customer gets the sign-in page at Add product", async () => {
    const { context, page } = await signedIn(CUSTOMER);
    await page.goto(`${shop.url}/wp-admin/products/new/`);
    expect(new URL(page.url()).pathname).toBe("/wp-login.php");
    await context.close();
  });
});
