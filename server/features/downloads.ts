/**
 * Downloadable products' files and downloads (decision 0041, docs/contract/rest/products.md 'Downloads'):
 * - `POST shop/v1/downloadable-files` uploads a file into the private store (as wp/v2/media takes a body) and
 *   `GET shop/v1/downloadable-files` lists the uploads, for the product editor's Downloads panel;
 * - `GET wc/v3/customers/{id}/downloads` lists a customer's downloads in WooCommerce's shape;
 * - `/?download_file={product_id}&order={order_key}&email={email}&key={download_id}` (WooCommerce's link) checks
 *   the permission, counts the download atomically and streams the file as an attachment; a refusal is a page.
 */
import type { Request, Response, NextFunction } from "express";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput } from "../http/rest.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import { readUpload } from "../http/upload-body.ts";
import type { Feature } from "./feature.ts";
import type { AppServices } from "../services.ts";
import { escapeHtml } from "../../core/domain/text/html.ts";
import {
  customerPermissions,
  findDownloadFile,
  findPermission,
  listDownloadFiles,
  useDownload,
  type DownloadFileRow,
  type DownloadPermissionRow,
} from "../../core/db/repositories/downloads.ts";
import { downloadMime, uploadDownloadFile } from "../../core/media/downloads.server.ts";
import {
  downloadSettingsOf,
  downloadUrl,
  privateKeyOf,
  PRIVATE_UPLOADS_PATH,
  REFUSAL_MESSAGES,
  refusal,
  type DownloadRefusal,
} from "../../core/domain/downloads/permissions.ts";

const origin = (req: Request) => `${req.protocol}://${req.get("host")}`;
const wpDate = (d: Date) => d.toISOString().slice(0, 19);
const CANNOT_UPLOAD = { code: "rest_cannot_create", message: "Sorry, you are not allowed to upload files for downloadable products." };

function fileJson(req: Request, row: DownloadFileRow) {
  return {
    id: row.id,
    name: row.name,
    file: `${origin(req)}${PRIVATE_UPLOADS_PATH}${row.file}`,
    mime_type: row.mime,
    filesize: row.filesize,
    date_created_gmt: wpDate(row.createdAt),
  };
}

async function uploadFile(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, "edit_products", CANNOT_UPLOAD);
  if (isReply(user)) {
    input.req.resume();
    return user;
  }
  const { services, req } = input;
  const body = await readUpload(req, services.media.maxBytes);
  if (!body.ok) return restError(body.code, body.message, body.status);
  const result = await uploadDownloadFile(services.db, services.media, body.bytes, body.filename, user.id, services.now());
  if (!result.ok) return restError(result.reason === "empty" ? "rest_upload_no_data" : "rest_upload_invalid_type", result.message, 400);
  await audit(input, user, {
    action: "create",
    objectType: "download_file",
    objectId: result.row.id,
    changes: { file: result.row.file, filesize: result.row.filesize },
  });
  return json(fileJson(req, result.row), 201);
}

async function listFiles(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, "edit_products");
  if (isReply(user)) return user;
  const rows = await listDownloadFiles(input.services.db, 100);
  return json(rows.map((r) => fileJson(input.req, r)));
}

/** WooCommerce's WC_REST_Customer_Downloads_Controller item. */
function customerDownloadJson(req: Request, p: DownloadPermissionRow) {
  const file = downloadSettingsOf(p.details).files.find((f) => f.id === p.downloadId);
  return {
    download_id: p.downloadId,
    download_url: `${origin(req)}${downloadUrl(p)}`,
    product_id: p.productId,
    product_name: p.productName,
    download_name: file?.name ?? "",
    order_id: p.orderId,
    order_key: p.orderKey,
    downloads_remaining: p.downloadsRemaining === null ? "unlimited" : String(p.downloadsRemaining),
    access_expires: p.accessExpires === null ? "never" : wpDate(p.accessExpires),
    access_expires_gmt: p.accessExpires === null ? "never" : wpDate(p.accessExpires),
    file: { name: file?.name ?? "", file: file?.file ?? "" },
    _links: { collection: [{ href: `${origin(req)}/wp-json/wc/v3/customers/${p.customerId}/downloads` }] },
  };
}

async function customerDownloads(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, "list_users", { code: "woocommerce_rest_cannot_view", message: "Sorry, you cannot list resources." });
  if (isReply(user)) return user;
  const id = Number(input.pathParams.id);
  const rows = await customerPermissions(input.services.db, id);
  return json(rows.map((p) => customerDownloadJson(input.req, p)));
}

function messagePage(title: string, message: string): string {
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>` +
    `<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1e1e1e}a{color:#0b5394}</style></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p>` +
    `<p><a href="/my-account/downloads/">Go to My account › Downloads</a> · <a href="/">Back to the shop</a></p></main></body></html>`
  );
}

function refuse(res: Response, status: number, why: DownloadRefusal | "invalid") {
  res.status(status).setHeader("Cache-Control", "no-store");
  res.type("html").send(messagePage("Download error", REFUSAL_MESSAGES[why]));
}

/** `filename="plain"; filename*=UTF-8''encoded` (RFC 6266). */
function attachment(name: string): string {
  const plain = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

async function download(req: Request, res: Response, services: AppServices): Promise<void> {
  const one = (v: unknown) => (typeof v === "string" ? v : "");
  const productId = /^\d{1,9}$/.test(one(req.query.download_file)) ? Number(req.query.download_file) : 0;
  const orderKey = one(req.query.order);
  const email = one(req.query.email).trim().toLowerCase();
  const key = one(req.query.key);
  if (!productId || !orderKey || !key || orderKey.length > 100 || key.length > 64) return refuse(res, 404, "invalid");
  const permission = await findPermission(services.db, orderKey, productId, key);
  if (!permission) return refuse(res, 404, "invalid");
  // The signed-in owner, or anyone with the link (the order key and the order's e-mail), as WooCommerce allows.
  await req.shop.session();
  const signedIn = req.shop.customerId();
  const owner = permission.customerId !== null && signedIn === permission.customerId;
  if (!owner && email !== permission.userEmail.toLowerCase()) return refuse(res, 403, "invalid");
  const now = services.now();
  const early = refusal(permission, now);
  if (early) return refuse(res, 403, early);
  const file = downloadSettingsOf(permission.details).files.find((f) => f.id === key);
  if (!file) return refuse(res, 404, "invalid");

  const privateKey = privateKeyOf(file.file);
  const stored = privateKey === null ? null : await findDownloadFile(services.db, privateKey);
  const found = stored ? await services.media.downloads.stream(stored.file) : null;
  if (privateKey !== null && !found) {
    services.logger.warn("download: file missing", { productId, key, file: file.file });
    return void res.status(404).setHeader("Cache-Control", "no-store").type("html").send(messagePage("Download error", "File not found."));
  }
  // Counted before a byte goes out: the UPDATE re-checks the limit and expiry under the row's lock.
  const used = await useDownload(services.db, permission.id, now);
  if (!used) {
    found?.body.destroy();
    const fresh = await findPermission(services.db, orderKey, productId, key);
    return refuse(res, 403, (fresh && refusal(fresh, now)) || "used-up");
  }
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Robots-Tag", "noindex, nofollow");
  if (!found || !stored) return void res.redirect(302, file.file); // a file kept elsewhere (WooCommerce's redirect method)
  res.setHeader("Content-Type", downloadMime(stored.file));
  res.setHeader("Content-Length", String(found.size));
  res.setHeader("Content-Disposition", attachment(stored.name || file.name));
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
  found.body.on("error", (error) => (res.headersSent ? res.destroy(error) : res.status(500).end()));
  found.body.pipe(res);
}

export const downloadsFeature: Feature = {
  name: "downloads",
  endpoints({ rest }) {
    rest.register("POST", "shop/v1/downloadable-files", uploadFile);
    rest.register("GET", "shop/v1/downloadable-files", listFiles);
    rest.register("GET", "wc/v3/customers/:id(\\d{1,9})/downloads", customerDownloads);
  },
  routes(app, services) {
    app.get("/", (req: Request, res: Response, next: NextFunction) => {
      if (req.query.download_file === undefined) return next();
      download(req, res, services).catch(next);
    });
  },
};
