/**
 * The checkout for keyboard and screen-reader users, and the docs/contract/storefront.md §4 e-mail detection table row by row:
 * create-account hidden while the e-mail is empty, the collapsed order summary out of the tab order, focus to the
 * first alert 500 ms after a server error, Enter in the login section logs in, aria-invalid on payment fields,
 * and the e-check form's script-error log with its own nonce.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser, letPageSettle } from "../support/browser.ts";
import { fillBillingDetails, openCheckoutWithCart, waitForPaymentErrorsFocus } from "../support/checkout-page.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
let productId: number;
const RETURNING = "a11y-returning@example.com";
const PASSWORD = "returning pass 1";

beforeAll(async () => {
  shop = await startTestShop();
  browser = await launchBrowser();
  const [row] = await shop.services.db.query<{ id: number }>(
    `UPDATE products SET stock_quantity = 500, regular_price = 1500, sale_price = NULL WHERE slug = 'silk-pocket-square' RETURNING id`,
  );
  productId = row!.id;
  await registerCustomer(shop.services.db, { email: RETURNING, password: PASSWORD, first_name: "Rhea", last_name: "Turner" });
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const checkoutWithCart = (width = 1280): Promise<Page> => openCheckoutWithCart(browser, shop.url, productId, { width });

const fillDetails = fillBillingDetails;

/** Waits for the next e-mail check's answer (the e-mail detection applies it right after). */
function userCheck(page: Page) {
  return page.waitForResponse((r) => r.url().includes("admin-ajax.php") && (r.request().postData() ?? "").includes("action=astra_woo_check_user_exist"));
}

/** The e-mail detection's visible state. */
async function detection(page: Page) {
  return {
    loginOpen: await page.locator("#ast-customer-login-section").isVisible(),
    note: (await page.locator("#ast-email-note").innerText()).trim(),
    createAccount: await page.locator("#createaccount").isVisible(),
    loginLabel: await page.locator(".woocommerce-form-login-toggle").isVisible(),
  };
}

const SUCCESS_NOTE = "This user is already registered. Please enter the password to continue.";

describe("e-mail detection (docs/contract/storefront.md §4 table)", () => {
  it("create-account is hidden while the e-mail is empty: on load, and again after clearing it", async () => {
    const page = await checkoutWithCart();
    expect(await detection(page)).toEqual({ loginOpen: false, note: "", createAccount: false, loginLabel: true });

    // Not found: create-account and its checkbox shown; the login section, opened by its toggle, closes.
    await page.locator(".showlogin").click();
    expect(await page.locator("#ast-customer-login-section").isVisible()).toBe(true);
    const unknown = userCheck(page);
    await page.locator("#billing_email").pressSequentially("nobody-here@example.com");
    await unknown;
    await expect.poll(() => page.locator("#createaccount").isVisible()).toBe(true);
    expect(await detection(page)).toEqual({ loginOpen: false, note: "", createAccount: true, loginLabel: true });
    await page.locator("#createaccount").check();

    // Empty: login section closed, note hidden, login label shown, create-account hidden (and unticked).
    await page.fill("#billing_email", "");
    await expect.poll(() => page.locator("#createaccount").count()).toBe(0);
    expect(await detection(page)).toEqual({ loginOpen: false, note: "", createAccount: false, loginLabel: true });
    // Nothing brings it back: not the 300 ms e-mail check debounce (timed on the page's own clock, past it).
    await letPageSettle(page, { ms: 500 });
    expect(await page.locator("#createaccount").count()).toBe(0);

    // Exists, login allowed: success note, login section opened, create-account hidden, login label shown.
    const known = userCheck(page);
    await page.locator("#billing_email").pressSequentially(RETURNING);
    await known;
    await page.getByText(SUCCESS_NOTE).waitFor();
    expect(await detection(page)).toEqual({ loginOpen: true, note: SUCCESS_NOTE, createAccount: false, loginLabel: true });

    // Empty again: everything back to the first row.
    await page.fill("#billing_email", "");
    await expect.poll(() => page.locator("#ast-customer-login-section").isVisible()).toBe(false);
    expect(await detection(page)).toEqual({ loginOpen: false, note: "", createAccount: false, loginLabel: true });

    // Exists, login section already open: the success note, the section stays open.
    await page.locator(".showlogin").click();
    const again = userCheck(page);
    await page.locator("#billing_email").pressSequentially(RETURNING);
    await again;
    await page.getByText(SUCCESS_NOTE).waitFor();
    expect(await detection(page)).toEqual({ loginOpen: true, note: SUCCESS_NOTE, createAccount: false, loginLabel: true });
    await page.close();
  });

  it("an answer that arrives after the e-mail was cleared is dropped (only the latest request counts)", async () => {
    const page = await checkoutWithCart();
    // The check's answer is held until the e-mail has been cleared: late by construction, not by a timer.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/wp-admin/admin-ajax.php", async (route) => {
      if ((route.request().postData() ?? "").includes("astra_woo_check_user_exist")) await held;
      await route.continue();
    });
    const sent = page.waitForRequest((r) => (r.postData() ?? "").includes("astra_woo_check_user_exist"));
    const answered = userCheck(page);
    await page.locator("#billing_email").pressSequentially(RETURNING);
    await sent;
    await page.fill("#billing_email", "");
    release();
    await (await answered).finished();
    await letPageSettle(page, { ms: 300 }); // the page has read the late answer (and must have dropped it)
    expect(await detection(page)).toEqual({ loginOpen: false, note: "", createAccount: false, loginLabel: true });
    await page.close();
  });
});

describe("order summary toggle", () => {
  it("once collapsed, the summary is hidden and inert (not reachable by Tab); expanding brings it back", async () => {
    const page = await checkoutWithCart();
    const toggle = page.locator(".order-summary-toggle");
    const summary = page.locator("#order_review");
    expect(await toggle.getAttribute("aria-controls")).toBe("order_review");
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await summary.locator("input.shipping_method").count()).toBeGreaterThan(0);

    // The 300 ms collapse is kept: the summary stays in the layout while it runs and is hidden once it is over,
    // timed on the page's clock (a busy machine can take longer than 300 ms between two test steps).
    await page.evaluate(() => {
      const w = window as unknown as { pressedAt?: number; hiddenAt?: number };
      const el = document.getElementById("order_review")!;
      document.querySelector(".order-summary-toggle")!.addEventListener("click", () => (w.pressedAt ??= performance.now()));
      new MutationObserver(() => {
        if (el.hidden) w.hiddenAt ??= performance.now();
      }).observe(el, { attributes: true, attributeFilter: ["hidden"] });
    });
    await toggle.focus();
    await page.keyboard.press("Enter");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await toggle.innerText()).toBe("Show Order Summary");
    await expect.poll(() => summary.getAttribute("hidden")).not.toBeNull();
    const { pressedAt, hiddenAt } = await page.evaluate(() => {
      const w = window as unknown as { pressedAt: number; hiddenAt: number };
      return { pressedAt: w.pressedAt, hiddenAt: w.hiddenAt };
    });
    expect(hiddenAt - pressedAt).toBeGreaterThanOrEqual(250);
    expect(await summary.evaluate((el) => (el as HTMLElement).inert)).toBe(true);
    expect(await summary.isVisible()).toBe(false);
    expect(await page.getByRole("table").filter({ hasText: "Subtotal" }).count()).toBe(0);

    // Tab from the toggle skips everything inside the collapsed summary.
    await toggle.focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => !!document.activeElement?.closest("#order_review"))).toBe(false);
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => document.activeElement?.classList.contains("order-summary-toggle"))).toBe(true);

    await page.keyboard.press("Enter");
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await toggle.innerText()).toBe("Hide Order Summary");
    expect(await summary.getAttribute("hidden")).toBeNull();
    expect(await summary.evaluate((el) => (el as HTMLElement).inert)).toBe(false);
    await expect.poll(() => summary.evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThan(50);
    await toggle.focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => !!document.activeElement?.closest("#order_review"))).toBe(true);
    await page.close();
  });
});

describe("notices after a checkout server error", () => {
  it("the first alert takes focus 500 ms after the server's messages arrive (docs/contract/storefront.md §9)", async () => {
    const page = await checkoutWithCart(400);
    await fillDetails(page, "declined-a11y@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4000000000000002");
    await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1234");
    await page.fill("#wc-sandbox-credit-card-csc", "123");
    await page.evaluate(() => {
      const w = window as unknown as { noticeAt?: number; focusAt?: number };
      new MutationObserver(() => {
        if (w.noticeAt === undefined && document.querySelector(".woocommerce-NoticeGroup-checkout .woocommerce-error")) w.noticeAt = performance.now();
      }).observe(document.body, { childList: true, subtree: true });
      document.addEventListener("focusin", (e) => {
        if ((e.target as Element).matches?.('[role="alert"]')) w.focusAt = performance.now();
      });
    });
    await page.getByRole("button", { name: "Place order" }).click();
    await page.locator(".woocommerce-NoticeGroup-checkout .woocommerce-error").waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.matches('.woocommerce-NoticeGroup-checkout [role="alert"]') ?? false)).toBe(true);
    const { noticeAt, focusAt } = await page.evaluate(() => {
      const w = window as unknown as { noticeAt: number; focusAt: number };
      return { noticeAt: w.noticeAt, focusAt: w.focusAt };
    });
    expect(focusAt - noticeAt).toBeGreaterThanOrEqual(450);
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).tabIndex)).toBe(-1);
    expect(await page.evaluate(() => document.activeElement?.textContent ?? "")).toMatch(/declined/i);
    // The page scrolls (over 1000 ms) to 100 px above the notice.
    await expect
      .poll(async () => Math.abs((await page.locator(".woocommerce-NoticeGroup-checkout .woocommerce-error").boundingBox())!.y - 100) <= 2)
      .toBe(true);
    await page.close();
  });
});

describe("login section keyboard", () => {
  it("Enter in the password field logs in (the Astra login call), not the checkout form", async () => {
    const page = await checkoutWithCart();
    const known = userCheck(page);
    await page.locator("#billing_email").pressSequentially(RETURNING);
    await known;
    await page.locator("#ast-customer-login-section").waitFor({ state: "visible" });
    const calls: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("wc-ajax=checkout")) calls.push("checkout");
      if ((r.postData() ?? "").includes("action=astra_woocommerce_login_user")) calls.push("login");
    });
    // A wrong password first: the error shows, the checkout stays on its first step.
    await page.fill("#billing_password", "wrong password");
    await page.locator("#billing_password").press("Enter");
    await page.locator(".ast-login-notice .woocommerce-error").waitFor();
    expect(calls).toEqual(["login"]);
    expect(await page.locator("#customer_details").isVisible()).toBe(true);
    expect(await page.locator(".checkout-steps li[aria-current=step]").innerText()).toContain("Details");
    // The right one: signed in, the page reloads.
    await page.fill("#billing_password", PASSWORD);
    await Promise.all([page.waitForEvent("load"), page.locator("#billing_password").press("Enter")]);
    await page.waitForSelector('form.checkout[data-hydrated="1"]');
    expect(await page.locator("#customer_info").count()).toBe(0);
    expect(calls).toEqual(["login", "login"]);
    await page.close();
  });
});

describe("payment fields: aria-invalid", () => {
  it("the payment form's own error list (checked in the browser) takes focus 500 ms after it appears", async () => {
    const page = await checkoutWithCart(400);
    await fillDetails(page, "browser-errors@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4242424242424241");
    await page.evaluate(() => {
      const w = window as unknown as { listAt?: number; focusAt?: number };
      new MutationObserver(() => {
        if (w.listAt === undefined && document.querySelector(".payment-form-errors")) w.listAt = performance.now();
      }).observe(document.body, { childList: true, subtree: true });
      document.addEventListener("focusin", (e) => {
        if ((e.target as Element).matches?.(".payment-form-errors")) w.focusAt = performance.now();
      });
    });
    await page.getByRole("button", { name: "Place order" }).click();
    await page.locator(".payment-form-errors").waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.matches(".payment-form-errors") ?? false)).toBe(true);
    const { listAt, focusAt } = await page.evaluate(() => {
      const w = window as unknown as { listAt: number; focusAt: number };
      return { listAt: w.listAt, focusAt: w.focusAt };
    });
    expect(focusAt - listAt).toBeGreaterThanOrEqual(450);
    expect(await page.evaluate(() => document.activeElement?.textContent ?? "")).toContain("Card number is invalid");
    await page.close();
  });

  it("card fields are aria-invalid while invalid (submit errors and the live card-type check), and not once fixed", async () => {
    const page = await checkoutWithCart();
    await fillDetails(page, "invalid-card@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    const number = page.locator("#wc-sandbox-credit-card-account-number");
    const expiry = page.locator("#wc-sandbox-credit-card-expiry");
    const csc = page.locator("#wc-sandbox-credit-card-csc");
    for (const f of [number, expiry, csc]) expect(await f.getAttribute("aria-invalid")).toBeNull();

    await page.getByRole("button", { name: "Place order" }).click();
    const list = page.locator(".payment-form-errors");
    await list.waitFor();
    expect(await list.getAttribute("role")).toBe("alert");
    for (const f of [number, expiry, csc]) expect(await f.getAttribute("aria-invalid")).toBe("true");
    await waitForPaymentErrorsFocus(page);

    await number.pressSequentially("4242424242424242");
    expect(await number.getAttribute("aria-invalid")).toBeNull();
    expect(await expiry.getAttribute("aria-invalid")).toBe("true");
    await expiry.pressSequentially("1234");
    expect(await expiry.getAttribute("aria-invalid")).toBeNull();
    await csc.fill("12");
    expect(await csc.getAttribute("aria-invalid")).toBe("true");
    await csc.fill("123");
    expect(await csc.getAttribute("aria-invalid")).toBeNull();

    // A second failed submit mounts a fresh alert list (announced again).
    await number.fill("");
    const first = await list.elementHandle();
    await page.getByRole("button", { name: "Place order" }).click();
    await expect.poll(async () => (await list.elementHandle())?.evaluate((el, old) => el !== old, first)).toBe(true);
    expect(await list.innerText()).toContain("Card number is missing");
    expect(await number.getAttribute("aria-invalid")).toBe("true");
    await waitForPaymentErrorsFocus(page);

    // Live: a card type the shop does not take is invalid as it is typed (class and aria-invalid together).
    await number.pressSequentially("6200000000000005");
    expect(await number.getAttribute("class")).toContain("invalid-card-type");
    expect(await number.getAttribute("aria-invalid")).toBe("true");
    await number.fill("");
    await number.pressSequentially("4242424242424242");
    expect(await number.getAttribute("class")).not.toContain("invalid-card-type");
    expect(await number.getAttribute("aria-invalid")).toBeNull();
    await page.close();
  });

  it("e-check fields are aria-invalid after a failed submit until their values pass", async () => {
    const page = await checkoutWithCart();
    await fillDetails(page, "invalid-echeck@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("label[for=payment_method_sandbox_echeck]").click();
    const routing = page.locator("#wc-sandbox-echeck-routing-number");
    const account = page.locator("#wc-sandbox-echeck-account-number");
    await routing.fill("1234");
    await page.getByRole("button", { name: "Place order" }).click();
    await page.locator(".payment-form-errors").waitFor();
    expect(await page.locator(".payment-form-errors li").allInnerTexts()).toEqual([
      "Routing Number is invalid (must be 9 digits)",
      "Account Number is missing",
    ]);
    expect(await routing.getAttribute("aria-invalid")).toBe("true");
    expect(await account.getAttribute("aria-invalid")).toBe("true");
    await routing.fill("110000000");
    expect(await routing.getAttribute("aria-invalid")).toBeNull();
    await account.fill("12ab");
    expect(await account.getAttribute("aria-invalid")).toBe("true");
    await account.fill("000123456789");
    expect(await account.getAttribute("aria-invalid")).toBeNull();
    await Promise.all([page.waitForURL(/order-received/), page.getByRole("button", { name: "Place order" }).click()]);
    await page.close();
  });
});

describe("payment form script-error log", () => {
  it("with e-check chosen, a script that fails to load is logged through the e-check action and its own nonce", async () => {
    const page = await checkoutWithCart();
    await fillDetails(page, "echeck-log@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("label[for=payment_method_sandbox_echeck]").click();
    // The page never reads this answer, so it is read here on its way through.
    const answers: { action: string; status: number; body: unknown }[] = [];
    await page.route("**/wp-admin/admin-ajax.php", async (route) => {
      const action = new URLSearchParams(route.request().postData() ?? "").get("action") ?? "";
      const res = await route.fetch();
      if (action.endsWith("_payment_form_log_script_event")) answers.push({ action, status: res.status(), body: await res.json() });
      await route.fulfill({ response: res });
    });
    await page.evaluate(() => {
      const s = document.createElement("script");
      s.nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce ?? "";
      s.src = "/assets/missing-payment-script.js";
      document.body.appendChild(s);
    });
    await expect.poll(() => answers.length).toBe(1);
    expect(answers[0]).toEqual({ action: "sandbox_echeck_payment_form_log_script_event", status: 200, body: { success: true } });
    await page.close();
  });
});
