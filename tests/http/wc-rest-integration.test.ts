/**
 * The issue-13 integration flow end to end (scripts/wc-rest-integration.ts): application password, media upload,
 * a variable product with variations, a storefront order through the Store API, a gateway refund with restock,
 * the audit trail. The script is what an integrator runs; this test runs it against a test shop.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { signInAs, TEST_PASSWORD } from "../support/staff.ts";
import { runWcRestIntegration } from "../../scripts/wc-rest-integration.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await startTestShop();
  await signInAs(shop, "integrator@example.com", "administrator");
});
afterAll(async () => shop?.close());

it("creates a variable product with images, sells it through the storefront, refunds it and sees the stock back", async () => {
  const steps: { name: string; ok: boolean; detail: string }[] = [];
  const passed = await runWcRestIntegration(shop.url, "integrator@example.com", TEST_PASSWORD, (name, ok, detail) => steps.push({ name, ok, detail }));
  expect(steps.filter((s) => !s.ok)).toEqual([]);
  expect(steps.map((s) => s.name)).toEqual([
    "sign in",
    "application password",
    "upload image",
    "create variable product",
    "create variation S",
    "create variation M",
    "add to cart",
    "checkout",
    "stock taken",
    "read order",
    "refund",
    "order refunded",
    "stock back",
    "audit log",
  ]);
  expect(passed).toBe(true);
}, 120_000);

it("stops at the first step when the password is wrong", async () => {
  const steps: { name: string; ok: boolean }[] = [];
  const passed = await runWcRestIntegration(shop.url, "integrator@example.com", "not the password", (name, ok) => steps.push({ name, ok }));
  expect(passed).toBe(false);
  expect(steps).toEqual([{ name: "sign in", ok: false }]);
});
