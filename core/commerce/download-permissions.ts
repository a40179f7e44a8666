/**
 * A paid order's download permissions as staff change them (WooCommerce's "Downloadable product permissions" box on
 * the order screen; docs/contract/rest/shop-v1.md 'Download permissions'): grant access to a downloadable product's
 * file (or all its files), change a permission's downloads remaining and expiry (which also resets a used-up one),
 * revoke it. Each write runs in one transaction with the order row locked (a status change that grants or revokes
 * waits) and its `onSaved` step (the audit line), so a write and its record land together or not at all.
 */
import type { Db, Queryable } from "../db/client.ts";
import * as repo from "../db/repositories/downloads.ts";
import type { DownloadPermissionRow } from "../db/repositories/downloads.ts";
import { downloadSettingsOf, staffGrants } from "../domain/downloads/permissions.ts";

export type { DownloadPermissionRow } from "../db/repositories/downloads.ts";

export type PermissionRefusal = "no_order" | "no_permission" | "not_downloadable" | "no_file" | "exists";
type Refused = { ok: false; reason: PermissionRefusal };

/** The order's permissions, oldest first; null when there is no such order. */
export async function listOrderDownloadPermissions(db: Queryable, orderId: number): Promise<DownloadPermissionRow[] | null> {
  if (!(await repo.orderExists(db, orderId))) return null;
  return repo.orderPermissions(db, orderId);
}

/**
 * Grants access to `downloadId` of the product (or, without it, to each of its files the order does not have yet),
 * as a purchase of one unit would: the product's download limit, its expiry counted from now.
 */
export async function grantDownloadAccess(
  db: Db,
  g: { orderId: number; productId: number; downloadId?: string; now: Date },
  onSaved: (tx: Queryable, granted: DownloadPermissionRow[]) => Promise<void>,
): Promise<{ ok: true; granted: DownloadPermissionRow[] } | Refused> {
  return db.transaction(async (tx) => {
    const order = await repo.lockOrderForPermissions(tx, g.orderId);
    if (!order) return { ok: false as const, reason: "no_order" as const };
    const product = await repo.findDownloadableProduct(tx, g.productId);
    if (!product) return { ok: false as const, reason: "not_downloadable" as const };
    const grants = staffGrants(product.id, downloadSettingsOf(product.details), g.downloadId, g.now);
    if (!grants) return { ok: false as const, reason: "no_file" as const };
    const ids: number[] = [];
    for (const grant of grants) {
      const id = await repo.insertPermission(tx, {
        orderId: order.id,
        orderKey: order.orderKey,
        customerId: order.customerId,
        userEmail: order.billingEmail,
        productId: grant.productId,
        downloadId: grant.downloadId,
        downloadsRemaining: grant.downloadsRemaining,
        accessExpires: grant.accessExpires,
        now: g.now,
      });
      if (id !== null) ids.push(id);
    }
    if (ids.length === 0) return { ok: false as const, reason: "exists" as const };
    const granted = (await repo.orderPermissions(tx, order.id)).filter((p) => ids.includes(p.id));
    await onSaved(tx, granted);
    return { ok: true as const, granted };
  });
}

/** Sets downloads remaining (null = unlimited) and/or the expiry (null = never); what is not given stays. */
export async function editDownloadPermission(
  db: Db,
  orderId: number,
  id: number,
  changes: { downloadsRemaining?: number | null; accessExpires?: Date | null },
  onSaved: (tx: Queryable, before: DownloadPermissionRow, after: DownloadPermissionRow) => Promise<void>,
): Promise<{ ok: true; permission: DownloadPermissionRow } | Refused> {
  return db.transaction(async (tx) => {
    if (!(await repo.lockOrderForPermissions(tx, orderId))) return { ok: false as const, reason: "no_order" as const };
    const before = await repo.findOrderPermission(tx, orderId, id);
    if (!before || !(await repo.updatePermission(tx, orderId, id, changes))) return { ok: false as const, reason: "no_permission" as const };
    const after = (await repo.findOrderPermission(tx, orderId, id))!;
    await onSaved(tx, before, after);
    return { ok: true as const, permission: after };
  });
}

/** Takes a permission back: its link stops working at once. */
export async function revokeDownloadPermission(
  db: Db,
  orderId: number,
  id: number,
  onDeleted: (tx: Queryable, before: DownloadPermissionRow) => Promise<void>,
): Promise<{ ok: true; previous: DownloadPermissionRow } | Refused> {
  return db.transaction(async (tx) => {
    if (!(await repo.lockOrderForPermissions(tx, orderId))) return { ok: false as const, reason: "no_order" as const };
    const before = await repo.findOrderPermission(tx, orderId, id);
    if (!before || !(await repo.deletePermission(tx, orderId, id))) return { ok: false as const, reason: "no_permission" as const };
    await onDeleted(tx, before);
    return { ok: true as const, previous: before };
  });
}
