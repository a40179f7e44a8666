/** Storage for downloadable products' private files and the download permissions of paid orders (decision 0041). Only SQL lives here. */
import type { Queryable } from "../client.ts";
import { sql } from "../kysely.ts";
import { downloadSettingsOf, grantsForLine } from "../../domain/downloads/permissions.ts";

export interface DownloadFileRow {
  id: number;
  file: string;
  name: string;
  mime: string;
  filesize: number;
  createdAt: Date;
}

export async function insertDownloadFile(
  tx: Queryable,
  f: { file: string; name: string; mime: string; filesize: number; authorId: number | null },
): Promise<number | null> {
  const row = await sql(tx)
    .insertInto("download_files")
    .values({ file: f.file, name: f.name, mime: f.mime, filesize: f.filesize, author_id: f.authorId })
    .onConflict((oc) => oc.column("file").doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function deleteDownloadFile(tx: Queryable, id: number): Promise<void> {
  await sql(tx).deleteFrom("download_files").where("id", "=", id).execute();
}

const fileColumns = ["id", "file", "name", "mime", "filesize", "created_at as createdAt"] as const;

export async function listDownloadFiles(tx: Queryable, limit: number): Promise<DownloadFileRow[]> {
  return sql(tx).selectFrom("download_files").select(fileColumns).orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
}

export async function findDownloadFile(tx: Queryable, key: string): Promise<DownloadFileRow | null> {
  return (await sql(tx).selectFrom("download_files").select(fileColumns).where("file", "=", key).executeTakeFirst()) ?? null;
}

/**
 * Grants the downloads of a paid order: a permission per file of each downloadable line (once: a permission that
 * exists is kept as it is, so a repeated status change or a second payment notice grants nothing more).
 */
export async function grantOrderDownloads(tx: Queryable, orderId: number, now: Date): Promise<number> {
  const db = sql(tx);
  const lines = await db
    .selectFrom("order_lines as l")
    .innerJoin("orders as o", "o.id", "l.order_id")
    .innerJoin("products as p", "p.id", "l.product_id")
    .where("l.order_id", "=", orderId)
    .where("p.type", "=", "downloadable")
    .select(["l.product_id", "l.quantity", "p.details", "o.order_key", "o.customer_id", "o.billing_email"])
    .execute();
  let granted = 0;
  for (const line of lines) {
    for (const g of grantsForLine(line.product_id, line.quantity, downloadSettingsOf(line.details), now)) {
      const row = await db
        .insertInto("download_permissions")
        .values({
          download_id: g.downloadId,
          product_id: g.productId,
          order_id: orderId,
          order_key: line.order_key,
          customer_id: line.customer_id,
          user_email: line.billing_email,
          downloads_remaining: g.downloadsRemaining,
          access_granted: now,
          access_expires: g.accessExpires,
        })
        .onConflict((oc) => oc.columns(["order_id", "product_id", "download_id"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (row) granted++;
    }
  }
  return granted;
}

/** Takes back an order's downloads (it was cancelled or refunded). */
export async function revokeOrderDownloads(tx: Queryable, orderId: number): Promise<number> {
  const rows = await sql(tx).deleteFrom("download_permissions").where("order_id", "=", orderId).returning("id").execute();
  return rows.length;
}

export interface DownloadPermissionRow {
  id: number;
  downloadId: string;
  productId: number;
  orderId: number;
  orderKey: string;
  customerId: number | null;
  userEmail: string;
  downloadsRemaining: number | null;
  accessGranted: Date;
  accessExpires: Date | null;
  downloadCount: number;
  productName: string;
  productSlug: string;
  /** The product's stored details (its files, to find this permission's file by download id). */
  details: unknown;
}

function permissions(tx: Queryable) {
  return sql(tx)
    .selectFrom("download_permissions as d")
    .innerJoin("products as p", "p.id", "d.product_id")
    .select([
      "d.id",
      "d.download_id as downloadId",
      "d.product_id as productId",
      "d.order_id as orderId",
      "d.order_key as orderKey",
      "d.customer_id as customerId",
      "d.user_email as userEmail",
      "d.downloads_remaining as downloadsRemaining",
      "d.access_granted as accessGranted",
      "d.access_expires as accessExpires",
      "d.download_count as downloadCount",
      "p.name as productName",
      "p.slug as productSlug",
      "p.details",
    ]);
}

/** A customer's permissions, newest order first (My account › Downloads, wc/v3 customers/{id}/downloads). */
export async function customerPermissions(tx: Queryable, customerId: number): Promise<DownloadPermissionRow[]> {
  return permissions(tx).where("d.customer_id", "=", customerId).orderBy("d.order_id", "desc").orderBy("d.id").execute();
}

export async function orderPermissions(tx: Queryable, orderId: number): Promise<DownloadPermissionRow[]> {
  return permissions(tx).where("d.order_id", "=", orderId).orderBy("d.id").execute();
}

export async function findPermission(tx: Queryable, orderKey: string, productId: number, downloadId: string): Promise<DownloadPermissionRow | null> {
  return (
    (await permissions(tx)
      .where("d.order_key", "=", orderKey)
      .where("d.product_id", "=", productId)
      .where("d.download_id", "=", downloadId)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Counts one download, atomically: the row changes only while it is neither used up nor expired, so concurrent
 * requests cannot take more than the limit (each UPDATE waits for the other's row lock and re-checks). Null when
 * the permission no longer allows a download.
 */
export async function useDownload(tx: Queryable, id: number, now: Date): Promise<{ downloadsRemaining: number | null } | null> {
  const row = await sql(tx)
    .updateTable("download_permissions")
    .set((eb) => ({
      downloads_remaining: eb
        .case()
        .when("downloads_remaining", "is", null)
        .then(null)
        .else(eb("downloads_remaining", "-", 1))
        .end(),
      download_count: eb("download_count", "+", 1),
    }))
    .where("id", "=", id)
    .where((eb) => eb.or([eb("downloads_remaining", "is", null), eb("downloads_remaining", ">", 0)]))
    .where((eb) => eb.or([eb("access_expires", "is", null), eb("access_expires", ">", now)]))
    .returning("downloads_remaining")
    .executeTakeFirst();
  return row ? { downloadsRemaining: row.downloads_remaining } : null;
}

// ── The Order screen's "Downloadable product permissions" box (staff: grant, edit, revoke) ─────────────────────────

/** The order a permission is granted on, locked for the transaction (a status change waits, so grant and revoke never cross). */
export async function lockOrderForPermissions(
  tx: Queryable,
  orderId: number,
): Promise<{ id: number; orderKey: string; customerId: number | null; billingEmail: string } | null> {
  return (
    (await sql(tx)
      .selectFrom("orders")
      .select(["id", "order_key as orderKey", "customer_id as customerId", "billing_email as billingEmail"])
      .where("id", "=", orderId)
      .forUpdate()
      .executeTakeFirst()) ?? null
  );
}

export async function orderExists(tx: Queryable, orderId: number): Promise<boolean> {
  return (await sql(tx).selectFrom("orders").select("id").where("id", "=", orderId).executeTakeFirst()) !== undefined;
}

/** A downloadable product's stored details, or null when there is no such downloadable product. */
export async function findDownloadableProduct(tx: Queryable, productId: number): Promise<{ id: number; name: string; details: unknown } | null> {
  return (
    (await sql(tx)
      .selectFrom("products")
      .select(["id", "name", "details"])
      .where("id", "=", productId)
      .where("type", "=", "downloadable")
      .executeTakeFirst()) ?? null
  );
}

/** One permission, granted by staff; null when the order already has it (the UNIQUE key). */
export async function insertPermission(
  tx: Queryable,
  p: {
    orderId: number;
    orderKey: string;
    customerId: number | null;
    userEmail: string;
    productId: number;
    downloadId: string;
    downloadsRemaining: number | null;
    accessExpires: Date | null;
    now: Date;
  },
): Promise<number | null> {
  const row = await sql(tx)
    .insertInto("download_permissions")
    .values({
      download_id: p.downloadId,
      product_id: p.productId,
      order_id: p.orderId,
      order_key: p.orderKey,
      customer_id: p.customerId,
      user_email: p.userEmail,
      downloads_remaining: p.downloadsRemaining,
      access_granted: p.now,
      access_expires: p.accessExpires,
    })
    .onConflict((oc) => oc.columns(["order_id", "product_id", "download_id"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function findOrderPermission(tx: Queryable, orderId: number, id: number): Promise<DownloadPermissionRow | null> {
  return (await permissions(tx).where("d.order_id", "=", orderId).where("d.id", "=", id).executeTakeFirst()) ?? null;
}

/** Sets a permission's downloads remaining and/or expiry (each `undefined` stays as it is). */
export async function updatePermission(
  tx: Queryable,
  orderId: number,
  id: number,
  changes: { downloadsRemaining?: number | null; accessExpires?: Date | null },
): Promise<boolean> {
  const set: { downloads_remaining?: number | null; access_expires?: Date | null } = {};
  if (changes.downloadsRemaining !== undefined) set.downloads_remaining = changes.downloadsRemaining;
  if (changes.accessExpires !== undefined) set.access_expires = changes.accessExpires;
  if (Object.keys(set).length === 0) return true;
  const row = await sql(tx)
    .updateTable("download_permissions")
    .set(set)
    .where("order_id", "=", orderId)
    .where("id", "=", id)
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

export async function deletePermission(tx: Queryable, orderId: number, id: number): Promise<boolean> {
  const row = await sql(tx).deleteFrom("download_permissions").where("order_id", "=", orderId).where("id", "=", id).returning("id").executeTakeFirst();
  return row !== undefined;
}
