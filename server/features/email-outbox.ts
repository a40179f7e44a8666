/**
 * The mail outbox for staff (docs/contract/rest/shop-v1.md 'E-mail outbox', docs/contract/admin.md 'Outbox',
 * decision 0032):
 * - `GET shop/v1/email-outbox` (`status` all | queued | sent | failed, `page`, `per_page`; newest first, WordPress's
 *   paging headers) and `GET shop/v1/email-outbox/{id}` (with its text; a password-reset link's key is hidden);
 * - `POST shop/v1/email-outbox/{id}/retry`: a failed e-mail back in the queue, the sender woken (one UPDATE that
 *   matches only a failed row: of two clicks at once one wins, the other is 409 and nothing is sent twice);
 * - `POST shop/v1/email-outbox/{id}/resend`: a new queued copy of a sent e-mail (201; 409 while a copy waits);
 * - `DELETE shop/v1/email-outbox/{id}`: the row gone (unknown: 404; held by a sender right now: 409
 *   `rest_email_sending`, nothing deleted), audited;
 * - `POST shop/v1/email-outbox/test` with `{to}`: a test e-mail queued (201 with it) and the sender woken, so its
 *   result (sent, or the SMTP server's refusal) shows in `GET …/{id}` a moment later (decision 0044); a bad address is
 *   400 at `to`; a few a minute per staff user, then 429 `rest_email_test_limited`; audited;
 * - `GET shop/v1/email-outbox/status`: the SMTP set-up of the environment (host, port, TLS; never the password),
 *   the sender in use, the last delivery and the last delivery error, the counts and the retry policy.
 * All need `manage_woocommerce` (both staff roles): a guest gets 401 `rest_not_logged_in`, a customer 403
 * `rest_forbidden`. Retry, resend, delete and the test e-mail are audited.
 */
import { z } from "zod";
import { json } from "../http/dispatch.ts";
import { restError } from "../http/rest.ts";
import type { Endpoints, Feature } from "./feature.ts";
import { listArgs, pageOutOfRange, pagedJson, parseArgs, requestArgs } from "../http/rest-args.ts";
import { isReply, requireCapability, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import {
  deleteOutboxEmail,
  findOutboxMessage,
  listOutboxMessages,
  outboxSummary,
  resendSentEmail,
  retryFailedEmail,
  waitingCopyOf,
  type OutboxMessage,
} from "../../core/db/repositories/email-outbox.ts";
import { ACCOUNT_LINK_MAIL_TTL_MS, MAIL_DEFAULTS, accountLinkExpired } from "../../core/mail/outbox-sender.ts";
import { PASSWORD_RESET_KIND } from "../../core/mail/templates/password-reset.ts";
import { emailKindLabel } from "../../core/domain/mail/email-kinds.ts";
import { isDeliverableAddress } from "../../core/mail/address.ts";
import { sendTestEmail } from "../../core/commerce/test-email.ts";
import { readSiteOptions } from "../../core/commerce/site-options.ts";

import { mailRuntime, mailSettings } from "./mail.ts";

const CAPABILITY = "manage_woocommerce";

const messageId = (raw: string | undefined): number | null => (raw && /^[1-9][0-9]{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null);
const invalidId = () => restError("rest_email_invalid_id", "Invalid e-mail ID.", 404);
const gmt = (d: Date | null) => (d ? d.toISOString().slice(0, 19) : null);

/** An e-mail with a link into an account (a password key) is never sent twice, nor retried once the link has expired. */
const carriesAccountLink = (m: Pick<OutboxMessage, "kind">) => ACCOUNT_LINK_MAIL_TTL_MS[m.kind] !== undefined;

function messageJson(m: OutboxMessage, now: Date) {
  return {
    id: m.id,
    kind: m.kind,
    kind_label: emailKindLabel(m.kind),
    to: m.toAddress,
    subject: m.subject,
    status: m.status,
    attempts: m.attempts,
    last_error: m.lastError,
    last_error_gmt: gmt(m.lastErrorAt),
    date_gmt: gmt(m.createdAt),
    sent_gmt: gmt(m.sentAt),
    failed_gmt: gmt(m.failedAt),
    next_attempt_gmt: m.status === "queued" ? gmt(m.nextAttemptAt) : null,
    order_id: m.orderId,
    resend_of: m.resendOf,
    requested_gmt: gmt(m.requestedAt),
    can_retry: m.status === "failed" && !accountLinkExpired(m, now),
    can_resend: m.status === "sent" && !carriesAccountLink(m),
    /** A sender holds it right now (it may be on its way): it cannot be deleted until that ends. */
    sending: m.status === "queued" && m.claimedUntil !== null && m.claimedUntil > now,
  };
}

/** An account link's key works for the customer alone: staff see that a link was sent, not the link. */
const shownBody = (m: OutboxMessage & { body: string }) => (carriesAccountLink(m) ? m.body.replace(/([?&]key=)[^&\s]+/g, "$1(hidden)") : m.body);

const listSchema = z.object({
  page: listArgs.page,
  per_page: listArgs.per_page,
  status: z.enum(["all", "queued", "sent", "failed"]).default("all"),
  search: z.string().trim().max(200).optional(),
});

const testSchema = z.object({
  to: z
    .string()
    .trim()
    .min(1, "Enter the address to send the test e-mail to.")
    .max(254)
    .refine(isDeliverableAddress, "Enter one e-mail address, such as name@example.com."),
});

const STATUS_WORDS = { queued: "waiting to be sent", sent: "already sent", failed: "failed" } as const;

function registerEndpoints({ rest }: Endpoints): void {
  rest.register("GET", "shop/v1/email-outbox", async (input) => {
    const refused = await requireCapability(input, CAPABILITY);
    if (refused) return refused;
    const args = parseArgs(listSchema, input.query);
    if (!args.ok) return args.reply;
    const { page, per_page, status, search } = args.data;
    const { rows, total } = await listOutboxMessages(input.services.db, { status, search, limit: per_page, offset: (page - 1) * per_page });
    const now = input.services.now();
    return (
      pageOutOfRange(total, page, per_page) ??
      pagedJson(
        input.req,
        rows.map((m) => messageJson(m, now)),
        total,
        page,
        per_page,
      )
    );
  });

  rest.register("GET", "shop/v1/email-outbox/status", async (input) => {
    const refused = await requireCapability(input, CAPABILITY);
    if (refused) return refused;
    const runtime = mailRuntime(input.services.db);
    const envFrom = runtime?.envFrom ?? "";
    const [summary, settings] = await Promise.all([outboxSummary(input.services.db), mailSettings(input.services, envFrom)]);
    return json({
      smtp: runtime?.smtp ? { configured: true, ...runtime.smtp } : { configured: false, host: null, port: null, secure: false, authenticated: false },
      sender_running: runtime?.running ?? false,
      problem: runtime?.problem ?? null,
      mail_from: envFrom,
      sender: settings.from,
      turned_off: settings.turnedOff,
      last_sent_gmt: gmt(summary.lastSentAt),
      last_error: summary.lastError ? { id: summary.lastError.id, message: summary.lastError.message, date_gmt: gmt(summary.lastError.at) } : null,
      counts: summary.counts,
      retry_policy: {
        max_attempts: MAIL_DEFAULTS.maxAttempts,
        first_delay_seconds: MAIL_DEFAULTS.baseDelayMs / 1000,
        max_delay_seconds: MAIL_DEFAULTS.maxDelayMs / 1000,
      },
    });
  });

  rest.register("GET", "shop/v1/email-outbox/:id(\\d+)", async (input) => {
    const refused = await requireCapability(input, CAPABILITY);
    if (refused) return refused;
    const id = messageId(input.pathParams.id);
    const message = id === null ? null : await findOutboxMessage(input.services.db, id);
    return message ? json({ ...messageJson(message, input.services.now()), body: shownBody(message) }) : invalidId();
  });

  rest.register("POST", "shop/v1/email-outbox/:id(\\d+)/retry", async (input) => {
    const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_edit", message: "Sorry, you are not allowed to send e-mails again." });
    if (isReply(user)) return user;
    const id = messageId(input.pathParams.id);
    const before = id === null ? null : await findOutboxMessage(input.services.db, id);
    if (!before || id === null) return invalidId();
    if (accountLinkExpired(before, input.services.now()))
      return restError(
        "rest_email_expired",
        before.kind === PASSWORD_RESET_KIND
          ? "This password-reset e-mail's link has expired (it works for an hour): send the customer a new one from their screen instead."
          : "This e-mail's link to set a password has expired (it works for a day): send the customer a password reset from their screen instead.",
        409,
      );
    const retried = await retryFailedEmail(input.services.db, id);
    if (!retried) {
      const now = (await findOutboxMessage(input.services.db, id)) ?? before;
      return restError("rest_email_not_failed", `Only a failed e-mail can be retried: this one is ${STATUS_WORDS[now.status]}.`, 409, {
        email_status: now.status,
      });
    }
    await audit(input, user, { action: "retry", objectType: "email", objectId: id, changes: { status: { from: "failed", to: "queued" } } });
    mailRuntime(input.services.db)?.wake();
    return json(messageJson(retried, input.services.now()));
  });

  rest.register("DELETE", "shop/v1/email-outbox/:id(\\d+)", async (input) => {
    const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_delete", message: "Sorry, you are not allowed to delete e-mails." });
    if (isReply(user)) return user;
    const id = messageId(input.pathParams.id);
    const before = id === null ? null : await findOutboxMessage(input.services.db, id);
    if (!before || id === null) return invalidId();
    const done = await deleteOutboxEmail(input.services.db, id);
    if (done === "missing") return invalidId();
    if (done === "sending") return restError("rest_email_sending", `E-mail #${id} is being sent right now and cannot be deleted. Try again in a moment.`, 409);
    await audit(input, user, { action: "delete", objectType: "email", objectId: id, changes: { kind: before.kind, status: before.status } });
    return json({ deleted: true, previous: messageJson(before, input.services.now()) });
  });

  rest.register("POST", "shop/v1/email-outbox/test", async (input) => {
    const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_create", message: "Sorry, you are not allowed to send e-mails." });
    if (isReply(user)) return user;
    const args = parseArgs(testSchema, requestArgs({ query: {}, body: input.body }));
    if (!args.ok) return args.reply;
    const { services } = input;
    const options = await readSiteOptions(services.db, services.config);
    const done = await sendTestEmail(services.db, {
      to: args.data.to,
      userId: user.id,
      sentBy: `staff user #${user.id}`,
      now: services.now(),
      site: { name: options.title, url: services.siteUrl },
    });
    if (!done.ok) return restError("rest_email_test_limited", done.message, 429);
    await audit(input, user, { action: "test", objectType: "email", objectId: done.id, changes: { to: args.data.to } });
    mailRuntime(services.db)?.wake();
    const queued = await findOutboxMessage(services.db, done.id);
    return queued ? json(messageJson(queued, services.now()), 201) : invalidId();
  });

  rest.register("POST", "shop/v1/email-outbox/:id(\\d+)/resend", async (input) => {
    const user = await staffUser(input, CAPABILITY, { code: "rest_cannot_create", message: "Sorry, you are not allowed to send e-mails again." });
    if (isReply(user)) return user;
    const id = messageId(input.pathParams.id);
    const original = id === null ? null : await findOutboxMessage(input.services.db, id);
    if (!original || id === null) return invalidId();
    if (carriesAccountLink(original))
      return restError(
        "rest_email_cannot_resend",
        original.kind === PASSWORD_RESET_KIND
          ? "A password-reset e-mail is never sent twice: its link works once and for an hour. Send the customer a new one from their screen."
          : "This e-mail carries a link to set a password, which is never sent twice. Send the customer a password reset from their screen.",
        409,
      );
    if (original.status !== "sent")
      return restError("rest_email_not_sent", `Only a sent e-mail can be resent: this one is ${STATUS_WORDS[original.status]}.`, 409, {
        email_status: original.status,
      });
    const copy = await resendSentEmail(input.services.db, id);
    if (!copy) {
      const waiting = await waitingCopyOf(input.services.db, id);
      return restError("rest_email_copy_waiting", `A copy of this e-mail is already waiting to be sent${waiting ? ` (#${waiting})` : ""}.`, 409, {
        copy_id: waiting,
      });
    }
    await audit(input, user, { action: "resend", objectType: "email", objectId: id, changes: { copy: copy.id } });
    mailRuntime(input.services.db)?.wake();
    return json(messageJson(copy, input.services.now()), 201);
  });
}

export const emailOutboxFeature: Feature = {
  name: "email-outbox",
  endpoints(endpoints) {
    registerEndpoints(endpoints);
  },
};
