/** The downloads a shopper sees (My account › Downloads, the order view, the order e-mails): decision 0041. */
import type { Queryable } from "../db/client.ts";
import { customerPermissions, orderPermissions, type DownloadPermissionRow } from "../db/repositories/downloads.ts";
import { downloadSettingsOf, downloadUrl, refusal } from "../domain/downloads/permissions.ts";

export interface ShopperDownload {
  productName: string;
  productSlug: string;
  downloadName: string;
  /** The download link, relative to the site. */
  url: string;
  downloadsRemaining: number | null;
  accessExpires: string | null;
}

/** The permissions that still allow a download (WooCommerce's wc_get_customer_available_downloads). */
function available(rows: DownloadPermissionRow[], now: Date): ShopperDownload[] {
  return rows.flatMap((p) => {
    const file = downloadSettingsOf(p.details).files.find((f) => f.id === p.downloadId);
    if (!file || refusal(p, now)) return [];
    return [
      {
        productName: p.productName,
        productSlug: p.productSlug,
        downloadName: file.name,
        url: downloadUrl(p),
        downloadsRemaining: p.downloadsRemaining,
        accessExpires: p.accessExpires?.toISOString() ?? null,
      },
    ];
  });
}

export async function customerDownloads(db: Queryable, customerId: number, now: Date): Promise<ShopperDownload[]> {
  return available(await customerPermissions(db, customerId), now);
}

export async function orderDownloads(db: Queryable, orderId: number, now: Date): Promise<ShopperDownload[]> {
  return available(await orderPermissions(db, orderId), now);
}
