/**
 * Files uploaded for downloadable products (decision 0041): stored as sent (no image processing) in the private
 * store, under a free `YYYY/MM/name.ext` key recorded in download_files. A download link is the only way back to
 * the bytes (server/features/downloads.ts).
 */
import type { Db } from "../db/client.ts";
import { deleteDownloadFile, findDownloadFile, insertDownloadFile, type DownloadFileRow } from "../db/repositories/downloads.ts";
import { safeBaseName } from "../domain/media/sizes.ts";
import type { MediaSettings } from "./uploads.server.ts";

const MIME: Record<string, string> = {
  pdf: "application/pdf",
  zip: "application/zip",
  epub: "application/epub+zip",
  mp3: "audio/mpeg",
  mp4: "video/mp4",
  txt: "text/plain",
  csv: "text/csv",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

export function downloadMime(key: string): string {
  return MIME[key.slice(key.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

export type DownloadUpload = { ok: true; row: DownloadFileRow } | { ok: false; reason: "empty" | "no-extension"; message: string };

export async function uploadDownloadFile(db: Db, media: MediaSettings, bytes: Buffer, filename: string, authorId: number, now: Date): Promise<DownloadUpload> {
  if (bytes.length === 0) return { ok: false, reason: "empty", message: "The file is empty." };
  const plain = filename.replace(/^.*[\\/]/, "");
  const ext = /\.([A-Za-z0-9]{1,10})$/.exec(plain)?.[1]?.toLowerCase();
  if (!ext) return { ok: false, reason: "no-extension", message: "The file needs an extension (such as .pdf or .zip)." };
  const base = safeBaseName(plain) || "download";
  const folder = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
  for (let n = 0; n <= 50; n++) {
    const key = `${folder}/${n === 0 ? base : `${base}-${n}`}.${ext}`;
    if (await media.downloads.exists(key)) continue;
    const id = await insertDownloadFile(db, { file: key, name: plain.slice(0, 200), mime: downloadMime(key), filesize: bytes.length, authorId });
    if (id === null) continue; // another upload took the name first
    try {
      await media.downloads.put(key, bytes, downloadMime(key));
    } catch (error) {
      await deleteDownloadFile(db, id);
      throw error;
    }
    return { ok: true, row: (await findDownloadFile(db, key))! };
  }
  throw new Error("no free file name for the download");
}
