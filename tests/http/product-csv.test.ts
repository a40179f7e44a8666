/**
 * Moving in (docs/decisions/0039-product-csv.md, docs/contract/rest/shop-v1.md 'Import and export'): a WooCommerce
 * product CSV previewed (nothing written) and imported, then imported again without duplicates; a refused row
 * changes nothing and says why; images fetched by URL once; staff only; an oversized upload refused in the REST
 * shape; products, orders and customers exported as CSV; and the export imported into a fresh shop gives the same
 * products.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- loose JSON in assertions

let shop: TestShop;
let admin: SignedIn;
let images: Server;
let imageRequests = 0;
let imageBase = "";

beforeAll(async () => {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c00" } })
    .png()
    .toBuffer();
  images = createServer((req, res) => {
    imageRequests++;
    if (req.url === "/hoodie.png") res.writeHead(200, { "Content-Type": "image/png" }).end(png);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
  imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  // The test image server is on 127.0.0.1, a private address the import refuses unless allowed.
  shop = await startTestShop({ IMPORT_ALLOWED_ADDRESSES: "127.0.0.1" });
  admin = await signInAs(shop, "csv-admin@example.com", "administrator");
});
afterAll(async () => {
  await shop?.close();
  images?.close();
});

const post = async (who: SignedIn, csv: string, mode: "preview" | "import") => {
  const res = await who.client.request("/wp-json/shop/v1/product-import", { method: "POST", headers: { "X-WP-Nonce": who.nonce }, json: { csv, mode } });
  return { status: res.status, body: (await res.json()) as Json };
};
const count = async (s: TestShop, sql: string, params: unknown[] = []) => Number((await s.services.db.query<{ n: number }>(sql, params))[0]!.n);
const productsWithSku = (s: TestShop) => count(s, `SELECT count(*) AS n FROM products WHERE sku LIKE 'IMP-%'`);

const HEADER =
  'ID,Type,SKU,Name,Published,"Is featured?","Visibility in catalog","Short description",Description,"In stock?",Stock,"Sale price","Regular price",Categories,Tags,Images,Parent,"Attribute 1 name","Attribute 1 value(s)","Attribute 1 visible","Attribute 1 global"';
const file = (mugStock = "3") =>
  [
    HEADER,
    `501,variable,IMP-HOODIE,Imported Hoodie,1,0,visible,Warm,"A hoodie, imported",1,,,,"Imported > Hoodies",moving-in,${imageBase}/hoodie.png,,Color,"Red, Green, Teal",1,1`,
    "502,variation,IMP-HOODIE-RED,Imported Hoodie - Red,1,0,visible,,,1,5,15,20,,,,IMP-HOODIE,Color,Red,,1",
    "503,variation,,Imported Hoodie - Green,1,0,visible,,,1,2,,21.50,,,,id:501,Color,Green,,1",
    `504,simple,IMP-MUG,Imported Mug,1,0,visible,,,1,${mugStock},,7.25,Imported,,,,,,,`,
    "505,simple,IMP-BAD,Bad Mug,1,0,visible,,,1,4,9,8,Imported,,,,,,,",
  ].join("\n");

describe("product import", () => {
  it("previews every row without writing anything, with the refused row's number and reason", async () => {
    const media = await count(shop, `SELECT count(*) AS n FROM media`);
    const res = await post(admin, file(), "preview");
    expect(res.status).toBe(200);
    expect(res.body.summary).toEqual({ rows: 5, create: 4, update: 0, refused: 1 });
    expect(res.body.rows[0]).toMatchObject({ row: 2, kind: "product", action: "create", notes: ["1 image will be downloaded."] });
    expect(res.body.rows[4]).toMatchObject({ row: 6, action: "refused", message: "Sale price: sale_price must be lower than regular_price" });
    expect(await productsWithSku(shop)).toBe(0);
    expect(await count(shop, `SELECT count(*) AS n FROM terms WHERE name IN ('Imported', 'Teal')`)).toBe(0);
    expect(await count(shop, `SELECT count(*) AS n FROM media`)).toBe(media);
    expect(imageRequests).toBe(0);
  });

  it("imports, then imports the same file again without duplicates (matched by SKU, by parent id:N and attributes)", async () => {
    const media = await count(shop, `SELECT count(*) AS n FROM media`);
    const first = await post(admin, file(), "import");
    expect(first.status).toBe(200);
    expect(first.body.summary).toEqual({ rows: 5, create: 4, update: 0, refused: 1 });
    expect(await productsWithSku(shop)).toBe(2);
    const hoodie = (
      await shop.services.db.query<{ id: number; type: string; price_min: number; price_max: number }>(
        `SELECT id, type, price_min, price_max FROM products WHERE sku = 'IMP-HOODIE'`,
      )
    )[0]!;
    expect(hoodie).toMatchObject({ type: "variable", price_min: 1500, price_max: 2150 });
    expect(await count(shop, `SELECT count(*) AS n FROM variations WHERE product_id = $1`, [hoodie.id])).toBe(2);
    expect(await count(shop, `SELECT count(*) AS n FROM media`)).toBe(media + 1);
    expect(imageRequests).toBe(1);
    // The colour this shop lacked was added to the global attribute; the category path was created, child under parent.
    expect(await count(shop, `SELECT count(*) AS n FROM terms WHERE taxonomy = 'pa_color' AND name = 'Teal'`)).toBe(1);
    expect(await count(shop, `SELECT count(*) AS n FROM terms c JOIN terms p ON p.id = c.parent_id WHERE c.name = 'Hoodies' AND p.name = 'Imported'`)).toBe(1);

    const again = await post(admin, file(), "import");
    expect(again.body.summary).toEqual({ rows: 5, create: 0, update: 4, refused: 1 });
    expect(await productsWithSku(shop)).toBe(2);
    expect(await count(shop, `SELECT count(*) AS n FROM variations WHERE product_id = $1`, [hoodie.id])).toBe(2);
    expect(await count(shop, `SELECT count(*) AS n FROM terms WHERE name IN ('Imported', 'Hoodies', 'Teal')`)).toBe(3);
    expect(await count(shop, `SELECT count(*) AS n FROM media`)).toBe(media + 1); // the same address is not fetched again
    expect(imageRequests).toBe(1);
    expect(await count(shop, `SELECT count(*) AS n FROM products WHERE sku = 'IMP-BAD'`)).toBe(0);

    // The storefront shows it.
    const page = await new TestClient(shop.url).get("/product/imported-hoodie/");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Imported Hoodie");
  });

  it("a refused row changes nothing: its stock stays, and no category or tag is left behind", async () => {
    const bad = file("-1").replace("Imported,,,,,,,\n505", "Mugs > Refused,refused-tag,,,,,,\n505");
    const res = await post(admin, bad, "import");
    expect(res.body.rows[3]).toMatchObject({ row: 5, sku: "IMP-MUG", action: "refused" });
    expect(res.body.rows[3].message).toMatch(/^Stock: /);
    expect(await count(shop, `SELECT stock_quantity AS n FROM products WHERE sku = 'IMP-MUG'`)).toBe(3);
    expect(await count(shop, `SELECT count(*) AS n FROM terms WHERE name IN ('Refused', 'refused-tag')`)).toBe(0);
  });

  it("refuses a customer and a guest, an unreadable file and a body over the limit, in the REST error shape", async () => {
    const customer = await signInAs(shop, "csv-customer@example.com", "customer");
    expect((await post(customer, file(), "preview")).status).toBe(403);
    const guest = await new TestClient(shop.url).request("/wp-json/shop/v1/product-import", { method: "POST", json: { csv: file() } });
    expect(guest.status).toBe(401);
    for (const path of ["products", "orders", "customers"]) {
      const res = await customer.client.request(`/wp-json/shop/v1/exports/${path}`, { headers: { "X-WP-Nonce": customer.nonce } });
      expect(res.status, path).toBe(403);
    }
    const unreadable = await post(admin, "just some text", "preview");
    expect(unreadable).toMatchObject({ status: 400, body: { code: "shop_import_invalid_file" } });
    const big = await post(admin, `${HEADER}\n${"x".repeat(1_100_000)}`, "preview");
    expect(big).toMatchObject({ status: 413, body: { code: "rest_request_too_large", data: { status: 413 } } });
  });
});

describe("exports", () => {
  const get = async (path: string) => {
    const res = await admin.client.request(`/wp-json/shop/v1/exports/${path}`, { headers: { "X-WP-Nonce": admin.nonce } });
    return { res, text: await res.text() };
  };

  it("orders and customers as CSV with a download filename", async () => {
    const orders = await get("orders");
    expect(orders.res.status).toBe(200);
    expect(orders.res.headers.get("content-type")).toBe("text/csv; charset=UTF-8");
    expect(orders.res.headers.get("content-disposition")).toMatch(/^attachment; filename="orders-export-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(orders.text.split("\r\n")[0]).toContain("Order ID,Order number,Date created");
    const customers = await get("customers");
    expect(customers.res.status).toBe(200);
    expect(customers.text).toContain("csv-customer@example.com");
    expect(customers.text).not.toContain("csv-admin@example.com"); // customers, not staff
  });

  it("round trip: the products export, imported into a fresh shop, gives the same products", async () => {
    const { res, text } = await get("products");
    expect(res.headers.get("content-disposition")).toMatch(/filename="wc-product-export-/);
    // The imported products' rows (the demo's generated SVG images belong to this shop only).
    const lines = text.replace(/^\uFEFF/, "").split("\r\n");
    const mine = [lines[0]!, ...lines.filter((l) => /,IMP-|Imported Hoodie/.test(l))].join("\r\n");
    const fresh = await startTestShop({ IMPORT_ALLOWED_ADDRESSES: "127.0.0.1" });
    try {
      const owner = await signInAs(fresh, "csv-owner@example.com", "administrator");
      const imported = await post(owner, mine, "import");
      expect(imported.body.summary).toEqual({ rows: 4, create: 4, update: 0, refused: 0 });
      const shape = async (s: TestShop, who: SignedIn, sku: string) => {
        const call = async (path: string) =>
          (await (await who.client.request(`/wp-json/wc/v3/${path}`, { headers: { "X-WP-Nonce": who.nonce } })).json()) as Json;
        const [p] = (await call(`products?sku=${sku}`)) as Json[];
        const variations = p!.type === "variable" ? ((await call(`products/${p!.id}/variations?orderby=id&order=asc`)) as Json[]) : [];
        const keep = (o: Json) => {
          const out: Json = {};
          for (const k of [
            "name",
            "type",
            "sku",
            "status",
            "description",
            "short_description",
            "regular_price",
            "sale_price",
            "price",
            "manage_stock",
            "stock_quantity",
            "stock_status",
            "featured",
            "attributes",
            "price_html",
          ])
            if (k in o) out[k] = o[k];
          out.categories = (o.categories ?? []).map((c: Json) => c.name);
          out.tags = (o.tags ?? []).map((t: Json) => t.name);
          out.images = (o.images ?? (o.image ? [o.image] : [])).length;
          return out;
        };
        void s;
        return { product: keep(p!), variations: variations.map(keep) };
      };
      for (const sku of ["IMP-HOODIE", "IMP-MUG"]) expect(await shape(fresh, owner, sku), sku).toEqual(await shape(shop, admin, sku));
    } finally {
      await fresh.close();
    }
  });
});
