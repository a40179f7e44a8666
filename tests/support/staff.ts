/**
 * Signs an account in over HTTP the way a browser does (the account page's form), with the role the test needs,
 * and fetches the REST nonce (docs/contract/wire.md §2.3). For the staff REST routes' tests.
 */
import { expect } from "vitest";
import { TestClient } from "./client.ts";
import type { TestShop } from "./shop.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

export const TEST_PASSWORD = "account pass 1";

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";

export interface SignedIn {
  client: TestClient;
  nonce: string;
  id: number;
}

/** Registers `email` (once) with `role`, signs it in and returns its client and REST nonce. */
export async function signInAs(shop: TestShop, email: string, role: "administrator" | "shop_manager" | "customer" = "customer"): Promise<SignedIn> {
  const existing = await shop.services.db.query<{ id: number }>(`SELECT id FROM customers WHERE lower(email) = lower($1)`, [email]);
  let id = existing[0]?.id;
  if (id === undefined) {
    const made = await registerCustomer(shop.services.db, { email, password: TEST_PASSWORD, first_name: "Ada", last_name: "Lovelace" });
    if (!made.ok) throw new Error(made.message);
    id = made.customerId;
  }
  await shop.services.db.query(`UPDATE customers SET role = $2 WHERE id = $1`, [id, role]);
  const client = new TestClient(shop.url);
  const page = await (await client.get("/my-account/")).text();
  const res = await client.post("/my-account/", {
    intent: "login",
    username: email,
    password: TEST_PASSWORD,
    "woocommerce-login-nonce": hidden(page, "woocommerce-login-nonce"),
  });
  expect(res.status).toBe(302);
  const nonce = await (await client.get("/wp-admin/admin-ajax.php?action=rest-nonce")).text();
  return { client, nonce, id: Number(id) };
}
