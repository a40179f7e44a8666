/**
 * The admin's Staff screens (issue 14, docs/contract/admin.md 'Staff') in Chromium: the owner adds a shop manager
 * (a refused password shown at its field first), who signs in, reaches Products and is refused the Staff screen (no
 * menu entry, a 403 page, and the API refusing them too); the owner creates an application password, which works
 * with HTTP Basic auth on wp-json until it is revoked; the last administrator cannot demote themselves (the API's
 * refusal at the Role field); the owner adds a second user with the set-password e-mail and removes them, their
 * content going to the owner; a customer gets the sign-in page. axe-core on every screen; 1280 and 400 px
 * screenshots to tmp/shots/; nothing scrolls sideways at 400 px.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn as signInAs } from "../support/admin-browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
const PASSWORD = "staff screens pass 1";
const ADMIN = "staff-owner@example.com";
const CUSTOMER = "staff-shopper@example.com";
const MANAGER = "staff-manager@example.com";
const MANAGER_PASSWORD = "manager pass 123";
let adminId = 0;
let managerId = 0;

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
    if (role === "administrator") adminId = made.customerId;
  }
  // The owner is the shop's only administrator (the last-administrator rule is about them).
  await shop.services.db.query(`UPDATE customers SET role = 'shop_manager' WHERE role = 'administrator' AND id <> $1`, [adminId]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const said = (page: Page, text: string) => page.locator(".components-notice").getByText(text, { exact: false });
const signedIn = (email: string, width = 1280, password = PASSWORD) => signInAs(browser, shop.url, email, password, width);
const focusedInvalid = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("aria-invalid"));
const basic = (login: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}` });

describe("staff users", () => {
  it("the owner adds a shop manager; a refused password is shown at its field", async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${shop.url}/wp-admin/users/`);
    await page.getByRole("link", { name: "Staff", exact: true }).waitFor();
    await page.locator("tr", { hasText: ADMIN }).waitFor();
    await page.screenshot({ path: "tmp/shots/admin_1280_staff.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole("link", { name: "Add staff user" }).click();
    await page.getByRole("heading", { level: 1, name: "Add staff user" }).waitFor();
    await page.getByLabel("Username (required)").fill("manny");
    await page.getByLabel("E-mail (required)").fill(MANAGER);
    await page.getByLabel("First name").fill("Manny");
    await page.getByLabel("Last name").fill("Ger");
    expect(await page.getByLabel("Role").inputValue()).toBe("shop_manager");
    await page.getByLabel("Set a password now").check();
    await page.getByLabel("New password").fill("short");
    await page.getByRole("button", { name: "Add staff user" }).click();
    const password = page.getByLabel("New password");
    await expect.poll(() => password.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator(".admin-field-error").innerText()).toBe("Please use a password of at least 8 characters.");
    await expect.poll(() => focusedInvalid(page)).toBe("true");
    await page.screenshot({ path: "tmp/shots/admin_1280_staff_new_error.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await password.fill(MANAGER_PASSWORD);
    await Promise.all([page.waitForURL(/\/wp-admin\/users\/\d+\/\?saved=created$/), page.getByRole("button", { name: "Add staff user" }).click()]);
    managerId = Number(/users\/(\d+)\//.exec(page.url())![1]);
    await said(page, "Staff user added.").waitFor();
    expect(await page.getByLabel("Role").inputValue()).toBe("shop_manager");
    const [row] = await shop.services.db.query<{ role: string; username: string }>(`SELECT role, username FROM customers WHERE id = $1`, [managerId]);
    expect(row).toEqual({ role: "shop_manager", username: "manny" });
    await page.screenshot({ path: "tmp/shots/admin_1280_staff_user.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The list shows them with their role.
    await page.goto(`${shop.url}/wp-admin/users/`);
    expect(await page.locator("tr", { hasText: MANAGER }).innerText()).toContain("Shop manager");
    await context.close();
  });

  it("the shop manager signs in and reaches Products, but is refused the Staff screen and the staff API", async () => {
    const { context, page } = await signedIn(MANAGER, 1280, MANAGER_PASSWORD);
    await page.goto(`${shop.url}/wp-admin/products/`);
    await page.getByRole("heading", { level: 1, name: "Products" }).waitFor();
    const menu = page.getByRole("navigation", { name: "Admin menu" });
    await menu.getByRole("link", { name: "Products" }).waitFor();
    expect(await menu.getByRole("link", { name: "Staff" }).count()).toBe(0);
    const nonce = (await page.locator("#admin-screen").getAttribute("data-nonce")) ?? "";

    for (const path of ["/wp-admin/users/", `/wp-admin/users/${adminId}/`, "/wp-admin/users/new/"]) {
      const res = await page.goto(`${shop.url}${path}`);
      expect(res!.status()).toBe(403);
      expect(await page.getByRole("alert").innerText()).toContain("Sorry, you are not allowed to manage staff users");
      expect(await page.locator("#admin-screen").count()).toBe(0);
    }
    await page.screenshot({ path: "tmp/shots/admin_1280_staff_refused.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The API refuses the same things (a shop manager edits customers only; WordPress's own codes).
    const api = (path: string, method: string, data?: unknown) =>
      page.evaluate(
        async ([p, m, d, n]) => {
          const res = await fetch(`/wp-json/${p}`, {
            method: m,
            headers: { "X-WP-Nonce": n, "Content-Type": "application/json" },
            body: d === undefined ? undefined : JSON.stringify(d),
          });
          return [res.status, ((await res.json()) as { code?: string }).code ?? "ok"];
        },
        [path, method, data, nonce] as const,
      );
    expect(await api("wp/v2/users", "POST", { username: "sneaky", email: "sneaky@example.com", password: "sneaky pass 1", roles: ["administrator"] })).toEqual([
      403,
      "rest_cannot_create_user",
    ]);
    expect(await api(`wp/v2/users/${managerId}`, "POST", { roles: ["administrator"] })).toEqual([403, "rest_cannot_edit_roles"]);
    expect(await api(`wp/v2/users/${adminId}`, "POST", { email: "taken-over@example.com" })).toEqual([403, "rest_cannot_edit"]);
    expect(await api(`wp/v2/users/${adminId}?force=true&reassign=false`, "DELETE")).toEqual([403, "rest_user_cannot_delete"]);
    expect(await api(`wp/v2/users/${adminId}/application-passwords`, "GET")).toEqual([403, "rest_cannot_list_application_passwords"]);
    expect(await api(`wp/v2/users/${adminId}/application-passwords`, "POST", { name: "backdoor" })).toEqual([403, "rest_cannot_create_application_passwords"]);
    await context.close();
  });

  it("the owner creates an application password that works with HTTP Basic auth until it is revoked", async () => {
    const { context, page } = await signedIn(ADMIN);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: shop.url });
    await page.goto(`${shop.url}/wp-admin/users/${adminId}/`);
    await page.getByText("No application passwords yet.").waitFor();
    await page.getByRole("button", { name: "Add application password" }).click();
    // An empty name: the API's refusal at the field.
    await page.getByText("An application name is required").waitFor();
    await page.getByLabel("New application password name").fill("Stock sync");
    await page.getByRole("button", { name: "Add application password" }).click();
    await said(page, "you will not see it again").waitFor();
    const secret = await page.getByLabel("New application password for “Stock sync”").inputValue();
    expect(secret).toMatch(/^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByText("Copied to the clipboard.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.locator("tr", { hasText: "Stock sync" }).waitFor();
    await page.screenshot({ path: "tmp/shots/admin_1280_staff_app_password.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A program uses it: HTTP Basic auth with the owner's e-mail address and the application password.
    const me = await fetch(`${shop.url}/wp-json/wp/v2/users/me?context=edit`, { headers: basic(ADMIN, secret) });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { id: number }).id).toBe(adminId);
    // The list shows it was used.
    await page.reload();
    const listed = page.locator("tr", { hasText: "Stock sync" });
    await expect.poll(async () => (await listed.innerText()).includes("Never")).toBe(false);

    await listed.getByRole("button", { name: "Revoke “Stock sync”" }).click();
    await page.getByRole("group", { name: "Confirm revoking Stock sync" }).getByRole("button", { name: "Revoke", exact: true }).click();
    await said(page, "Application password “Stock sync” revoked").waitFor();
    const refused = await fetch(`${shop.url}/wp-json/wp/v2/users/me?context=edit`, { headers: basic(ADMIN, secret) });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe("incorrect_password");
    await context.close();
  });

  it("refuses the last administrator's self-demotion at the Role field", async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${shop.url}/wp-admin/users/${adminId}/`);
    await page.getByLabel("Role").selectOption("shop_manager");
    await page.getByText("Unsaved changes.").waitFor();
    await page.getByRole("button", { name: "Update" }).click();
    const role = page.getByLabel("Role");
    await expect.poll(() => role.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator(".admin-field-error").innerText()).toContain("The shop must keep at least one administrator.");
    await expect.poll(() => focusedInvalid(page)).toBe("true");
    const [row] = await shop.services.db.query<{ role: string }>(`SELECT role FROM customers WHERE id = $1`, [adminId]);
    expect(row!.role).toBe("administrator");
    // Their own account offers no Remove.
    await page.getByText("You cannot remove your own account here").waitFor();
    await page.screenshot({ path: "tmp/shots/admin_1280_staff_self.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Leaving with the unsaved change asks first.
    const asked = new Promise<string>((resolve) => page.once("dialog", (d) => (resolve(d.type()), void d.dismiss())));
    await page.getByRole("link", { name: "All staff" }).click();
    expect(await asked).toBe("beforeunload");
    await context.close();
  });

  it("adds a user with the set-password e-mail, then removes them with their content going to the owner", async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${shop.url}/wp-admin/users/new/`);
    await page.getByLabel("Username (required)").fill("temp helper");
    await page.getByLabel("E-mail (required)").fill("staff-temp@example.com");
    expect(await page.getByLabel("Send them an e-mail").isChecked()).toBe(true);
    await Promise.all([page.waitForURL(/\/wp-admin\/users\/\d+\/\?saved=invited$/), page.getByRole("button", { name: "Add staff user" }).click()]);
    const tempId = Number(/users\/(\d+)\//.exec(page.url())![1]);
    await said(page, "They were sent an e-mail with a link to choose their password.").waitFor();
    const mails = await shop.services.db.query(`SELECT 1 FROM email_outbox WHERE kind = 'password_reset' AND to_address = $1`, ["staff-temp@example.com"]);
    expect(mails).toHaveLength(1);
    await shop.services.db.query(`UPDATE posts SET author_id = $1 WHERE id = (SELECT min(id) FROM posts)`, [tempId]);

    await page.getByRole("button", { name: "Remove staff user" }).click();
    const confirm = page.getByRole("group", { name: /Confirm removing/ });
    expect(await confirm.getByLabel("Their posts and pages go to").inputValue()).toBe(String(adminId));
    await Promise.all([page.waitForURL(/\/wp-admin\/users\/\?deleted=/), confirm.getByRole("button", { name: "Remove permanently" }).click()]);
    await said(page, "Staff user “temp helper” removed.").waitFor();
    expect(await shop.services.db.query(`SELECT 1 FROM customers WHERE id = $1`, [tempId])).toHaveLength(0);
    const [post] = await shop.services.db.query<{ author_id: number }>(`SELECT author_id FROM posts WHERE id = (SELECT min(id) FROM posts)`);
    expect(post!.author_id).toBe(adminId);
    await context.close();
  });

  it("works at 400 px without sideways scrolling", async () => {
    const { context, page } = await signedIn(ADMIN, 400);
    for (const [path, ready, shot] of [
      ["/wp-admin/users/", () => page.getByText(MANAGER).first().waitFor(), "staff"],
      ["/wp-admin/users/new/", () => page.getByLabel("Username (required)").waitFor(), "staff_new"],
      [`/wp-admin/users/${managerId}/`, () => page.getByLabel("Role").waitFor(), "staff_user"],
    ] as const) {
      await page.goto(`${shop.url}${path}`);
      await ready();
      if (shot === "staff_user") {
        await page.getByLabel("New application password name").fill("Phone app");
        await page.getByRole("button", { name: "Add application password" }).click();
        await page.locator("tr", { hasText: "Phone app" }).waitFor();
        await page.getByRole("button", { name: "Remove staff user" }).click();
      }
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `tmp/shots/admin_400_${shot}.png`, fullPage: true });
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
    await context.close();
  });

  it("a customer gets the sign-in page", async () => {
    const { context, page } = await signedIn(CUSTOMER);
    await page.goto(`${shop.url}/wp-admin/users/`);
    expect(new URL(page.url()).pathname).toBe("/wp-login.php");
    expect(await page.content()).not.toContain(ADMIN);
    await context.close();
  });
});
