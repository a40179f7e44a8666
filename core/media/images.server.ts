/**
 * What the shop does to an uploaded image, with sharp (decision 0020): recognise it by its bytes, refuse what is not
 * one of the five formats, too many pixels or unreadable, strip its metadata (EXIF, GPS, XMP, comments) by
 * re-encoding it with the orientation applied, and make the sub-sizes (core/domain/media/sizes.ts) in its own
 * format, WebP and AVIF.
 */
import sharp, { type Metadata, type Sharp } from "sharp";
import { EXTENSION, IMAGE_SIZES, fitSize, type UploadMime } from "../domain/media/sizes.ts";

// Every image is read once per request: libvips' operation cache would only hold memory.
sharp.cache(false);

/** The format the bytes say, by their signature (magic bytes), or null. */
export function sniffImage(bytes: Buffer): UploadMime | null {
  const at = (offset: number, text: string) => bytes.length >= offset + text.length && bytes.toString("latin1", offset, offset + text.length) === text;
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (at(0, "\x89PNG\r\n\x1a\n")) return "image/png";
  if (at(0, "GIF87a") || at(0, "GIF89a")) return "image/gif";
  if (at(0, "RIFF") && at(8, "WEBP")) return "image/webp";
  if (at(4, "ftyp") && bytes.length >= 16) {
    // ISO-BMFF: the major brand and the compatible brands after it (box size in the first four bytes).
    const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length, 64);
    for (let o = 8; o + 4 <= boxSize; o += 4) {
      const brand = bytes.toString("latin1", o, o + 4);
      if (brand === "avif" || brand === "avis") return "image/avif";
    }
  }
  return null;
}

/** sharp's name for each format, to check its reading agrees with the signature. */
const SHARP_FORMAT: Record<UploadMime, string> = { "image/jpeg": "jpeg", "image/png": "png", "image/webp": "webp", "image/gif": "gif", "image/avif": "heif" };

export type ImageRefusal = { kind: "not-image"; message: string } | { kind: "too-many-pixels"; message: string } | { kind: "damaged"; message: string };

export interface CleanImage {
  mime: UploadMime;
  width: number;
  height: number;
  /** The image re-encoded without any metadata, orientation applied. */
  body: Buffer;
}

/**
 * Checks `bytes` is an image of an allowed format that sharp reads whole, with at most `maxPixels` pixels, and
 * returns it without metadata. The pixel count is checked from the header, before anything is decoded.
 */
export async function cleanImage(bytes: Buffer, maxPixels: number): Promise<CleanImage | ImageRefusal> {
  const mime = sniffImage(bytes);
  if (!mime) return { kind: "not-image", message: "not a JPEG, PNG, WebP, GIF or AVIF image" };
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { kind: "damaged", message: "the image could not be read" };
  }
  if (meta.format !== SHARP_FORMAT[mime] || (mime === "image/avif" && meta.compression !== "av1")) {
    return { kind: "not-image", message: "the content is not the image its signature announces" };
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!(width > 0 && height > 0)) return { kind: "damaged", message: "the image has no dimensions" };
  if (width * height > maxPixels) return { kind: "too-many-pixels", message: `${width}×${height} pixels is more than ${maxPixels}` };
  try {
    // failOn "warning": a truncated or corrupt image is refused, not stored half grey.
    const { data, info } = await encode(sharp(bytes, { limitInputPixels: maxPixels, failOn: "warning" }).rotate(), mime, "original").toBuffer({
      resolveWithObject: true,
    });
    return { mime, width: info.width, height: info.height, body: data };
  } catch {
    return { kind: "damaged", message: "the image is truncated or damaged" };
  }
}

/** Encoder settings: the original is kept close to what was sent, sub-sizes are tuned for the web. */
function encode(image: Sharp, mime: UploadMime, use: "original" | "size"): Sharp {
  const original = use === "original";
  switch (mime) {
    case "image/jpeg":
      return image.jpeg({ quality: original ? 90 : 82, mozjpeg: true });
    case "image/png":
      return image.png({ compressionLevel: 7 });
    case "image/webp":
      return image.webp({ quality: original ? 90 : 80 });
    case "image/gif":
      return image.gif();
    case "image/avif":
      // effort 2: about as fast as the JPEG at these sizes (decision 0020 has the measurements); the default 4 is 10–20× slower.
      return image.avif({ quality: original ? 60 : 50, effort: 2 });
  }
}

/** The formats each size is made in: the original's, WebP and AVIF (once each). */
export function sizeFormats(mime: UploadMime): UploadMime[] {
  return [...new Set<UploadMime>([mime, "image/webp", "image/avif"])];
}

export interface MadeFile {
  /** `name-300x300.webp` */
  suffix: string;
  mime: UploadMime;
  body: Buffer;
}

export interface MadeSize {
  name: string;
  width: number;
  height: number;
  files: MadeFile[];
}

/** Makes every size the image is large enough for, in every format (core/domain/media/sizes.ts). */
export async function makeSizes(original: Buffer, mime: UploadMime, width: number, height: number): Promise<MadeSize[]> {
  const made: MadeSize[] = [];
  // Two sizes of the same dimensions are the same picture (a square image's 600×600 single and 2× listing).
  const byDimensions = new Map<string, MadeFile[]>();
  for (const [name, spec] of Object.entries(IMAGE_SIZES)) {
    const fit = fitSize(width, height, spec);
    if (!fit) continue;
    const dimensions = `${fit.width}x${fit.height}`;
    let files = byDimensions.get(dimensions);
    if (!files) {
      // "fill" for the uncropped sizes: fitSize already kept the proportions, and the file must be exactly that size.
      const resized = sharp(original, { failOn: "warning" }).resize(fit.width, fit.height, { fit: spec.crop ? "cover" : "fill" });
      files = [];
      for (const format of sizeFormats(mime)) {
        const body = await encode(resized.clone(), format, "size").toBuffer();
        files.push({ suffix: `-${dimensions}.${EXTENSION[format]}`, mime: format, body });
      }
      byDimensions.set(dimensions, files);
    }
    made.push({ name, width: fit.width, height: fit.height, files });
  }
  return made;
}
