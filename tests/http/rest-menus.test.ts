/**
 * shop/v1/menus (docs/contract/rest/shop-v1.md 'Menus'): the seeded demo navigation, CRUD with the items nested in
 * the menu's body (kinds, link actions, positions, depth 3), targets checked at write time, bad input named,
 * guests 401 and customers 403, every write audited, and the header's read leaving out items whose target is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { headerMenu } from "../../core/commerce/menus.ts";

let shop: TestShop;
let admin: SignedIn;
let customer: SignedIn;
const ids = { category: 0, product: 0, post: 0, popup: 0 };

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "menus-admin@example.com", "administrator");
  customer = await signInAs(shop, "menus-customer@example.com", "customer");
  const db = shop.services.db;
  ids.category = (await db.query<{ id: number }>(`SELECT id FROM terms WHERE taxonomy = 'product_cat' AND slug = 'ties'`))[0]!.id;
  ids.product = (await db.query<{ id: number }>(`SELECT id FROM products WHERE slug = 'silk-necktie'`))[0]!.id;
  ids.post = (await db.query<{ id: number }>(`SELECT id FROM posts WHERE status = 'publish' ORDER BY id LIMIT 1`))[0]!.id;
  ids.popup = (await db.query<{ id: number }>(`SELECT id FROM popups ORDER BY id LIMIT 1`))[0]!.id;
});
afterAll(async () => shop?.close());

type Json = Record<string, unknown>;
type Item = { id: number; parent: number; position: number; kind: string; title: string; children: Item[] } & Json;
const call = (who: SignedIn, method: string, path: string, json?: unknown) =>
  who.client.request(`/wp-json/${path}`, { method, headers: { "X-WP-Nonce": who.nonce }, ...(json === undefined ? {} : { json }) });

async function invalid(res: Response): Promise<Record<string, string>> {
  expect(res.status).toBe(400);
  const body = (await res.json()) as { code: string; data: { params: Record<string, string> } };
  expect(body.code).toBe("rest_invalid_param");
  return body.data.params;
}

describe("the demo navigation", () => {
  it("is seeded as issue 17 names it, and the header's read resolves it", async () => {
    const list = await call(admin, "GET", "shop/v1/menus");
    expect(list.status).toBe(200);
    expect(list.headers.get("x-wp-total")).toBe("2");
    const [main, footer] = (await list.json()) as { slug: string; location: string; items: Item[] }[];
    expect(main).toMatchObject({ slug: "main-menu", location: "primary" });
    const shopItem = main!.items[0]!;
    expect(shopItem).toMatchObject({ kind: "page", page: "shop", mega: true, position: 0, parent: 0 });
    expect(shopItem.children.filter((c) => c.kind === "product_cat").length).toBeGreaterThanOrEqual(3);
    expect(shopItem.children.find((c) => c.featured)).toMatchObject({ kind: "product", featured: true });

    const header = await headerMenu(shop.services.db, "primary");
    expect(header!.items.map((i) => i.title)).toEqual(["Shop", "Masks", "Mask and Tie Sets", "Live scores", "Blog", "Contact"]);
    expect(header!.items.map((i) => i.href)).toEqual([
      "/shop/",
      "/product-category/face-masks/",
      "/product-category/mask-and-tie-sets/",
      "/live/",
      "/blog/",
      "/contact/",
    ]);
    // The footer's menu (issue 14): the shop's own pages, at their own addresses.
    expect(footer).toMatchObject({ slug: "footer-menu", location: "footer" });
    const footerMenu = await headerMenu(shop.services.db, "footer");
    expect(footerMenu!.items.map((i) => [i.title, i.href])).toEqual([
      ["About", "/about/"],
      ["Contact", "/contact/"],
      ["Shipping & returns", "/shipping-returns/"],
      ["Privacy policy", "/privacy-policy/"],
      ["Terms and conditions", "/terms/"],
    ]);
    const columns = header!.items[0]!.children;
    expect(columns[0]).toMatchObject({ title: "Face Masks", href: "/product-category/face-masks/" });
    expect(columns[0]!.children[0]).toMatchObject({ title: "Mask size guide", href: expect.stringMatching(/^#popup:open:\d+$/) });
    expect(columns.find((c) => c.featured)).toMatchObject({ kind: "product", href: "/product/cotton-face-mask/" });
  });
});

describe("shop/v1/menus", () => {
  it("refuses guests with 401 and customers with 403", async () => {
    const anon = new TestClient(shop.url);
    expect((await anon.get("/wp-json/shop/v1/menus")).status).toBe(401);
    const create = await anon.request("/wp-json/shop/v1/menus", { method: "POST", json: { name: "Sneaky" } });
    expect(create.status).toBe(401);
    expect(((await create.json()) as Json).code).toBe("rest_cannot_create");
    for (const [method, path] of [
      ["GET", "shop/v1/menus"],
      ["POST", "shop/v1/menus"],
      ["GET", "shop/v1/menus/1"],
      ["PUT", "shop/v1/menus/1"],
      ["DELETE", "shop/v1/menus/1"],
    ]) {
      const res = await call(customer, method!, path!, method === "GET" || method === "DELETE" ? undefined : { name: "Mine" });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(((await res.json()) as Json).code).not.toBe("rest_menu_invalid_id");
    }
  });

  it("creates a menu with nested items of every kind, in their positions, and reads it back", async () => {
    const res = await call(admin, "POST", "shop/v1/menus", {
      name: "Footer links",
      location: "footer",
      items: [
        {
          kind: "page",
          page: "shop",
          children: [
            { kind: "product_cat", object_id: ids.category, position: 1, children: [{ kind: "product", object_id: ids.product }] },
            { kind: "post", object_id: ids.post, position: 0 },
          ],
        },
        { kind: "custom", url: "https://example.com/about", title: "About" },
        { kind: "link_action", href: `#popup:open:${ids.popup}`, title: "Newsletter" },
        { kind: "link_action", href: "#popup:close", title: "Close" },
      ],
    });
    expect(res.status).toBe(201);
    const menu = (await res.json()) as { id: number; slug: string; items: Item[] };
    expect(menu).toMatchObject({ name: "Footer links", slug: "footer-links", location: "footer" });
    expect(menu.items.map((i) => i.kind)).toEqual(["page", "custom", "link_action", "link_action"]);
    const children = menu.items[0]!.children;
    expect(children.map((c) => [c.kind, c.position, c.parent])).toEqual([
      ["post", 0, menu.items[0]!.id],
      ["product_cat", 1, menu.items[0]!.id],
    ]);
    expect(children[1]!.children[0]).toMatchObject({ kind: "product", object_id: ids.product, parent: children[1]!.id });

    const read = await call(admin, "GET", `shop/v1/menus/${menu.id}`);
    expect(await read.json()).toEqual(menu);
    // What GET answers can be sent back as it is.
    const roundTrip = await call(admin, "PUT", `shop/v1/menus/${menu.id}`, menu);
    expect(roundTrip.status).toBe(200);
    expect(((await roundTrip.json()) as { items: Item[] }).items.map((i) => i.title)).toEqual(["", "About", "Newsletter", "Close"]);

    const audit = await call(admin, "GET", `shop/v1/audit-log?object_type=menu&object_id=${menu.id}`);
    expect(((await audit.json()) as Json[]).map((l) => l.action)).toEqual(["update", "create"]);
  });

  it("updates the fields given; items replace the whole tree", async () => {
    const created = (await (await call(admin, "POST", "shop/v1/menus", { name: "Temp", items: [{ kind: "page", page: "blog" }] })).json()) as { id: number };
    const renamed = await call(admin, "PATCH", `shop/v1/menus/${created.id}`, { name: "Renamed" });
    expect(await renamed.json()).toMatchObject({ name: "Renamed", slug: "temp", items: [{ kind: "page", page: "blog" }] });
    const replaced = await call(admin, "POST", `shop/v1/menus/${created.id}`, {
      items: [
        { kind: "page", page: "live" },
        { kind: "page", page: "cart" },
      ],
    });
    expect(((await replaced.json()) as { items: Item[] }).items.map((i) => i.page)).toEqual(["live", "cart"]);

    const deleted = await call(admin, "DELETE", `shop/v1/menus/${created.id}`);
    expect(await deleted.json()).toMatchObject({ deleted: true, previous: { id: created.id, name: "Renamed" } });
    expect((await call(admin, "GET", `shop/v1/menus/${created.id}`)).status).toBe(404);
    expect((await call(admin, "DELETE", `shop/v1/menus/${created.id}`)).status).toBe(404);
    expect((await call(admin, "GET", "shop/v1/menus/abc")).status).toBe(404);
    const audit = await call(admin, "GET", `shop/v1/audit-log?object_type=menu&object_id=${created.id}`);
    expect(((await audit.json()) as Json[]).map((l) => l.action)).toEqual(["delete", "update", "update", "create"]);
  });

  it("refuses bad menus with rest_invalid_param naming the field, and stores nothing", async () => {
    const page = (children: unknown[] = []) => ({ kind: "page", page: "shop", children });
    const cases: [unknown, string, RegExp?][] = [
      [{ name: "" }, "name"],
      [{ name: "X", slug: "Not A Slug" }, "slug"],
      [{ name: "X", colour: "red" }, "colour"],
      [{ name: "X", items: "nope" }, "items"],
      [{ name: "X", items: [page([page([page([page()])])])] }, "items", /^items\[0\]\.children\[0\]\.children\[0\]\.children menus nest at most 3 levels deep/],
      [{ name: "X", items: [{ kind: "product_cat", object_id: 99_999_999 }] }, "items", /^items\[0\]\.object_id no product category has id 99999999/],
      [{ name: "X", items: [page([{ kind: "product", object_id: 99_999_998 }])] }, "items", /^items\[0\]\.children\[0\]\.object_id no product/],
      [{ name: "X", items: [{ kind: "post", object_id: 99_999_999 }] }, "items", /no post has id/],
      [{ name: "X", items: [{ kind: "link_action", href: "#popup:open:99999999" }] }, "items", /^items\[0\]\.href no popup has id/],
      [{ name: "X", items: [{ kind: "link_action", href: "#not-an-action" }] }, "items", /^items\[0\]\.href is not a link action/],
      [{ name: "X", items: [{ kind: "custom", url: "javascript:alert(1)" }] }, "items", /^items\[0\]\.url must be/],
      [{ name: "X", items: [{ kind: "page", page: "wp-admin" }] }, "items"],
      [{ name: "X", items: [{ kind: "menu", object_id: 1 }] }, "items"],
      [{ name: "X", items: [{ kind: "page", page: "shop", target: "_blank" }] }, "items", /target/],
    ];
    const before = await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM menus`);
    const missing = await call(admin, "POST", "shop/v1/menus", { items: [] });
    expect(await missing.json()).toMatchObject({ code: "rest_missing_callback_param", data: { status: 400, params: ["name"] } });
    for (const [body, field, message] of cases) {
      const params = await invalid(await call(admin, "POST", "shop/v1/menus", body));
      expect(Object.keys(params), JSON.stringify(body)).toEqual([field]);
      if (message) expect(params[field], JSON.stringify(body)).toMatch(message);
    }
    expect(await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM menus`)).toEqual(before);
    // An update is checked the same way and leaves the menu as it was.
    const main = ((await (await call(admin, "GET", "shop/v1/menus")).json()) as { id: number; items: Item[] }[])[0]!;
    await invalid(await call(admin, "PUT", `shop/v1/menus/${main.id}`, { items: [{ kind: "product", object_id: 99_999_999 }] }));
    expect(((await (await call(admin, "GET", `shop/v1/menus/${main.id}`)).json()) as { items: Item[] }).items).toHaveLength(main.items.length);
  });

  it("the header's read leaves out an item whose target was deleted or unpublished, with what is under it", async () => {
    const db = shop.services.db;
    const [post] = await db.query<{ id: number }>(
      `INSERT INTO posts (slug, title, content, author) VALUES ('menu-post', 'Menu post', 'Hello', 'Ada') RETURNING id`,
    );
    const [product] = await db.query<{ id: number }>(`SELECT id FROM products WHERE status = 'publish' AND slug <> 'silk-necktie' ORDER BY id LIMIT 1`);
    const created = await call(admin, "POST", "shop/v1/menus", {
      name: "Side",
      location: "side",
      items: [
        { kind: "post", object_id: post!.id, children: [{ kind: "page", page: "blog" }] },
        { kind: "product", object_id: product!.id },
        { kind: "page", page: "cart" },
      ],
    });
    expect(created.status).toBe(201);
    expect((await headerMenu(db, "side"))!.items.map((i) => i.title)).toEqual(["Menu post", expect.any(String), "Cart"]);
    await db.query(`DELETE FROM posts WHERE id = $1`, [post!.id]);
    await db.query(`UPDATE products SET status = 'draft' WHERE id = $1`, [product!.id]);
    expect((await headerMenu(db, "side"))!.items.map((i) => i.title)).toEqual(["Cart"]);
    expect(await headerMenu(db, "nowhere")).toBeNull();
  });
});
