/**
 * Staff sign-in (docs/contract/rest/auth.md): wp-login.php with WordPress's errors, limits and safe redirect_to,
 * sign-out with a nonce, /wp-admin/ and post.php for guests, customers and staff, the storefront's Edit links, the
 * REST nonce, application passwords (create, list, introspect, use over Basic, revoke, who may manage whose), and
 * the first start's administrator and shop manager (random password printed once, idempotent restarts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { builtServer, startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, TEST_PASSWORD, type SignedIn } from "../support/staff.ts";
import { parseEnv } from "../../core/config/env.server.ts";
import { AUTH_LIMITS } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let admin: SignedIn;
let customer: SignedIn;
let product: { id: number; slug: string };
let post: { id: number; slug: string };

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "auth-admin@example.com", "administrator");
  customer = await signInAs(shop, "auth-customer@example.com", "customer");
  product = (await shop.services.db.query<{ id: number; slug: string }>(`SELECT id, slug FROM products WHERE status = 'publish' ORDER BY id LIMIT 1`))[0]!;
  post = (await shop.services.db.query<{ id: number; slug: string }>(`SELECT id, slug FROM posts WHERE status = 'publish' ORDER BY id LIMIT 1`))[0]!;
});
afterAll(async () => shop?.close());

let addressSeq = 0;
/** A browser from an address of its own (the limits count per address). */
const browser = () => new TestClient(shop.url, { forwardedFor: `203.0.113.${++addressSeq}` });

/** Opens wp-login.php (which sets the test cookie) and posts the form. */
async function wpLogin(client: TestClient, log: string, pwd: string, redirectTo = ""): Promise<Response> {
  const page = await client.get(`/wp-login.php${redirectTo ? `?redirect_to=${encodeURIComponent(redirectTo)}` : ""}`);
  expect(page.status).toBe(200);
  await page.text();
  return client.post("/wp-login.php", { log, pwd, rememberme: "forever", redirect_to: redirectTo, testcookie: "1", "wp-submit": "Log In" });
}

const basic = (login: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}` });

describe("wp-login.php", () => {
  it("is WordPress's form, server-rendered without scripts", async () => {
    const client = browser();
    const res = await client.get("/wp-login.php?redirect_to=%2Fwp-admin%2Fedit%2F");
    const html = await res.text();
    expect(res.status).toBe(200);
    for (const field of ['name="log"', 'name="pwd"', 'name="rememberme"', 'name="redirect_to" value="/wp-admin/edit/"', 'name="testcookie" value="1"'])
      expect(html).toContain(field);
    expect(html).toContain('<label for="user_login">Username or Email Address</label>');
    expect(html).not.toContain("<script");
    expect(html).not.toContain('id="masthead"');
    expect(client.cookie("wordpress_test_cookie")).toBe("WP Cookie check");
  });

  it("signs staff in to the dashboard, or to a safe redirect_to", async () => {
    const client = browser();
    const res = await wpLogin(client, "auth-admin@example.com", TEST_PASSWORD);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/wp-admin/");
    const dash = await client.get("/wp-admin/");
    expect(dash.status).toBe(200);
    const html = await dash.text();
    expect(html).toContain("<h1>Dashboard</h1>");
    // The dashboard is a screen of the admin's own bundle; no storefront script comes with it.
    expect(html).not.toMatch(/<script[^>]+src="\/assets\//);
    // Its files are asked for by the version of their bytes and kept for a year; an address without it, or an old
    // page's version, is revalidated each time (server/http/admin-assets.ts).
    const script = /src="(\/wp-admin-app\/admin\.js\?v=([0-9a-f]{16}))"/.exec(html);
    const css = /href="(\/wp-admin-app\/admin\.css\?v=([0-9a-f]{16}))"/.exec(html);
    expect(script?.[2]).toBeDefined();
    expect(css?.[2]).toBe(script?.[2]);
    const versioned = await client.get(script?.[1] ?? "");
    expect(versioned.status).toBe(200);
    expect(versioned.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // admin.js is the entry; the admin's code is in the chunk it imports, named by the hash of its bytes (decision 0046).
    const core = /from"\.\/(admin-core-[\w-]{8}\.js)"/.exec(await versioned.text())?.[1];
    expect(core).toBeDefined();
    const chunk = await client.get(`/wp-admin-app/${core}`);
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await chunk.text()).length).toBeGreaterThan(100_000);
    for (const address of ["/wp-admin-app/admin.js", "/wp-admin-app/admin.js?v=0000000000000000"]) {
      const other = await client.get(address);
      expect(other.status).toBe(200);
      expect(other.headers.get("cache-control")).toBe("no-cache");
      await other.arrayBuffer();
    }

    const other = browser();
    const to = await wpLogin(other, "auth-admin@example.com", TEST_PASSWORD, `${shop.url}/wp-admin/post.php?post=1&action=edit`);
    expect(to.headers.get("location")).toBe("/wp-admin/post.php?post=1&action=edit");
  });

  it("never redirects to another site", async () => {
    for (const evil of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "javascript:alert(1)",
      `${shop.url}@evil.example/`,
      "http://evil.example/wp-admin/",
    ]) {
      const res = await wpLogin(browser(), "auth-admin@example.com", TEST_PASSWORD, evil);
      expect(res.status, evil).toBe(302);
      expect(res.headers.get("location"), evil).toBe("/wp-admin/");
    }
    const page = await (await browser().get(`/wp-login.php?redirect_to=${encodeURIComponent("https://evil.example/")}`)).text();
    expect(page).toContain('name="redirect_to" value=""');
  });

  it("sends a customer to My account, never into the admin", async () => {
    const res = await wpLogin(browser(), "auth-customer@example.com", TEST_PASSWORD, "/wp-admin/");
    expect(res.headers.get("location")).toBe("/my-account/");
    const shopTo = await wpLogin(browser(), "auth-customer@example.com", TEST_PASSWORD, "/shop/");
    expect(shopTo.headers.get("location")).toBe("/shop/");
  });

  it("answers with WordPress's error texts", async () => {
    const wrong = await (await wpLogin(browser(), "auth-admin@example.com", "not the password")).text();
    expect(wrong).toContain('id="login_error"');
    expect(wrong).toContain("<strong>Error:</strong> The password you entered for the email address <strong>auth-admin@example.com</strong> is incorrect.");
    expect(wrong).toContain('value="auth-admin@example.com"'); // the login is kept in the form
    const unknown = await (await wpLogin(browser(), "nobody-here@example.com", "whatever pass")).text();
    expect(unknown).toContain("<strong>Error:</strong> Unknown email address. Check again or try your username.");
    const username = await (await wpLogin(browser(), "no-such-user", "whatever pass")).text();
    expect(username).toContain("The username <strong>no-such-user</strong> is not registered on this site.");
    const empty = await (await wpLogin(browser(), "", "")).text();
    expect(empty).toContain("<strong>Error:</strong> The username field is empty.");
    expect(empty).toContain("<strong>Error:</strong> The password field is empty.");
    // Without the test cookie (a browser refusing cookies, or a form posted from another site).
    const bare = browser();
    const blocked = await bare.post("/wp-login.php", { log: "auth-admin@example.com", pwd: TEST_PASSWORD, testcookie: "1" });
    expect(await blocked.text()).toContain("Cookies are blocked or not supported by your browser.");
    const crossSite = browser();
    await (await crossSite.get("/wp-login.php")).text();
    const forged = await crossSite.request("/wp-login.php", {
      method: "POST",
      headers: { origin: "https://evil.example" },
      form: { log: "auth-admin@example.com", pwd: TEST_PASSWORD, testcookie: "1" },
    });
    expect(forged.status).toBe(400); // React Router refuses an action posted from another origin
    expect((await crossSite.get("/wp-admin/")).status).toBe(302); // not signed in
  });

  it("has the storefront's per-address limit", async () => {
    const client = browser();
    await (await client.get("/wp-login.php")).text();
    const form = { log: "auth-limit@example.com", pwd: "wrong password", testcookie: "1" };
    for (let i = 0; i < AUTH_LIMITS.failedPerAddressPer15Min; i++) expect((await client.post("/wp-login.php", form)).status).toBe(200);
    const limited = await client.post("/wp-login.php", { ...form, log: "auth-admin@example.com", pwd: TEST_PASSWORD });
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain(AUTH_LIMITS.tooManyLoginsFromAddressMessage);
  });

  it("signs out with a nonce, and asks first without one", async () => {
    const client = browser();
    await wpLogin(client, "auth-admin@example.com", TEST_PASSWORD);
    const ask = await client.get("/wp-login.php?action=logout");
    const html = await ask.text();
    expect(html).toContain("You are attempting to log out of");
    expect((await client.get("/wp-admin/")).status).toBe(200); // still signed in
    const link = /href="(\/wp-login\.php\?action=logout&amp;_wpnonce=[^"]+)"/.exec(html)![1]!.replace(/&amp;/g, "&");
    const out = await client.get(link);
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/wp-login.php?loggedout=true");
    expect(await (await client.get("/wp-login.php?loggedout=true")).text()).toContain("You are now logged out.");
    expect((await client.get("/wp-admin/")).status).toBe(302);
  });
});

describe("/wp-admin/", () => {
  it("sends a signed-out visitor to sign in, and back", async () => {
    const guest = browser();
    for (const p of ["/wp-admin/", `/wp-admin/post.php?post=${product.id}&action=edit`, "/wp-admin/edit.php?post_type=product"]) {
      const res = await guest.get(p);
      expect(res.status, p).toBe(302);
      expect(res.headers.get("location"), p).toBe(`/wp-login.php?redirect_to=${encodeURIComponent(new URL(p, shop.url).toString())}&reauth=1`);
    }
    expect((await guest.get("/wp-admin")).status).toBe(301); // WordPress-style trailing slash first
  });

  it("sends a customer to the sign-in page, which says the admin needs a staff account", async () => {
    for (const p of ["/wp-admin/", `/wp-admin/post.php?post=${product.id}&action=edit`, `/wp-admin/edit/product/${product.id}/`]) {
      const res = await customer.client.get(p);
      expect(res.status, p).toBe(302);
      const location = res.headers.get("location")!;
      expect(location, p).toBe(`/wp-login.php?redirect_to=${encodeURIComponent(new URL(p, shop.url).toString())}&reauth=1`);
      const page = await (await customer.client.get(location)).text();
      expect(page).toContain("Sorry, you are not allowed to access this page.");
      expect(page).toContain('id="loginform"');
    }
  });

  it("post.php sends staff to the edit screen; an unknown id is a 404", async () => {
    const res = await admin.client.get(`/wp-admin/post.php?post=${product.id}&action=edit`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/wp-admin/edit/product/${product.id}/`);
    const screen = await admin.client.get(`/wp-admin/edit/product/${product.id}/`);
    expect(screen.status).toBe(200);
    const html = await screen.text();
    expect(html).toContain("Edit Product");
    // The product editor is the admin's browser screen: the page names it, the admin bundle renders it.
    expect(html).toContain(`data-screen="{&quot;name&quot;:&quot;product&quot;,&quot;id&quot;:${product.id},`);
    expect(html).toMatch(/src="\/wp-admin-app\/admin\.js\?v=[0-9a-f]{16}"/);

    const toPost = await admin.client.get(`/wp-admin/post.php?post=${post.id}&action=edit&post_type=post`);
    expect(toPost.headers.get("location")).toBe(`/wp-admin/edit/post/${post.id}/`);
    // The post editor (issue 14) is a browser screen too.
    expect(await (await admin.client.get(`/wp-admin/edit/post/${post.id}/`)).text()).toContain(
      `data-screen="{&quot;name&quot;:&quot;edit-content&quot;,&quot;kind&quot;:&quot;post&quot;,&quot;id&quot;:${post.id}}"`,
    );

    for (const p of ["/wp-admin/post.php?post=999999&action=edit", "/wp-admin/post.php?post=abc&action=edit", "/wp-admin/edit/product/999999/"]) {
      const missing = await admin.client.get(p);
      expect(missing.status, p).toBe(404);
      expect(await missing.text()).toContain("You attempted to edit an item that doesn’t exist.");
    }
    expect((await admin.client.get("/wp-admin/options-general.php")).status).toBe(404);
    // WordPress's address of the product list leads to the admin's.
    const list = await admin.client.get("/wp-admin/edit.php?post_type=product");
    expect(list.status).toBe(302);
    expect(list.headers.get("location")).toBe("/wp-admin/products/");
  });

  it("a signed-in user opening wp-login.php goes on without the form", async () => {
    const res = await admin.client.get("/wp-login.php");
    expect(res.headers.get("location")).toBe("/wp-admin/");
    expect((await admin.client.get("/wp-login.php?reauth=1")).status).toBe(200);
  });
});

describe("the storefront's Edit link", () => {
  it("shows for staff only, and leaves everyone else's page unchanged", async () => {
    const productPath = `/product/${product.slug}/`;
    const postPath = `/blog/${post.slug}/`;
    const staffProduct = await (await admin.client.get(productPath)).text();
    expect(staffProduct).toContain(`href="/wp-admin/post.php?post=${product.id}&amp;action=edit"`);
    const staffPost = await (await admin.client.get(postPath)).text();
    expect(staffPost).toContain(`href="/wp-admin/post.php?post=${post.id}&amp;action=edit&amp;post_type=post"`);
    for (const html of [
      await (await browser().get(productPath)).text(),
      await (await customer.client.get(productPath)).text(),
      await (await browser().get(postPath)).text(),
    ]) {
      expect(html).not.toContain("post-edit-link");
      expect(html).not.toContain("editLink");
      expect(html).not.toContain("/wp-admin/post.php");
    }
  });
});

describe("REST nonce for staff", () => {
  it("admin-ajax.php?action=rest-nonce gives a nonce that works; a wrong one answers rest_cookie_invalid_nonce", async () => {
    const nonce = await (await admin.client.get("/wp-admin/admin-ajax.php?action=rest-nonce")).text();
    expect(nonce).toMatch(/^[\w-]{6,}$/);
    const ok = await admin.client.get("/wp-json/wp/v2/users/me/application-passwords", { headers: { "X-WP-Nonce": nonce } });
    expect(ok.status).toBe(200);
    const bad = await admin.client.get("/wp-json/wp/v2/users/me/application-passwords", { headers: { "X-WP-Nonce": "0123456789" } });
    expect(bad.status).toBe(403);
    expect(await bad.json()).toEqual({ code: "rest_cookie_invalid_nonce", message: "Cookie check failed", data: { status: 403 } });
  });
});

describe("application passwords", () => {
  const base = "/wp-json/wp/v2/users/me/application-passwords";
  const asAdmin = (p: string, init: RequestInit & { json?: unknown } = {}) =>
    admin.client.request(p, { ...init, headers: { "X-WP-Nonce": admin.nonce, ...(init.headers as Record<string, string>) } });

  it("are created (shown once), listed, introspected, used over Basic, renamed and revoked", async () => {
    const created = await asAdmin(base, { method: "POST", json: { name: "Stock sync", app_id: "a6b1a4c2-4c4f-4b4e-9a1e-0f2b3c4d5e6f" } });
    expect(created.status).toBe(201);
    const item = await created.json();
    expect(item.password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    expect(item).toMatchObject({ name: "Stock sync", app_id: "a6b1a4c2-4c4f-4b4e-9a1e-0f2b3c4d5e6f", last_used: null, last_ip: null });
    expect(item.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(item.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const stored = await shop.services.db.query<{ password_hash: string }>(`SELECT password_hash FROM application_passwords WHERE uuid = $1`, [item.uuid]);
    expect(stored[0]!.password_hash).not.toContain(item.password.replace(/ /g, ""));

    const listed = await (await asAdmin(base)).json();
    expect(listed.map((p: { uuid: string }) => p.uuid)).toContain(item.uuid);
    expect(listed.every((p: Record<string, unknown>) => !("password" in p))).toBe(true);
    expect(await (await asAdmin(base, { method: "POST", json: { name: "stock SYNC" } })).json()).toMatchObject({ code: "application_password_duplicate_name" });
    expect((await asAdmin(base, { method: "POST", json: {} })).status).toBe(400);

    // Basic with the chunked password (spaces and all), as integrations paste it; no cookie, no nonce.
    const api = new TestClient(shop.url, { forwardedFor: "198.51.100.7" });
    const me = await api.get("/wp-json/wp/v2/users/me", { headers: basic("auth-admin@example.com", item.password) });
    expect(me.status).toBe(200);
    expect((await me.json()).id).toBe(admin.id);
    const intro = await api.get(`${base}/introspect`, { headers: basic("AUTH-ADMIN@example.com", item.password.replace(/ /g, "")) });
    expect(intro.status).toBe(200);
    const introspected = await intro.json();
    expect(introspected).toMatchObject({ uuid: item.uuid, name: "Stock sync", last_ip: "198.51.100.7" });
    expect(introspected.last_used).not.toBeNull();
    expect(await (await asAdmin(`${base}/introspect`)).json()).toMatchObject({ code: "rest_no_authenticated_app_password" });
    // Not on pages: the cookie routes do not know Basic.
    const page = await api.get("/wp-admin/", { headers: basic("auth-admin@example.com", item.password) });
    expect(page.status).toBe(302);

    const renamed = await asAdmin(`${base}/${item.uuid}`, { method: "POST", json: { name: "Stock sync (old)" } });
    expect(await renamed.json()).toMatchObject({ uuid: item.uuid, name: "Stock sync (old)" });
    expect(await (await asAdmin(`${base}/${item.uuid}`)).json()).toMatchObject({ name: "Stock sync (old)" });
    const revoked = await asAdmin(`${base}/${item.uuid}`, { method: "DELETE" });
    expect(await revoked.json()).toMatchObject({ deleted: true, previous: { uuid: item.uuid } });
    const after = await api.get("/wp-json/wp/v2/users/me", { headers: basic("auth-admin@example.com", item.password) });
    expect(after.status).toBe(401);
    expect((await after.json()).code).toBe("incorrect_password");
    expect(await (await asAdmin(`${base}/${item.uuid}`)).json()).toMatchObject({ code: "rest_application_password_not_found" });

    await asAdmin(base, { method: "POST", json: { name: "One" } });
    await asAdmin(base, { method: "POST", json: { name: "Two" } });
    expect(await (await asAdmin(base, { method: "DELETE" })).json()).toEqual({ deleted: true, count: 2 });
    const audit = await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE object_type = 'application_password'`);
    expect(audit[0]!.n).toBeGreaterThanOrEqual(5);
  });

  it("Basic never takes the account's own password, and names a bad login as WordPress does", async () => {
    const api = new TestClient(shop.url, { forwardedFor: "198.51.100.8" });
    const cases: [string, string, string][] = [
      ["auth-admin@example.com", TEST_PASSWORD, "incorrect_password"],
      ["nobody-here@example.com", "abcd efgh ijkl mnop qrst uvwx", "invalid_email"],
      ["admin", "abcd efgh ijkl mnop qrst uvwx", "invalid_username"],
    ];
    for (const [login, password, code] of cases) {
      const res = await api.get("/wp-json/wp/v2/users/me", { headers: basic(login, password) });
      expect(res.status, code).toBe(401);
      expect((await res.json()).code).toBe(code);
    }
  });

  it("limits failed Basic attempts per address", async () => {
    const api = new TestClient(shop.url, { forwardedFor: "198.51.100.9" });
    for (let i = 0; i < AUTH_LIMITS.failedPerAddressPer15Min; i++)
      expect((await api.get("/wp-json/wp/v2/users/me", { headers: basic("auth-admin@example.com", "wrong") })).status).toBe(401);
    const limited = await api.get("/wp-json/wp/v2/users/me", { headers: basic("auth-admin@example.com", "wrong") });
    expect(limited.status).toBe(429);
  });

  it("a customer manages their own only; an administrator manages a customer's", async () => {
    const asCustomer = (p: string, init: RequestInit & { json?: unknown } = {}) =>
      customer.client.request(p, { ...init, headers: { "X-WP-Nonce": customer.nonce } });
    const own = await asCustomer("/wp-json/wp/v2/users/me/application-passwords", { method: "POST", json: { name: "My app" } });
    expect(own.status).toBe(201);
    const theirs = `/wp-json/wp/v2/users/${admin.id}/application-passwords`;
    const list = await asCustomer(theirs);
    expect(list.status).toBe(403);
    expect((await list.json()).code).toBe("rest_cannot_list_application_passwords");
    expect(((await (await asCustomer(theirs, { method: "POST", json: { name: "x" } })).json()) as { code: string }).code).toBe(
      "rest_cannot_create_application_passwords",
    );
    expect((await asCustomer(theirs, { method: "DELETE" })).status).toBe(403);
    expect((await asCustomer("/wp-json/wp/v2/users/999999/application-passwords")).status).toBe(403); // learns nothing
    expect((await new TestClient(shop.url).get(theirs)).status).toBe(401);
    expect((await new TestClient(shop.url).get("/wp-json/wp/v2/users/me/application-passwords")).status).toBe(401);

    const byAdmin = await admin.client.request(`/wp-json/wp/v2/users/${customer.id}/application-passwords`, {
      method: "POST",
      headers: { "X-WP-Nonce": admin.nonce },
      json: { name: "Set up by the owner" },
    });
    expect(byAdmin.status).toBe(201);
    const manager = await signInAs(shop, "auth-manager@example.com", "shop_manager");
    const onAdmin = await manager.client.get(theirs, { headers: { "X-WP-Nonce": manager.nonce } });
    expect(onAdmin.status).toBe(403);
    const onCustomer = await manager.client.get(`/wp-json/wp/v2/users/${customer.id}/application-passwords`, { headers: { "X-WP-Nonce": manager.nonce } });
    expect(onCustomer.status).toBe(200);
    expect((await onCustomer.json()).length).toBe(2);
  });
});

describe("the first start's staff accounts", () => {
  it("creates one administrator and the demo shop manager with random passwords printed once, and never again", async () => {
    const { startShop, createLogger } = await builtServer();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-staff-"));
    const env = (extra: Record<string, string> = {}) =>
      parseEnv({ NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, SIMULATOR: "off", LOG_LEVEL: "warn", ...extra });
    const start = async (extra: Record<string, string> = {}) => {
      const lines: string[] = [];
      const running = await startShop(
        env(extra),
        createLogger("info", (line) => lines.push(line)),
      );
      return { running, lines: lines.map((l) => JSON.parse(l) as { level: string; msg: string }) };
    };
    try {
      const first = await start();
      const created = first.lines.filter((l) => l.msg.includes("account created"));
      expect(created.map((l) => l.level)).toEqual(["warn", "warn"]);
      const adminLine = /as (admin@example\.com) with the password (\S+) /.exec(created.find((l) => l.msg.startsWith("administrator"))!.msg)!;
      const managerLine = /as (shopmanager@example\.com) with the password (\S+) /.exec(created.find((l) => l.msg.startsWith("shop manager"))!.msg)!;
      expect(adminLine[2]).toMatch(/^[\w-]{24}$/);
      expect(managerLine[2]).not.toBe(adminLine[2]);
      const port = (first.running.server.address() as { port: number }).port;
      const client = new TestClient(`http://127.0.0.1:${port}`);
      await (await client.get("/wp-login.php")).text();
      const signIn = await client.post("/wp-login.php", { log: adminLine[1]!, pwd: adminLine[2]!, testcookie: "1" });
      expect(signIn.headers.get("location")).toBe("/wp-admin/");
      const roles = async (db = first.running.services.db) =>
        db.query<{ role: string; email: string; password_hash: string }>(
          `SELECT role, email, password_hash FROM customers WHERE role <> 'customer' ORDER BY id`,
        );
      const before = await roles();
      expect(before.map((r) => [r.role, r.email])).toEqual([
        ["administrator", "admin@example.com"],
        ["shop_manager", "shopmanager@example.com"],
      ]);
      await first.running.stop();

      // A restart, even with the variables set now: nothing created, nothing printed, no password changed.
      const second = await start({ ADMIN_EMAIL: "owner@example.com", ADMIN_PASSWORD: "a long owner password" });
      expect(second.lines.filter((l) => /account created|password/.test(l.msg))).toEqual([]);
      expect(await roles(second.running.services.db)).toEqual(before);

      // No administrator left (demoted): the environment's account is created, its password never printed.
      await second.running.services.db.query(`UPDATE customers SET role = 'customer' WHERE role = 'administrator'`);
      await second.running.stop();
      const third = await start({ ADMIN_EMAIL: "Owner@Example.com", ADMIN_PASSWORD: "a long owner password" });
      expect(third.lines.some((l) => l.msg === "administrator account created from the environment")).toBe(true);
      expect(third.lines.some((l) => l.msg.includes("a long owner password"))).toBe(false);
      const admins = await third.running.services.db.query<{ email: string }>(`SELECT email FROM customers WHERE role = 'administrator'`);
      expect(admins).toEqual([{ email: "owner@example.com" }]);
      await third.running.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
