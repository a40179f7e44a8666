/**
 * The Staff screens' page rule (docs/contract/admin.md 'Staff'): administrators get /wp-admin/users/ and its menu
 * entry; a shop manager gets a 403 page that says why, without the entry, the screen's data or the admin bundle; a
 * customer and a guest are sent to sign in; WordPress's users.php, user-new.php and user-edit.php lead to the
 * screens. The REST routes behind them refuse a shop manager too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "screens-admin@example.com", "administrator");
  manager = await signInAs(shop, "screens-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "screens-customer@example.com", "customer");
});
afterAll(async () => shop?.close());

const STAFF_LINK = 'href="/wp-admin/users/"';

describe("/wp-admin/users/", () => {
  it("opens for an administrator, with the Staff menu entry", async () => {
    for (const [path, screen] of [
      ["/wp-admin/users/", "{&quot;name&quot;:&quot;staff&quot;}"],
      ["/wp-admin/users/new/", "{&quot;name&quot;:&quot;staff-user&quot;,&quot;id&quot;:null}"],
      [`/wp-admin/users/${manager.id}/`, `{&quot;name&quot;:&quot;staff-user&quot;,&quot;id&quot;:${manager.id}}`],
    ] as const) {
      const res = await admin.client.get(path);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(html).toContain(STAFF_LINK);
      expect(html).toContain(`data-screen="${screen}"`);
    }
  });

  it("refuses a shop manager with a 403 page that says why, without the menu entry or the screen", async () => {
    for (const path of ["/wp-admin/users/", "/wp-admin/users/new/", `/wp-admin/users/${admin.id}/`]) {
      const res = await manager.client.get(path);
      expect(res.status, path).toBe(403);
      const html = await res.text();
      expect(html).toContain("Sorry, you are not allowed to manage staff users.");
      expect(html).not.toContain(STAFF_LINK);
      expect(html).not.toContain('id="admin-screen"');
      expect(html).not.toContain("/wp-admin-app/admin.js");
      expect(html).not.toContain("screens-admin@example.com");
    }
    const products = await (await manager.client.get("/wp-admin/products/")).text();
    expect(products).toContain('href="/wp-admin/products/"');
    expect(products).not.toContain(STAFF_LINK);
  });

  it("sends a customer and a guest to sign in", async () => {
    for (const client of [customer.client, new TestClient(shop.url)]) {
      const res = await client.get("/wp-admin/users/");
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toMatch(/^\/wp-login\.php\?redirect_to=/);
    }
  });

  it("leads WordPress's addresses to the screens", async () => {
    for (const [from, to] of [
      ["/wp-admin/users.php", "/wp-admin/users/"],
      ["/wp-admin/user-new.php", "/wp-admin/users/new/"],
      [`/wp-admin/user-edit.php?user_id=${manager.id}`, `/wp-admin/users/${manager.id}/`],
    ] as const) {
      const res = await admin.client.get(from);
      expect(res.status, from).toBe(302);
      expect(res.headers.get("location")).toBe(to);
    }
  });

  it("the REST routes behind the screens refuse a shop manager", async () => {
    const headers = { "X-WP-Nonce": manager.nonce };
    const call = async (method: string, path: string, json?: unknown) => {
      const res = await manager.client.request(`/wp-json/wp/v2/${path}`, { method, json, headers });
      return [res.status, ((await res.json()) as { code?: string }).code];
    };
    expect(await call("POST", "users", { username: "x1", email: "x1@example.com", password: "long enough 1", roles: ["administrator"] })).toEqual([
      403,
      "rest_cannot_create_user",
    ]);
    expect(await call("POST", `users/${manager.id}`, { roles: ["administrator"] })).toEqual([403, "rest_cannot_edit_roles"]);
    expect(await call("DELETE", `users/${admin.id}?force=true&reassign=false`)).toEqual([403, "rest_user_cannot_delete"]);
    expect(await call("POST", `users/${admin.id}/application-passwords`, { name: "backdoor" })).toEqual([403, "rest_cannot_create_application_passwords"]);
  });
});
