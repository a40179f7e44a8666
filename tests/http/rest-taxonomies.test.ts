/**
 * wc/v3 product categories, tags, global attributes and attribute terms (docs/contract/rest/taxonomies.md): the
 * happy paths, WooCommerce's refusals for guests and customers, bad input per route, and that every write shows on
 * the storefront at once (category names in the menu and archive, attribute labels, swatch colours).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "taxo-admin@example.com", "administrator");
  manager = await signInAs(shop, "taxo-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "taxo-customer@example.com", "customer");
});
afterAll(async () => shop?.close());

const R = "/wp-json/wc/v3";
type Json = Record<string, unknown> & { code?: string; data?: { status: number; params?: Record<string, string>; resource_id?: number } };

function call(who: SignedIn | null, method: string, path: string, body?: unknown) {
  const client = who?.client ?? new TestClient(shop.url);
  const headers: Record<string, string> = who ? { "X-WP-Nonce": who.nonce } : {};
  return client.request(R + path, { method, headers, ...(body === undefined ? {} : { json: body }) });
}
async function callJson(who: SignedIn | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json & Json[] }> {
  const res = await call(who, method, path, body);
  return { status: res.status, body: (await res.json()) as Json & Json[] };
}
const page = async (path: string) => (await new TestClient(shop.url).get(path)).text();
const q = <T>(text: string, params: unknown[] = []) => shop.services.db.query<T>(text, params);

describe("who may call", () => {
  it("answers a guest 401 and a customer 403 with WooCommerce's codes, and tells them nothing", async () => {
    const cases: [string, string, string, unknown?][] = [
      ["GET", "/products/categories", "woocommerce_rest_cannot_view"],
      ["POST", "/products/categories", "woocommerce_rest_cannot_create", { name: "Nope" }],
      ["PUT", "/products/categories/1", "woocommerce_rest_cannot_edit", { name: "Nope" }],
      ["DELETE", "/products/categories/1?force=true", "woocommerce_rest_cannot_delete"],
      ["GET", "/products/tags", "woocommerce_rest_cannot_view"],
      ["GET", "/products/attributes", "woocommerce_rest_cannot_view"],
      ["POST", "/products/attributes", "woocommerce_rest_cannot_create", { name: "Nope" }],
      ["GET", "/products/attributes/999999/terms", "woocommerce_rest_cannot_view"],
      ["POST", "/products/categories/batch", "woocommerce_rest_cannot_batch", { create: [{ name: "Nope" }] }],
    ];
    for (const [method, path, code, body] of cases) {
      const guest = await callJson(null, method, path, body);
      expect([guest.status, guest.body.code], `guest ${method} ${path}`).toEqual([401, code]);
      const cust = await callJson(customer, method, path, body);
      expect([cust.status, cust.body.code], `customer ${method} ${path}`).toEqual([403, code]);
    }
    expect((await q<{ n: number }>(`SELECT count(*)::int AS n FROM terms WHERE name = 'Nope'`))[0]!.n).toBe(0);
  });

  it("a cookie without the nonce is a guest", async () => {
    const res = await admin.client.get(`${R}/products/categories`);
    expect(res.status).toBe(401);
  });
});

describe("products/categories", () => {
  it("lists the categories in their menu order with WooCommerce's shape and paging headers", async () => {
    const res = await call(manager, "GET", "/products/categories?per_page=3");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-wp-total")).toBe("7");
    expect(res.headers.get("x-wp-totalpages")).toBe("3");
    expect(res.headers.get("link")).toMatch(/rel="next"/);
    const items = (await res.json()) as Json[];
    expect(items.map((c) => c.slug)).toEqual(["face-masks", "mask-and-tie-sets", "ties"]);
    expect(Object.keys(items[0]!).sort()).toEqual(["_links", "count", "description", "display", "id", "image", "menu_order", "name", "parent", "slug"]);
    expect(items[0]).toMatchObject({ name: "Face Masks", parent: 0, display: "default", image: null, menu_order: 1 });
    expect(items[0]!.count).toBeGreaterThan(0);
    const bySlug = await callJson(manager, "GET", "/products/categories?slug=ties,bow-ties&orderby=slug&order=asc&_fields=slug");
    expect(bySlug.body).toEqual([{ slug: "bow-ties" }, { slug: "ties" }]);
    const byCount = (await callJson(manager, "GET", "/products/categories?orderby=count&order=desc&per_page=100")).body.map((c) => c.count as number);
    expect(byCount).toEqual([...byCount].sort((x, y) => y - x));
  });

  it("filters by product, search, include/exclude and hide_empty", async () => {
    const [{ product_id }] = (await q<{ product_id: number }>(
      `SELECT pt.product_id FROM product_terms pt JOIN terms t ON t.id = pt.term_id WHERE t.slug = 'ties' AND t.taxonomy = 'product_cat' LIMIT 1`,
    )) as [{ product_id: number }];
    const ofProduct = await callJson(manager, "GET", `/products/categories?product=${product_id}`);
    expect(ofProduct.body.map((c) => c.slug)).toContain("ties");
    const search = await callJson(manager, "GET", "/products/categories?search=bow");
    expect(search.body.map((c) => c.slug)).toEqual(["bow-ties"]);
    const ids = (await callJson(manager, "GET", "/products/categories?per_page=100")).body.map((c) => c.id as number);
    const inc = await callJson(manager, "GET", `/products/categories?include=${ids[2]},${ids[0]}&orderby=include`);
    expect(inc.body.map((c) => c.id)).toEqual([ids[2], ids[0]]);
    const exc = await callJson(manager, "GET", `/products/categories?exclude=${ids[0]}&per_page=100`);
    expect(exc.body).toHaveLength(6);
    await callJson(admin, "POST", "/products/categories", { name: "Empty Shelf" });
    const nonEmpty = await callJson(manager, "GET", "/products/categories?hide_empty=true&per_page=100");
    expect(nonEmpty.body.map((c) => c.slug)).not.toContain("empty-shelf");
  });

  it("creates, renames and deletes a category, and the storefront's menu and archive follow at once", async () => {
    const made = await call(manager, "POST", "/products/categories", { name: "Cravats", description: "Wide neckwear.", display: "products", menu_order: 9 });
    expect(made.status).toBe(201);
    const cat = (await made.json()) as Json;
    expect(made.headers.get("location")).toMatch(new RegExp(`/wp-json/wc/v3/products/categories/${cat.id}$`));
    expect(cat).toMatchObject({ name: "Cravats", slug: "cravats", description: "Wide neckwear.", display: "products", menu_order: 9, parent: 0, count: 0 });
    expect(await page("/")).toContain("Cravats");

    const [ties] = (await callJson(manager, "GET", "/products/categories?slug=ties")).body;
    const renamed = await callJson(manager, "PUT", `/products/categories/${ties!.id}`, { name: "Neckties" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Neckties", slug: "ties" }); // the slug stays, as wp_update_term keeps it
    const archive = await page("/product-category/ties/");
    expect(archive).toContain("Neckties");
    expect(await page("/")).toContain("Neckties");

    // PATCH sent as POST with the override header, as @wordpress/api-fetch sends it.
    const patched = await manager.client.request(`${R}/products/categories/${cat.id}`, {
      method: "POST",
      headers: { "X-WP-Nonce": manager.nonce, "X-HTTP-Method-Override": "PATCH" },
      json: { description: "Very wide neckwear." },
    });
    expect(((await patched.json()) as Json).description).toBe("Very wide neckwear.");

    const noForce = await callJson(manager, "DELETE", `/products/categories/${cat.id}`);
    expect([noForce.status, noForce.body.code]).toEqual([501, "woocommerce_rest_trash_not_supported"]);
    const gone = await callJson(manager, "DELETE", `/products/categories/${cat.id}?force=true`);
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ id: cat.id, name: "Cravats" });
    expect(await page("/")).not.toContain("Cravats");
    expect((await callJson(manager, "GET", `/products/categories/${cat.id}`)).body.code).toBe("woocommerce_rest_term_invalid");

    const audit = await q<{ action: string }>(`SELECT action FROM audit_log WHERE object_type = 'product_cat' AND object_id = $1 ORDER BY id`, [
      String(cat.id),
    ]);
    expect(audit.map((a) => a.action)).toEqual(["create", "update", "delete"]);
  });

  it("deleting a parent moves its children up to its parent and unlinks its products", async () => {
    const top = (await callJson(admin, "POST", "/products/categories", { name: "Formal" })).body;
    const mid = (await callJson(admin, "POST", "/products/categories", { name: "Evening", parent: top.id })).body;
    const leaf = (await callJson(admin, "POST", "/products/categories", { name: "White Tie", parent: mid.id })).body;
    expect(leaf.parent).toBe(mid.id);
    const [{ id: productId }] = (await q<{ id: number }>(`SELECT id FROM products WHERE status = 'publish' ORDER BY id LIMIT 1`)) as [{ id: number }];
    await q(`INSERT INTO product_terms (product_id, term_id) VALUES ($1, $2)`, [productId, mid.id]);
    expect((await callJson(admin, "GET", `/products/categories/${mid.id}`)).body.count).toBe(1);
    const del = await callJson(admin, "DELETE", `/products/categories/${mid.id}?force=true`);
    expect(del.status).toBe(200);
    expect((await callJson(admin, "GET", `/products/categories/${leaf.id}`)).body.parent).toBe(top.id);
    expect(await q(`SELECT 1 FROM product_terms WHERE term_id = $1`, [mid.id])).toEqual([]);
    const children = await callJson(admin, "GET", `/products/categories?parent=${top.id}`);
    expect(children.body.map((c) => c.id)).toEqual([leaf.id]);
  });

  it("refuses a duplicate as WordPress does, and bad input naming the parameter, changing nothing", async () => {
    const dup = await callJson(manager, "POST", "/products/categories", { name: "Bow Ties" });
    expect(dup.status).toBe(400);
    expect(dup.body.code).toBe("term_exists");
    expect(typeof dup.body.data!.resource_id).toBe("number");
    const dupSlug = await callJson(manager, "POST", "/products/categories", { name: "Something", slug: "bow-ties" });
    expect([dupSlug.status, dupSlug.body.code]).toEqual([400, "term_exists"]);
    const [acc] = (await callJson(manager, "GET", "/products/categories?slug=accessories")).body;
    const slugTaken = await callJson(manager, "PUT", `/products/categories/${acc!.id}`, { slug: "bow-ties" });
    expect([slugTaken.status, slugTaken.body.code]).toEqual([400, "duplicate_term_slug"]);

    const missing = await callJson(manager, "POST", "/products/categories", { description: "no name" });
    expect([missing.status, missing.body.code]).toEqual([400, "rest_missing_callback_param"]);
    for (const [body, param] of [
      [{ name: "X", display: "sideways" }, "display"],
      [{ name: "X", parent: "abc" }, "parent"],
      [{ name: "X", menu_order: 1.5 }, "menu_order"],
      [{ name: "X", image: "http://evil.example/x.png" }, "image"],
      [{ name: ["array"] }, "name"],
      [{ name: "x".repeat(201) }, "name"],
      [{ name: "nul\u0000byte" }, "name"],
    ] as const) {
      const res = await callJson(manager, "POST", "/products/categories", body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, "rest_invalid_param"]);
      expect(Object.keys(res.body.data!.params!)).toEqual([param]);
    }
    for (const bad of ["per_page=0", "per_page=101", "orderby=price", "order=up", "hide_empty=maybe", "include=a,b", "search=%00", "slug=a%00b"]) {
      const res = await callJson(manager, "GET", `/products/categories?${bad}`);
      expect([res.status, res.body.code], bad).toEqual([400, "rest_invalid_param"]);
    }
    const noParent = await callJson(manager, "POST", "/products/categories", { name: "Orphan", parent: 99999 });
    expect([noParent.status, noParent.body.code]).toEqual([404, "woocommerce_rest_term_invalid"]);
    const noImage = await callJson(manager, "POST", "/products/categories", { name: "Pictured", image: { id: 99999 } });
    expect([noImage.status, noImage.body.code]).toEqual([400, "woocommerce_product_invalid_image_id"]);
    const loop = await callJson(manager, "PUT", `/products/categories/${acc!.id}`, { parent: acc!.id });
    expect([loop.status, loop.body.code]).toEqual([400, "rest_invalid_param"]);
    const unknown = await callJson(manager, "PUT", "/products/categories/99999", { name: "Ghost" });
    expect([unknown.status, unknown.body.code]).toEqual([404, "woocommerce_rest_term_invalid"]);
    const names = await q<{ name: string }>(`SELECT name FROM terms WHERE name IN ('X', 'Orphan', 'Pictured', 'Something', 'Ghost')`);
    expect(names).toEqual([]);
  });

  it("takes an image from the media library and answers it with its address", async () => {
    const [media] = await q<{ id: number; slug: string }>(`SELECT id, slug FROM media ORDER BY id LIMIT 1`);
    const made = await callJson(manager, "POST", "/products/categories", { name: "Pictured Ties", image: { id: media!.id } });
    expect(made.status).toBe(201);
    expect(made.body.image).toMatchObject({ id: media!.id, src: expect.stringMatching(new RegExp(`/media/${media!.slug}\\.svg$`)) });
    const cleared = await callJson(manager, "PUT", `/products/categories/${made.body.id}`, { image: null });
    expect(cleared.body.image).toBeNull();
  });

  it("runs a batch: each item answered or refused alone", async () => {
    const [acc] = (await callJson(manager, "GET", "/products/categories?slug=accessories")).body;
    const victim = (await callJson(manager, "POST", "/products/categories", { name: "Batch Victim" })).body;
    const res = await callJson(manager, "POST", "/products/categories/batch", {
      create: [{ name: "Batch One" }, { name: "Bow Ties" }],
      update: [{ id: acc!.id, description: "Squares and kits." }],
      delete: [victim.id, 99999],
    });
    expect(res.status).toBe(200);
    const body = res.body as unknown as { create: Json[]; update: Json[]; delete: Json[] };
    expect(body.create[0]).toMatchObject({ name: "Batch One", slug: "batch-one" });
    expect(body.create[1]).toMatchObject({ id: 0, error: { code: "term_exists" } });
    expect(body.update[0]).toMatchObject({ id: acc!.id, description: "Squares and kits." });
    expect(body.delete[0]).toMatchObject({ id: victim.id });
    expect(body.delete[1]).toMatchObject({ id: 99999, error: { code: "woocommerce_rest_term_invalid" } });
    const tooMany = await callJson(manager, "POST", "/products/categories/batch", { create: Array.from({ length: 101 }, (_, i) => ({ name: `n${i}` })) });
    expect([tooMany.status, tooMany.body.code]).toEqual([413, "woocommerce_rest_request_entity_too_large"]);
  });
});

describe("products/tags", () => {
  it("lists, creates, updates and deletes tags; a tag has no parent", async () => {
    const list = await call(manager, "GET", "/products/tags?per_page=100");
    expect(list.headers.get("x-wp-total")).toBe("8");
    const tags = (await list.json()) as Json[];
    expect(tags.map((t) => t.slug)).toContain("silk");
    expect(Object.keys(tags[0]!).sort()).toEqual(["_links", "count", "description", "id", "name", "slug"]);
    const made = await callJson(manager, "POST", "/products/tags", { name: "Linen" });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "Linen", slug: "linen", count: 0 });
    const updated = await callJson(manager, "PUT", `/products/tags/${made.body.id}`, { slug: "pure-linen" });
    expect(updated.body.slug).toBe("pure-linen");
    const parent = await callJson(manager, "POST", "/products/tags", { name: "Child", parent: made.body.id });
    expect([parent.status, parent.body.code]).toEqual([400, "woocommerce_rest_taxonomy_not_hierarchical"]);
    const dup = await callJson(manager, "POST", "/products/tags", { name: "silk" });
    expect([dup.status, dup.body.code]).toEqual([400, "term_exists"]);
    const bad = await callJson(manager, "POST", "/products/tags", { name: "" });
    expect([bad.status, bad.body.code]).toEqual([400, "rest_invalid_param"]);
    expect((await callJson(manager, "DELETE", `/products/tags/${made.body.id}?force=true`)).status).toBe(200);
  });
});

describe("products/attributes and their terms", () => {
  const variableProduct = async () => {
    const [row] = await q<{ slug: string; color: string }>(
      `SELECT p.slug, a -> 'options' ->> 0 AS color FROM products p, jsonb_array_elements(p.attributes) a
       WHERE p.type = 'variable' AND p.status = 'publish' AND a ->> 'name' = 'pa_color' ORDER BY p.id LIMIT 1`,
    );
    return row!;
  };

  it("lists the global attributes the shop uses, WooCommerce's way", async () => {
    const list = await callJson(manager, "GET", "/products/attributes");
    expect(list.status).toBe(200);
    const color = list.body.find((a) => a.slug === "pa_color");
    expect(color).toMatchObject({ name: "Color", type: "select", order_by: "menu_order", has_archives: false });
    expect(list.body.find((a) => a.slug === "pa_size")).toBeTruthy();
    expect((await callJson(manager, "GET", `/products/attributes/${color!.id}`)).body).toMatchObject({ slug: "pa_color" });
    expect((await callJson(manager, "GET", "/products/attributes/99999")).body.code).toBe("woocommerce_rest_attribute_invalid");
  });

  it("renaming an attribute relabels it on the product page", async () => {
    const color = (await callJson(manager, "GET", "/products/attributes")).body.find((a) => a.slug === "pa_color")!;
    const product = await variableProduct();
    const res = await callJson(admin, "PUT", `/products/attributes/${color.id}`, { name: "Colourway" });
    expect(res.body).toMatchObject({ name: "Colourway", slug: "pa_color" });
    expect(await page(`/product/${product.slug}/`)).toContain("Colourway");
    expect(await page("/shop/")).toContain("Colourway"); // the colour filter's title
    await callJson(admin, "PUT", `/products/attributes/${color.id}`, { name: "Color" });
  });

  it("creates, renames the slug of and deletes an attribute with its terms", async () => {
    const made = await callJson(manager, "POST", "/products/attributes", { name: "Material", has_archives: true });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "Material", slug: "pa_material", type: "select", order_by: "menu_order", has_archives: true });
    const term = await callJson(manager, "POST", `/products/attributes/${made.body.id}/terms`, { name: "Silk" });
    expect(term.body).toMatchObject({ name: "Silk", slug: "silk", menu_order: 0, count: 0, swatch: { color: null, image: null, label: null } });
    const moved = await callJson(manager, "PUT", `/products/attributes/${made.body.id}`, { slug: "fabric" });
    expect(moved.body.slug).toBe("pa_fabric");
    expect(await q(`SELECT taxonomy FROM terms WHERE id = $1`, [term.body.id])).toEqual([{ taxonomy: "pa_fabric" }]);
    const dup = await callJson(manager, "POST", "/products/attributes", { name: "Colour", slug: "color" });
    expect([dup.status, dup.body.code, dup.body.message]).toEqual([
      400,
      "woocommerce_rest_cannot_create",
      'Slug "color" is already in use. Change it, please.',
    ]);
    const long = await callJson(manager, "POST", "/products/attributes", { name: "A very long attribute name indeed" });
    expect([long.status, long.body.code]).toEqual([400, "woocommerce_rest_cannot_create"]);
    const reserved = await callJson(manager, "POST", "/products/attributes", { name: "Type" });
    expect([reserved.status, reserved.body.code]).toEqual([400, "woocommerce_rest_cannot_create"]);
    const badType = await callJson(manager, "POST", "/products/attributes", { name: "Finish", type: "radio" });
    expect([badType.status, badType.body.code, Object.keys(badType.body.data!.params!)]).toEqual([400, "rest_invalid_param", ["type"]]);
    const noForce = await callJson(manager, "DELETE", `/products/attributes/${made.body.id}`);
    expect([noForce.status, noForce.body.code]).toEqual([501, "woocommerce_rest_trash_not_supported"]);
    expect((await callJson(manager, "DELETE", `/products/attributes/${made.body.id}?force=true`)).status).toBe(200);
    expect(await q(`SELECT 1 FROM terms WHERE id = $1`, [term.body.id])).toEqual([]);
    const gone = await callJson(manager, "GET", `/products/attributes/${made.body.id}/terms`);
    expect([gone.status, gone.body.code]).toEqual([404, "woocommerce_rest_taxonomy_invalid"]);
  });

  it("lists a colour's terms with their swatches, and a new swatch colour shows on the product page at once", async () => {
    const color = (await callJson(manager, "GET", "/products/attributes")).body.find((a) => a.slug === "pa_color")!;
    const res = await call(manager, "GET", `/products/attributes/${color.id}/terms?per_page=100`);
    expect(res.headers.get("x-wp-total")).toBe("8");
    const terms = (await res.json()) as Json[];
    expect(terms[0]).toMatchObject({ slug: "black", name: "Black", menu_order: 0, swatch: { color: "#1f2937", image: null, label: null } });
    const product = await variableProduct();
    const term = terms.find((t) => t.slug === product.color)!;
    const before = term.swatch as { color: string };
    // The swatches' colours travel in the page's loader data (the swatch list draws them).
    const beforeHtml = await page(`/product/${product.slug}/`);
    expect(beforeHtml).toContain(before.color);
    expect(beforeHtml).not.toContain("#123abc");
    const [media] = await q<{ id: number; slug: string }>(`SELECT id, slug FROM media WHERE slug NOT LIKE $1 ORDER BY id DESC LIMIT 1`, [`${product.slug}%`]);
    expect(beforeHtml).not.toContain(`/media/${media!.slug}.svg`);
    const updated = await callJson(manager, "PUT", `/products/attributes/${color.id}/terms/${term.id}`, {
      swatch: { color: "#123abc", label: "Swatch-Label-R", image: { id: media!.id } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.swatch).toMatchObject({ color: "#123abc", image: { id: media!.id }, label: "Swatch-Label-R" });
    const html = await page(`/product/${product.slug}/`);
    expect(html).toContain("#123abc");
    expect(html).toContain("Swatch-Label-R");
    expect(html).toContain(`/media/${media!.slug}.svg`);
    const cleared = await callJson(manager, "PATCH", `/products/attributes/${color.id}/terms/${term.id}`, { swatch: { image: null, label: "" } });
    expect(cleared.body.swatch).toEqual({ color: "#123abc", image: null, label: null });
    const shop2 = await page(`/shop/`);
    expect(shop2).toContain("#123abc");
    const audit = await q<{ changes: { meta: unknown } }>(`SELECT changes FROM audit_log WHERE object_type = 'attribute_term' AND object_id = $1`, [
      String(term.id),
    ]);
    expect(audit).toHaveLength(2);
  });

  it("orders an attribute's terms by its order_by, and batches attributes", async () => {
    const size = (await callJson(manager, "GET", "/products/attributes")).body.find((a) => a.slug === "pa_size")!;
    const byMenu = await callJson(manager, "GET", `/products/attributes/${size.id}/terms`);
    expect(byMenu.body.map((t) => t.name)).toEqual(["S", "M", "L", "XL"]);
    await callJson(manager, "PUT", `/products/attributes/${size.id}`, { order_by: "name" });
    const byName = await callJson(manager, "GET", `/products/attributes/${size.id}/terms`);
    expect(byName.body.map((t) => t.name)).toEqual(["L", "M", "S", "XL"]);
    await callJson(manager, "PUT", `/products/attributes/${size.id}`, { order_by: "menu_order" });

    const res = await callJson(manager, "POST", "/products/attributes/batch", {
      create: [{ name: "Weave" }, { name: "Color" }],
      update: [{ id: size.id, has_archives: true }],
    });
    const body = res.body as unknown as { create: Json[]; update: Json[] };
    expect(body.create[0]).toMatchObject({ name: "Weave", slug: "pa_weave" });
    expect(body.create[1]).toMatchObject({ id: 0, error: { code: "woocommerce_rest_cannot_create" } });
    expect(body.update[0]).toMatchObject({ id: size.id, has_archives: true });
  });

  it("refuses bad terms input naming the parameter", async () => {
    const color = (await callJson(manager, "GET", "/products/attributes")).body.find((a) => a.slug === "pa_color")!;
    const [black] = (await callJson(manager, "GET", `/products/attributes/${color.id}/terms?slug=black`)).body;
    for (const body of [{ swatch: { color: "red; background:url(x)" } }, { swatch: { colour: "#fff" } }, { swatch: "blue" }]) {
      const res = await callJson(manager, "PUT", `/products/attributes/${color.id}/terms/${black!.id}`, body);
      expect([res.status, res.body.code, Object.keys(res.body.data!.params!)], JSON.stringify(body)).toEqual([400, "rest_invalid_param", ["swatch"]]);
    }
    const dup = await callJson(manager, "POST", `/products/attributes/${color.id}/terms`, { name: "Black" });
    expect([dup.status, dup.body.code]).toEqual([400, "term_exists"]);
    const noAttr = await callJson(manager, "GET", "/products/attributes/abc/terms");
    expect([noAttr.status, noAttr.body.code]).toEqual([404, "woocommerce_rest_taxonomy_invalid"]);
    const otherTaxonomy = (await callJson(manager, "GET", "/products/categories?slug=ties")).body[0]!;
    const wrong = await callJson(manager, "GET", `/products/attributes/${color.id}/terms/${otherTaxonomy.id}`);
    expect([wrong.status, wrong.body.code]).toEqual([404, "woocommerce_rest_term_invalid"]);
    const batch = await callJson(manager, "POST", `/products/attributes/${color.id}/terms/batch`, { create: [{ name: "Teal", swatch: { color: "#008080" } }] });
    expect((batch.body as unknown as { create: Json[] }).create[0]).toMatchObject({ name: "Teal", swatch: { color: "#008080" } });
  });
});
