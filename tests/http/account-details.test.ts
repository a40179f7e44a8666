/** My account → Addresses and Account details: validated on the server, pre-filling the checkout; password change. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";
import { signInAs as staffSignIn } from "../support/staff.ts";
import { productWithStock } from "./checkout-support.ts";

let shop: TestShop;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop();
  productId = await productWithStock(shop, "silk-pocket-square", 100, 1500);
});
afterAll(async () => shop?.close());

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";

async function signIn(email: string, password = "account pass 1", register = true): Promise<TestClient> {
  if (register) await registerCustomer(shop.services.db, { email, password, first_name: "Ada", last_name: "Lovelace" });
  const client = new TestClient(shop.url);
  const page = await (await client.get("/my-account/")).text();
  const res = await client.post("/my-account/", {
    intent: "login",
    username: email,
    password,
    "woocommerce-login-nonce": hidden(page, "woocommerce-login-nonce"),
  });
  expect(res.status).toBe(302);
  return client;
}

const BILLING = {
  billing_first_name: "Ada",
  billing_last_name: "Lovelace",
  billing_company: "",
  billing_country: "US",
  billing_address_1: "12 Analytical Row",
  billing_address_2: "",
  billing_city: "Springfield",
  billing_state: "IL",
  billing_postcode: "62701",
  billing_phone: "555 0100",
  billing_email: "ada.billing@example.com",
};

describe("addresses", () => {
  it("guests are sent to the login page", async () => {
    const res = await new TestClient(shop.url).get("/my-account/edit-address/");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toContain("/my-account/");
  });

  it("the navigation links to Addresses and Account details", async () => {
    const client = await signIn("nav@example.com");
    const html = await (await client.get("/my-account/")).text();
    expect(html).toContain('href="/my-account/edit-address/"');
    expect(html).toContain('href="/my-account/edit-account/"');
  });

  it("a billing address is validated on the server, saved, shown and pre-fills the checkout", async () => {
    const client = await signIn("addr@example.com");
    let list = await (await client.get("/my-account/edit-address/")).text();
    expect(list).toContain("You have not set up this type of address yet.");
    const form = await (await client.get("/my-account/edit-address/billing/")).text();
    const nonce = hidden(form, "woocommerce-edit-address-nonce");
    expect(nonce).not.toBe("");

    const bad = await client.post("/my-account/edit-address/billing/", {
      ...BILLING,
      "woocommerce-edit-address-nonce": nonce,
      billing_postcode: "ABC",
      billing_city: "",
      billing_email: "not-an-email",
      billing_first_name: "<script>alert(1)</script>",
    });
    expect(bad.status).toBe(200);
    const badHtml = await bad.text();
    expect(badHtml).toContain("<strong>Billing ZIP Code</strong> is not a valid postcode / ZIP.");
    expect(badHtml).toContain("<strong>Billing Town / City</strong> is a required field.");
    expect(badHtml).toContain("<strong>Billing Email address</strong> is not a valid email address.");
    expect(badHtml).not.toContain("<script>alert(1)</script>");
    // Without JavaScript the page comes back with what was typed.
    expect(badHtml).toMatch(/id="billing_address_1"[^>]*value="12 Analytical Row"/);
    expect(await shop.services.db.query(`SELECT 1 FROM customer_addresses`)).toHaveLength(0);

    const stale = await client.post("/my-account/edit-address/billing/", { ...BILLING, "woocommerce-edit-address-nonce": "nope" });
    expect(await stale.text()).toContain("Your session has expired.");

    const ok = await client.post("/my-account/edit-address/billing/", { ...BILLING, "woocommerce-edit-address-nonce": nonce });
    expect(ok.status).toBe(302);
    list = await (await client.get("/my-account/edit-address/")).text();
    expect(list).toContain("Address changed successfully.");
    expect(list).toContain("12 Analytical Row");
    expect(list).toContain("Springfield, IL, 62701");

    await client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
    const checkout = await (await client.get("/checkout/")).text();
    expect(checkout).toMatch(/id="billing_address_1"[^>]*value="12 Analytical Row"/);
    expect(checkout).toMatch(/name="billing_email"[^>]*value="ada.billing@example.com"/);
  });

  it("offers and accepts only the countries the shop sells to (billing) and ships to (shipping), as the checkout does", async () => {
    const owner = await staffSignIn(shop, "addr-owner@example.com", "administrator");
    const general = (json: unknown) =>
      owner.client.request("/wp-json/shop/v1/settings/general", { method: "PUT", json, headers: { "X-WP-Nonce": owner.nonce } });
    expect((await general({ sellTo: "specific", sellToCountries: ["US", "CA"], shipTo: "specific", shipToCountries: ["US"] })).status).toBe(200);
    try {
      const client = await signIn("addr-countries@example.com");
      const offered = (html: string, kind: string) =>
        [...(new RegExp(`<select name="${kind}_country"[^>]*>(.*?)</select>`, "s").exec(html)?.[1] ?? "").matchAll(/value="([A-Z]{2})"/g)].map((m) => m[1]);
      const billing = await (await client.get("/my-account/edit-address/billing/")).text();
      expect(offered(billing, "billing")).toEqual(["US", "CA"]);
      expect(offered(await (await client.get("/my-account/edit-address/shipping/")).text(), "shipping")).toEqual(["US"]);
      // A country posted anyway is refused at its field, and nothing is saved.
      const refused = await client.post("/my-account/edit-address/billing/", {
        ...BILLING,
        billing_country: "GB",
        billing_state: "",
        billing_postcode: "SW1A 1AA",
        "woocommerce-edit-address-nonce": hidden(billing, "woocommerce-edit-address-nonce"),
      });
      const html = await refused.text();
      expect(html).toMatch(/data-id="billing_country"[^>]*>Sorry, we do not allow orders from the provided country \(GB\)/);
      expect(await (await client.get("/my-account/edit-address/")).text()).toContain("You have not set up this type of address yet.");
    } finally {
      expect((await general({ sellTo: "all", sellToCountries: [], shipTo: "same_as_selling", shipToCountries: [] })).status).toBe(200);
    }
  });

  it("a shipping address has no phone or e-mail, and an unknown address kind goes back to the list", async () => {
    const client = await signIn("ship@example.com");
    const form = await (await client.get("/my-account/edit-address/shipping/")).text();
    expect(form).not.toContain('name="shipping_email"');
    const nonce = hidden(form, "woocommerce-edit-address-nonce");
    const fields = Object.fromEntries(
      Object.entries(BILLING)
        .filter(([k]) => k !== "billing_phone" && k !== "billing_email")
        .map(([k, v]) => [k.replace("billing_", "shipping_"), v]),
    );
    const res = await client.post("/my-account/edit-address/shipping/", {
      ...fields,
      shipping_address_1: "1 Dock Street",
      "woocommerce-edit-address-nonce": nonce,
    });
    expect(res.status).toBe(302);
    const [row] = await shop.services.db.query<{ address_1: string; email: string }>(
      `SELECT a.address_1, a.email FROM customer_addresses a JOIN customers c ON c.id = a.customer_id WHERE c.email = 'ship@example.com' AND kind = 'shipping'`,
    );
    expect(row).toEqual({ address_1: "1 Dock Street", email: "" });
    const odd = await client.get("/my-account/edit-address/elsewhere/");
    expect(odd.status).toBe(302);
    expect(odd.headers.get("location")).toContain("/my-account/edit-address/");
  });
});

describe("account details", () => {
  async function details(client: TestClient) {
    const html = await (await client.get("/my-account/edit-account/")).text();
    return { html, nonce: hidden(html, "save-account-details-nonce") };
  }
  const base = { account_first_name: "Ada", account_last_name: "Lovelace", account_display_name: "ada" };

  it("name, display name and e-mail are validated and saved", async () => {
    const client = await signIn("details@example.com");
    const { html, nonce } = await details(client);
    expect(html).toMatch(/id="account_email"[^>]*value="details@example.com"|value="details@example.com"[^>]*id="account_email"/);
    const bad = await (
      await client.post("/my-account/edit-account/", {
        ...base,
        account_first_name: "",
        account_email: "details@example.com",
        "save-account-details-nonce": nonce,
      })
    ).text();
    expect(bad).toContain("First name is a required field.");
    expect(bad).toMatch(/id="account_display_name"[^>]*value="ada"/);
    const badEmail = await (await client.post("/my-account/edit-account/", { ...base, account_email: "nope", "save-account-details-nonce": nonce })).text();
    expect(badEmail).toContain("Please provide a valid email address.");
    await registerCustomer(shop.services.db, { email: "taken@example.com", password: "whatever 123", first_name: "", last_name: "" });
    const taken = await (
      await client.post("/my-account/edit-account/", { ...base, account_email: "taken@example.com", "save-account-details-nonce": nonce })
    ).text();
    expect(taken).toContain("This email address is already registered.");
    const ok = await client.post("/my-account/edit-account/", {
      ...base,
      account_first_name: "Augusta <b>Ada</b>",
      account_display_name: "countess",
      account_email: "Countess@Example.com",
      "save-account-details-nonce": nonce,
    });
    expect(ok.status).toBe(302);
    const [row] = await shop.services.db.query(`SELECT first_name, display_name, email FROM customers WHERE email = 'countess@example.com'`);
    expect(row).toEqual({ first_name: "Augusta Ada", display_name: "countess", email: "countess@example.com" });
    expect(await (await client.get("/my-account/edit-account/")).text()).toContain("Account details changed successfully.");
  });

  it("a password change needs the current password, and ends the account's other sessions but not this one", async () => {
    const client = await signIn("pw@example.com");
    const other = await signIn("pw@example.com", "account pass 1", false);
    expect(await (await other.get("/my-account/edit-account/")).text()).toContain("Account details");
    const { nonce } = await details(client);
    const fields = { ...base, account_email: "pw@example.com", "save-account-details-nonce": nonce };
    expect(await (await client.post("/my-account/edit-account/", { ...fields, password_1: "brand new pass", password_2: "brand new pass" })).text()).toContain(
      "Please enter your current password.",
    );
    expect(
      await (
        await client.post("/my-account/edit-account/", {
          ...fields,
          password_current: "wrong pass 9",
          password_1: "brand new pass",
          password_2: "brand new pass",
        })
      ).text(),
    ).toContain("Your current password is incorrect.");
    expect(
      await (
        await client.post("/my-account/edit-account/", {
          ...fields,
          password_current: "account pass 1",
          password_1: "brand new pass",
          password_2: "different pass",
        })
      ).text(),
    ).toContain("New passwords do not match.");
    expect(
      await (
        await client.post("/my-account/edit-account/", { ...fields, password_current: "account pass 1", password_1: "short", password_2: "short" })
      ).text(),
    ).toContain("at least 8 characters");
    // Still the old password: none of the refused attempts changed it, and the other session is still signed in.
    expect((await other.get("/my-account/edit-account/")).status).toBe(200);

    const ok = await client.post("/my-account/edit-account/", {
      ...fields,
      password_current: "account pass 1",
      password_1: "brand new pass",
      password_2: "brand new pass",
    });
    expect(ok.status).toBe(302);
    expect((await client.get("/my-account/edit-account/")).status).toBe(200);
    const kicked = await other.get("/my-account/edit-account/");
    expect(kicked.status).toBe(302);
    await signIn("pw@example.com", "brand new pass", false);
  });
});
