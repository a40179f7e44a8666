/**
 * `media`: the generated product and blog images (an SVG `body`) and uploaded attachments (a stored `file` and its
 * `sizes`, migration 0026). Both are WordPress attachments to the REST API (docs/contract/rest/media.md).
 */
import type { Queryable } from "../client.ts";
import { sql } from "../kysely.ts";
import type { StoredSize } from "../../domain/media/sizes.ts";

export async function findMedia(db: Queryable, slug: string): Promise<{ body: string | null; mime: string; file: string | null } | null> {
  const row = await sql(db).selectFrom("media").select(["body", "mime", "file"]).where("slug", "=", slug).executeTakeFirst();
  return row ?? null;
}

export interface AttachmentRow {
  id: number;
  slug: string;
  mime: string;
  /** The generated SVG (demo images); null for uploads. */
  body: string | null;
  alt: string;
  width: number;
  height: number;
  file: string | null;
  filesize: number | null;
  title: string;
  caption: string;
  description: string;
  authorId: number | null;
  postId: number | null;
  sizes: Record<string, StoredSize>;
  sizesState: "pending" | "done";
  createdAt: Date;
  modifiedAt: Date;
}

const COLUMNS = [
  "id",
  "slug",
  "mime",
  "body",
  "alt",
  "width",
  "height",
  "file",
  "filesize",
  "title",
  "caption",
  "description",
  "author_id",
  "post_id",
  "sizes",
  "sizes_state",
  "created_at",
  "modified_at",
] as const;

type Raw = {
  id: number;
  slug: string;
  mime: string;
  body: string | null;
  alt: string;
  width: number;
  height: number;
  file: string | null;
  filesize: number | null;
  title: string;
  caption: string;
  description: string;
  author_id: number | null;
  post_id: number | null;
  sizes: unknown;
  sizes_state: string;
  created_at: Date | string;
  modified_at: Date | string;
};

const toRow = (r: Raw): AttachmentRow => ({
  id: r.id,
  slug: r.slug,
  mime: r.mime,
  body: r.body,
  alt: r.alt,
  width: r.width,
  height: r.height,
  file: r.file,
  filesize: r.filesize,
  title: r.title,
  caption: r.caption,
  description: r.description,
  authorId: r.author_id,
  postId: r.post_id,
  sizes: (typeof r.sizes === "string" ? JSON.parse(r.sizes) : (r.sizes ?? {})) as Record<string, StoredSize>,
  sizesState: r.sizes_state === "pending" ? "pending" : "done",
  createdAt: new Date(r.created_at),
  modifiedAt: new Date(r.modified_at),
});

export async function findAttachment(db: Queryable, id: number): Promise<AttachmentRow | null> {
  const row = await sql(db).selectFrom("media").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toRow(row as Raw) : null;
}

export interface NewAttachment {
  slug: string;
  file: string;
  mime: string;
  width: number;
  height: number;
  filesize: number;
  title: string;
  alt: string;
  caption: string;
  description: string;
  authorId: number;
  postId: number | null;
}

/** Inserts the attachment with its sizes pending; null when its slug or file is taken (the caller picks another). */
export async function insertAttachment(db: Queryable, a: NewAttachment): Promise<number | null> {
  const row = await sql(db)
    .insertInto("media")
    .values({
      slug: a.slug,
      file: a.file,
      mime: a.mime,
      width: a.width,
      height: a.height,
      filesize: a.filesize,
      title: a.title,
      alt: a.alt,
      caption: a.caption,
      description: a.description,
      author_id: a.authorId,
      post_id: a.postId,
      sizes_state: "pending",
    })
    .onConflict((oc) => oc.doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function setAttachmentSizes(db: Queryable, id: number, sizes: Record<string, StoredSize>, state: "pending" | "done"): Promise<void> {
  await sql(db)
    .updateTable("media")
    .set({ sizes: JSON.stringify(sizes), sizes_state: state, modified_at: new Date() })
    .where("id", "=", id)
    .execute();
}

export interface AttachmentChanges {
  title?: string;
  alt?: string;
  caption?: string;
  description?: string;
  postId?: number | null;
}

export async function updateAttachment(db: Queryable, id: number, c: AttachmentChanges): Promise<void> {
  await sql(db)
    .updateTable("media")
    .set({
      ...(c.title !== undefined ? { title: c.title } : {}),
      ...(c.alt !== undefined ? { alt: c.alt } : {}),
      ...(c.caption !== undefined ? { caption: c.caption } : {}),
      ...(c.description !== undefined ? { description: c.description } : {}),
      ...(c.postId !== undefined ? { post_id: c.postId } : {}),
      modified_at: new Date(),
    })
    .where("id", "=", id)
    .execute();
}

/** Deletes the attachment and every reference to it (products' galleries, variation and post images). */
export async function deleteAttachmentRow(db: Queryable, id: number): Promise<void> {
  const q = sql(db);
  await q.updateTable("variations").set({ image_id: null }).where("image_id", "=", id).execute();
  await q.updateTable("posts").set({ image_id: null }).where("image_id", "=", id).execute();
  await db.query(`UPDATE products SET image_ids = array_remove(image_ids, $1) WHERE $1 = ANY(image_ids)`, [id]);
  await q.deleteFrom("media").where("id", "=", id).execute();
}

export interface AttachmentFilter {
  search?: string;
  mimePrefix?: string;
  mimeType?: string;
  parents?: number[];
  include?: number[];
  orderby: "date" | "id" | "title" | "slug" | "modified" | "include";
  order: "asc" | "desc";
  limit: number;
  offset: number;
}

export async function listAttachments(db: Queryable, f: AttachmentFilter): Promise<{ rows: AttachmentRow[]; total: number }> {
  let query = sql(db).selectFrom("media");
  if (f.search) {
    const like = `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb("title", "ilike", like), eb("slug", "ilike", like), eb("alt", "ilike", like), eb("caption", "ilike", like)]));
  }
  if (f.mimePrefix) query = query.where("mime", "like", `${f.mimePrefix}/%`);
  if (f.mimeType) query = query.where("mime", "=", f.mimeType);
  if (f.parents && f.parents.length > 0) {
    const ids = f.parents.filter((p) => p > 0);
    const orphans = f.parents.includes(0);
    query = query.where((eb) => eb.or([...(ids.length ? [eb("post_id", "in", ids)] : []), ...(orphans ? [eb("post_id", "is", null)] : [])]));
  }
  if (f.include && f.include.length > 0) query = query.where("id", "in", f.include);
  const column = { date: "created_at", id: "id", title: "title", slug: "slug", modified: "modified_at", include: "id" } as const;
  const [rows, count] = await Promise.all([
    query.select(COLUMNS).orderBy(column[f.orderby], f.order).orderBy("id", f.order).limit(f.limit).offset(f.offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  let list = rows.map((r) => toRow(r as Raw));
  if (f.orderby === "include" && f.include) list = list.sort((a, b) => f.include!.indexOf(a.id) - f.include!.indexOf(b.id));
  return { rows: list, total: Number(count.n) };
}
