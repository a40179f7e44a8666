/**
 * The rules of a download permission (WooCommerce's wc_downloadable_product_permissions, decision 0041), pure:
 * what a paid order line grants, and whether a permission still allows a download.
 */

/**
 * A downloadable product's settings: `limit` -1 = unlimited; `expiryDays` -1 (or 0, as WooCommerce reads it) =
 * never.
 */
export interface DownloadSettings {
  readonly files: readonly { readonly id: string; readonly name: string; readonly file: string }[];
  readonly limit: number;
  readonly expiryDays: number;
}

export interface Grant {
  readonly downloadId: string;
  readonly productId: number;
  /** null = unlimited. */
  readonly downloadsRemaining: number | null;
  /** null = never. */
  readonly accessExpires: Date | null;
}

const DAY_MS = 86_400_000;

/**
 * The permissions a paid line grants: one per file. As WooCommerce does, a limit counts per unit bought (two
 * copies with a limit of 3 may be downloaded 6 times), and the expiry runs from the moment of granting.
 */
export function grantsForLine(productId: number, quantity: number, settings: DownloadSettings, now: Date): Grant[] {
  const remaining = settings.limit < 0 ? null : settings.limit * Math.max(1, quantity);
  const expires = settings.expiryDays <= 0 ? null : new Date(now.getTime() + settings.expiryDays * DAY_MS);
  return settings.files.map((f) => ({ downloadId: f.id, productId, downloadsRemaining: remaining, accessExpires: expires }));
}

export type DownloadRefusal = "expired" | "used-up";

/** Why a permission no longer allows a download, or null when it does. */
export function refusal(p: { downloadsRemaining: number | null; accessExpires: Date | null }, now: Date): DownloadRefusal | null {
  if (p.accessExpires !== null && p.accessExpires.getTime() <= now.getTime()) return "expired";
  if (p.downloadsRemaining !== null && p.downloadsRemaining <= 0) return "used-up";
  return null;
}

/** WooCommerce's messages (WC_Download_Handler) for a refused download. */
export const REFUSAL_MESSAGES: Record<DownloadRefusal | "invalid", string> = {
  expired: "Sorry, this download has expired.",
  "used-up": "Sorry, you have reached your download limit for this file.",
  invalid: "Invalid download link.",
};

/** The product's settings from its stored details (core/commerce/products-admin.ts writes them). */
export function downloadSettingsOf(details: unknown): DownloadSettings {
  const d = (details && typeof details === "object" ? details : {}) as { files?: unknown; downloadLimit?: unknown; downloadExpiry?: unknown };
  const files = Array.isArray(d.files)
    ? (d.files as { id?: unknown; name?: unknown; file?: unknown }[]).map((f, i) => ({
        id: typeof f.id === "string" ? f.id : String(i + 1),
        name: typeof f.name === "string" ? f.name : "",
        file: typeof f.file === "string" ? f.file : "",
      }))
    : [];
  const int = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : -1);
  return { files, limit: int(d.downloadLimit), expiryDays: int(d.downloadExpiry) };
}

/** The storage key of a file uploaded for downloads, from its `file` URL (or null for a file elsewhere). */
export const PRIVATE_UPLOADS_PATH = "/wp-content/uploads/woocommerce_uploads/";
export function privateKeyOf(file: string): string | null {
  let path: string;
  try {
    path = new URL(file, "http://shop.invalid").pathname;
  } catch {
    return null;
  }
  return path.startsWith(PRIVATE_UPLOADS_PATH) ? decodeURIComponent(path.slice(PRIVATE_UPLOADS_PATH.length)) : null;
}

/** WooCommerce's download link (WC_Customer_Download::get_download_url): the order key and e-mail are its secret. */
export function downloadUrl(p: { productId: number; orderKey: string; userEmail: string; downloadId: string }): string {
  const q = new URLSearchParams({ download_file: String(p.productId), order: p.orderKey, email: p.userEmail, key: p.downloadId });
  return `/?${q.toString()}`;
}

/**
 * What staff's "Grant access" gives (WooCommerce's order screen box): as a purchase of one unit would, from now, for
 * the one file chosen or, without one, every file of the product. Null when the product has no such file.
 */
export function staffGrants(productId: number, settings: DownloadSettings, downloadId: string | undefined, now: Date): Grant[] | null {
  const grants = grantsForLine(productId, 1, settings, now).filter((g) => downloadId === undefined || g.downloadId === downloadId);
  return grants.length > 0 ? grants : null;
}

/**
 * An "Access expires" date as staff set it: a day (`YYYY-MM-DD`) gives access through the end of that day (UTC),
 * as WooCommerce reads its expiry date; a full date-time is taken as it is (UTC when no offset is given).
 */
export function accessExpiresFrom(value: string): Date | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = day ? new Date(`${value}T23:59:59.000Z`) : new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  if (Number.isNaN(date.getTime())) return null;
  if (day && date.toISOString().slice(0, 10) !== value) return null; // 2026-02-30
  return date;
}
