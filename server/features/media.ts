/**
 * `wp/v2/media` in WordPress's shape (docs/contract/rest/media.md) and the uploaded files at
 * `/wp-content/uploads/YYYY/MM/…`. Uploads follow the post-process contract of @wordpress/api-fetch's media
 * middleware (docs/contract/wire.md §2.6): when the sub-sizes fail, a 5xx carrying `X-WP-Upload-Attachment-ID`,
 * then `POST media/{id}/post-process` retries and `DELETE media/{id}?force=true` gives up.
 */
import type { Request, Response, NextFunction } from "express";
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, restNoRoute, type RestInput } from "../http/rest.ts";
import { listArgs, pagedJson, pageOutOfRange, parseArgs, requestArgs, restBool, restIdList, restInt } from "../http/rest-args.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import { readUpload } from "../http/upload-body.ts";
import type { Feature } from "./feature.ts";
import type { AppServices } from "../services.ts";
import { escapeHtml } from "../../core/domain/text/html.ts";
import { IMAGE_SIZES, fitSize, mimeOfFile, uploadUrl, UPLOADS_PATH } from "../../core/domain/media/sizes.ts";
import { findAttachment, listAttachments, updateAttachment, type AttachmentRow } from "../../core/db/repositories/media.ts";
import { createSubsizes, deleteAttachment, uploadImage } from "../../core/media/uploads.server.ts";
import { isStorageKey } from "../../core/media/storage.server.ts";
import { roleCan } from "../../core/security/capabilities.ts";

const CANNOT_CREATE = { code: "rest_cannot_create", message: "Sorry, you are not allowed to upload media on this site." };
const CANNOT_EDIT = { code: "rest_cannot_edit", message: "Sorry, you are not allowed to edit this post." };
const CANNOT_DELETE = { code: "rest_cannot_delete", message: "Sorry, you are not allowed to delete this post." };

const origin = (req: Request) => `${req.protocol}://${req.get("host")}`;
const wpDate = (d: Date) => d.toISOString().slice(0, 19);
const basename = (file: string) => file.slice(file.lastIndexOf("/") + 1);
const paragraph = (text: string) => (text === "" ? "" : `<p>${escapeHtml(text).replace(/\n/g, "<br />\n")}</p>\n`);

/** An attachment as WordPress's REST API answers it (WP_REST_Attachments_Controller::prepare_item_for_response). */
function attachmentJson(row: AttachmentRow, req: Request, context: "view" | "edit" | "embed"): Record<string, unknown> {
  const site = origin(req);
  const source = row.file ? `${site}${uploadUrl(row.file)}` : `${site}/media/${row.slug}.svg`;
  const sizes: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(row.sizes)) {
    sizes[name] = {
      file: basename(s.file),
      width: s.width,
      height: s.height,
      filesize: s.filesize,
      mime_type: s.mime_type,
      source_url: `${site}${uploadUrl(s.file)}`,
      sources: Object.fromEntries(
        Object.entries(s.sources).map(([mime, f]) => [mime, { file: basename(f.file), filesize: f.filesize, source_url: `${site}${uploadUrl(f.file)}` }]),
      ),
    };
  }
  sizes.full = { file: basename(row.file ?? `${row.slug}.svg`), width: row.width, height: row.height, mime_type: row.mime, source_url: source };
  const edit = context === "edit";
  const base = {
    id: row.id,
    date: wpDate(row.createdAt),
    slug: row.slug,
    type: "attachment",
    link: source, // no attachment pages: WordPress (6.4+) then sends the attachment's link to its file
    title: { rendered: escapeHtml(row.title), ...(edit ? { raw: row.title } : {}) },
    author: row.authorId ?? 0,
    caption: { rendered: paragraph(row.caption), ...(edit ? { raw: row.caption } : {}) },
    alt_text: row.alt,
    media_type: "image",
    mime_type: row.mime,
    media_details: {
      width: row.width,
      height: row.height,
      file: row.file ?? `${row.slug}.svg`,
      filesize: row.filesize ?? row.body?.length ?? 0,
      sizes,
      image_meta: {},
    },
    source_url: source,
  };
  if (context === "embed") return base;
  return {
    ...base,
    date_gmt: wpDate(row.createdAt),
    guid: { rendered: source, ...(edit ? { raw: source } : {}) },
    modified: wpDate(row.modifiedAt),
    modified_gmt: wpDate(row.modifiedAt),
    status: "inherit",
    comment_status: "closed",
    ping_status: "closed",
    template: "",
    meta: {},
    description: { rendered: paragraph(row.description), ...(edit ? { raw: row.description } : {}) },
    post: row.postId,
    ...(edit ? { missing_image_sizes: row.file ? missingSizes(row) : [] } : {}),
  };
}

/** The sizes the image is large enough for but does not have (WordPress's `missing_image_sizes`). */
function missingSizes(row: AttachmentRow): string[] {
  return Object.entries(IMAGE_SIZES)
    .filter(([name, spec]) => !row.sizes[name] && fitSize(row.width, row.height, spec))
    .map(([name]) => name);
}

const text = (max: number) => z.string().max(max);
/** The editable fields, on upload and update. `title` may come as a string or WordPress's {raw}. */
const fieldArgs = {
  title: z.union([text(200), z.object({ raw: text(200) }).transform((t) => t.raw)]).optional(),
  alt_text: text(500).optional(),
  caption: z.union([text(2000), z.object({ raw: text(2000) }).transform((t) => t.raw)]).optional(),
  description: z.union([text(10_000), z.object({ raw: text(10_000) }).transform((t) => t.raw)]).optional(),
  post: z.union([restInt(0), z.null()]).optional(),
};
const fieldsSchema = z.object(fieldArgs);

const listSchema = z.object({
  ...listArgs,
  media_type: z.enum(["image", "video", "text", "application", "audio"]).optional(),
  mime_type: z
    .string()
    .regex(/^[a-z]+\/[a-z0-9.+-]+$/)
    .max(100)
    .optional(),
  // Attached to these posts; 0 = attached to none.
  parent: z.preprocess((v) => (typeof v === "string" ? (v === "" ? [] : v.split(",")) : v), z.array(restInt(0)).max(100)).optional(),
  include: restIdList().optional(),
  orderby: z.enum(["date", "id", "title", "slug", "modified", "include"]).default("date"),
});

const idOf = (input: RestInput): number | null => {
  const raw = input.pathParams.id ?? "";
  return /^\d{1,9}$/.test(raw) ? Number(raw) : null;
};
const invalidId = () => restError("rest_post_invalid_id", "Invalid post ID.", 404);

async function editable(input: RestInput, guestError: { code: string; message: string }, capability: "upload_files" | "delete_posts") {
  const id = idOf(input);
  if (id === null) return restNoRoute();
  const user = await staffUser(input, capability, guestError);
  if (isReply(user)) return user;
  const row = await findAttachment(input.services.db, id);
  if (!row) return invalidId();
  // Another author's attachment takes edit_others_posts, as WordPress's edit_post meta capability maps it.
  if (row.authorId !== user.id && !roleCan(user.role, "edit_others_posts")) return restError(guestError.code, guestError.message, 403);
  return { user, row };
}

async function upload(input: RestInput): Promise<Reply> {
  const user = await staffUser(input, "upload_files", CANNOT_CREATE);
  if (isReply(user)) {
    input.req.resume(); // the body is not wanted
    return user;
  }
  const { services, req } = input;
  const body = await readUpload(req, services.media.maxBytes);
  if (!body.ok) return restError(body.code, body.message, body.status);
  const args = parseArgs(fieldsSchema, { ...requestArgs({ query: input.query, body: {} }), ...body.fields });
  if (!args.ok) return args.reply;
  const result = await uploadImage(
    services.db,
    services.media,
    body.bytes,
    {
      filename: body.filename,
      title: args.data.title,
      alt: args.data.alt_text,
      caption: args.data.caption,
      description: args.data.description,
      postId: args.data.post || null,
    },
    user.id,
    services.now(),
  );
  if (!result.ok) {
    if (result.reason === "empty") return restError("rest_upload_no_data", "No data supplied.", 400);
    if (result.reason === "too-many-pixels")
      return restError("rest_upload_file_too_big", `The image has too many pixels (${result.message}). Scale it down and try again.`, 400);
    if (result.reason === "damaged") return restError("rest_upload_sideload_error", `The image could not be read: ${result.message}.`, 400);
    return restError("rest_upload_invalid_type", "Sorry, you are not allowed to upload this file type.", 400);
  }
  const row = (await findAttachment(services.db, result.id))!;
  await audit(input, user, {
    action: "create",
    objectType: "media",
    objectId: row.id,
    changes: { file: row.file, mime_type: row.mime, width: row.width, height: row.height, filesize: row.filesize, sizes: Object.keys(row.sizes) },
  });
  if (result.sizesError !== null) {
    return json(
      {
        code: "rest_upload_image_error",
        message: "The image was uploaded but its sizes could not be created. Retry with POST /wp/v2/media/{id}/post-process.",
        data: { status: 500, attachment_id: row.id },
      },
      500,
      { "X-WP-Upload-Attachment-ID": String(row.id) },
    );
  }
  // WordPress sends the id header on every upload (before making the sizes), success included.
  return json(attachmentJson(row, req, "edit"), 201, { Location: `${origin(req)}/wp-json/wp/v2/media/${row.id}`, "X-WP-Upload-Attachment-ID": String(row.id) });
}

async function postProcess(input: RestInput): Promise<Reply> {
  const found = await editable(input, CANNOT_EDIT, "upload_files");
  if (isReply(found)) return found;
  const args = parseArgs(z.object({ action: z.enum(["create-image-subsizes"]) }), requestArgs(input));
  if (!args.ok) return args.reply;
  const done = await createSubsizes(input.services.db, input.services.media, found.row.id, input.services.logger);
  if (!done.ok) {
    if (done.reason === "missing") return restError("rest_post_process_failed", done.message, 400);
    return restError("rest_upload_image_error", "The sizes of the image could not be created.", 500, { attachment_id: found.row.id });
  }
  const row = (await findAttachment(input.services.db, found.row.id))!;
  await audit(input, found.user, { action: "post-process", objectType: "media", objectId: row.id, changes: { sizes: Object.keys(row.sizes) } });
  return json(attachmentJson(row, input.req, "edit"));
}

async function update(input: RestInput): Promise<Reply> {
  const found = await editable(input, CANNOT_EDIT, "upload_files");
  if (isReply(found)) return found;
  const { id: _id, ...given } = requestArgs(input);
  const args = parseArgs(fieldsSchema.extend({ context: listArgs.context }), given);
  if (!args.ok) return args.reply;
  const { title, alt_text, caption, description, post } = args.data;
  const changes = { title, alt: alt_text, caption, description, postId: post === undefined ? undefined : post || null };
  await updateAttachment(input.services.db, found.row.id, changes);
  const before = found.row;
  const diff: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    diff[key] = { from: before[key as keyof typeof before] ?? null, to: value };
  }
  await audit(input, found.user, { action: "update", objectType: "media", objectId: found.row.id, changes: diff });
  return json(attachmentJson((await findAttachment(input.services.db, found.row.id))!, input.req, "edit"));
}

async function remove(input: RestInput): Promise<Reply> {
  const found = await editable(input, CANNOT_DELETE, "delete_posts");
  if (isReply(found)) return found;
  const args = parseArgs(z.object({ force: restBool().default(false) }), { force: requestArgs(input).force });
  if (!args.ok) return args.reply;
  if (!args.data.force) return restError("rest_trash_not_supported", "The post does not support trashing. Set 'force=true' to delete.", 501);
  const previous = attachmentJson(found.row, input.req, "edit");
  await deleteAttachment(input.services.db, input.services.media, found.row);
  await audit(input, found.user, { action: "delete", objectType: "media", objectId: found.row.id, changes: { file: found.row.file } });
  return json({ deleted: true, previous });
}

async function readOne(input: RestInput): Promise<Reply> {
  const id = idOf(input);
  if (id === null) return restNoRoute();
  const args = parseArgs(z.object({ context: listArgs.context }), { context: requestArgs(input).context });
  if (!args.ok) return args.reply;
  if (args.data.context === "edit") {
    const user = await staffUser(input, "upload_files", { code: "rest_forbidden_context", message: "Sorry, you are not allowed to edit this post." });
    if (isReply(user)) return user;
  }
  const row = await findAttachment(input.services.db, id);
  return row ? json(attachmentJson(row, input.req, args.data.context)) : invalidId();
}

async function list(input: RestInput): Promise<Reply> {
  const args = parseArgs(listSchema, requestArgs(input));
  if (!args.ok) return args.reply;
  const a = args.data;
  if (a.context === "edit") {
    const user = await staffUser(input, "upload_files", {
      code: "rest_forbidden_context",
      message: "Sorry, you are not allowed to edit posts in this post type.",
    });
    if (isReply(user)) return user;
  }
  // Every attachment is an image today: another media_type matches nothing.
  if (a.media_type && a.media_type !== "image") return pagedJson(input.req, [], 0, a.page, a.per_page);
  const { rows, total } = await listAttachments(input.services.db, {
    search: a.search,
    mimePrefix: a.media_type,
    mimeType: a.mime_type,
    parents: a.parent,
    include: a.include,
    orderby: a.orderby,
    order: a.order,
    limit: a.per_page,
    offset: a.offset ?? (a.page - 1) * a.per_page,
  });
  const outOfRange = pageOutOfRange(total, a.page, a.per_page);
  if (outOfRange) return outOfRange;
  return pagedJson(
    input.req,
    rows.map((r) => attachmentJson(r, input.req, a.context)),
    total,
    a.page,
    a.per_page,
  );
}

/** The stored files, at stable URLs, cached for good; only the image types this shop writes, never sniffed. */
function uploadsHandler(services: AppServices) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.path.slice(UPLOADS_PATH.length);
    const mime = mimeOfFile(key);
    if (!isStorageKey(key) || !mime) return res.status(404).type("text/plain").send("Not found");
    try {
      const found = await services.media.storage.stream(key);
      if (!found) return res.status(404).type("text/plain").send("Not found");
      res.setHeader("Content-Type", mime);
      res.setHeader("Content-Length", String(found.size));
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
      if (req.method === "HEAD") {
        found.body.destroy();
        return void res.end();
      }
      found.body.on("error", (error) => (res.headersSent ? res.destroy(error) : next(error)));
      found.body.pipe(res);
    } catch (error) {
      next(error);
    }
  };
}

export const mediaFeature: Feature = {
  name: "media",
  endpoints({ rest }) {
    rest.register("GET", "wp/v2/media", list);
    rest.register("POST", "wp/v2/media", upload);
    rest.register("GET", "wp/v2/media/:id", readOne);
    for (const method of ["POST", "PUT", "PATCH"]) rest.register(method, "wp/v2/media/:id", update);
    rest.register("DELETE", "wp/v2/media/:id", remove);
    rest.register("POST", "wp/v2/media/:id/post-process", postProcess);
  },
  routes(app, services) {
    app.get(`${UPLOADS_PATH}{*file}`, uploadsHandler(services));
  },
};
