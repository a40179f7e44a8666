/**
 * The sub-sizes made from an uploaded image (docs/contract/rest/media.md 'Sizes', decision 0020) and how the
 * storefront picks among them. Pure: shared by the server (which makes them) and the browser (which renders
 * `srcset`). The names are WooCommerce's own image sizes; the three bases are what the storefront draws today
 * (gallery thumbnails 100 px, listing cards 300 px, the product page's main image 600 px), each also at 2× for
 * high-density screens.
 */

export interface SizeSpec {
  width: number;
  /** 0: the height follows the image's proportions (not cropped). */
  height: number;
  crop: boolean;
}

export const BASE_SIZES = {
  woocommerce_gallery_thumbnail: { width: 100, height: 100, crop: true },
  woocommerce_thumbnail: { width: 300, height: 300, crop: true },
  woocommerce_single: { width: 600, height: 0, crop: false },
} as const satisfies Record<string, SizeSpec>;

export type BaseSizeName = keyof typeof BASE_SIZES;

/** Every size made: each base and its 2× (`woocommerce_thumbnail-2x`, 600×600). */
export const IMAGE_SIZES: Record<string, SizeSpec> = Object.fromEntries(
  Object.entries(BASE_SIZES).flatMap(([name, s]) => [
    [name, s],
    [`${name}-2x`, { width: s.width * 2, height: s.height * 2, crop: s.crop }],
  ]),
);

/** The formats an upload may be, by content (never by name or header). */
export const UPLOAD_MIME_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"] as const;
export type UploadMime = (typeof UPLOAD_MIME_TYPES)[number];

export const EXTENSION: Record<UploadMime, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/avif": "avif",
};

/** The content type of a stored file by its extension (only what this shop writes; anything else is not served). */
export function mimeOfFile(file: string): UploadMime | null {
  const ext = /\.([a-z0-9]+)$/.exec(file)?.[1];
  const found = Object.entries(EXTENSION).find(([, e]) => e === ext);
  return found ? (found[0] as UploadMime) : null;
}

/**
 * The size an image of `width`×`height` becomes for `spec`, or null when the image is too small to fill it
 * (WordPress makes no size larger than the original).
 */
export function fitSize(width: number, height: number, spec: SizeSpec): { width: number; height: number } | null {
  if (spec.crop) return width >= spec.width && height >= spec.height ? { width: spec.width, height: spec.height } : null;
  if (width < spec.width) return null;
  return { width: spec.width, height: Math.max(1, Math.round((height * spec.width) / width)) };
}

/** A file name safe for a URL and a disk: lower case ASCII letters, digits and dashes, at most 60 of them. */
export function safeBaseName(filename: string): string {
  const base = filename
    .replace(/^.*[\\/]/, "")
    .replace(/\.[^.]*$/, "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return base === "" ? "image" : base;
}

/** One stored sub-size, as `media_details.sizes[name]` holds it (docs/contract/rest/media.md). */
export interface StoredSize {
  file: string;
  width: number;
  height: number;
  mime_type: string;
  filesize: number;
  /** Every format of this size by content type, the original's included (`file` is the original format's). */
  sources: Record<string, { file: string; filesize: number }>;
}

/** What the storefront needs to draw an uploaded image: its original and its sizes. */
export interface UploadedImage {
  file: string;
  width: number;
  height: number;
  mime: string;
  sizes: Record<string, StoredSize>;
}

export const UPLOADS_PATH = "/wp-content/uploads/";
export const uploadUrl = (file: string) => `${UPLOADS_PATH}${file}`;

/** An `<img>`'s responsive attributes for one role of the storefront, in one format. */
export interface ResponsiveSource {
  type: string;
  srcSet: string;
}

export interface ResponsiveImage {
  src: string;
  width: number;
  height: number;
  sizes: string;
  /** Modern formats first (AVIF, WebP), then the original's: a `<picture>`'s `<source>`s and the `<img>`'s srcset. */
  sources: ResponsiveSource[];
}

const PREFERRED = ["image/avif", "image/webp"];

/**
 * The responsive image for `base` (the size the storefront draws there), or null when the image has no such size
 * (too small, or its sizes are not made yet): the caller then draws it as before.
 */
export function responsiveImage(image: UploadedImage | null | undefined, base: BaseSizeName, sizes: string): ResponsiveImage | null {
  if (!image) return null;
  const one = image.sizes[base];
  if (!one) return null;
  const candidates = [one, image.sizes[`${base}-2x`]].filter((s): s is StoredSize => s !== undefined);
  const types = [...PREFERRED.filter((t) => t !== one.mime_type && one.sources[t]), one.mime_type];
  const sources = types.map((type) => ({
    type,
    srcSet: candidates
      .filter((c) => c.sources[type])
      .map((c) => `${uploadUrl(c.sources[type]!.file)} ${c.width}w`)
      .join(", "),
  }));
  return { src: uploadUrl(one.file), width: one.width, height: one.height, sizes, sources };
}
