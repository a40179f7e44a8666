/**
 * `wc/v3/customers` in WooCommerce's shape (docs/contract/rest/people.md): staff list and read, administrators
 * create and delete customers, shop managers edit customers only; a customer reads and edits only themselves and
 * learns nothing about other ids; addresses are the ones the storefront shows; bad input changes nothing; every
 * write in the audit log without the password; batch.
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
let other: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "cust-admin@example.com", "administrator");
  manager = await signInAs(shop, "cust-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "cust-customer@example.com", "customer");
  other = await signInAs(shop, "cust-other@example.com", "customer");
  // One paid order for the customer: 12.50 spent.
  await shop.services.db.query(
    `INSERT INTO orders (order_key, status, customer_id, billing_email, currency, subtotal, discount_total, shipping_total, total, payment_method, paid_at)
     VALUES ('wc_order_people1', 'processing', $1, 'cust-customer@example.com', 'USD', 1250, 0, 0, 1250, 'bacs', now()),
            ('wc_order_people2', 'pending', $1, 'cust-customer@example.com', 'USD', 900, 0, 0, 900, 'bacs', NULL)`,
    [customer.id],
  );
});
afterAll(async () => shop?.close());

type Json = Record<string, unknown>;
const call = async (who: SignedIn | null, method: string, path: string, json?: unknown) => {
  const client = who?.client ?? new TestClient(shop.url);
  const res = await client.request(`/wp-json/wc/v3/${path}`, { method, json, headers: who ? { "X-WP-Nonce": who.nonce } : {} });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Json & Json[], headers: res.headers };
};
const codeOf = (r: { status: number; body: Json }) => [r.status, r.body.code];
const db = () => shop.services.db;
const snapshot = async (id: number) => ({
  account: (await db().query(`SELECT email, first_name, last_name, role, password_hash, updated_at FROM customers WHERE id = $1`, [id]))[0],
  addresses: await db().query(`SELECT * FROM customer_addresses WHERE customer_id = $1 ORDER BY kind`, [id]),
});

const billing = {
  first_name: "Grace",
  last_name: "Hopper",
  company: "Navy",
  address_1: "1 Harbor Rd",
  address_2: "",
  city: "Arlington",
  state: "VA",
  postcode: "22201",
  country: "US",
  email: "grace@example.com",
  phone: "555-0100",
};

describe("wc/v3/customers reads", () => {
  it("lists customers for staff, with WooCommerce's shape, filters and paging", async () => {
    const res = await call(manager, "GET", "customers?per_page=100&orderby=id&order=asc");
    expect(res.status).toBe(200);
    const ids = res.body.map((c: Json) => c.id);
    expect(ids).toEqual(expect.arrayContaining([customer.id, other.id]));
    expect(ids).not.toContain(admin.id); // role defaults to customer
    const c = res.body.find((x: Json) => x.id === customer.id)!;
    expect(Object.keys(c).sort()).toEqual(
      [
        "_links",
        "avatar_url",
        "billing",
        "date_created",
        "date_created_gmt",
        // The newest order's date (decision 0050), as WooCommerce Analytics' customers give it.
        "date_last_order",
        "date_modified",
        "date_modified_gmt",
        "email",
        "first_name",
        "id",
        "is_paying_customer",
        "last_name",
        "meta_data",
        "orders_count",
        "role",
        "shipping",
        "total_spent",
        "username",
      ].sort(),
    );
    expect(c).toMatchObject({ email: "cust-customer@example.com", role: "customer", orders_count: 2, total_spent: "12.50", is_paying_customer: true });
    expect(Object.keys(c.billing as Json)).toEqual([
      "first_name",
      "last_name",
      "company",
      "address_1",
      "address_2",
      "city",
      "state",
      "postcode",
      "country",
      "email",
      "phone",
    ]);
    expect(c.date_created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);

    const all = await call(admin, "GET", "customers?role=all&per_page=100");
    expect(all.body.map((x: Json) => x.id)).toContain(admin.id);
    const byEmail = await call(admin, "GET", "customers?email=CUST-OTHER@example.com");
    expect(byEmail.body.map((x: Json) => x.id)).toEqual([other.id]);
    const searched = await call(admin, "GET", "customers?search=cust-cust");
    expect(searched.body.map((x: Json) => x.id)).toEqual([customer.id]);
    const paged = await call(admin, "GET", "customers?per_page=1&orderby=id&order=desc");
    expect(paged.body.map((x: Json) => x.id)).toEqual([other.id]);
    expect(paged.headers.get("x-wp-total")).toBe("2");
    expect(paged.headers.get("link")).toMatch(/page=2>; rel="next"/);
  });

  it("refuses the list to customers and guests", async () => {
    expect(codeOf(await call(customer, "GET", "customers"))).toEqual([403, "woocommerce_rest_cannot_view"]);
    expect(codeOf(await call(null, "GET", "customers"))).toEqual([401, "woocommerce_rest_cannot_view"]);
  });

  it("refuses bad list parameters naming them", async () => {
    for (const bad of ["role=pirate", "orderby=email", "per_page=500", "order=sideways", "exclude=x", `email=${"a".repeat(101)}`]) {
      const res = await call(admin, "GET", `customers?${bad}`);
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, "rest_invalid_param"]);
      expect(Object.keys((res.body.data as { params: Json }).params)).toEqual([bad.split("=")[0]]);
    }
  });

  it("shows a customer themselves only; any other id, existing or not, answers the same refusal", async () => {
    expect((await call(customer, "GET", `customers/${customer.id}`)).body).toMatchObject({ id: customer.id, orders_count: 2 });
    const existing = await call(customer, "GET", `customers/${other.id}`);
    const missing = await call(customer, "GET", "customers/999999");
    expect(codeOf(existing)).toEqual([403, "woocommerce_rest_cannot_view"]);
    expect(missing).toMatchObject({ status: existing.status, body: existing.body });
    expect(codeOf(await call(null, "GET", `customers/${customer.id}`))).toEqual([401, "woocommerce_rest_cannot_view"]);
    expect(codeOf(await call(manager, "GET", "customers/999999"))).toEqual([404, "woocommerce_rest_customer_invalid_id"]);
    expect((await call(manager, "GET", `customers/${other.id}`)).body).toMatchObject({ id: other.id, orders_count: 0, total_spent: "0.00" });
  });
});

describe("wc/v3/customers writes", () => {
  it("creates a customer for an administrator, with addresses the storefront shows at once", async () => {
    const res = await call(admin, "POST", "customers", {
      email: "Cust-New@Example.com",
      first_name: "Grace",
      last_name: "Hopper",
      username: "ghopper",
      password: TEST_PASSWORD,
      billing,
      shipping: { ...billing, email: undefined, address_1: "2 Dock St" },
      meta_data: [{ key: "coming_soon_banner_dismissed", value: "yes" }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      email: "cust-new@example.com",
      username: "ghopper",
      role: "customer",
      billing,
      shipping: { address_1: "2 Dock St", city: "Arlington" },
      meta_data: [{ key: "coming_soon_banner_dismissed", value: "yes" }],
      orders_count: 0,
    });
    expect(JSON.stringify(res.body)).not.toContain(TEST_PASSWORD);
    const id = res.body.id as number;
    const signedIn = await signInAs(shop, "cust-new@example.com", "customer");
    expect(signedIn.id).toBe(id);
    const page = await (await signedIn.client.get("/my-account/edit-address/billing/")).text();
    expect(page).toContain("1 Harbor Rd");
    const log = await db().query<{ changes: Json }>(`SELECT changes FROM audit_log WHERE object_type = 'customer' AND object_id = $1`, [String(id)]);
    expect(log).toHaveLength(1);
    expect(JSON.stringify(log)).not.toContain(TEST_PASSWORD);
  });

  it("generates a password when none is sent", async () => {
    const res = await call(admin, "POST", "customers", { email: "cust-nopass@example.com" });
    expect(res.status).toBe(201);
    expect((await db().query<{ password_hash: string }>(`SELECT password_hash FROM customers WHERE id = $1`, [res.body.id]))[0]!.password_hash).toMatch(
      /^scrypt\$/,
    );
  });

  it("refuses creating to anyone without create_users", async () => {
    expect(codeOf(await call(manager, "POST", "customers", { email: "cust-x@example.com" }))).toEqual([403, "woocommerce_rest_cannot_create"]);
    expect(codeOf(await call(customer, "POST", "customers", { email: "cust-x@example.com" }))).toEqual([403, "woocommerce_rest_cannot_create"]);
    expect(codeOf(await call(null, "POST", "customers", { email: "cust-x@example.com" }))).toEqual([401, "woocommerce_rest_cannot_create"]);
    expect(await db().query(`SELECT 1 FROM customers WHERE email = 'cust-x@example.com'`)).toEqual([]);
  });

  it("refuses bad input on create, naming the parameter, and creates nothing", async () => {
    const cases: [Json, number, string, string?][] = [
      [{ email: "nope" }, 400, "rest_invalid_param", "email"],
      [{ email: 42 }, 400, "rest_invalid_param", "email"],
      [{ password: "short" }, 400, "rest_invalid_param", "password"],
      [{ first_name: "x".repeat(101) }, 400, "rest_invalid_param", "first_name"],
      [{ billing: "Main St" }, 400, "rest_invalid_param", "billing"],
      [{ billing: { country: "USA" } }, 400, "rest_invalid_param", "billing"],
      [{ billing: { email: "not-mail" } }, 400, "rest_invalid_param", "billing"],
      [{ billing: { address_1: "y".repeat(201) } }, 400, "rest_invalid_param", "billing"],
      [{ shipping: { planet: "Mars" } }, 400, "rest_invalid_param", "shipping"],
      [{ meta_data: [{ key: "is_admin", value: "yes" }] }, 400, "rest_invalid_param", "meta_data"],
      [{ meta_data: "x" }, 400, "rest_invalid_param", "meta_data"],
      [{ username: "<b>" }, 400, "rest_invalid_param", "username"],
      [{ email: "cust-other@example.com" }, 400, "registration-error-email-exists"],
      [{ username: "ghopper" }, 400, "registration-error-username-exists"],
      [{ id: 3 }, 400, "woocommerce_rest_customer_exists"],
    ];
    for (const [patch, status, code, param] of cases) {
      const res = await call(admin, "POST", "customers", { email: "cust-bad@example.com", password: "long enough pass", ...patch });
      expect([patch, res.status, res.body.code]).toEqual([patch, status, code]);
      if (param) expect(Object.keys((res.body.data as { params: Json }).params)).toEqual([param]);
    }
    const missing = await call(admin, "POST", "customers", { first_name: "No mail" });
    expect(codeOf(missing)).toEqual([400, "rest_missing_callback_param"]);
    expect(await db().query(`SELECT 1 FROM customers WHERE email = 'cust-bad@example.com'`)).toEqual([]);
  });

  it("lets a shop manager update a customer, merging the address fields sent", async () => {
    await call(admin, "PUT", `customers/${other.id}`, { billing });
    const res = await call(manager, "PUT", `customers/${other.id}`, { first_name: "Otto", billing: { city: "Boston", state: "MA", postcode: "02101" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ first_name: "Otto", billing: { ...billing, city: "Boston", state: "MA", postcode: "02101" } });
    const log = await db().query<{ changes: Json }>(
      `SELECT changes FROM audit_log WHERE object_type = 'customer' AND object_id = $1 ORDER BY id DESC LIMIT 1`,
      [String(other.id)],
    );
    expect(log[0]!.changes).toMatchObject({ firstName: { to: "Otto" } });
  });

  it("never lets a shop manager edit staff, nor anyone change a staff e-mail or password here", async () => {
    const before = await snapshot(admin.id);
    expect(codeOf(await call(manager, "PUT", `customers/${admin.id}`, { first_name: "Evil" }))).toEqual([403, "woocommerce_rest_cannot_edit"]);
    expect(codeOf(await call(manager, "PUT", `customers/${admin.id}`, { email: "evil@example.com" }))).toEqual([403, "woocommerce_rest_cannot_edit"]);
    const viaAdmin = await call(admin, "PUT", `customers/${admin.id}`, { password: "another password" });
    expect(codeOf(viaAdmin)).toEqual([403, "woocommerce_rest_cannot_edit"]);
    expect(viaAdmin.body.message).toBe("Sorry, password cannot be updated via this endpoint for a user with role administrator.");
    expect(await snapshot(admin.id)).toEqual(before);
  });

  it("lets a customer edit themselves only; any other id answers the same refusal", async () => {
    const own = await call(customer, "PATCH", `customers/${customer.id}`, { last_name: "Byron", shipping: { city: "London", country: "GB" } });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ last_name: "Byron", shipping: { city: "London", country: "GB" } });
    const before = await snapshot(other.id);
    const existing = await call(customer, "PATCH", `customers/${other.id}`, { last_name: "Hacked" });
    const missing = await call(customer, "PATCH", "customers/999999", { last_name: "Hacked" });
    expect(codeOf(existing)).toEqual([403, "woocommerce_rest_cannot_edit"]);
    expect(missing).toMatchObject({ status: existing.status, body: existing.body });
    expect(await snapshot(other.id)).toEqual(before);
  });

  it("refuses bad updates and changes nothing", async () => {
    const before = await snapshot(customer.id);
    const cases: [Json, number, string][] = [
      [{ email: "cust-other@example.com" }, 400, "woocommerce_rest_customer_invalid_email"],
      [{ username: "renamed" }, 400, "woocommerce_rest_customer_invalid_argument"],
      [{ email: "broken@" }, 400, "rest_invalid_param"],
      [{ password: "1234" }, 400, "rest_invalid_param"],
      [{ last_name: { a: 1 } }, 400, "rest_invalid_param"],
      [{ shipping: { country: "ZZZ" } }, 400, "rest_invalid_param"],
      [{ meta_data: [{ key: "coming_soon_banner_dismissed", value: "sure" }] }, 400, "rest_invalid_param"],
    ];
    for (const [patch, status, code] of cases) {
      const res = await call(admin, "PUT", `customers/${customer.id}`, patch);
      expect([patch, res.status, res.body.code]).toEqual([patch, status, code]);
    }
    expect(await snapshot(customer.id)).toEqual(before);
    expect(codeOf(await call(admin, "PUT", "customers/999999", { first_name: "X" }))).toEqual([404, "woocommerce_rest_customer_invalid_id"]);
  });

  it("changes a customer's password for an administrator; it signs in", async () => {
    const res = await call(admin, "PUT", `customers/${other.id}`, { password: "a fresh password" });
    expect(res.status).toBe(200);
    expect(await checkCredentials(db(), "cust-other@example.com", "a fresh password")).toBe(other.id);
  });

  it("deletes a customer for an administrator with force=true only", async () => {
    const made = await call(admin, "POST", "customers", { email: "cust-doomed@example.com", billing });
    const id = made.body.id as number;
    expect(codeOf(await call(manager, "DELETE", `customers/${id}?force=true`))).toEqual([403, "woocommerce_rest_cannot_delete"]);
    expect(codeOf(await call(customer, "DELETE", `customers/${id}?force=true`))).toEqual([403, "woocommerce_rest_cannot_delete"]);
    expect(codeOf(await call(customer, "DELETE", "customers/999999?force=true"))).toEqual([403, "woocommerce_rest_cannot_delete"]);
    expect(codeOf(await call(admin, "DELETE", `customers/${id}`))).toEqual([501, "woocommerce_rest_trash_not_supported"]);
    expect(codeOf(await call(admin, "DELETE", `customers/${id}?force=true&reassign=${id}`))).toEqual([400, "woocommerce_rest_customer_invalid_reassign"]);
    expect(codeOf(await call(admin, "DELETE", `customers/${id}?force=yes`))).toEqual([400, "rest_invalid_param"]);
    expect(codeOf(await call(admin, "DELETE", `customers/${manager.id}?force=true`))).toEqual([403, "woocommerce_rest_cannot_delete"]);
    const res = await call(admin, "DELETE", `customers/${id}?force=true`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, email: "cust-doomed@example.com", billing: { address_1: "1 Harbor Rd" } });
    expect(codeOf(await call(admin, "GET", `customers/${id}`))).toEqual([404, "woocommerce_rest_customer_invalid_id"]);
    expect(await db().query(`SELECT 1 FROM customer_addresses WHERE customer_id = $1`, [id])).toEqual([]);
    expect(await db().query(`SELECT 1 FROM audit_log WHERE object_type = 'customer' AND object_id = $1 AND action = 'delete'`, [String(id)])).toHaveLength(1);
  });

  it("batches creates, updates and deletes, each answered on its own", async () => {
    const victim = (await call(admin, "POST", "customers", { email: "cust-batch-victim@example.com" })).body.id as number;
    const res = await call(admin, "POST", "customers/batch", {
      create: [{ email: "cust-batch1@example.com", first_name: "B1" }, { email: "nope" }],
      update: [
        { id: other.id, first_name: "Batched" },
        { id: 999999, first_name: "Ghost" },
      ],
      delete: [victim],
    });
    expect(res.status).toBe(200);
    const out = res.body as unknown as { create: Json[]; update: Json[]; delete: Json[] };
    expect(out.create[0]).toMatchObject({ email: "cust-batch1@example.com", first_name: "B1" });
    expect(out.create[1]).toMatchObject({ id: 0, error: { code: "rest_invalid_param" } });
    expect(out.update[0]).toMatchObject({ id: other.id, first_name: "Batched" });
    expect(out.update[1]).toMatchObject({ id: 999999, error: { code: "woocommerce_rest_customer_invalid_id" } });
    expect(out.delete[0]).toMatchObject({ id: victim });
    expect(codeOf(await call(manager, "POST", "customers/batch", { create: [{ email: "cust-batch2@example.com" }] }))).toEqual([200, undefined]);
    expect(await db().query(`SELECT 1 FROM customers WHERE email = 'cust-batch2@example.com'`)).toEqual([]);
    expect(codeOf(await call(customer, "POST", "customers/batch", { update: [{ id: customer.id, first_name: "Me" }] }))).toEqual([
      403,
      "woocommerce_rest_cannot_batch",
    ]);
    const tooMany = await call(admin, "POST", "customers/batch", { delete: Array.from({ length: 101 }, (_, i) => i + 1) });
    expect(codeOf(tooMany)).toEqual([413, "rest_request_entity_too_large"]);
  });
});
