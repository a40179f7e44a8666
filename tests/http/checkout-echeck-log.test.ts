/**
 * The e-check form's script-error log: the checkout page carries its own nonce (nonce action
 * `${gatewayId}-log-script-event`), and the e-check action accepts it — and only it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { openCheckout, productWithStock, shopperWithCart } from "./checkout-support.ts";

let shop: TestShop;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop();
  productId = await productWithStock(shop, "silk-pocket-square", 1000, 1500);
});
afterAll(async () => shop?.close());

/** A value from the page's serialized route data: `"name","value"` (escaped quotes inside the stream script too). */
function pageValue(html: string, name: string): string | undefined {
  return new RegExp(`${name}\\\\?"?,\\\\?"([0-9a-f]{10})\\\\?"`).exec(html)?.[1];
}

describe("e-check payment form script-error log", () => {
  it("the checkout page prints the e-check nonce; the e-check action answers success with it", async () => {
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const echeckNonce = pageValue(page.html, "echeckScriptLogNonce");
    const cardNonce = pageValue(page.html, "scriptLogNonce");
    expect(echeckNonce).toMatch(/^[0-9a-f]{10}$/);
    expect(cardNonce).toMatch(/^[0-9a-f]{10}$/);
    expect(echeckNonce).not.toBe(cardNonce);

    const ok = await client.post("/wp-admin/admin-ajax.php", {
      action: "sandbox_echeck_payment_form_log_script_event",
      security: echeckNonce!,
      name: "/assets/echeck.js",
      message: "The script /assets/echeck.js could not be loaded.",
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true });

    // Each action keeps to its own nonce: the card's is refused by the e-check action, and the other way round.
    const crossed = await client.post("/wp-admin/admin-ajax.php", {
      action: "sandbox_echeck_payment_form_log_script_event",
      security: cardNonce!,
      name: "x",
      message: "y",
    });
    expect(crossed.status).toBe(403);
    const crossedBack = await client.post("/wp-admin/admin-ajax.php", {
      action: "sandbox_credit_card_payment_form_log_script_event",
      security: echeckNonce!,
      name: "x",
      message: "y",
    });
    expect(crossedBack.status).toBe(403);
  });
});
