/**
 * What an outside integration does with the shop's REST API in WooCommerce's shapes (docs/contract/rest/), against a
 * running shop: sign in once as staff and create an application password, then, with HTTP Basic only, upload an
 * image, create a variable product with two variations using it, buy one variation through the storefront's Store
 * API as a shopper would, refund the order through the payment gateway with restock, and check the stock is back.
 * Prints each step; exits non-zero when a step does not answer as expected.
 *
 *   npx tsx scripts/wc-rest-integration.ts http://localhost:3000 admin@example.com 'the admin password'
 *
 * The admin's password is the `ADMIN_PASSWORD` the shop was started with, or the one its first start printed. It
 * places and refunds a real (sandbox, test-mode) order and leaves the product published: run it against a test shop.
 */
import { pathToFileURL } from "node:url";
import sharp from "sharp";

export interface StepLog {
  (name: string, ok: boolean, detail: string): void;
}

interface Answer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON from the server, checked step by step
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // an HTML page (the sign-in form); kept as text
  }
  return { status: res.status, headers: res.headers, body };
}

/** Runs the whole flow; returns true when every step answered as expected. */
export async function runWcRestIntegration(baseUrl: string, login: string, password: string, step: StepLog): Promise<boolean> {
  const base = baseUrl.replace(/\/+$/, "");
  let ok = true;
  const check = (name: string, pass: boolean, detail: string) => {
    step(name, pass, detail);
    ok &&= pass;
    return pass;
  };

  // 1. Staff sign-in with a browser's cookies, only to create the integration's application password.
  const cookies = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    return res;
  };
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  keep(await fetch(`${base}/wp-login.php`));
  const signIn = keep(
    await fetch(`${base}/wp-login.php`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(), origin: base },
      body: new URLSearchParams({ log: login, pwd: password, testcookie: "1", redirect_to: "/wp-admin/" }).toString(),
    }),
  );
  if (!check("sign in", signIn.status === 302 || signIn.status === 303, `wp-login.php answered ${signIn.status}`)) return false;
  const nonce = await (await fetch(`${base}/wp-admin/admin-ajax.php?action=rest-nonce`, { headers: { cookie: cookieHeader() } })).text();
  const created = await answer(
    await fetch(`${base}/wp-json/wp/v2/users/me/application-passwords`, {
      method: "POST",
      headers: { cookie: cookieHeader(), "X-WP-Nonce": nonce, "content-type": "application/json" },
      body: JSON.stringify({ name: `integration ${new Date().toISOString()}` }),
    }),
  );
  if (!check("application password", created.status === 201 && typeof created.body?.password === "string", `status ${created.status}`)) return false;
  const basic = `Basic ${Buffer.from(`${login}:${created.body.password}`).toString("base64")}`;

  // From here on: HTTP Basic only, no cookie, no nonce — what a server-side integration sends.
  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    answer(
      await fetch(`${base}/wp-json/${path}`, {
        method,
        headers: { Authorization: basic, ...(body !== undefined && !(body instanceof Blob) ? { "content-type": "application/json" } : {}), ...headers },
        body: body === undefined ? undefined : body instanceof Blob ? body : JSON.stringify(body),
      }),
    );

  // 2. An image, uploaded raw with Content-Disposition as WordPress's clients do.
  const png = await sharp({ create: { width: 900, height: 900, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .toBuffer();
  const media = await api("POST", "wp/v2/media", new Blob([new Uint8Array(png)]), {
    "content-type": "image/png",
    "content-disposition": 'attachment; filename="integration-tee.png"',
  });
  const sizes = Object.keys(media.body?.media_details?.sizes ?? {});
  if (!check("upload image", media.status === 201 && sizes.length > 0, `media ${media.body?.id}, sizes ${sizes.join(", ")}`)) return false;

  // 3. A variable product with a local "Size" attribute and two variations, each with stock 5.
  const suffix = Math.random().toString(36).slice(2, 8);
  const product = await api("POST", "wc/v3/products", {
    name: `Integration Tee ${suffix}`,
    type: "variable",
    status: "publish",
    description: "Created by scripts/wc-rest-integration.ts.",
    images: [{ id: media.body.id }],
    attributes: [{ name: "Size", options: ["S", "M"], variation: true, visible: true }],
  });
  if (
    !check(
      "create variable product",
      product.status === 201 && product.body?.type === "variable",
      `product ${product.body?.id} ${product.body?.permalink ?? product.body?.message}`,
    )
  )
    return false;
  const variations: number[] = [];
  for (const size of ["S", "M"]) {
    const v = await api("POST", `wc/v3/products/${product.body.id}/variations`, {
      regular_price: "25.00",
      sku: `INT-${suffix}-${size}`,
      manage_stock: true,
      stock_quantity: 5,
      image: { id: media.body.id },
      attributes: [{ name: "Size", option: size }],
    });
    if (!check(`create variation ${size}`, v.status === 201 && v.body?.stock_quantity === 5, `variation ${v.body?.id} ${v.body?.message ?? ""}`)) return false;
    variations.push(v.body.id);
  }

  // 4. A shopper buys two of size S through the storefront's Store API (Cart-Token, no staff credentials).
  let cartToken: string | null = null;
  const store = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/wp-json/wc/store/v1/${path}`, {
      method,
      headers: { Accept: "application/json", ...(cartToken ? { "Cart-Token": cartToken } : {}), ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    cartToken = res.headers.get("Cart-Token") ?? cartToken;
    return answer(res);
  };
  await store("GET", "cart");
  const added = await store("POST", "cart/add-item", { id: variations[0], quantity: 2, variation: [{ attribute: "Size", value: "S" }] });
  if (!check("add to cart", added.status === 201 && added.body?.items_count === 2, `items_count ${added.body?.items_count} ${added.body?.message ?? ""}`))
    return false;
  const address = {
    first_name: "Grace",
    last_name: "Hopper",
    address_1: "1 Compiler Road",
    city: "Springfield",
    state: "IL",
    postcode: "62701",
    country: "US",
    phone: "555 123 4567",
    email: "grace.integration@example.com",
  };
  const checkout = await store("POST", "checkout", {
    billing_address: address,
    shipping_address: address,
    payment_method: "sandbox_credit_card",
    payment_data: [
      { key: "wc-sandbox-credit-card-account-number", value: "4242424242424242" },
      { key: "wc-sandbox-credit-card-expiry", value: "12 / 34" },
      { key: "wc-sandbox-credit-card-csc", value: "123" },
    ],
  });
  const orderId = checkout.body?.order_id;
  if (!check("checkout", checkout.status === 200 && typeof orderId === "number", `order ${orderId} ${checkout.body?.status ?? checkout.body?.message}`))
    return false;

  const stockOf = async () => (await api("GET", `wc/v3/products/${product.body.id}/variations/${variations[0]}`)).body?.stock_quantity;
  const afterSale = await stockOf();
  check("stock taken", afterSale === 3, `size S stock ${afterSale} (was 5)`);

  // 5. Staff see the order and refund it in full through the gateway, with restock.
  const order = await api("GET", `wc/v3/orders/${orderId}`);
  const line = order.body?.line_items?.[0];
  if (!check("read order", order.status === 200 && line?.variation_id === variations[0], `status ${order.body?.status}, total ${order.body?.total}`))
    return false;
  const refund = await api(
    "POST",
    `wc/v3/orders/${orderId}/refunds`,
    {
      amount: order.body.total,
      reason: "Integration test refund",
      api_refund: true,
      api_restock: true,
      line_items: [{ id: line.id, quantity: line.quantity, refund_total: line.total }],
    },
    { "Idempotency-Key": `integration-${suffix}` },
  );
  if (
    !check(
      "refund",
      refund.status === 201 && refund.body?.refunded_payment === true,
      `refund ${refund.body?.id} of ${refund.body?.amount} ${refund.body?.message ?? ""}`,
    )
  )
    return false;
  const refunded = await api("GET", `wc/v3/orders/${orderId}`);
  check("order refunded", refunded.body?.status === "refunded", `status ${refunded.body?.status}`);
  const afterRefund = await stockOf();
  check("stock back", afterRefund === 5, `size S stock ${afterRefund}`);

  // 6. The integration's trail in the audit log, read by the administrator.
  const log = await api("GET", `shop/v1/audit-log?object_type=order&object_id=${orderId}`);
  check(
    "audit log",
    log.status === 200 && Array.isArray(log.body) && log.body.length > 0,
    `${Array.isArray(log.body) ? log.body.length : 0} entries for the order`,
  );
  return ok;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [base = "http://localhost:3000", login = process.env.ADMIN_EMAIL ?? "", password = process.env.ADMIN_PASSWORD ?? ""] = process.argv.slice(2);
  const passed = await runWcRestIntegration(base, login, password, (name, ok, detail) => console.log(`${ok ? "ok  " : "FAIL"} ${name}: ${detail}`));
  process.exitCode = passed ? 0 : 1;
}
