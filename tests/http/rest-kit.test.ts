/**
 * The REST conventions every staff route shares (docs/contract/wire.md §2.4), through the audit log route:
 * capability checks (guest 401, shop manager 403 on an administrator's route), paging headers with `Link`,
 * `_fields`, and `rest_invalid_param` naming the parameter.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { insertAuditEntry } from "../../core/db/repositories/audit-log.ts";

let shop: TestShop;
let admin: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "kit-admin@example.com", "administrator");
  for (let i = 1; i <= 23; i++) {
    await insertAuditEntry(shop.services.db, {
      actorId: admin.id,
      actorLabel: "kit-admin@example.com",
      via: "cookie",
      action: "update",
      objectType: "kit",
      objectId: i,
      changes: { n: i },
    });
  }
});
afterAll(async () => shop?.close());

const get = (who: SignedIn, path: string) => who.client.get(path, { headers: { "X-WP-Nonce": who.nonce } });

describe("REST conventions", () => {
  it("refuses a guest with 401 and a shop manager with 403 on an administrator's route", async () => {
    const guest = await new TestClient(shop.url).get("/wp-json/shop/v1/audit-log");
    expect(guest.status).toBe(401);
    expect((await guest.json()).code).toBe("rest_not_logged_in");
    const manager = await signInAs(shop, "kit-manager@example.com", "shop_manager");
    const res = await get(manager, "/wp-json/shop/v1/audit-log");
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: "rest_forbidden", message: "Sorry, you are not allowed to do that.", data: { status: 403 } });
  });

  it("a cookie without the nonce is a guest", async () => {
    const res = await admin.client.get("/wp-json/shop/v1/audit-log");
    expect(res.status).toBe(401);
  });

  it("pages with X-WP-Total, X-WP-TotalPages and Link", async () => {
    const first = await get(admin, "/wp-json/shop/v1/audit-log?object_type=kit&per_page=10");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-wp-total")).toBe("23");
    expect(first.headers.get("x-wp-totalpages")).toBe("3");
    expect(first.headers.get("link")).toMatch(/<http:\/\/[^>]+\/wp-json\/shop\/v1\/audit-log\?object_type=kit&per_page=10&page=2>; rel="next"/);
    const items = (await first.json()) as { object: { id: string } }[];
    expect(items.map((i) => i.object.id)).toEqual(["23", "22", "21", "20", "19", "18", "17", "16", "15", "14"]);
    const last = await get(admin, "/wp-json/shop/v1/audit-log?object_type=kit&per_page=10&page=3");
    expect(last.headers.get("link")).toMatch(/page=2>; rel="prev"$/);
    expect(((await last.json()) as unknown[]).length).toBe(3);
  });

  it("_fields keeps only the named fields, nested ones with a dot", async () => {
    const res = await get(admin, "/wp-json/shop/v1/audit-log?object_type=kit&per_page=2&_fields=id,object.id");
    const items = (await res.json()) as Record<string, unknown>[];
    expect(items).toHaveLength(2);
    expect(Object.keys(items[0]!).sort()).toEqual(["id", "object"]);
    expect(items[0]!.object).toEqual({ id: "23" });
  });

  it("a bad parameter answers rest_invalid_param naming it", async () => {
    for (const bad of ["per_page=0", "per_page=101", "page=abc", "object_type=%3Cscript%3E"]) {
      const res = await get(admin, `/wp-json/shop/v1/audit-log?${bad}`);
      expect(res.status, bad).toBe(400);
      const body = (await res.json()) as { code: string; data: { params: Record<string, string> } };
      expect(body.code).toBe("rest_invalid_param");
      expect(Object.keys(body.data.params)).toEqual([bad.split("=")[0]]);
    }
  });
});
