/**
 * A headless client's whole purchase through the Store API (docs/contract/wire.md §8), against a running shop:
 * no cookies, only the Cart-Token. Prints each step; exits non-zero when a step does not answer as expected.
 *
 *   npx tsx scripts/store-api-headless.ts http://localhost:3000
 *
 * It places a real (sandbox, test-mode) order: run it against a test shop.
 */
export {};

const base = (process.argv[2] ?? "http://localhost:3000").replace(/\/+$/, "") + "/wp-json/wc/store/v1";
let cartToken: string | null = null;

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> & unknown[] }> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (cartToken) headers["Cart-Token"] = cartToken;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  cartToken = res.headers.get("Cart-Token") ?? cartToken;
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

function step(name: string, ok: boolean, detail: string): void {
  console.log(`${ok ? "ok  " : "FAIL"} ${name}: ${detail}`);
  if (!ok) process.exitCode = 1;
}

const products = await call("GET", "/products?per_page=20&orderby=price");
const buyable = (products.body as unknown as { id: number; name: string; type: string; is_in_stock: boolean; is_purchasable: boolean }[]).find(
  (p) => p.type === "simple" && p.is_in_stock && p.is_purchasable,
);
step("products", products.status === 200 && !!buyable, `${(products.body as unknown[]).length} listed, buying “${buyable?.name}”`);
if (!buyable) process.exit(1);

const cart = await call("GET", "/cart");
step("cart", cart.status === 200 && cartToken !== null, `empty cart, Cart-Token ${cartToken ? "received" : "missing"}`);

const added = await call("POST", "/cart/add-item", { id: buyable.id, quantity: 2 });
step("add-item", added.status === 201, `items_count ${String(added.body?.items_count)}`);

const coupon = await call("POST", "/cart/apply-coupon", { code: "WELCOME10" });
step("apply-coupon", coupon.status === 200 || coupon.status === 400, coupon.status === 200 ? "applied" : `refused: ${String(coupon.body?.message)}`);

const address = {
  first_name: "Ada",
  last_name: "Lovelace",
  address_1: "1 Analytical Way",
  city: "Springfield",
  state: "IL",
  postcode: "62701",
  country: "US",
  phone: "555 123 4567",
  email: "ada.headless@example.com",
};
const checkout = await call("POST", "/checkout", {
  billing_address: address,
  shipping_address: address,
  payment_method: "sandbox_credit_card",
  payment_data: [
    { key: "wc-sandbox-credit-card-account-number", value: "4242424242424242" },
    { key: "wc-sandbox-credit-card-expiry", value: "12 / 34" },
    { key: "wc-sandbox-credit-card-csc", value: "123" },
  ],
  extensions: { "woocommerce/order-attribution": { source_type: "utm", utm_source: "headless-script", user_agent: "store-api-headless" } },
});
const result = checkout.body?.payment_result as { redirect_url?: string } | undefined;
step(
  "checkout",
  checkout.status === 200,
  `order ${String(checkout.body?.order_id)} ${String(checkout.body?.status)} → ${result?.redirect_url ?? String(checkout.body?.message)}`,
);

const again = await call("POST", "/checkout", { billing_address: address, payment_method: "sandbox_credit_card" });
step("repeat", again.status === 400 && again.body?.code === "woocommerce_rest_cart_empty", `a repeated checkout answers ${String(again.body?.code)}`);
