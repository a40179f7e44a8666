/**
 * The promotion simulator (`POST shop/v1/discount-simulations`, docs/contract/rest/shop-v1.md 'Promotion simulator')
 * and the discount rules' versions (`ETag` / `If-Match`): staff only, input refused at the field it names (the draft
 * rule by the engine's own schema), prices from the checkout's cart pricing under the stored and the draft rules,
 * and nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;
let product: { id: number; price: number };
let necktie: number;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "sim-admin@example.com", "administrator");
  manager = await signInAs(shop, "sim-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "sim-customer@example.com", "customer");
  // A simple product no demo rule touches (not a mask, a tie, the travel case or the necktie), without a sale price.
  const [row] = await shop.services.db.query<{ id: number; regular_price: number }>(
    `SELECT p.id, p.regular_price FROM products p WHERE p.type = 'simple' AND p.status = 'publish' AND p.sale_price IS NULL
       AND p.regular_price BETWEEN 500 AND 5000 AND p.slug NOT IN ('travel-tie-case', 'silk-necktie')
       AND NOT EXISTS (SELECT 1 FROM product_terms pt JOIN terms t ON t.id = pt.term_id
                        WHERE pt.product_id = p.id AND t.taxonomy = 'product_cat' AND t.slug IN ('face-masks', 'ties', 'bow-ties'))
     ORDER BY p.id LIMIT 1`,
  );
  product = { id: row!.id, price: row!.regular_price };
  // The necktie (buy-X-get-Y's product) is variable: a line is one of its variations.
  necktie = (
    await shop.services.db.query<{ id: number }>(
      `SELECT v.id FROM variations v JOIN products p ON p.id = v.product_id WHERE p.slug = 'silk-necktie' ORDER BY v.id LIMIT 1`,
    )
  )[0]!.id;
});
afterAll(async () => shop?.close());

type Json = Record<string, unknown>;
const call = (who: SignedIn, method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
  who.client.request(`/wp-json/${path}`, { method, headers: { "X-WP-Nonce": who.nonce, ...headers }, ...(json === undefined ? {} : { json }) });
const SIMULATE = "shop/v1/discount-simulations";

const tiered = (code: string) => ({
  code,
  title: "Three or more: $1 off each",
  priority: 5,
  enabled: false,
  filters: [{ type: "products", productIds: [product.id] }],
  conditions: [],
  action: { kind: "bulk", countBy: "product", tiers: [{ min: 3, type: "fixed_per_unit", value: 100 }] },
  stacking: "combinable",
});

async function params(res: Response): Promise<Record<string, string>> {
  expect(res.status).toBe(400);
  const body = (await res.json()) as { code: string; data: { status: number; params: Record<string, string> } };
  expect(body.code).toBe("rest_invalid_param");
  expect(body.data.status).toBe(400);
  return body.data.params;
}

/** Everything a simulation could change. */
const snapshot = () =>
  shop.services.db.query(
    `SELECT (SELECT count(*) FROM carts)::int AS carts, (SELECT count(*) FROM cart_items)::int AS items,
            (SELECT count(*) FROM orders)::int AS orders, (SELECT count(*) FROM audit_log)::int AS audit,
            (SELECT json_agg(data ORDER BY code) FROM discount_rules) AS rules, (SELECT json_agg(usage_count ORDER BY code) FROM coupons) AS usage`,
  );

describe("POST shop/v1/discount-simulations", () => {
  it("is staff only: a guest 401, a customer 403", async () => {
    const body = { items: [{ product_id: product.id, quantity: 1 }] };
    const guest = await new TestClient(shop.url).request(`/wp-json/${SIMULATE}`, { method: "POST", json: body });
    expect(guest.status).toBe(401);
    expect(((await guest.json()) as Json).code).toBe("rest_not_logged_in");
    const refused = await call(customer, "POST", SIMULATE, body);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Json).code).toBe("rest_forbidden");
  });

  it("prices the cart under the stored rules and under the draft (as if published), and writes nothing", async () => {
    const before = await snapshot();
    const res = await call(manager, "POST", SIMULATE, {
      items: [{ product_id: product.id, quantity: 3 }],
      coupons: ["TAKE5", "nope"],
      rule: tiered("sim-three"),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      current: { lines: Json[]; totals: Json; coupons: { applied: Json[]; refused: Json[] } };
      draft: { lines: Json[]; totals: Json; applied_rules: Json[] };
    };
    expect(body.current.lines).toEqual([
      expect.objectContaining({ product_id: product.id, quantity: 3, unit_price: product.price, subtotal: 3 * product.price, free_item: false }),
    ]);
    expect(body.draft.lines[0]).toMatchObject({ unit_price: product.price - 100, discounts: [expect.objectContaining({ code: "sim-three", amount: 300 })] });
    expect(body.draft.applied_rules).toContainEqual(expect.objectContaining({ code: "sim-three", discount: 300 }));
    expect(body.current.totals.product_discount).toBe(0);
    expect(body.draft.totals.product_discount).toBe(300);
    // Coupons as the cart takes them: case-insensitive, an unknown one refused with the cart's message.
    expect(body.current.coupons.refused).toContainEqual({ code: "nope", message: 'Coupon "nope" does not exist!' });
    expect(await snapshot()).toEqual(before);
    // The draft was never stored.
    expect((await call(admin, "GET", "shop/v1/discount-rules/sim-three")).status).toBe(404);
  });

  it("adds the free item a buy-X-get-Y rule grants, in memory", async () => {
    const res = await call(admin, "POST", SIMULATE, { items: [{ product_id: necktie, quantity: 1 }] });
    expect(res.status).toBe(200);
    const parent = (await shop.services.db.query<{ id: number }>(`SELECT product_id AS id FROM variations WHERE id = $1`, [necktie]))[0]!.id;
    // A variable product itself is not a line.
    expect((await params(await call(admin, "POST", SIMULATE, { items: [{ product_id: parent, quantity: 1 }] }))).items).toMatch(/variable product/);
    const { current, draft } = (await res.json()) as { current: { lines: { free_item: boolean; total: number }[] }; draft: null };
    expect(draft).toBeNull();
    expect(current.lines.filter((l) => l.free_item)).toEqual([expect.objectContaining({ total: 0 })]);
  });

  it("a draft in place of a stored rule replaces it; a date prices the schedule", async () => {
    const stored = (await (await call(admin, "GET", "shop/v1/discount-rules/travel-case-20")).json()) as Json & { filters: { productIds: number[] }[] };
    const { id: _id, modified_gmt: _m, ...rule } = stored;
    const caseId = stored.filters[0]!.productIds[0]!;
    const res = await call(admin, "POST", SIMULATE, {
      items: [{ product_id: caseId, quantity: 1 }],
      rule: { ...rule, action: { kind: "product_percent", percent: 50 }, schedule: { from: "2030-01-01T00:00:00Z" } },
    });
    const body = (await res.json()) as { current: { applied_rules: Json[] }; draft: { applied_rules: Json[] } };
    expect(body.current.applied_rules.map((r) => r.code)).toContain("travel-case-20");
    // Scheduled for 2030: not active now.
    expect(body.draft.applied_rules.map((r) => r.code)).not.toContain("travel-case-20");
    const later = await call(admin, "POST", SIMULATE, {
      items: [{ product_id: caseId, quantity: 1 }],
      date: "2030-06-01T00:00:00Z",
      rule: { ...rule, action: { kind: "product_percent", percent: 50 }, schedule: { from: "2030-01-01T00:00:00Z" } },
    });
    const at = (await later.json()) as { date: string; draft: { lines: { discounts: { code: string; amount: number }[]; subtotal: number }[] } };
    expect(at.date).toBe("2030-06-01T00:00:00.000Z");
    const line = at.draft.lines[0]!;
    expect(line.discounts.find((d) => d.code === "travel-case-20")!.amount).toBe(Math.round(line.subtotal / 2));
  });

  it("refuses bad input at the field it names, the draft rule by the engine's schema", async () => {
    const base = { items: [{ product_id: product.id, quantity: 1 }] };
    expect(await params(await call(admin, "POST", SIMULATE, { items: [] }))).toHaveProperty("items");
    expect(await params(await call(admin, "POST", SIMULATE, { items: [{ product_id: product.id, quantity: 0 }] }))).toHaveProperty("items");
    expect(await params(await call(admin, "POST", SIMULATE, { ...base, colour: "red" }))).toHaveProperty("colour");
    expect(await params(await call(admin, "POST", SIMULATE, { ...base, date: "soon" }))).toHaveProperty("date");
    const missing = await params(await call(admin, "POST", SIMULATE, { items: [{ product_id: 999_999, quantity: 1 }] }));
    expect(missing.items).toBe("items[0].product_id no published product has id 999999");
    expect((await params(await call(admin, "POST", SIMULATE, { ...base, customer_id: 999_999 }))).customer_id).toMatch(/no customer has id 999999/);
    const tiers = { kind: "bulk", countBy: "product", tiers: [{ min: 5, max: 2, type: "percent", value: 10 }] };
    expect((await params(await call(admin, "POST", SIMULATE, { ...base, rule: { ...tiered("sim-bad"), action: tiers } }))).rule).toBe(
      "rule.action.tiers[0].max max must be at least min",
    );
    expect((await params(await call(admin, "POST", SIMULATE, { ...base, rule: { ...tiered("sim-bad"), priorty: 1 } }))).rule).toBe(
      "rule.priorty is not a known field",
    );
    expect((await params(await call(admin, "POST", SIMULATE, { ...base, rule: { ...tiered("Sim Bad") } }))).rule).toMatch(/^rule\.code /);
  });
});

describe("discount rules' versions", () => {
  it("answers ETag and refuses an update over someone else's (412), never overwriting", async () => {
    const created = await call(admin, "POST", "shop/v1/discount-rules", tiered("sim-versioned"));
    expect(created.status).toBe(201);
    const version = created.headers.get("ETag")!;
    expect(version).toMatch(/^"\d+"$/);
    const read = await call(manager, "GET", "shop/v1/discount-rules/sim-versioned");
    expect(read.headers.get("ETag")).toBe(version);
    const first = await call(admin, "PUT", "shop/v1/discount-rules/sim-versioned", { title: "First" }, { "If-Match": version });
    expect(first.status).toBe(200);
    expect(first.headers.get("ETag")).not.toBe(version);
    const second = await call(manager, "PUT", "shop/v1/discount-rules/sim-versioned", { title: "Second" }, { "If-Match": version });
    expect(second.status).toBe(412);
    expect(((await second.json()) as Json).code).toBe("rest_discount_rule_changed");
    expect(await (await call(admin, "GET", "shop/v1/discount-rules/sim-versioned")).json()).toMatchObject({ title: "First" });
    // Without If-Match, as before: the update lands.
    expect((await call(admin, "PATCH", "shop/v1/discount-rules/sim-versioned", { title: "Third" })).status).toBe(200);
  });

  it("names the nested field of a refused rule in its message", async () => {
    const res = await call(admin, "POST", "shop/v1/discount-rules", {
      ...tiered("sim-nested"),
      action: { kind: "bulk", countBy: "product", tiers: [{ min: 1, type: "percent", value: 120 }] },
    });
    expect((await params(res)).action).toBe("action.tiers[0].value percent 0–100, amounts in whole cents");
  });
});
