/**
 * The admin's customer writes over `wc/v3/customers` (docs/contract/rest/people.md, docs/contract/admin.md 'Add
 * customer', 'Customer'): a customer staff create gets the "New account" e-mail with a set-password link and no
 * password anyone typed; validation (duplicate and invalid e-mail); capabilities (customers and guests refused, a
 * customer never edits another, a shop manager edits but neither creates nor deletes); the account's ETag and
 * If-Match (412 on a stale one, nothing written); a deleted customer's orders stay, detached; the list's filters.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { checkCredentials, resetPassword } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "ce-admin@example.com", "administrator");
  manager = await signInAs(shop, "ce-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "ce-customer@example.com", "customer");
  other = await signInAs(shop, "ce-other@example.com", "customer");
});
afterAll(async () => shop?.close());

type Json = Record<string, unknown>;
const call = async (who: SignedIn | null, method: string, path: string, json?: unknown, headers: Record<string, string> = {}) => {
  const client = who?.client ?? new TestClient(shop.url);
  const res = await client.request(`/wp-json/wc/v3/${path}`, { method, json, headers: { ...(who ? { "X-WP-Nonce": who.nonce } : {}), ...headers } });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Json & Json[], headers: res.headers };
};
const codeOf = (r: { status: number; body: Json }) => [r.status, r.body.code];
const db = () => shop.services.db;
const row = async (id: number) => (await db().query<Json>(`SELECT email, first_name, last_name, updated_at FROM customers WHERE id = $1`, [id]))[0];
const address = {
  first_name: "Grace",
  last_name: "Hopper",
  company: "",
  address_1: "1 Harbor Rd",
  address_2: "",
  city: "Arlington",
  state: "VA",
  postcode: "22201",
  country: "US",
  phone: "555-0100",
};

describe("creating a customer from the admin", () => {
  it("needs no password: the New account e-mail carries a set-password link that works, and no password is stored in clear", async () => {
    const res = await call(admin, "POST", "customers", {
      email: "ce-new@example.com",
      first_name: "Grace",
      last_name: "Hopper",
      billing: { ...address, email: "orders@example.com" },
      shipping: address,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("etag")).toMatch(/^"\d+"$/);
    expect(res.body).toMatchObject({ email: "ce-new@example.com", role: "customer", billing: { address_1: "1 Harbor Rd", email: "orders@example.com" } });
    const id = res.body.id as number;
    const mail = await db().query<{ kind: string; subject: string; body: string }>(
      `SELECT kind, subject, body FROM email_outbox WHERE to_address = 'ce-new@example.com'`,
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ kind: "new_account", subject: expect.stringContaining("account has been created") });
    const link = /\/my-account\/lost-password\/\?key=([\w-]+)&id=(\d+)/.exec(mail[0]!.body);
    expect(link?.[2]).toBe(String(id));
    // Staff see in the outbox that a link was sent, never its key, and cannot send it again (a reset can be asked for).
    const [queued] = await db().query<{ id: number }>(`SELECT id FROM email_outbox WHERE to_address = 'ce-new@example.com'`);
    const outbox = (path: string, method = "GET") =>
      admin.client.request(`/wp-json/shop/v1/email-outbox/${queued!.id}${path}`, { method, headers: { "X-WP-Nonce": admin.nonce } });
    const shown = (await (await outbox("")).json()) as { body: string; can_resend: boolean };
    expect(shown.body).toContain("key=(hidden)");
    expect(shown.body).not.toContain(link![1]!);
    expect(shown.can_resend).toBe(false);
    expect(((await (await outbox("/resend", "POST")).json()) as Json).code).toBe("rest_email_cannot_resend");
    // The link lets them choose their password, once.
    expect((await resetPassword(db(), id, link![1]!, "chosen by grace 1", new Date())).ok).toBe(true);
    expect(await checkCredentials(db(), "ce-new@example.com", "chosen by grace 1")).toBe(id);
    expect((await resetPassword(db(), id, link![1]!, "second time round", new Date())).ok).toBe(false);
  });

  it("sends the New account e-mail without a link when an API client sets the password itself", async () => {
    const res = await call(admin, "POST", "customers", { email: "ce-own-pass@example.com", password: "a long password 1" });
    expect(res.status).toBe(201);
    const mail = await db().query<{ body: string }>(`SELECT body FROM email_outbox WHERE to_address = 'ce-own-pass@example.com'`);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body).not.toContain("lost-password");
    expect(mail[0]!.body).not.toContain("a long password 1");
  });

  it("refuses a taken e-mail (WooCommerce's registration-error-email-exists, any case), an invalid or missing one, and a bad country", async () => {
    const before = (await db().query(`SELECT count(*)::int AS n FROM customers`))[0];
    expect(codeOf(await call(admin, "POST", "customers", { email: "CE-Other@Example.com" }))).toEqual([400, "registration-error-email-exists"]);
    const invalid = await call(admin, "POST", "customers", { email: "not-an-address" });
    expect(codeOf(invalid)).toEqual([400, "rest_invalid_param"]);
    expect(Object.keys((invalid.body.data as { params: Json }).params)).toEqual(["email"]);
    expect(codeOf(await call(admin, "POST", "customers", { first_name: "Nobody" }))).toEqual([400, "rest_missing_callback_param"]);
    const country = await call(admin, "POST", "customers", { email: "ce-country@example.com", billing: { country: "Narnia" } });
    expect(codeOf(country)).toEqual([400, "rest_invalid_param"]);
    expect(Object.keys((country.body.data as { params: Json }).params)).toEqual(["billing"]);
    expect((await db().query(`SELECT count(*)::int AS n FROM customers`))[0]).toEqual(before);
    expect(await db().query(`SELECT 1 FROM email_outbox WHERE to_address IN ('not-an-address', 'ce-country@example.com')`)).toEqual([]);
  });

  it("refuses creating to a shop manager, a customer and a guest, and the Add customer screen to a shop manager", async () => {
    expect(codeOf(await call(manager, "POST", "customers", { email: "ce-x@example.com" }))).toEqual([403, "woocommerce_rest_cannot_create"]);
    expect(codeOf(await call(customer, "POST", "customers", { email: "ce-x@example.com" }))).toEqual([403, "woocommerce_rest_cannot_create"]);
    expect(codeOf(await call(null, "POST", "customers", { email: "ce-x@example.com" }))).toEqual([401, "woocommerce_rest_cannot_create"]);
    expect(await db().query(`SELECT 1 FROM customers WHERE email = 'ce-x@example.com'`)).toEqual([]);
    const managerPage = await manager.client.get("/wp-admin/customers/new/");
    expect(managerPage.status).toBe(403);
    expect(await managerPage.text()).toContain("not allowed to create customers");
    const adminPage = await admin.client.get("/wp-admin/customers/new/");
    expect(adminPage.status).toBe(200);
    expect(await adminPage.text()).toContain("Add customer");
    expect((await new TestClient(shop.url).get("/wp-admin/customers/new/")).status).toBe(302);
  });
});

describe("editing a customer: capabilities and If-Match", () => {
  it("answers the account's version as an ETag; a save with it passes and moves it; a stale one is refused with 412 and writes nothing", async () => {
    const read = await call(manager, "GET", `customers/${other.id}`);
    const etag = read.headers.get("etag")!;
    expect(etag).toMatch(/^"\d+"$/);
    expect(read.headers.get("cache-control")).toContain("no-store");
    const saved = await call(
      manager,
      "PUT",
      `customers/${other.id}`,
      { first_name: "Otto", shipping: { city: "Boston", country: "US" } },
      { "If-Match": etag },
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ first_name: "Otto", shipping: { city: "Boston", country: "US" } });
    const next = saved.headers.get("etag")!;
    expect(next).not.toBe(etag);
    expect((await call(admin, "GET", `customers/${other.id}`)).headers.get("etag")).toBe(next);

    const before = await row(other.id);
    const stale = await call(admin, "PUT", `customers/${other.id}`, { last_name: "Overwritten" }, { "If-Match": etag });
    expect(codeOf(stale)).toEqual([412, "woocommerce_rest_customer_changed"]);
    expect(stale.body.message).toMatch(/changed since you opened it/);
    expect(await row(other.id)).toEqual(before);
    // A malformed precondition never matches; `*` and no header mean none.
    expect(codeOf(await call(admin, "PUT", `customers/${other.id}`, { last_name: "X" }, { "If-Match": "nonsense" }))).toEqual([
      412,
      "woocommerce_rest_customer_changed",
    ]);
    expect((await call(admin, "PUT", `customers/${other.id}`, { last_name: "Star" }, { "If-Match": "*" })).status).toBe(200);
  });

  it("counts the customer's own address change on My account as a change (the version moves)", async () => {
    const etag = (await call(admin, "GET", `customers/${customer.id}`)).headers.get("etag")!;
    // The customer edits their own address (a customer may edit themselves only).
    expect((await call(customer, "PUT", `customers/${customer.id}`, { billing: { city: "Leeds", country: "GB" } })).status).toBe(200);
    expect(codeOf(await call(admin, "PUT", `customers/${customer.id}`, { billing: { city: "York" } }, { "If-Match": etag }))).toEqual([
      412,
      "woocommerce_rest_customer_changed",
    ]);
    expect((await call(admin, "GET", `customers/${customer.id}`)).body).toMatchObject({ billing: { city: "Leeds" } });
  });

  it("never lets a customer edit or delete another, nor a guest anything, whatever the If-Match", async () => {
    const before = await row(other.id);
    const etag = (await call(admin, "GET", `customers/${other.id}`)).headers.get("etag")!;
    expect(codeOf(await call(customer, "PUT", `customers/${other.id}`, { first_name: "Hacked" }, { "If-Match": etag }))).toEqual([
      403,
      "woocommerce_rest_cannot_edit",
    ]);
    expect(codeOf(await call(customer, "DELETE", `customers/${other.id}?force=true`))).toEqual([403, "woocommerce_rest_cannot_delete"]);
    expect(codeOf(await call(null, "PUT", `customers/${other.id}`, { first_name: "Hacked" }))).toEqual([401, "woocommerce_rest_cannot_edit"]);
    expect(codeOf(await call(null, "GET", `customers/${other.id}`))).toEqual([401, "woocommerce_rest_cannot_view"]);
    expect(await row(other.id)).toEqual(before);
  });

  it("refuses an e-mail another account uses and an invalid one, naming it", async () => {
    const dup = await call(admin, "PUT", `customers/${other.id}`, { email: "ce-customer@example.com" });
    expect(codeOf(dup)).toEqual([400, "woocommerce_rest_customer_invalid_email"]);
    const bad = await call(admin, "PUT", `customers/${other.id}`, { email: "nope@" });
    expect(codeOf(bad)).toEqual([400, "rest_invalid_param"]);
    expect(Object.keys((bad.body.data as { params: Json }).params)).toEqual(["email"]);
    expect((await row(other.id))!.email).toBe("ce-other@example.com");
  });
});

describe("deleting a customer", () => {
  it("keeps their orders, detached (a guest's, with their addresses), visible on the orders; a stale If-Match or a shop manager is refused", async () => {
    const made = await call(admin, "POST", "customers", {
      email: "ce-leaving@example.com",
      first_name: "Lea",
      billing: { ...address, email: "ce-leaving@example.com" },
    });
    const id = made.body.id as number;
    const [order] = await db().query<{ id: number }>(
      `INSERT INTO orders (order_key, status, customer_id, billing_email, currency, subtotal, discount_total, shipping_total, total, payment_method, paid_at)
       VALUES ('wc_order_ce_leaving', 'completed', $1, 'ce-leaving@example.com', 'USD', 2500, 0, 0, 2500, 'bacs', now()) RETURNING id`,
      [id],
    );
    await db().query(
      `INSERT INTO order_addresses (order_id, kind, first_name, city, email) VALUES ($1, 'billing', 'Lea', 'Arlington', 'ce-leaving@example.com')`,
      [order!.id],
    );
    const read = await call(admin, "GET", `customers/${id}`);
    expect(read.body).toMatchObject({ orders_count: 1, total_spent: "25.00" });
    const etag = read.headers.get("etag")!;
    expect(codeOf(await call(manager, "DELETE", `customers/${id}?force=true`))).toEqual([403, "woocommerce_rest_cannot_delete"]);
    // Someone saves the customer in between: the delete with the older version is refused.
    await call(manager, "PUT", `customers/${id}`, { last_name: "Later" });
    expect(codeOf(await call(admin, "DELETE", `customers/${id}?force=true`, undefined, { "If-Match": etag }))).toEqual([
      412,
      "woocommerce_rest_customer_changed",
    ]);
    expect(await row(id)).toBeDefined();

    const fresh = (await call(admin, "GET", `customers/${id}`)).headers.get("etag")!;
    const gone = await call(admin, "DELETE", `customers/${id}?force=true`, undefined, { "If-Match": fresh });
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ id, email: "ce-leaving@example.com" });
    expect(codeOf(await call(admin, "GET", `customers/${id}`))).toEqual([404, "woocommerce_rest_customer_invalid_id"]);
    const kept = await call(manager, "GET", `orders/${order!.id}`);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ id: order!.id, customer_id: 0, billing: { email: "ce-leaving@example.com", first_name: "Lea", city: "Arlington" } });
    const listed = await call(manager, "GET", "orders?search=ce-leaving@example.com");
    expect(listed.body.map((o: Json) => o.id)).toContain(order!.id);
  });
});

describe("the Customers list's filters", () => {
  it("filters by the billing address's country and by whether they ordered, and refuses a bad value naming it", async () => {
    await call(admin, "PUT", `customers/${other.id}`, { billing: { country: "DE" } });
    await db().query(
      `INSERT INTO orders (order_key, status, customer_id, billing_email, currency, subtotal, discount_total, shipping_total, total, payment_method)
       VALUES ('wc_order_ce_filter', 'pending', $1, 'ce-other@example.com', 'USD', 100, 0, 0, 100, 'bacs')`,
      [other.id],
    );
    const ids = async (q: string) => (await call(admin, "GET", `customers?per_page=100&${q}`)).body.map((c: Json) => c.id);
    expect(await ids("country=de")).toEqual([other.id]);
    expect(await ids("country=DE&has_orders=false")).toEqual([]);
    const ordered = await ids("has_orders=true");
    expect(ordered).toContain(other.id);
    expect(ordered).not.toContain(customer.id);
    expect(await ids("has_orders=false")).toContain(customer.id);
    for (const bad of ["country=Germany", "has_orders=maybe"]) {
      const res = await call(admin, "GET", `customers?${bad}`);
      expect([bad, ...codeOf(res)]).toEqual([bad, 400, "rest_invalid_param"]);
      expect(Object.keys((res.body.data as { params: Json }).params)).toEqual([bad.split("=")[0]]);
    }
  });
});
