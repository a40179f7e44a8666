/**
 * `wp/v2/users` in WordPress's shape (docs/contract/rest/people.md): who sees whom (guests only authors, `list_users`
 * everyone), create, update (oneself, staff; roles only with promote_users; a shop manager edits customers only; the
 * last administrator stays), delete (force and reassign), every bad input refused with nothing changed, every write
 * in the audit log without the password.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, TEST_PASSWORD, type SignedIn } from "../support/staff.ts";
import { checkCredentials } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;
let author: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "users-admin@example.com", "administrator");
  manager = await signInAs(shop, "users-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "users-customer@example.com", "customer");
  author = await signInAs(shop, "users-author@example.com", "shop_manager");
  await shop.services.db.query(`UPDATE posts SET author_id = $1 WHERE id = (SELECT min(id) FROM posts WHERE status = 'publish')`, [author.id]);
});
afterAll(async () => shop?.close());

type Json = Record<string, unknown>;
const call = async (who: SignedIn | null, method: string, path: string, json?: unknown) => {
  const client = who?.client ?? new TestClient(shop.url);
  const res = await client.request(`/wp-json/wp/v2/${path}`, { method, json, headers: who ? { "X-WP-Nonce": who.nonce } : {} });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Json & Json[], headers: res.headers };
};
const codeOf = (r: { status: number; body: Json }) => [r.status, r.body.code];
const db = () => shop.services.db;
const row = async (id: number) => (await db().query<Json>(`SELECT email, first_name, role, display_name, password_hash FROM customers WHERE id = $1`, [id]))[0];

describe("GET wp/v2/users", () => {
  it("shows a guest only authors of published posts, in the view shape", async () => {
    const res = await call(null, "GET", "users");
    expect(res.status).toBe(200);
    expect(res.body.map((u: Json) => u.id)).toEqual([author.id]);
    const [u] = res.body as Json[];
    expect(Object.keys(u!).sort()).toEqual(["_links", "avatar_urls", "description", "id", "link", "meta", "name", "slug", "url"]);
    expect(res.headers.get("x-wp-total")).toBe("1");
  });

  it("refuses a guest and a customer the staff-only parameters", async () => {
    for (const [who, status] of [
      [null, 401],
      [customer, 403],
    ] as const) {
      expect(codeOf(await call(who, "GET", "users?context=edit"))).toEqual([status, "rest_forbidden_context"]);
      expect(codeOf(await call(who, "GET", "users?roles=administrator"))).toEqual([status, "rest_user_cannot_view"]);
      expect(codeOf(await call(who, "GET", "users?orderby=email"))).toEqual([status, "rest_forbidden_orderby"]);
    }
    // Nobody without list_users finds an author by e-mail address.
    expect((await call(null, "GET", "users?search=users-author%40")).body).toEqual([]);
    // A customer, like a guest, sees authors only.
    expect((await call(customer, "GET", "users")).body.map((u: Json) => u.id)).toEqual([author.id]);
  });

  it("shows staff with list_users everyone, filtered, ordered and paged, with the edit context", async () => {
    const all = await call(manager, "GET", "users?per_page=100&orderby=id&order=asc&context=edit");
    expect(all.status).toBe(200);
    const ids = all.body.map((u: Json) => u.id);
    expect(ids).toEqual(expect.arrayContaining([admin.id, manager.id, customer.id, author.id]));
    const me = all.body.find((u: Json) => u.id === customer.id)!;
    expect(me).toMatchObject({
      email: "users-customer@example.com",
      roles: ["customer"],
      first_name: "Ada",
      last_name: "Lovelace",
      capabilities: { read: true },
    });
    expect(me).not.toHaveProperty("password");
    expect(me.registered_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);

    const admins = await call(admin, "GET", "users?roles=administrator");
    expect(admins.body.map((u: Json) => u.id)).toContain(admin.id);
    expect(admins.body.every((u: Json) => u.id !== customer.id)).toBe(true);

    const found = await call(admin, "GET", "users?search=USERS-CUSTOMER");
    expect(found.body.map((u: Json) => u.id)).toEqual([customer.id]);

    const included = await call(admin, "GET", `users?include=${customer.id},${admin.id}&orderby=include&order=asc`);
    expect(included.body.map((u: Json) => u.id)).toEqual([customer.id, admin.id]);
    const excluded = await call(admin, "GET", `users?per_page=100&exclude=${customer.id}`);
    expect(excluded.body.map((u: Json) => u.id)).not.toContain(customer.id);

    const paged = await call(admin, "GET", "users?per_page=1&page=2&orderby=id");
    expect(paged.body).toHaveLength(1);
    expect(paged.headers.get("link")).toMatch(/rel="prev"/);
    expect(Number(paged.headers.get("x-wp-totalpages"))).toBeGreaterThanOrEqual(4);
  });

  it("refuses bad list parameters naming them", async () => {
    for (const bad of ["per_page=0", "per_page=101", "page=abc", "orderby=password", "order=up", "include=a,b", "context=raw", `search=${"x".repeat(201)}`]) {
      const res = await call(admin, "GET", `users?${bad}`);
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, "rest_invalid_param"]);
      expect(Object.keys((res.body.data as { params: Json }).params)).toEqual([bad.split("=")[0]]);
    }
  });
});

describe("GET wp/v2/users/{id}", () => {
  it("answers staff for anyone, a user for themselves, and anyone for an author's public data", async () => {
    expect((await call(admin, "GET", `users/${customer.id}?context=edit`)).body).toMatchObject({ id: customer.id, email: "users-customer@example.com" });
    expect((await call(manager, "GET", `users/${admin.id}`)).status).toBe(200);
    const self = await call(customer, "GET", `users/${customer.id}?context=edit`);
    expect(self.body).toMatchObject({ id: customer.id, roles: ["customer"] });
    const me = await call(customer, "GET", "users/me");
    expect(me.body).toMatchObject({ id: customer.id });
    const public_ = await call(null, "GET", `users/${author.id}`);
    expect(public_.status).toBe(200);
    expect(public_.body).not.toHaveProperty("email");
  });

  it("refuses a customer or guest anyone else, and the edit context of an author", async () => {
    expect(codeOf(await call(customer, "GET", `users/${admin.id}`))).toEqual([403, "rest_user_cannot_view"]);
    expect(codeOf(await call(null, "GET", `users/${customer.id}`))).toEqual([401, "rest_user_cannot_view"]);
    expect(codeOf(await call(customer, "GET", `users/${author.id}?context=edit`))).toEqual([403, "rest_user_cannot_view"]);
    expect(codeOf(await call(admin, "GET", "users/999999"))).toEqual([404, "rest_user_invalid_id"]);
    expect(codeOf(await call(null, "GET", "users/me"))).toEqual([401, "rest_not_logged_in"]);
  });
});

describe("POST wp/v2/users", () => {
  const valid = (n: string) => ({
    username: `new-${n}`,
    email: `new-${n}@example.com`,
    password: "a good password",
    first_name: "Grace",
    last_name: "Hopper",
    name: "Grace H.",
    description: "Ships bugs",
    url: "https://example.com/grace",
    slug: `grace-${n}`,
    roles: ["shop_manager"],
    meta: { coming_soon_banner_dismissed: "yes" },
  });

  it("creates a user for an administrator, with a hashed password that signs in and is never shown", async () => {
    const res = await call(admin, "POST", "users", valid("one"));
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toMatch(new RegExp(`/wp-json/wp/v2/users/${res.body.id}$`));
    expect(res.body).toMatchObject({
      username: "new-one",
      email: "new-one@example.com",
      name: "Grace H.",
      first_name: "Grace",
      slug: "grace-one",
      roles: ["shop_manager"],
      url: "https://example.com/grace",
      meta: { coming_soon_banner_dismissed: "yes" },
    });
    expect(JSON.stringify(res.body)).not.toContain("a good password");
    const stored = await row(res.body.id as number);
    expect(stored!.password_hash).toMatch(/^scrypt\$/);
    expect(await checkCredentials(db(), "new-one@example.com", "a good password")).toBe(res.body.id);
    expect(await checkCredentials(db(), "New-One", "a good password")).toBe(res.body.id); // the username signs in too
    const log = await db().query<{ changes: unknown }>(`SELECT changes FROM audit_log WHERE object_type = 'user' AND object_id = $1`, [String(res.body.id)]);
    expect(log).toHaveLength(1);
    expect(JSON.stringify(log[0]!.changes)).not.toContain("a good password");
  });

  it("refuses anyone without create_users", async () => {
    expect(codeOf(await call(null, "POST", "users", valid("g")))).toEqual([401, "rest_cannot_create_user"]);
    expect(codeOf(await call(customer, "POST", "users", valid("c")))).toEqual([403, "rest_cannot_create_user"]);
    expect(codeOf(await call(manager, "POST", "users", valid("m")))).toEqual([403, "rest_cannot_create_user"]);
    expect(await db().query(`SELECT 1 FROM customers WHERE email LIKE 'new-_@example.com'`)).toEqual([]);
  });

  it("refuses bad input, naming the parameter, and creates nothing", async () => {
    const cases: [Json, number, string, string?][] = [
      [{ email: "not-an-email" }, 400, "rest_invalid_param", "email"],
      [{ password: "short" }, 400, "rest_invalid_param", "password"],
      [{ password: "back\\slash-password" }, 400, "rest_invalid_param", "password"],
      [{ password: "" }, 400, "rest_invalid_param", "password"],
      [{ password: 12345678 }, 400, "rest_invalid_param", "password"],
      [{ roles: ["pirate"] }, 400, "rest_user_invalid_role"],
      [{ roles: "administrator,customer" }, 400, "rest_invalid_param", "roles"],
      [{ name: "x".repeat(251) }, 400, "rest_invalid_param", "name"],
      [{ first_name: 5 }, 400, "rest_invalid_param", "first_name"],
      [{ username: "<script>" }, 400, "rest_invalid_param", "username"],
      [{ username: "x".repeat(61) }, 400, "rest_invalid_param", "username"],
      [{ url: "javascript:alert(1)" }, 400, "rest_invalid_param", "url"],
      [{ slug: "Not A Slug!" }, 400, "rest_invalid_param", "slug"],
      [{ locale: "xx_XX" }, 400, "rest_invalid_param", "locale"],
      [{ meta: { is_admin: "yes" } }, 400, "rest_invalid_param", "meta"],
      [{ email: "users-customer@example.com" }, 400, "existing_user_email"],
      [{ email: "USERS-CUSTOMER@example.com" }, 400, "existing_user_email"],
      [{ username: "new-one" }, 400, "existing_user_login"],
      [{ username: "users-customer@example.com" }, 400, "existing_user_login"],
      [{ id: 5 }, 400, "rest_user_exists"],
    ];
    for (const [patch, status, code, param] of cases) {
      const res = await call(admin, "POST", "users", { ...valid("bad"), ...patch });
      expect([patch, res.status, res.body.code]).toEqual([patch, status, code]);
      if (param) expect(Object.keys((res.body.data as { params: Json }).params)).toEqual([param]);
    }
    const { email: _e, ...noEmail } = valid("bad");
    const missing = await call(admin, "POST", "users", noEmail);
    expect([missing.status, missing.body.code, (missing.body.data as Json).params]).toEqual([400, "rest_missing_callback_param", ["email"]]);
    const short = await call(admin, "POST", "users", { ...valid("bad"), password: "short" });
    expect((short.body.data as { details: Record<string, Json> }).details.password!.code).toBe("rest_user_invalid_password");
    expect(existingMessage((await call(admin, "POST", "users", { ...valid("bad"), email: "users-customer@example.com" })).body)).toBe(
      "Sorry, that email address is already used!",
    );
    expect(await db().query(`SELECT 1 FROM customers WHERE email = 'new-bad@example.com'`)).toEqual([]);
  });
});
const existingMessage = (body: Json) => body.message;

describe("POST/PUT/PATCH wp/v2/users/{id}", () => {
  it("lets a user edit themselves but not their role", async () => {
    const res = await call(customer, "PATCH", "users/me", { first_name: "Ada B.", description: "Counts" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ first_name: "Ada B.", description: "Counts" });
    expect(codeOf(await call(customer, "POST", `users/${customer.id}`, { roles: ["administrator"] }))).toEqual([403, "rest_cannot_edit_roles"]);
    expect((await row(customer.id))!.role).toBe("customer");
  });

  it("lets a shop manager edit customers only, never roles, administrators or other shop managers", async () => {
    const ok = await call(manager, "PUT", `users/${customer.id}`, { last_name: "King" });
    expect([ok.status, ok.body.last_name]).toEqual([200, "King"]);
    expect(codeOf(await call(manager, "PUT", `users/${admin.id}`, { last_name: "Nope" }))).toEqual([403, "rest_cannot_edit"]);
    expect(codeOf(await call(manager, "PUT", `users/${author.id}`, { last_name: "Nope" }))).toEqual([403, "rest_cannot_edit"]);
    expect(codeOf(await call(manager, "PUT", `users/${customer.id}`, { roles: ["shop_manager"] }))).toEqual([403, "rest_cannot_edit_roles"]);
    expect(codeOf(await call(manager, "PUT", `users/${manager.id}`, { roles: ["administrator"] }))).toEqual([403, "rest_cannot_edit_roles"]);
    expect((await row(admin.id))!.role).toBe("administrator");
    expect((await row(manager.id))!.role).toBe("shop_manager");
  });

  it("lets an administrator change roles and passwords; a new password ends the user's other sessions", async () => {
    const target = await signInAs(shop, "users-promoted@example.com", "customer");
    expect((await call(target, "GET", "users/me")).status).toBe(200);
    const res = await call(admin, "POST", `users/${target.id}`, { roles: ["shop_manager"], password: "brand new password" });
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual(["shop_manager"]);
    // Its session is gone: the old cookie and nonce no longer sign anyone in.
    expect(["rest_not_logged_in", "rest_cookie_invalid_nonce"]).toContain((await call(target, "GET", "users/me")).body.code);
    expect(await checkCredentials(db(), "users-promoted@example.com", "brand new password")).toBe(target.id);
    const log = await db().query<{ changes: Json }>(`SELECT changes FROM audit_log WHERE object_type = 'user' AND object_id = $1 AND action = 'update'`, [
      String(target.id),
    ]);
    expect(log[0]!.changes).toMatchObject({ role: { from: "customer", to: "shop_manager" }, password: "changed" });
    expect(JSON.stringify(log)).not.toContain("brand new password");
  });

  it("refuses bad updates and changes nothing", async () => {
    const before = await row(customer.id);
    const cases: [Json, number, string][] = [
      [{ email: "nope" }, 400, "rest_invalid_param"],
      [{ email: "users-admin@example.com" }, 400, "rest_user_invalid_email"],
      [{ username: "renamed" }, 400, "rest_user_invalid_argument"],
      [{ password: "short" }, 400, "rest_invalid_param"],
      [{ first_name: ["x"] }, 400, "rest_invalid_param"],
      [{ first_name: "y".repeat(101) }, 400, "rest_invalid_param"],
      [{ description: "z".repeat(5001) }, 400, "rest_invalid_param"],
      [{ meta: { coming_soon_banner_dismissed: "maybe" } }, 400, "rest_invalid_param"],
    ];
    for (const [patch, status, code] of cases) {
      const res = await call(admin, "PATCH", `users/${customer.id}`, patch);
      expect([patch, res.status, res.body.code]).toEqual([patch, status, code]);
    }
    expect(codeOf(await call(admin, "PATCH", `users/${customer.id}`, { roles: ["pirate"] }))).toEqual([400, "rest_user_invalid_role"]);
    expect(await row(customer.id)).toEqual(before);
    expect(codeOf(await call(admin, "PATCH", "users/999999", { first_name: "X" }))).toEqual([404, "rest_user_invalid_id"]);
  });

  it("never removes the last administrator", async () => {
    const other = await signInAs(shop, "users-admin2@example.com", "administrator");
    await db().query(`UPDATE customers SET role = 'customer' WHERE role = 'administrator' AND id NOT IN ($1, $2)`, [admin.id, other.id]);
    // Two administrators: one may step down to shop manager (a role that keeps edit_users)...
    expect((await call(other, "PATCH", "users/me", { roles: ["shop_manager"] })).status).toBe(200);
    // ...but not to a role without edit_users, and the last one not at all.
    expect(codeOf(await call(admin, "PATCH", "users/me", { roles: ["customer"] }))).toEqual([403, "rest_user_invalid_role"]);
    expect(codeOf(await call(admin, "PATCH", "users/me", { roles: ["shop_manager"] }))).toEqual([400, "rest_user_invalid_role"]);
    expect(codeOf(await call(admin, "DELETE", `users/${admin.id}?force=true&reassign=false`))).toEqual([400, "rest_cannot_delete"]);
    expect((await row(admin.id))!.role).toBe("administrator");
  });
});

describe("two administrators demoting each other at once", () => {
  it("leaves one administrator", async () => {
    const a = await signInAs(shop, "users-race-a@example.com", "administrator");
    const b = await signInAs(shop, "users-race-b@example.com", "administrator");
    await db().query(`UPDATE customers SET role = 'shop_manager' WHERE role = 'administrator' AND id NOT IN ($1, $2)`, [a.id, b.id]);
    const [ab, ba] = await Promise.all([
      call(a, "PATCH", `users/${b.id}`, { roles: ["customer"] }),
      call(b, "PATCH", `users/${a.id}`, { roles: ["customer"] }),
    ]);
    expect([ab.status, ba.status].filter((s) => s === 200)).toHaveLength(1);
    expect(await db().query(`SELECT id FROM customers WHERE role = 'administrator'`)).toHaveLength(1);
    await db().query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [admin.id]);
  });
});

describe("DELETE wp/v2/users/{id}", () => {
  it("needs delete_users, force=true and a valid reassign, then deletes and reassigns the posts", async () => {
    const doomed = await signInAs(shop, "users-doomed@example.com", "customer");
    await db().query(`UPDATE posts SET author_id = $1 WHERE id = (SELECT max(id) FROM posts)`, [doomed.id]);
    expect(codeOf(await call(manager, "DELETE", `users/${doomed.id}?force=true&reassign=${admin.id}`))).toEqual([403, "rest_user_cannot_delete"]);
    expect(codeOf(await call(customer, "DELETE", `users/${doomed.id}?force=true&reassign=${admin.id}`))).toEqual([403, "rest_user_cannot_delete"]);
    expect(codeOf(await call(null, "DELETE", `users/${doomed.id}?force=true&reassign=${admin.id}`))).toEqual([401, "rest_user_cannot_delete"]);
    expect(codeOf(await call(admin, "DELETE", `users/${doomed.id}?reassign=${admin.id}`))).toEqual([501, "rest_trash_not_supported"]);
    expect(codeOf(await call(admin, "DELETE", `users/${doomed.id}?force=true`))).toEqual([400, "rest_missing_callback_param"]);
    expect(codeOf(await call(admin, "DELETE", `users/${doomed.id}?force=true&reassign=${doomed.id}`))).toEqual([400, "rest_user_invalid_reassign"]);
    expect(codeOf(await call(admin, "DELETE", `users/${doomed.id}?force=true&reassign=999999`))).toEqual([400, "rest_user_invalid_reassign"]);
    expect(codeOf(await call(admin, "DELETE", `users/${doomed.id}?force=maybe&reassign=${admin.id}`))).toEqual([400, "rest_invalid_param"]);
    expect(await row(doomed.id)).toBeDefined();

    // Sent as api-fetch sends it: POST with the override header.
    const res = await admin.client.request(`/wp-json/wp/v2/users/${doomed.id}?force=true&reassign=${admin.id}`, {
      method: "POST",
      headers: { "X-WP-Nonce": admin.nonce, "X-HTTP-Method-Override": "DELETE" },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ deleted: true, previous: { id: doomed.id, email: "users-doomed@example.com" } });
    expect(await row(doomed.id)).toBeUndefined();
    expect(await db().query(`SELECT 1 FROM posts WHERE author_id = $1`, [doomed.id])).toEqual([]);
    expect((await db().query(`SELECT 1 FROM posts WHERE author_id = $1`, [admin.id])).length).toBeGreaterThan(0);
    expect(codeOf(await call(admin, "GET", `users/${doomed.id}`))).toEqual([404, "rest_user_invalid_id"]);
    expect(await db().query(`SELECT 1 FROM audit_log WHERE object_type = 'user' AND object_id = $1 AND action = 'delete'`, [String(doomed.id)])).toHaveLength(
      1,
    );
  });
});

it("signs in with the test password (support check)", async () => {
  expect(await checkCredentials(db(), "users-admin@example.com", TEST_PASSWORD)).toBe(admin.id);
});
