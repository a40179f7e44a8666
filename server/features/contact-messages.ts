/**
 * The contact form's messages for staff (docs/contract/rest/shop-v1.md 'Contact messages', issue 14):
 * - `GET shop/v1/contact-messages` (`status` all | unread | read, `page`, `per_page`; newest first, WordPress's
 *   paging headers) and `GET shop/v1/contact-messages/{id}`;
 * - `POST|PUT|PATCH shop/v1/contact-messages/{id}` with `{status: "read" | "unread"}` (audited).
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
import { findContactMessage, listContactMessages, setContactMessageRead, type ContactMessageRecord } from "../../core/db/repositories/contact-messages.ts";

const CAPABILITY = "manage_woocommerce";

const messageId = (raw: string | undefined): number | null => (raw && /^[1-9][0-9]{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null);
const invalidId = () => restError("rest_contact_message_invalid_id", "Invalid message ID.", 404);

const messageJson = (m: ContactMessageRecord) => ({
  id: m.id,
  name: m.name,
  email: m.email,
  message: m.message,
  date_gmt: m.createdAt.toISOString().slice(0, 19),
  status: m.readAt ? "read" : "unread",
  read_gmt: m.readAt ? m.readAt.toISOString().slice(0, 19) : null,
});

const listSchema = z.object({
  page: listArgs.page,
  per_page: listArgs.per_page,
  status: z.enum(["all", "unread", "read"]).default("all"),
});
const updateSchema = z.object({ status: z.enum(["read", "unread"]) });

function registerEndpoints({ rest }: Endpoints): void {
  rest.register("GET", "shop/v1/contact-messages", async (input) => {
    const refused = await requireCapability(input, CAPABILITY);
    if (refused) return refused;
    const args = parseArgs(listSchema, input.query);
    if (!args.ok) return args.reply;
    const { page, per_page, status } = args.data;
    const { rows, total } = await listContactMessages(input.services.db, { status, limit: per_page, offset: (page - 1) * per_page });
    return pageOutOfRange(total, page, per_page) ?? pagedJson(input.req, rows.map(messageJson), total, page, per_page);
  });

  rest.register("GET", "shop/v1/contact-messages/:id", async (input) => {
    const refused = await requireCapability(input, CAPABILITY);
    if (refused) return refused;
    const id = messageId(input.pathParams.id);
    const message = id === null ? null : await findContactMessage(input.services.db, id);
    return message ? json(messageJson(message)) : invalidId();
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
    return json(messageJson(saved));
  };
  for (const method of ["POST", "PUT", "PATCH"]) rest.register(method, "shop/v1/contact-messages/:id", update);
}

export const contactMessagesFeature: Feature = {
  name: "contact-messages",
  endpoints(endpoints) {
    registerEndpoints(endpoints);
  },
};
