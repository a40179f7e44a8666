/**
 * Uploads as use cases (docs/contract/rest/media.md, decision 0020): store a checked, metadata-free original, make
 * its sub-sizes (retryable: a failure leaves the attachment with its sizes pending, WordPress's post-process
 * contract, docs/contract/wire.md §2.6), delete an attachment with all its files. Nothing is written before the
 * bytes are known to be an acceptable image, and a failed step removes what it wrote.
 */
import type { Db, Queryable } from "../db/client.ts";
import type { ShopLogger } from "../commerce/services.ts";
import { deleteAttachmentRow, findAttachment, insertAttachment, setAttachmentSizes, type AttachmentRow, type NewAttachment } from "../db/repositories/media.ts";
import { EXTENSION, safeBaseName, type StoredSize } from "../domain/media/sizes.ts";
import { cleanImage, makeSizes } from "./images.server.ts";
import type { MediaStorage } from "./storage.server.ts";

export interface MediaSettings {
  storage: MediaStorage;
  /** Where the files of downloadable products go: a store no route serves (decision 0041). */
  downloads: MediaStorage;
  /** MEDIA_MAX_BYTES: the largest upload accepted. */
  maxBytes: number;
  /** MEDIA_MAX_PIXELS: the most pixels (width × height) an upload may have, checked before decoding it. */
  maxPixels: number;
  /**
   * Test-only fault (MEDIA_FAIL_SUBSIZES, refused in production by core/config/env.server.ts): the number of
   * sub-size attempts still to fail, counted down by each attempt of any attachment.
   */
  faults: { failSubsizes: number };
  /** IMPORT_ALLOWED_ADDRESSES: private addresses (IPs or CIDR ranges) images may still be fetched from by address. */
  remoteAllowAddresses?: readonly string[];
}

export type UploadRefusal = { ok: false; reason: "not-image" | "too-many-pixels" | "damaged" | "empty"; message: string };

export interface UploadFields {
  filename: string;
  title?: string;
  alt?: string;
  caption?: string;
  description?: string;
  postId?: number | null;
}

export type UploadResult = UploadRefusal | { ok: true; id: number; sizesError: string | null };

/** The stored files of an attachment: its original and every format of every size. */
export function attachmentFiles(row: Pick<AttachmentRow, "file" | "sizes">): string[] {
  const files = new Set<string>();
  if (row.file) files.add(row.file);
  for (const size of Object.values(row.sizes)) {
    files.add(size.file);
    for (const source of Object.values(size.sources ?? {})) files.add(source.file);
  }
  return [...files];
}

/** `name-300x300` would collide with another upload's size file: such a name gets `-img` appended. */
const uploadBase = (filename: string) => safeBaseName(filename).replace(/(-\d+x\d+)$/, "$1-img");

export async function uploadImage(db: Db, media: MediaSettings, bytes: Buffer, fields: UploadFields, authorId: number, now: Date): Promise<UploadResult> {
  if (bytes.length === 0) return { ok: false, reason: "empty", message: "The file is empty." };
  const clean = await cleanImage(bytes, media.maxPixels);
  if ("kind" in clean) return { ok: false, reason: clean.kind, message: clean.message };

  const folder = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
  const base = uploadBase(fields.filename);
  const ext = EXTENSION[clean.mime];
  const title =
    fields.title ??
    fields.filename
      .replace(/^.*[\\/]/, "")
      .replace(/\.[^.]*$/, "")
      .slice(0, 200);
  // Reserve a name no attachment and no file has (the row's UNIQUE slug and file settle races), then write.
  let id: number | null = null;
  let file = "";
  for (let n = 0; id === null; n++) {
    if (n > 50) throw new Error("no free file name for the upload");
    const name = n === 0 ? base : `${base}-${n}`;
    file = `${folder}/${name}.${ext}`;
    if (await media.storage.exists(file)) continue;
    const row: NewAttachment = {
      slug: name,
      file,
      mime: clean.mime,
      width: clean.width,
      height: clean.height,
      filesize: clean.body.length,
      title,
      alt: fields.alt ?? "",
      caption: fields.caption ?? "",
      description: fields.description ?? "",
      authorId,
      postId: fields.postId ?? null,
    };
    id = await insertAttachment(db, row);
  }
  try {
    await media.storage.put(file, clean.body, clean.mime);
  } catch (error) {
    await db.transaction((tx) => deleteAttachmentRow(tx, id));
    throw error;
  }
  const sizes = await createSubsizes(db, media, id);
  return { ok: true, id, sizesError: sizes.ok ? null : sizes.message };
}

/**
 * Makes (or makes again) the sub-sizes of an uploaded attachment. On failure the files this attempt wrote are
 * removed and the attachment keeps its sizes pending, so the call can be retried.
 */
export async function createSubsizes(
  db: Queryable,
  media: MediaSettings,
  id: number,
  logger?: ShopLogger,
): Promise<{ ok: true } | { ok: false; reason: "missing" | "failed"; message: string }> {
  const row = await findAttachment(db, id);
  if (!row?.file) return { ok: false, reason: "missing", message: "The attachment has no uploaded file." };
  const written: string[] = [];
  try {
    if (media.faults.failSubsizes > 0) {
      media.faults.failSubsizes--;
      throw new Error("MEDIA_FAIL_SUBSIZES: a test-only fault");
    }
    const original = await media.storage.get(row.file);
    if (!original) throw new Error(`the original ${row.file} is missing`);
    const made = await makeSizes(original, row.mime as keyof typeof EXTENSION, row.width, row.height);
    const stem = row.file.replace(/\.[a-z0-9]+$/, "");
    const sizes: Record<string, StoredSize> = {};
    for (const size of made) {
      const sources: StoredSize["sources"] = {};
      for (const f of size.files) {
        const key = `${stem}${f.suffix}`;
        if (!written.includes(key)) {
          await media.storage.put(key, f.body, f.mime);
          written.push(key);
        }
        sources[f.mime] = { file: key, filesize: f.body.length };
      }
      const own = sources[row.mime]!;
      sizes[size.name] = { file: own.file, width: size.width, height: size.height, mime_type: row.mime, filesize: own.filesize, sources };
    }
    // Files of an earlier attempt that this one did not make again (none today: sizes depend only on the image).
    const stale = attachmentFiles({ file: null, sizes: row.sizes }).filter((f) => !written.includes(f));
    await setAttachmentSizes(db, id, sizes, "done");
    for (const f of stale) await media.storage.delete(f);
    return { ok: true };
  } catch (error) {
    logger?.warn("media: sub-sizes failed", { id, error });
    // This attempt may have overwritten an earlier attempt's files: both go, and the sizes are pending again.
    for (const f of new Set([...written, ...attachmentFiles({ file: null, sizes: row.sizes })])) await media.storage.delete(f).catch(() => {});
    await setAttachmentSizes(db, id, {}, "pending");
    return { ok: false, reason: "failed", message: error instanceof Error ? error.message : String(error) };
  }
}

/** Deletes the attachment (and its references), then its files. */
export async function deleteAttachment(db: Db, media: MediaSettings, row: AttachmentRow): Promise<void> {
  await db.transaction((tx) => deleteAttachmentRow(tx, row.id));
  for (const f of attachmentFiles(row)) await media.storage.delete(f);
}
