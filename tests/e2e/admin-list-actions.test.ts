/**
 * The admin lists' row actions in Chromium (issue 14: "optimistic lists that reconcile with the server";
 * docs/contract/admin.md 'Row actions'): coupons deleted two at once after a confirmation leave the list while the
 * server is still answering, and the server has deleted them after; a deletion the network loses brings its row back
 * with the reason in an alert; a page moved to the trash leaves the storefront, is restored from the Trash view and
 * deleted permanently; a discount rule switched to draft shows Draft at once and is saved so. Orders marked complete
 * together show Completed at once and go back to Processing when the network loses the writes; a product moved to
 * the trash is in the Trash tab (its address reloads it) and restored; a shop manager is not offered deleting a
 * customer, an administrator deletes one; back and forward walk the Products list's pages and a reload keeps the
 * page. axe-core on the list with its confirmation open and on the Trash tab.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page, Route } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { signedIn as signInAs } from "../support/admin-browser.ts";
import { signInAs as restSignIn, TEST_PASSWORD, type SignedIn } from "../support/staff.ts";

let shop: TestShop;
let browser: Browser;
let staff: SignedIn;
const OWNER = "list-owner@example.com";
const MANAGER = "list-manager@example.com";

beforeAll(async () => {
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  staff = await restSignIn(shop, OWNER, "administrator");
  await restSignIn(shop, MANAGER, "shop_manager");
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const api = (method: string, path: string, json?: unknown) =>
  staff.client.request(`/wp-json${path}`, { method, headers: { "X-WP-Nonce": staff.nonce }, ...(json === undefined ? {} : { json }) });
const signedIn = (email = OWNER) => signInAs(browser, shop.url, email, TEST_PASSWORD);
const notice = (page: Page) => page.locator(".components-notice");
/** A narrow screen starts with the list layout (one item a row, no checkboxes): the table, chosen by keyboard, has them. */
async function tableLayout(page: Page) {
  await page.getByRole("button", { name: "Layout" }).click();
  await page.getByRole("menuitemradio", { name: "Table" }).focus();
  await page.keyboard.press("Enter");
  await page.locator(".dataviews-view-table").waitFor();
}
/** A row's action from its open "Actions" menu, chosen with the keyboard as the menu offers it. */
async function menuItem(page: Page, name: string) {
  const item = page.getByRole("menuitem", { name, exact: true });
  await item.focus();
  await page.keyboard.press("Enter");
}

/** Holds every request `matches` picks until `release()` or `fail()`: what the page shows meanwhile is its optimistic state. */
async function holdRequests(page: Page, matches: (method: string, url: URL) => boolean) {
  const held: Route[] = [];
  let holding = true;
  await page.route("**/wp-json/**", (route) => {
    const req = route.request();
    // api-fetch sends PUT and DELETE as POST with WordPress's method override header.
    const method = req.headers()["x-http-method-override"] ?? req.method();
    if (holding && matches(method, new URL(req.url()))) held.push(route);
    else void route.fallback();
  });
  const end = async (each: (route: Route) => Promise<void>) => {
    holding = false;
    for (const route of held.splice(0)) await each(route);
    await page.unrouteAll();
  };
  return {
    count: () => held.length,
    release: () => end((route) => route.fallback()),
    /** The connection drops for the held requests: the page's fetch rejects. */
    fail: () => end((route) => route.abort("internetdisconnected")),
  };
}

describe("optimistic row actions", () => {
  it("deletes two coupons at once: they leave at once, the server deletes them, the third stays", async () => {
    for (const code of ["listdel-a", "listdel-b", "listdel-c"]) {
      expect((await api("POST", "/wc/v3/coupons", { code, discount_type: "percent", amount: "5" })).status).toBe(201);
    }
    const { context, page } = await signedIn();
    await page.goto(`${shop.url}/wp-admin/coupons/`);
    await page.getByRole("searchbox", { name: "Search coupons" }).fill("listdel");
    await page.getByRole("checkbox", { name: "listdel-c", exact: true }).waitFor();
    await page.getByRole("checkbox", { name: "listdel-a", exact: true }).check();
    await page.getByRole("checkbox", { name: "listdel-b", exact: true }).check();

    const deletes = await holdRequests(page, (method, url) => method === "DELETE" && url.pathname.includes("/wc/v3/coupons/"));
    await page.locator(".dataviews-bulk-actions-footer__action-buttons").getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete 2 coupons?" });
    await dialog.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Delete" }).click();

    // Both requests are at the server's door and unanswered, yet the rows are gone.
    await expect.poll(() => deletes.count()).toBe(2);
    await expect.poll(() => page.getByRole("checkbox", { name: "listdel-a", exact: true }).count()).toBe(0);
    expect(await page.getByRole("checkbox", { name: "listdel-b", exact: true }).count()).toBe(0);
    expect(await page.getByRole("checkbox", { name: "listdel-c", exact: true }).count()).toBe(1);
    await deletes.release();

    await notice(page).getByText("2 coupons deleted.").waitFor();
    const left = (await (await api("GET", "/wc/v3/coupons?search=listdel")).json()) as { code: string }[];
    expect(left.map((c) => c.code)).toEqual(["listdel-c"]);
    // After the reconcile, the list is the server's: the third coupon, the two others still gone.
    await page.getByRole("checkbox", { name: "listdel-c", exact: true }).waitFor();
    expect(await page.getByRole("checkbox", { name: "listdel-a", exact: true }).count()).toBe(0);
    await context.close();
  });

  it("a deletion the network loses brings its row back, with the reason in an alert", async () => {
    expect((await api("POST", "/wc/v3/coupons", { code: "listkeep", discount_type: "percent", amount: "5" })).status).toBe(201);
    const { context, page } = await signedIn();
    await page.goto(`${shop.url}/wp-admin/coupons/`);
    await page.getByRole("searchbox", { name: "Search coupons" }).fill("listkeep");
    const row = page.locator("tr", { has: page.getByRole("link", { name: "listkeep" }) });
    await row.waitFor();

    const lost = await holdRequests(page, (method) => method === "DELETE");
    await row.getByRole("button", { name: "Actions" }).click();
    await menuItem(page, "Delete");
    await page.getByRole("dialog", { name: "Delete coupon “listkeep”?" }).getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => lost.count()).toBe(1);
    await expect.poll(() => row.count()).toBe(0);
    // The connection drops: api-fetch rejects, and the row comes back once the list is read again.
    await lost.fail();
    await expect
      .poll(() => page.getByRole("alert").innerText())
      .toMatch(/1 coupon could not be deleted: “listkeep”: .*(offline|could not be reached|valid response from the server)/);
    await row.waitFor();
    expect(((await (await api("GET", "/wc/v3/coupons?search=listkeep")).json()) as unknown[]).length).toBe(1);
    await context.close();
  });

  it("moves a page to the trash, restores it from the Trash view, then deletes it permanently", async () => {
    const made = (await (await api("POST", "/wp/v2/pages", { title: "Listtrash Notes", status: "publish", content: "<p>Hi.</p>" })).json()) as {
      id: number;
      slug: string;
    };
    expect((await fetch(`${shop.url}/${made.slug}/`)).status).toBe(200);
    const { context, page } = await signedIn();
    await page.goto(`${shop.url}/wp-admin/pages/`);
    await page.getByRole("searchbox", { name: "Search pages" }).fill("Listtrash");
    const row = page.locator("tr", { has: page.getByRole("link", { name: "Listtrash Notes", exact: true }) });
    await row.waitFor();
    await row.getByRole("button", { name: "Actions" }).click();
    await menuItem(page, "Move to trash");
    await notice(page).getByText("Page “Listtrash Notes” moved to the trash.").waitFor();
    expect(await row.count()).toBe(0);
    expect((await fetch(`${shop.url}/${made.slug}/`)).status).toBe(404);

    // The Trash view: restore (as a draft: WordPress's untrash), then delete for good after the confirmation.
    await page.getByRole("tab", { name: "Trash" }).click();
    const trashed = page.locator("tr", { hasText: "Listtrash Notes" });
    await trashed.waitFor();
    await trashed.getByRole("button", { name: "Actions" }).click();
    expect(await page.getByRole("menuitem", { name: "Edit" }).count()).toBe(0);
    await menuItem(page, "Restore");
    await notice(page).getByText("Page “Listtrash Notes” restored.").waitFor();
    const restored = (await (await api("GET", `/wp/v2/pages/${made.id}?context=edit`)).json()) as { status: string };
    expect(restored.status).toBe("draft");

    expect((await api("DELETE", `/wp/v2/pages/${made.id}`)).status).toBe(200);
    await page.getByRole("tab", { name: "All" }).click();
    await page.getByRole("tab", { name: "Trash" }).click();
    await trashed.waitFor();
    await trashed.getByRole("button", { name: "Actions" }).click();
    await menuItem(page, "Delete permanently");
    await page.getByRole("dialog", { name: "Delete “Listtrash Notes” permanently?" }).getByRole("button", { name: "Delete permanently" }).click();
    await notice(page).getByText("Page “Listtrash Notes” deleted permanently.").waitFor();
    expect((await api("GET", `/wp/v2/pages/${made.id}?context=edit`)).status).toBe(404);
    await context.close();
  });

  it("switches a discount rule to draft: Draft at once, and saved so", async () => {
    const { context, page } = await signedIn();
    await page.goto(`${shop.url}/wp-admin/discounts/`);
    const tie = page.locator("tr", { has: page.getByRole("link", { name: /^Tie multi-buy/ }) });
    await tie.waitFor();
    const puts = await holdRequests(page, (method, url) => method === "PUT" && url.pathname.includes("/shop/v1/discount-rules/"));
    await tie.getByRole("button", { name: "Actions" }).click();
    await menuItem(page, "Switch to draft");
    await expect.poll(() => puts.count()).toBe(1);
    await expect.poll(() => tie.innerText()).toContain("Draft");
    await puts.release();
    await notice(page)
      .getByText(/Discount rule “Tie multi-buy.*” switched to draft\./)
      .waitFor();
    const rule = (await (await api("GET", "/shop/v1/discount-rules/tie-multibuy")).json()) as { enabled: boolean };
    expect(rule.enabled).toBe(false);
    expect(await tie.innerText()).toContain("Draft");
    await context.close();
  });

  it("marks two orders complete at once; a lost network puts them back to Processing, a kept one completes", async () => {
    const product = ((await (await api("GET", "/wc/v3/products?per_page=1&type=simple&stock_status=instock")).json()) as { id: number }[])[0]!;
    const ids: number[] = [];
    for (const last of ["Listmark", "Listmark"]) {
      const made = await api("POST", "/wc/v3/orders", {
        billing: { first_name: "Ann", last_name: last, email: "listmark@example.com" },
        line_items: [{ product_id: product.id, quantity: 1 }],
      });
      expect(made.status).toBe(201);
      const { id } = (await made.json()) as { id: number };
      expect((await api("PUT", `/wc/v3/orders/${id}`, { status: "processing" })).status).toBe(200);
      ids.push(id);
    }
    const { context, page } = await signedIn();
    await page.goto(`${shop.url}/wp-admin/orders/?status=processing&s=listmark`);
    const rowOf = (id: number) => page.locator("tr", { has: page.getByRole("link", { name: new RegExp(`^#${id} `) }) });
    await rowOf(ids[1]!).waitFor();
    expect(await page.getByRole("tab", { name: /^Processing/ }).getAttribute("aria-selected")).toBe("true");
    await page.getByRole("tab", { name: /^All/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("status")).toBe(null);
    for (const id of ids) await rowOf(id).getByRole("checkbox").check();

    const lost = await holdRequests(page, (method, url) => method === "PUT" && url.pathname.includes("/wc/v3/orders/"));
    await page.locator(".dataviews-bulk-actions-footer__action-buttons").getByRole("button", { name: "Mark complete" }).click();
    await expect.poll(() => lost.count()).toBe(2);
    for (const id of ids) await expect.poll(() => rowOf(id).innerText()).toContain("Completed");
    await lost.fail();
    await expect.poll(() => page.getByRole("alert").innerText()).toMatch(/2 orders could not be marked complete: #\d+: /);
    for (const id of ids) await expect.poll(() => rowOf(id).innerText()).toContain("Processing");

    // One at a time from the row's menu, with the keyboard: saved, announced, still in the All tab.
    await rowOf(ids[0]!).getByRole("button", { name: "Actions" }).click();
    await menuItem(page, "Mark complete");
    await notice(page).getByText(`Order #${ids[0]} marked complete.`).waitFor();
    expect(((await (await api("GET", `/wc/v3/orders/${ids[0]}`)).json()) as { status: string }).status).toBe("completed");
    expect(await rowOf(ids[0]!).innerText()).toContain("Completed");
    await context.close();
  });

  it("at 400 px the bulk actions are offered too, as named icon buttons: two orders marked complete, a product moved to the trash", async () => {
    const product = ((await (await api("GET", "/wc/v3/products?per_page=1&type=simple&stock_status=instock")).json()) as { id: number }[])[0]!;
    const ids: number[] = [];
    for (let i = 0; i < 2; i++) {
      const made = await api("POST", "/wc/v3/orders", {
        billing: { first_name: "Ann", last_name: "Narrowmark", email: "narrowmark@example.com" },
        line_items: [{ product_id: product.id, quantity: 1 }],
      });
      const { id } = (await made.json()) as { id: number };
      expect((await api("PUT", `/wc/v3/orders/${id}`, { status: "processing" })).status).toBe(200);
      ids.push(id);
    }
    const { context, page } = await signInAs(browser, shop.url, OWNER, TEST_PASSWORD, 400);
    await page.goto(`${shop.url}/wp-admin/orders/?s=narrowmark`);
    await tableLayout(page);
    const footer = page.locator(".dataviews-bulk-actions-footer__action-buttons");
    for (const id of ids) {
      const box = page.getByRole("checkbox", { name: new RegExp(`#${id}\\b`) });
      await expect.poll(async () => (await box.check().catch(() => undefined), box.isChecked())).toBe(true);
    }
    // Before: only "Bulk edit" (the one action with an icon) was offered at this width.
    const mark = footer.getByRole("button", { name: "Mark complete" });
    await mark.waitFor();
    await page.screenshot({ path: "tmp/shots/admin_400_orders-bulk.png" });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await mark.click();
    for (const id of ids)
      await expect.poll(async () => ((await (await api("GET", `/wc/v3/orders/${id}`)).json()) as { status: string }).status).toBe("completed");

    const made = (await (await api("POST", "/wc/v3/products", { name: "Narrowbin Scarf", regular_price: "9.00", status: "publish" })).json()) as { id: number };
    await page.goto(`${shop.url}/wp-admin/products/?s=Narrowbin`);
    await tableLayout(page);
    const box = page.getByRole("checkbox", { name: "Narrowbin Scarf", exact: true });
    await expect.poll(async () => (await box.check().catch(() => undefined), box.isChecked())).toBe(true);
    await footer.getByRole("button", { name: "Move to trash" }).click();
    await expect.poll(async () => ((await (await api("GET", `/wc/v3/products/${made.id}`)).json()) as { status: string }).status).toBe("trash");
    await context.close();
  });

  it("switches a product to draft, moves it to the trash, finds it in the Trash tab by its address, and restores it", async () => {
    const made = (await (await api("POST", "/wc/v3/products", { name: "Listbin Scarf", regular_price: "9.00", status: "publish" })).json()) as { id: number };
    const { context, page } = await signedIn();
    await page.goto(`${shop.url}/wp-admin/products/?s=listbin`);
    const row = page.locator("tr", { has: page.getByRole("link", { name: "Listbin Scarf", exact: true }) });
    await row.waitFor();
    // Switched to draft: Draft at once, and saved so.
    await row.getByRole("button", { name: "Actions" }).click();
    await menuItem(page, "Switch to draft");
    await notice(page).getByText("Product “Listbin Scarf” switched to draft.").waitFor();
    expect(((await (await api("GET", `/wc/v3/products/${made.id}`)).json()) as { status: string }).status).toBe("draft");
    expect(await row.innerText()).toContain("Draft");
    await row.getByRole("button", { name: "Actions" }).click();
    await menuItem(page, "Move to trash");
    await notice(page).getByText("Product “Listbin Scarf” moved to the trash.").waitFor();
    expect(await row.count()).toBe(0);
    expect(((await (await api("GET", `/wc/v3/products/${made.id}`)).json()) as { status: string }).status).toBe("trash");

    await page.getByRole("tab", { name: "Trash" }).click();
    await expect.poll(() => new URL(page.url()).search).toBe("?s=listbin&post_status=trash");
    await page.reload();
    const trashed = page.locator("tr", { hasText: "Listbin Scarf" });
    await trashed.waitFor();
    expect(await page.getByRole("tab", { name: "Trash" }).getAttribute("aria-selected")).toBe("true");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await trashed.getByRole("button", { name: "Actions" }).click();
    await page.getByRole("menuitem", { name: "Restore", exact: true }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Edit", exact: true }).count()).toBe(0);
    await menuItem(page, "Restore");
    await notice(page).getByText("Product “Listbin Scarf” restored.").waitFor();
    expect(((await (await api("GET", `/wc/v3/products/${made.id}`)).json()) as { status: string }).status).toBe("draft");
    await context.close();
  });

  it("offers deleting customers to an administrator only", async () => {
    const made = await api("POST", "/wc/v3/customers", { email: "listgone@example.com", first_name: "Lis", last_name: "Gone" });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: number };
    const manager = await signedIn(MANAGER);
    await manager.page.goto(`${shop.url}/wp-admin/customers/?s=listgone`);
    const managerRow = manager.page.locator("tr", { has: manager.page.getByRole("link", { name: "Lis Gone" }) });
    await managerRow.waitFor();
    // Edit is their only action: a button on the row, and no menu with more.
    await managerRow.getByRole("button", { name: "Edit", exact: true }).waitFor();
    expect(await managerRow.getByRole("button", { name: "Actions" }).count()).toBe(0);
    expect(await manager.page.getByRole("button", { name: "Delete" }).count()).toBe(0);
    await manager.context.close();

    const { context, page } = await signedIn();
    await page.goto(`${shop.url}/wp-admin/customers/?s=listgone`);
    const row = page.locator("tr", { has: page.getByRole("link", { name: "Lis Gone" }) });
    await row.waitFor();
    await row.getByRole("button", { name: "Actions" }).click();
    await menuItem(page, "Delete");
    await page.getByRole("dialog", { name: "Delete customer “Lis Gone”?" }).getByRole("button", { name: "Delete" }).click();
    await notice(page).getByText("Customer “Lis Gone” deleted.").waitFor();
    expect((await api("GET", `/wc/v3/customers/${id}`)).status).toBe(404);
    await context.close();
  });

  it("keeps the Products list's page in the address: back and forward walk the pages, a reload stays", async () => {
    const { context, page } = await signedIn();
    await page.goto(`${shop.url}/wp-admin/products/`);
    const firstName = () => page.locator(".dataviews-view-table tbody tr").first().getByRole("link").first().innerText();
    await page.locator(".dataviews-view-table tbody tr").first().waitFor();
    const onFirst = await firstName();
    await page.getByRole("button", { name: "Next page" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("paged")).toBe("2");
    await expect.poll(firstName).not.toBe(onFirst);
    const onSecond = await firstName();

    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get("paged")).toBe(null);
    await expect.poll(firstName).toBe(onFirst);
    await page.goForward();
    await expect.poll(firstName).toBe(onSecond);
    expect(await page.getByRole("combobox", { name: "Current page" }).inputValue()).toBe("2");
    await page.reload();
    await page.locator(".dataviews-view-table tbody tr").first().waitFor();
    await expect.poll(firstName).toBe(onSecond);
    await context.close();
  });
});
