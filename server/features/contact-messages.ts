/**
 * The contact form's messages for staff (docs/contract/rest/shop-v1.md 'Contact messages', issue 14):
 * - `GET shop/v1/contact-messages` (`status` all | unread | read, `page`, `per_page`; newest first, WordPress's
 *   paging headers) and `GET shop/v1/contact-messages/{id}`;
 * - `POST|PUT|PATCH shop/v1/contact-messages/{id}` with `{status: "read" | "unread"}` (audited);
 * - `POST shop/v1/contact-messages/{id}/replies` with `{message}`: a reply e-mailed to the visitor and kept with the
 *   message (201 with the message; the same text again within ten minutes is 409 `rest_contact_reply_duplicate`;
 *   audited). Every message's JSON lists its `replies`.
 * All need `manage_woocommerce` (both staff roles): a guest gets 401 `rest_not_logged_in`, a customer 403
 * `rest_forbidden`. Messages come in through the storefront's form only (app/routes/page.server.ts).
 */
import { z } from "zod";
import { json } from "../http/dispatch.ts";
import { restError, type RestInput } from "../http/rest.ts";
import type { Endpoints, Feature } from "./feature.ts";
import { listArgs, pageOutOfRange, pagedJson, parseArgs, requestArgs } from "../http/rest-args.ts";
import { isReply, requireCapability, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import { mailRuntime } from "./mail.ts";
import {
  findContactMessage,
  listContactMessages,
  listContactReplies,
  setContactMessageRead,
  type ContactMessageRecord,
  type ContactReplyRecord,
} from "../../core/db/repositories/contact-messages.ts";
import { CONTACT_REPLY_MAX, replyToContactMessage } from "../../core/commerce/contact-messages.ts";
import { readSiteOptions } from "../../core/commerce/site-options.ts";
import type { Queryable } from "../../core/db/client.ts";

const CAPABILITY = "manage_woocommerce";

const messageId = (raw: string | undefined): number | null => (raw && /^[1-9][0-9]{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null);
const invalidId = () => restError("rest_contact_message_invalid_id", "Invalid message ID.", 404);

const gmt = (d: Date) => d.toISOString().slice(0, 19);

const replyJson = (r: ContactReplyRecord) => ({
  id: r.id,
  message: r.body,
  date_gmt: gmt(r.createdAt),
  author: r.author,
  email: r.email,
});

const messageJson = (m: ContactMessageRecord, replies: readonly ContactReplyRecord[]) => ({
  id: m.id,
  name: m.name,
  email: m.email,
  message: m.message,
  date_gmt: gmt(m.createdAt),
  status: m.readAt ? "read" : "unread",
  read_gmt: m.readAt ? gmt(m.readAt) : null,
  replies: replies.filter((r) => r.messageId === m.id).map(replyJson),
});

/** The messages' JSON, each with its replies (one query for all of them). */
async function withReplies(db: Queryable, messages: readonly ContactMessageRecord[]) {
  const replies = await listContactReplies(
    db,
    messages.map((m) => m.id),
  );
  return messages.map((m) => messageJson(m, replies));
}

const listSchema = z.object({
  page: listArgs.page,
  per_page: listArgs.per_page,
  status: z.enum(["all", "unread", "read"]).default("all"),
});
const updateSchema = z.object({ status: z.enum(["read", "unread"]) });
const replySchema = z.object({ message: z.string().trim().min(1, "Write a reply before sending it.").max(CONTACT_REPLY_MAX) });

function registerEndpoints({ rest }: Endpoints): void {
  rest.register("GET", "shop/v1/contact-messages", async (input) => {
    const refused = await requireCapability(input, CAPABILITY);
    if (refused) return refused;
    const args = parseArgs(listSchema, input.query);
    if (!args.ok) return args.reply;
    const { page, per_page, status } = args.data;
    const { rows, total } = await listContactMessages(input.services.db, { status, limit: per_page, offset: (page - 1) * per_page });
    return pageOutOfRange(total, page, per_page) ?? pagedJson(input.req, await withReplies(input.services.db, rows), total, page, per_page);
  });

  rest.register("GET", "shop/v1/contact-messages/:id", async (input) => {
    const refused = await requireCapability(input, CAPABILITY);
    if (refused) return refused;
    const id = messageId(input.pathParams.id);
    const message = id === null ? null : await findContactMessage(input.services.db, id);
    return message ? json((await withReplies(input.services.db, [message]))[0]) : invalidId();
  });

  const update = async (input: RestInput) => {
    const user = await staffUser(input, CAPABILITY);
    if (isReply(user)) return user;
    const id = messageId(input.pathParams.id);
    if (id === null) return invalidId();
    const { id: _id, ...body } = requestArgs({ query: {}, body: input.body });
    const args = parseArgs(updateSchema, body);
    if (!args.ok) return args.reply;
    const before = await findContactMessage(input.services.db, id);
    if (!before) return invalidId();
    const wasRead = before.readAt !== null;
    const read = args.data.status === "read";
    const saved = wasRead === read ? before : await setContactMessageRead(input.services.db, id, read ? input.services.now() : null);
    if (!saved) return invalidId();
    if (wasRead !== read) {
      await audit(input, user, {
        action: "update",
        objectType: "contact_message",
        objectId: id,
        changes: { status: { from: wasRead ? "read" : "unread", to: args.data.status } },
      });
    }
    return json((await withReplies(input.services.db, [saved]))[0]);
  };
  for (const method of ["POST", "PUT", "PATCH"]) rest.register(method, "shop/v1/contact-messages/:id", update);

  rest.register("POST", "shop/v1/contact-messages/:id/replies", async (input) => {
    const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_create", message: "Sorry, you are not allowed to reply to messages." });
    if (isReply(user)) return user;
    const id = messageId(input.pathParams.id);
    if (id === null) return invalidId();
    const { id: _id, ...body } = requestArgs({ query: {}, body: input.body });
    const args = parseArgs(replySchema, body);
    if (!args.ok) return args.reply;
    const { services } = input;
    const options = await readSiteOptions(services.db, services.config);
    const done = await replyToContactMessage(services.db, {
      messageId: id,
      authorId: user.id,
      text: args.data.message,
      now: services.now(),
      site: { name: options.title, url: services.siteUrl },
    });
    if (!done.ok) {
      if (done.reason === "missing") return invalidId();
      if (done.reason === "duplicate") return restError("rest_contact_reply_duplicate", done.message, 409);
      return restError("rest_invalid_param", done.message, 400, { params: { message: done.message } });
    }
    await audit(input, user, { action: "reply", objectType: "contact_message", objectId: id, changes: { reply: done.replyId } });
    mailRuntime(services.db)?.wake();
    const message = await findContactMessage(services.db, id);
    return message ? json((await withReplies(services.db, [message]))[0], 201) : invalidId();
  });
}

export const contactMessagesFeature: Feature = {
  name: "contact-messages",
  endpoints(endpoints) {
    registerEndpoints(endpoints);
  },
};
