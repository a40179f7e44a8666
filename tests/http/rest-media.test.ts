/**
 * wp/v2/media (docs/contract/rest/media.md): uploads of real images made by sharp here, their sizes and formats,
 * metadata stripped, the files served at stable URLs, the bad-input refusals leaving no file behind, permissions,
 * the audit log, the storefront's srcset, and the post-process contract driven by the unmodified
 * @wordpress/api-fetch (docs/contract/wire.md §2.6) with the test-only MEDIA_FAIL_SUBSIZES fault.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { crc32 } from "node:zlib";
import sharp from "sharp";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { apiFetchScript } from "../support/api-fetch.ts";
import { parseEnv } from "../../core/config/env.server.ts";
import type WpApiFetch from "@wordpress/api-fetch";

/** A photo-like JPEG with EXIF (camera, copyright) and GPS position. */
async function photo(width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#b22"/><stop offset="1" stop-color="#22b"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#fc3"/></svg>`;
  return sharp(Buffer.from(svg))
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Copyright: "Secret Photographer", Make: "SecretCam", Model: "X1" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 0/1" },
    })
    .toBuffer();
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 10, g: 200, b: 90, alpha: 0.5 } } })
    .png()
    .toBuffer();

/** A real PNG whose header claims `size`×`size` pixels (a decompression bomb's signature), CRC fixed. */
async function bomb(size: number): Promise<Buffer> {
  const file = Buffer.from(await png(8, 8));
  // IHDR: after the 8-byte signature, 4 bytes length, 4 bytes "IHDR", then width and height.
  file.writeUInt32BE(size, 16);
  file.writeUInt32BE(size, 20);
  file.writeUInt32BE(crc32(file.subarray(12, 29)) >>> 0, 29);
  return file;
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
      .sort();
  } catch {
    return [];
  }
}

interface Sizes {
  [name: string]: {
    file: string;
    width: number;
    height: number;
    mime_type: string;
    source_url: string;
    sources: Record<string, { file: string; source_url: string }>;
  };
}
interface Attachment {
  id: number;
  slug: string;
  type: string;
  status: string;
  title: { rendered: string; raw?: string };
  alt_text: string;
  mime_type: string;
  media_type: string;
  source_url: string;
  post: number | null;
  author: number;
  media_details: { width: number; height: number; file: string; filesize: number; sizes: Sizes };
}

async function upload(who: SignedIn | null, shop: TestShop, bytes: Buffer, filename: string, type = "image/jpeg", fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  if (!who) return fetch(`${shop.url}/wp-json/wp/v2/media`, { method: "POST", body: form });
  return who.client.request("/wp-json/wp/v2/media", { method: "POST", body: form, headers: { "X-WP-Nonce": who.nonce } });
}

describe("wp/v2/media", () => {
  let shop: TestShop;
  let admin: SignedIn;
  let customer: SignedIn;
  let uploads: string;

  beforeAll(async () => {
    shop = await startTestShop();
    uploads = path.join(shop.dataDir, "uploads");
    admin = await signInAs(shop, "media-admin@example.com", "administrator");
    customer = await signInAs(shop, "media-customer@example.com", "customer");
  });
  afterAll(() => shop?.close());

  const call = (who: SignedIn, p: string, init: RequestInit & { json?: unknown } = {}) =>
    who.client.request(p, { ...init, headers: { "X-WP-Nonce": who.nonce, ...(init.headers as Record<string, string>) } });

  let photoId = 0;

  it("uploads a JPEG: 201 in WordPress's shape, metadata stripped, every size in JPEG, WebP and AVIF", async () => {
    const original = await photo(1600, 1200);
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await upload(admin, shop, original, "Summer Mask.JPG", "image/jpeg", { alt_text: "A red mask", caption: "Worn at the ball" });
    expect(res.status).toBe(201);
    const a = (await res.json()) as Attachment;
    photoId = a.id;
    expect(res.headers.get("location")).toMatch(new RegExp(`/wp-json/wp/v2/media/${a.id}$`));
    expect(res.headers.get("x-wp-upload-attachment-id")).toBe(String(a.id));
    expect(a).toMatchObject({
      type: "attachment",
      status: "inherit",
      slug: "summer-mask",
      title: { raw: "Summer Mask" },
      alt_text: "A red mask",
      media_type: "image",
      mime_type: "image/jpeg",
      author: admin.id,
      post: null,
    });
    expect(a.media_details).toMatchObject({ width: 1600, height: 1200 });
    expect(a.media_details.file).toMatch(/^\d{4}\/\d{2}\/summer-mask\.jpg$/);
    expect(a.source_url).toBe(`${shop.url}/wp-content/uploads/${a.media_details.file}`);
    const dims = Object.fromEntries(Object.entries(a.media_details.sizes).map(([k, s]) => [k, `${s.width}x${s.height}`]));
    expect(dims).toEqual({
      woocommerce_gallery_thumbnail: "100x100",
      "woocommerce_gallery_thumbnail-2x": "200x200",
      woocommerce_thumbnail: "300x300",
      "woocommerce_thumbnail-2x": "600x600",
      woocommerce_single: "600x450",
      "woocommerce_single-2x": "1200x900",
      full: "1600x1200",
    });
    for (const [name, size] of Object.entries(a.media_details.sizes)) {
      if (name === "full") continue;
      expect(Object.keys(size.sources).sort()).toEqual(["image/avif", "image/jpeg", "image/webp"]);
      for (const [mime, source] of Object.entries(size.sources)) {
        const file = await fetch(source.source_url);
        expect(file.status).toBe(200);
        expect(file.headers.get("content-type")).toBe(mime);
        const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
        expect([meta.width, meta.height]).toEqual([size.width, size.height]);
        expect(meta.exif).toBeUndefined();
      }
    }
    // The stored and served original: same pixels, no EXIF or GPS, cached for good, never sniffed.
    const served = await fetch(a.source_url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toContain("immutable");
    const body = Buffer.from(await served.arrayBuffer());
    expect(body.includes(Buffer.from("SecretCam"))).toBe(false);
    expect(body.includes(Buffer.from("Secret Photographer"))).toBe(false);
    const meta = await sharp(body).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif, meta.xmp]).toEqual(["jpeg", 1600, 1200, undefined, undefined]);
    // 1 original + 6 dimensions × 3 formats.
    expect(listFiles(uploads).filter((f) => f.includes("summer-mask"))).toHaveLength(19);
    const logged = await shop.services.db.query<{ action: string; actor_id: number }>(
      `SELECT action, actor_id FROM audit_log WHERE object_type = 'media' AND object_id = $1`,
      [String(a.id)],
    );
    expect(logged).toEqual([{ action: "create", actor_id: admin.id }]);
  });

  it("takes a raw body with Content-Disposition, and goes by the content, not the name or header", async () => {
    const res = await admin.client.request("/wp-json/wp/v2/media?title=Green%20square", {
      method: "POST",
      body: new Uint8Array(await png(700, 700)),
      headers: { "X-WP-Nonce": admin.nonce, "Content-Type": "image/jpeg", "Content-Disposition": 'attachment; filename="square.jpg"' },
    });
    expect(res.status).toBe(201);
    const a = (await res.json()) as Attachment;
    expect(a).toMatchObject({ mime_type: "image/png", title: { raw: "Green square" } });
    expect(a.media_details.file).toMatch(/\/square\.png$/);
    expect(a.media_details.sizes.woocommerce_thumbnail!.sources["image/png"]!.file).toBe("square-300x300.png");
    // Too small for the 1200 px single 2×: WordPress never enlarges.
    expect(a.media_details.sizes["woocommerce_single-2x"]).toBeUndefined();
    const again = await upload(admin, shop, await png(120, 120), "square.png", "image/png");
    expect(((await again.json()) as Attachment).slug).toBe("square-1");
    // The ?rest_route= form of the address takes the raw body too.
    const viaQuery = await admin.client.request("/?rest_route=/wp/v2/media", {
      method: "POST",
      body: new Uint8Array(await png(64, 64)),
      headers: { "X-WP-Nonce": admin.nonce, "Content-Type": "image/png", "Content-Disposition": "attachment; filename*=UTF-8''%C3%A9t%C3%A9.png" },
    });
    expect(viaQuery.status).toBe(201);
    expect(((await viaQuery.json()) as Attachment).slug).toBe("ete");
  });

  it("refuses bad input with WordPress's errors and leaves no file behind", async () => {
    const before = listFiles(uploads);
    const jpeg = await photo(400, 300);
    const cases: [string, () => Promise<Response>, number, string][] = [
      ["php named .jpg", () => upload(admin, shop, Buffer.from("<?php system($_GET['c']); ?>"), "shell.jpg"), 400, "rest_upload_invalid_type"],
      [
        "html named .png",
        () => upload(admin, shop, Buffer.from("<html><script>alert(1)</script></html>"), "x.png", "image/png"),
        400,
        "rest_upload_invalid_type",
      ],
      ["not an image at all", () => upload(admin, shop, Buffer.from("just text"), "notes.txt", "text/plain"), 400, "rest_upload_invalid_type"],
      ["zero bytes", () => upload(admin, shop, Buffer.alloc(0), "empty.jpg"), 400, "rest_upload_no_data"],
      ["truncated JPEG", () => upload(admin, shop, jpeg.subarray(0, Math.floor(jpeg.length / 2)), "half.jpg"), 400, "rest_upload_sideload_error"],
      ["decompression bomb", async () => upload(admin, shop, await bomb(60_000), "bomb.png", "image/png"), 400, "rest_upload_file_too_big"],
      ["over MEDIA_MAX_BYTES", () => upload(admin, shop, Buffer.concat([jpeg, Buffer.alloc(10 * 1024 * 1024)]), "big.jpg"), 413, "rest_upload_file_too_big"],
      ["no file part", () => call(admin, "/wp-json/wp/v2/media", { method: "POST", body: new FormData() }), 400, "rest_upload_no_data"],
      [
        "raw body without Content-Disposition",
        () => call(admin, "/wp-json/wp/v2/media", { method: "POST", body: new Uint8Array(jpeg), headers: { "Content-Type": "image/jpeg" } }),
        400,
        "rest_upload_no_content_disposition",
      ],
      ["a bad field", () => upload(admin, shop, jpeg, "ok.jpg", "image/jpeg", { post: "abc" }), 400, "rest_invalid_param"],
    ];
    for (const [label, send, status, code] of cases) {
      const res = await send();
      const body = (await res.json()) as { code: string; data: { status: number } };
      expect({ label, status: res.status, code: body.code }).toEqual({ label, status, code });
      expect(body.data.status).toBe(status);
    }
    expect(listFiles(uploads)).toEqual(before);
  });

  it("lets only staff upload: a guest gets 401 and a customer 403 rest_cannot_create", async () => {
    const before = listFiles(uploads);
    const jpeg = await photo(300, 300);
    const guest = await upload(null, shop, jpeg, "guest.jpg");
    expect([guest.status, ((await guest.json()) as { code: string }).code]).toEqual([401, "rest_cannot_create"]);
    const cust = await upload(customer, shop, jpeg, "customer.jpg");
    expect([cust.status, ((await cust.json()) as { code: string }).code]).toEqual([403, "rest_cannot_create"]);
    expect(listFiles(uploads)).toEqual(before);
  });

  it("lists and reads attachments publicly, with filters and paging headers; edit context is staff only", async () => {
    const all = await fetch(`${shop.url}/wp-json/wp/v2/media?per_page=100`);
    expect(all.status).toBe(200);
    const list = (await all.json()) as Attachment[];
    const [count] = await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM media`);
    expect(Number(all.headers.get("x-wp-total"))).toBe(count!.n);
    expect(list).toHaveLength(Math.min(100, count!.n));
    expect(list.some((a) => a.id === photoId)).toBe(true);
    expect(list.every((a) => a.title.raw === undefined)).toBe(true);

    const pngs = (await (await fetch(`${shop.url}/wp-json/wp/v2/media?mime_type=image/png`)).json()) as Attachment[];
    expect(pngs.length).toBeGreaterThan(0);
    expect(pngs.every((a) => a.mime_type === "image/png")).toBe(true);
    const found = (await (await fetch(`${shop.url}/wp-json/wp/v2/media?search=worn%20at%20the%20ball`)).json()) as Attachment[];
    expect(found.map((a) => a.id)).toEqual([photoId]);
    const paged = await fetch(`${shop.url}/wp-json/wp/v2/media?per_page=1&page=2&orderby=id&order=asc`);
    expect(paged.headers.get("link")).toContain('rel="next"');
    expect((await (await fetch(`${shop.url}/wp-json/wp/v2/media?media_type=video`)).json()) as unknown[]).toEqual([]);
    const bad = await fetch(`${shop.url}/wp-json/wp/v2/media?per_page=500&orderby=nonsense`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { data: { params: Record<string, string> } }).data.params).toHaveProperty("per_page");

    const one = await fetch(`${shop.url}/wp-json/wp/v2/media/${photoId}`);
    expect(((await one.json()) as Attachment).id).toBe(photoId);
    expect((await fetch(`${shop.url}/wp-json/wp/v2/media/${photoId}?context=edit`)).status).toBe(401);
    expect((await call(admin, `/wp-json/wp/v2/media/${photoId}?context=edit`)).status).toBe(200);
    const missing = await fetch(`${shop.url}/wp-json/wp/v2/media/999999`);
    expect([missing.status, ((await missing.json()) as { code: string }).code]).toEqual([404, "rest_post_invalid_id"]);
  });

  it("updates title, alt text, caption, description and parent; guests and customers may not", async () => {
    const res = await call(admin, `/wp-json/wp/v2/media/${photoId}`, {
      method: "POST",
      json: { title: "Mask at night", alt_text: "A red mask at night", caption: "Caption <b>", description: "Longer", post: 42 },
    });
    expect(res.status).toBe(200);
    const a = (await res.json()) as Attachment & { caption: { raw: string; rendered: string } };
    expect(a).toMatchObject({ title: { raw: "Mask at night" }, alt_text: "A red mask at night", post: 42, caption: { raw: "Caption <b>" } });
    expect(a.caption.rendered).toContain("Caption &lt;b&gt;");
    const byParent = (await (await fetch(`${shop.url}/wp-json/wp/v2/media?parent=42`)).json()) as Attachment[];
    expect(byParent.map((x) => x.id)).toEqual([photoId]);
    const put = await call(admin, `/wp-json/wp/v2/media/${photoId}`, { method: "POST", json: { post: 0 }, headers: { "X-HTTP-Method-Override": "PUT" } });
    expect(((await put.json()) as Attachment).post).toBeNull();

    const guest = await fetch(`${shop.url}/wp-json/wp/v2/media/${photoId}`, {
      method: "POST",
      body: JSON.stringify({ alt_text: "x" }),
      headers: { "Content-Type": "application/json" },
    });
    expect([guest.status, ((await guest.json()) as { code: string }).code]).toEqual([401, "rest_cannot_edit"]);
    const cust = await call(customer, `/wp-json/wp/v2/media/${photoId}`, { method: "POST", json: { alt_text: "x" } });
    expect([cust.status, ((await cust.json()) as { code: string }).code]).toEqual([403, "rest_cannot_edit"]);
    const invalid = await call(admin, `/wp-json/wp/v2/media/${photoId}`, { method: "POST", json: { alt_text: 12 } });
    expect(invalid.status).toBe(400);
    const logged = await shop.services.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE object_type = 'media' AND object_id = $1 ORDER BY id`, [
      String(photoId),
    ]);
    expect(logged.map((l) => l.action)).toEqual(["create", "update", "update"]);
  });

  it("draws a product's uploaded image with srcset, sizes, width and height; demo images stay as they were", async () => {
    const [product] = await shop.services.db.query<{ id: number; slug: string }>(
      `SELECT id, slug FROM products WHERE status = 'publish' AND type = 'simple' ORDER BY id LIMIT 1`,
    );
    const demo = await (await fetch(`${shop.url}/product/${product!.slug}/`)).text();
    expect(demo).not.toContain("<picture>");
    await shop.services.db.query(`UPDATE products SET image_ids = array_prepend($1::int, image_ids) WHERE id = $2`, [photoId, product!.id]);
    const html = await (await fetch(`${shop.url}/product/${product!.slug}/`)).text();
    const main = /<picture>(.*?)<\/picture>/s.exec(html)?.[1] ?? "";
    expect(main).toMatch(
      /<source type="image\/avif" srcSet="\/wp-content\/uploads\/\d{4}\/\d{2}\/summer-mask-600x450\.avif 600w, [^"]*summer-mask-1200x900\.avif 1200w"/,
    );
    expect(main).toContain('type="image/webp"');
    expect(main).toMatch(/<img [^>]*src="\/wp-content\/uploads\/[^"]*summer-mask-600x450\.jpg"/);
    expect(main).toMatch(/srcSet="[^"]*summer-mask-600x450\.jpg 600w, [^"]*summer-mask-1200x900\.jpg 1200w"/);
    expect(main).toContain('width="600" height="450"');
    expect(main).toContain('sizes="(max-width: 600px) 100vw, 600px"');
    expect(html).toMatch(/summer-mask-100x100\.jpg 100w, [^"]*summer-mask-200x200\.jpg 200w/);
    // The slug URL of an uploaded image sends to its file.
    const bySlug = await fetch(`${shop.url}/media/summer-mask.svg`, { redirect: "manual" });
    expect(bySlug.status).toBe(302);
    expect(bySlug.headers.get("location")).toMatch(/^\/wp-content\/uploads\/\d{4}\/\d{2}\/summer-mask\.jpg$/);
    // The listing card: the 300 px size at 1× and 2×.
    const shopPage = await (await fetch(`${shop.url}/shop/?orderby=menu_order`)).text();
    if (shopPage.includes(`post-${product!.id} `)) expect(shopPage).toMatch(/summer-mask-300x300\.jpg 300w, [^"]*summer-mask-600x600\.jpg 600w/);
  });

  it("deletes only with force=true, removing the attachment, its references and all its files", async () => {
    const soft = await call(admin, `/wp-json/wp/v2/media/${photoId}`, { method: "DELETE" });
    expect([soft.status, ((await soft.json()) as { code: string }).code]).toEqual([501, "rest_trash_not_supported"]);
    const cust = await call(customer, `/wp-json/wp/v2/media/${photoId}?force=true`, { method: "DELETE" });
    expect(cust.status).toBe(403);
    expect(listFiles(uploads).some((f) => f.includes("summer-mask"))).toBe(true);
    const res = await call(admin, `/wp-json/wp/v2/media/${photoId}?force=true`, { method: "POST", headers: { "X-HTTP-Method-Override": "DELETE" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { deleted: boolean; previous: Attachment };
    expect(body).toMatchObject({ deleted: true, previous: { id: photoId } });
    expect(listFiles(uploads).filter((f) => f.includes("summer-mask"))).toEqual([]);
    expect((await fetch(`${shop.url}/wp-json/wp/v2/media/${photoId}`)).status).toBe(404);
    expect((await fetch(`${shop.url}${new URL(body.previous.source_url).pathname}`)).status).toBe(404);
    const still = await shop.services.db.query(`SELECT id FROM products WHERE $1 = ANY(image_ids)`, [photoId]);
    expect(still).toEqual([]);
  });

  it("never serves what it did not write: other names and types under /wp-content/uploads/ are 404", async () => {
    for (const p of [
      "/wp-content/uploads/../../pglite/PG_VERSION",
      "/wp-content/uploads/2026/11/x.php",
      "/wp-content/uploads/2026/11/x.svg",
      "/wp-content/uploads/x.jpg",
    ]) {
      expect((await fetch(`${shop.url}${p}`)).status).toBe(404);
    }
  });

  it("refuses the test-only fault in production", () => {
    expect(() => parseEnv({ NODE_ENV: "production", MEDIA_FAIL_SUBSIZES: "1" })).toThrow(/MEDIA_FAIL_SUBSIZES/);
    expect(parseEnv({ NODE_ENV: "test", MEDIA_FAIL_SUBSIZES: "1" }).MEDIA_FAIL_SUBSIZES).toBe(1);
  });
});

/** The unmodified @wordpress/api-fetch (bundled by tests/support/api-fetch.ts) in a sandbox with Node's fetch and the session cookie. */
async function nodeApiFetch(shop: TestShop, who: SignedIn) {
  const calls: { method: string; path: string; status: number; attachmentId: string | null; override: string | null }[] = [];
  const sandbox: Record<string, unknown> = {
    fetch: async (url: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set("cookie", who.client.cookieHeader());
      const res = await fetch(url, { ...init, headers });
      calls.push({
        method: init.method ?? "GET",
        path: new URL(url).pathname,
        status: res.status,
        attachmentId: res.headers.get("x-wp-upload-attachment-id"),
        override: headers.get("x-http-method-override"),
      });
      return res;
    },
    Response,
    Headers,
    Request,
    FormData,
    Blob,
    File,
    URL,
    URLSearchParams,
    AbortController,
    TextEncoder,
    TextDecoder,
    setTimeout,
    clearTimeout,
    console,
    navigator: { onLine: true },
  };
  sandbox.window = sandbox;
  vm.createContext(sandbox);
  vm.runInContext(await apiFetchScript(), sandbox);
  const apiFetch = sandbox.wpApiFetch as typeof WpApiFetch;
  // As WordPress's own inline set-up (wp_default_packages_inline_scripts) wires it: root URL, nonce, media upload.
  apiFetch.use(apiFetch.createRootURLMiddleware(`${shop.url}/wp-json/`));
  apiFetch.use(apiFetch.createNonceMiddleware(who.nonce));
  apiFetch.use(apiFetch.mediaUploadMiddleware);
  return { apiFetch, calls };
}

// One shop whose first 8 sub-size attempts fail (MEDIA_FAIL_SUBSIZES is refused in production, so NODE_ENV=test):
// the first upload uses 6 of them (the upload and api-fetch's 5 retries), the second 2 (upload and first retry).
describe("the upload-retry contract with @wordpress/api-fetch", () => {
  let shop: TestShop;
  let admin: SignedIn;
  let uploads: string;

  beforeAll(async () => {
    shop = await startTestShop({ NODE_ENV: "test", MEDIA_FAIL_SUBSIZES: "8" });
    uploads = path.join(shop.dataDir, "uploads");
    admin = await signInAs(shop, "media-retry@example.com", "shop_manager");
  });
  afterAll(() => shop?.close());

  const form = async (name: string) => {
    const body = new FormData();
    body.append("file", new Blob([new Uint8Array(await photo(800, 800))], { type: "image/jpeg" }), name);
    return body;
  };

  it("gives up after five failed post-processings, and the client's DELETE removes every file", async () => {
    const { apiFetch, calls } = await nodeApiFetch(shop, admin);
    await expect(apiFetch({ path: "/wp/v2/media", method: "POST", body: await form("doomed.jpg") })).rejects.toMatchObject({ code: "post_process" });
    const id = calls[0]!.attachmentId;
    expect(calls[0]).toMatchObject({ method: "POST", path: "/wp-json/wp/v2/media", status: 500 });
    expect(id).toMatch(/^\d+$/);
    const retries = calls.filter((c) => c.path === `/wp-json/wp/v2/media/${id}/post-process`);
    expect(retries.map((c) => c.status)).toEqual([500, 500, 500, 500, 500]);
    // api-fetch sends its DELETE without waiting for it.
    await expect.poll(() => calls.find((c) => c.override === "DELETE")?.status).toBe(200);
    expect((await fetch(`${shop.url}/wp-json/wp/v2/media/${id}`)).status).toBe(404);
    expect(listFiles(uploads)).toEqual([]);
  });

  it("retries a failed post-processing until it succeeds and resolves with the attachment", async () => {
    const { apiFetch, calls } = await nodeApiFetch(shop, admin);
    const a = (await apiFetch({ path: "/wp/v2/media", method: "POST", body: await form("second-try.jpg") })) as Attachment;
    expect(calls.map((c) => c.status)).toEqual([500, 500, 200]);
    expect(calls[0]!.attachmentId).toBe(String(a.id));
    expect(a).toMatchObject({ mime_type: "image/jpeg", media_details: { width: 800, height: 800 } });
    expect(Object.keys(a.media_details.sizes)).toContain("woocommerce_single");
    expect(listFiles(uploads).filter((f) => f.includes("second-try"))).toHaveLength(1 + 4 * 3);
    expect((await fetch(a.media_details.sizes.woocommerce_thumbnail!.source_url)).status).toBe(200);
  });
});
