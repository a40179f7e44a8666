/**
 * Where uploaded files live, behind a small interface (decision 0020): put, get, stream and delete by key, so an
 * S3-compatible store can replace the disk without touching the upload code. Keys are relative paths of the form
 * `2026/11/name-300x300.webp`; nothing outside that form is read or written.
 */
import { createReadStream } from "node:fs";
import { mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";

export interface MediaStorage {
  /** Writes the whole file at once (readers never see half of it). */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  /** The file as a stream with its size, or null when there is none. */
  stream(key: string): Promise<{ body: Readable; size: number } | null>;
  /** Removes the file; a missing one is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

/** `YYYY/MM/name.ext`: the only keys the shop makes (and so the only ones the uploads route may serve). */
export const STORAGE_KEY = /^\d{4}\/\d{2}\/[a-z0-9][a-z0-9-]{0,120}\.(jpg|png|webp|gif|avif)$/;

export function isStorageKey(key: string): boolean {
  return STORAGE_KEY.test(key);
}

/**
 * Keys of the files uploaded for downloadable products (DATA_DIR/woocommerce_uploads, served by no route: decision
 * 0041): any short lowercase extension, since a download may be a PDF, an archive, an e-book or music.
 */
export const DOWNLOAD_KEY = /^\d{4}\/\d{2}\/[a-z0-9][a-z0-9-]{0,120}\.[a-z0-9]{1,10}$/;

/** The files under DATA_DIR/uploads (or, with DOWNLOAD_KEY, DATA_DIR/woocommerce_uploads). */
export class DiskStorage implements MediaStorage {
  constructor(
    readonly root: string,
    private readonly keys: RegExp = STORAGE_KEY,
  ) {}

  private file(key: string): string {
    if (!this.keys.test(key)) throw new Error(`not a storage key: ${key}`);
    return path.join(this.root, ...key.split("/"));
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await writeFile(temp, body, { flag: "wx" });
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.file(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async stream(key: string): Promise<{ body: Readable; size: number } | null> {
    const file = this.file(key);
    try {
      const info = await stat(file);
      if (!info.isFile()) return null;
      return { body: createReadStream(file), size: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await unlink(this.file(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.file(key))).isFile();
    } catch {
      return false;
    }
  }
}
