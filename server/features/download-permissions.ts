/**
 * A paid order's download permissions for staff (WooCommerce's "Downloadable product permissions" box on the order
 * screen; docs/contract/rest/shop-v1.md 'Download permissions', docs/contract/admin.md 'Order'):
 * - `GET shop/v1/orders/{id}/downloads`: the order's permissions, oldest first;
 * - `POST shop/v1/orders/{id}/downloads` `{product_id, download_id?}`: grant access to a downloadable product's file
 *   (or every file it has that the order lacks), as a purchase of one unit would (201 with the permissions made;
 *   409 `shop_download_permission_exists` when the order has them all);
 * - `PUT|PATCH|POST shop/v1/orders/{id}/downloads/{permission_id}` `{downloads_remaining?, access_expires?}`: null or
 *   "" = unlimited / never; a day `YYYY-MM-DD` = through that day (UTC). Also how a used-up permission is reset;
 * - `DELETE shop/v1/orders/{id}/downloads/{permission_id}`: revoke (the link stops working).
 * Capability `edit_shop_orders` (the order screen's): a guest gets 401 `rest_not_logged_in`, a customer 403
 * `rest_forbidden`. Bad input is 400 `rest_invalid_param` naming the field; an unknown order or permission 404.
 * Every write is audited in its own transaction (core/commerce/download-permissions.ts).
 */
import { z } from "zod";
import type { Request } from "express";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput } from "../http/rest.ts";
import { invalidParams, parseArgs, restInt } from "../http/rest-args.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import { bodyObject, changedFields, unknownFields } from "../http/rest-write.ts";
import type { Feature } from "./feature.ts";
import {
  editDownloadPermission,
  grantDownloadAccess,
  listOrderDownloadPermissions,
  revokeDownloadPermission,
  type DownloadPermissionRow,
  type PermissionRefusal,
} from "../../core/commerce/download-permissions.ts";
import { accessExpiresFrom, downloadSettingsOf, downloadUrl, refusal } from "../../core/domain/downloads/permissions.ts";

const CAPABILITY = "edit_shop_orders";
const wpDate = (d: Date) => d.toISOString().slice(0, 19);
const origin = (req: Request) => `${req.protocol}://${req.get("host")}`;

/** A permission as the order screen reads it (WooCommerce's customer-download fields, plus the staff's own). */
function permissionJson(req: Request, p: DownloadPermissionRow, now: Date) {
  const settings = downloadSettingsOf(p.details);
  const file = settings.files.find((f) => f.id === p.downloadId);
  return {
    id: p.id,
    order_id: p.orderId,
    product_id: p.productId,
    product_name: p.productName,
    download_id: p.downloadId,
    download_name: file?.name ?? "",
    /** false when the product no longer has this file (the link then answers "Invalid download link."). */
    file_exists: file !== undefined,
    download_limit: settings.limit,
    downloads_remaining: p.downloadsRemaining,
    download_count: p.downloadCount,
    access_granted: wpDate(p.accessGranted),
    access_expires: p.accessExpires === null ? null : wpDate(p.accessExpires),
    /** Why the link refuses now ("expired", "used-up"), or null when it works. */
    refusal: refusal(p, now),
    user_email: p.userEmail,
    download_url: `${origin(req)}${downloadUrl(p)}`,
  };
}

/** What the audit keeps of a permission. */
const snapshot = (p: DownloadPermissionRow) => ({
  order_id: p.orderId,
  product_id: p.productId,
  download_id: p.downloadId,
  downloads_remaining: p.downloadsRemaining,
  access_expires: p.accessExpires?.toISOString() ?? null,
});

const idOf = (raw: string | undefined) => (raw && /^\d{1,9}$/.test(raw) ? Number(raw) : 0);
const invalidOrder = () => restError("woocommerce_rest_shop_order_invalid_id", "Invalid ID.", 404);
const invalidPermission = () => restError("shop_download_permission_invalid_id", "Invalid download permission ID.", 404);
const fieldError = (field: string, message: string, value: Record<string, unknown>) =>
  invalidParams(new z.ZodError([{ code: "custom", path: [field], message, input: value[field] }]), value);

function refusedWith(reason: PermissionRefusal, body: Record<string, unknown>): Reply {
  switch (reason) {
    case "no_order":
      return invalidOrder();
    case "no_permission":
      return invalidPermission();
    case "not_downloadable":
      return fieldError("product_id", "product_id is not a downloadable product", body);
    case "no_file":
      return fieldError(
        body.download_id === undefined ? "product_id" : "download_id",
        `${body.download_id === undefined ? "product_id has no files" : "download_id is not a file of this product"}`,
        body,
      );
    case "exists":
      return restError("shop_download_permission_exists", "This order already grants access to that file.", 409);
  }
}

const grantSchema = z.strictObject({
  product_id: restInt(1, 999_999_999),
  download_id: z.string().trim().min(1).max(64).optional(),
});

const blankIsNull = (v: unknown) => (v === "" ? null : v);
const editSchema = z
  .strictObject({
    downloads_remaining: z.preprocess(blankIsNull, z.number().int("must be a whole number").min(0).max(1_000_000).nullable()).optional(),
    access_expires: z
      .preprocess(
        blankIsNull,
        z
          .string()
          .max(40)
          .refine((s) => accessExpiresFrom(s) !== null, "must be a date (YYYY-MM-DD) or a date-time")
          .nullable(),
      )
      .optional(),
  })
  .refine((b) => b.downloads_remaining !== undefined || b.access_expires !== undefined, {
    path: ["downloads_remaining"],
    message: "downloads_remaining or access_expires must be given",
  });

async function list(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, CAPABILITY);
  if (isReply(user)) return user;
  const rows = await listOrderDownloadPermissions(input.services.db, idOf(input.pathParams.id));
  return rows ? json(rows.map((p) => permissionJson(input.req, p, input.services.now()))) : invalidOrder();
}

async function grant(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_create", message: "Sorry, you are not allowed to create resources." });
  if (isReply(user)) return user;
  const body = bodyObject(input);
  if (!body.ok) return body.reply;
  const args = parseArgs(grantSchema, body.body);
  if (!args.ok) return args.reply;
  const orderId = idOf(input.pathParams.id);
  const outcome = await grantDownloadAccess(
    input.services.db,
    { orderId, productId: args.data.product_id, downloadId: args.data.download_id, now: input.services.now() },
    async (tx, granted) => {
      for (const p of granted)
        await audit(input, user, { action: "grant", objectType: "download_permission", objectId: p.id, changes: changedFields(null, snapshot(p)) }, tx);
    },
  );
  return outcome.ok
    ? json(
        outcome.granted.map((p) => permissionJson(input.req, p, input.services.now())),
        201,
      )
    : refusedWith(outcome.reason, body.body);
}

async function edit(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_edit", message: "Sorry, you are not allowed to edit this resource." });
  if (isReply(user)) return user;
  const body = bodyObject(input);
  if (!body.ok) return body.reply;
  const { id: _id, ...fields } = body.body;
  const unknown = unknownFields(fields, ["downloads_remaining", "access_expires"]);
  if (unknown) return unknown;
  const args = parseArgs(editSchema, fields);
  if (!args.ok) return args.reply;
  const { downloads_remaining, access_expires } = args.data;
  const outcome = await editDownloadPermission(
    input.services.db,
    idOf(input.pathParams.id),
    idOf(input.pathParams.permission_id),
    {
      downloadsRemaining: downloads_remaining,
      accessExpires: access_expires === undefined ? undefined : access_expires === null ? null : accessExpiresFrom(access_expires),
    },
    (tx, before, after) =>
      audit(
        input,
        user,
        { action: "update", objectType: "download_permission", objectId: after.id, changes: changedFields(snapshot(before), snapshot(after)) },
        tx,
      ),
  );
  return outcome.ok ? json(permissionJson(input.req, outcome.permission, input.services.now())) : refusedWith(outcome.reason, fields);
}

async function revoke(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_delete", message: "Sorry, you are not allowed to delete this resource." });
  if (isReply(user)) return user;
  const outcome = await revokeDownloadPermission(input.services.db, idOf(input.pathParams.id), idOf(input.pathParams.permission_id), (tx, before) =>
    audit(input, user, { action: "revoke", objectType: "download_permission", objectId: before.id, changes: changedFields(snapshot(before), {}) }, tx),
  );
  return outcome.ok ? json({ deleted: true, previous: permissionJson(input.req, outcome.previous, input.services.now()) }) : refusedWith(outcome.reason, {});
}

export const downloadPermissionsFeature: Feature = {
  name: "download-permissions",
  endpoints({ rest }) {
    rest.register("GET", "shop/v1/orders/:id(\\d{1,9})/downloads", list);
    rest.register("POST", "shop/v1/orders/:id(\\d{1,9})/downloads", grant);
    for (const method of ["PUT", "PATCH", "POST"]) rest.register(method, "shop/v1/orders/:id(\\d{1,9})/downloads/:permission_id(\\d{1,9})", edit);
    rest.register("DELETE", "shop/v1/orders/:id(\\d{1,9})/downloads/:permission_id(\\d{1,9})", revoke);
  },
};
