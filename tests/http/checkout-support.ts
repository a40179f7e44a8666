/** Helpers for the checkout tests: a shopper with a cart, the checkout page's hidden fields, a valid form. */
import { TestClient } from "../support/client.ts";
import type { TestShop } from "../support/shop.ts";

export const CARD = "wc-sandbox-credit-card";
export const ECHECK = "wc-sandbox-echeck";

export async function productWithStock(shop: TestShop, slug: string, stock: number | null, price = 1500): Promise<number> {
  const [row] = await shop.services.db.query<{ id: number }>(
    `UPDATE products SET stock_quantity = $2, stock_status = 'instock', regular_price = $3, sale_price = NULL WHERE slug = $1 RETURNING id`,
    [slug, stock, price],
  );
  if (!row) throw new Error(`no product ${slug}`);
  return row.id;
}

export async function shopperWithCart(shop: TestShop, productId: number, quantity = 1): Promise<TestClient> {
  const client = new TestClient(shop.url);
  const res = await client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: String(quantity) });
  const body = (await res.json()) as { fragments?: unknown; error?: boolean };
  if (!body.fragments) throw new Error(`add_to_cart failed: ${JSON.stringify(body)}`);
  return client;
}

export interface CheckoutPage {
  nonce: string;
  token: string;
  reviewNonce: string;
  html: string;
}

export async function openCheckout(client: TestClient): Promise<CheckoutPage> {
  const html = await (await client.get("/checkout/")).text();
  const nonce = /name="woocommerce-process-checkout-nonce" value="([^"]+)"/.exec(html)?.[1];
  const token = /name="_checkout_token" value="([0-9a-f]{32})"/.exec(html)?.[1];
  const reviewNonce = /"update_order_review_nonce":"([^"]+)"/.exec(html)?.[1];
  if (!nonce || !token || !reviewNonce) throw new Error("checkout page without its hidden fields");
  return { nonce, token, reviewNonce, html };
}

export function billing(email = `guest${Math.random().toString(36).slice(2, 8)}@example.com`): Record<string, string> {
  return {
    billing_first_name: "Ada",
    billing_last_name: "Lovelace",
    billing_company: "",
    billing_country: "US",
    billing_address_1: "1 Analytical Way",
    billing_address_2: "",
    billing_city: "Springfield",
    billing_state: "IL",
    billing_postcode: "62701",
    billing_phone: "555 123 4567",
    billing_email: email,
    order_comments: "",
    "shipping_method[0]": "flat_rate:1",
  };
}

export function cardFields(number = "4242 4242 4242 4242", csc = "123", expiry = "12 / 34"): Record<string, string> {
  return { payment_method: "sandbox_credit_card", [`${CARD}-account-number`]: number, [`${CARD}-expiry`]: expiry, [`${CARD}-csc`]: csc };
}

export function echeckFields(routing = "110000000", account = "000123456789"): Record<string, string> {
  return { payment_method: "sandbox_echeck", [`${ECHECK}-routing-number`]: routing, [`${ECHECK}-account-number`]: account };
}

export interface CheckoutReply {
  result: string;
  redirect?: string;
  messages?: string;
  refresh?: boolean;
  reload?: boolean;
}

export async function submitCheckout(client: TestClient, page: CheckoutPage, fields: Record<string, string>): Promise<CheckoutReply> {
  const res = await client.post("/?wc-ajax=checkout", {
    "woocommerce-process-checkout-nonce": page.nonce,
    _checkout_token: page.token,
    _wp_http_referer: "/checkout/",
    ...fields,
  });
  if (res.status !== 200) throw new Error(`checkout answered ${res.status}`);
  if (!/application\/json/.test(res.headers.get("content-type") ?? "")) throw new Error("checkout answered without JSON");
  return (await res.json()) as CheckoutReply;
}

export async function counts(shop: TestShop): Promise<{ orders: number; charges: number; attempts: number }> {
  const [row] = await shop.services.db.query<{ orders: number; charges: number; attempts: number }>(
    `SELECT (SELECT count(*)::int FROM orders) AS orders,
            (SELECT count(*)::int FROM sandbox_records WHERE type = 'charge') AS charges,
            (SELECT count(*)::int FROM payment_attempts) AS attempts`,
  );
  return row!;
}
