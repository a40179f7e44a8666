/**
 * The audit log over REST (docs/contract/wire.md §2.4 'Audit log'): `GET /wp-json/shop/v1/audit-log`, administrators
 * only (`manage_options`), newest first, paged like every collection, filterable by `object_type`, `object_id` and
 * `actor`.
 */
import { z } from "zod";
import { listArgs, pagedJson, parseArgs, requestArgs, restInt } from "../http/rest-args.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import type { Feature } from "./feature.ts";
import { listAuditEntries } from "../../core/db/repositories/audit-log.ts";

const auditArgs = z.object({
  page: listArgs.page,
  per_page: listArgs.per_page,
  object_type: z
    .string()
    .regex(/^[a-z_]{1,40}$/)
    .optional(),
  object_id: z.string().max(60).optional(),
  actor: restInt(1).optional(),
});

export const auditFeature: Feature = {
  name: "audit",
  endpoints({ rest }) {
    rest.register("GET", "shop/v1/audit-log", async (input) => {
      const user = await staffUser(input, "manage_options");
      if (isReply(user)) return user;
      const args = parseArgs(auditArgs, requestArgs(input));
      if (!args.ok) return args.reply;
      const { page, per_page, object_type, object_id, actor } = args.data;
      const { rows, total } = await listAuditEntries(input.services.db, {
        objectType: object_type,
        objectId: object_id,
        actorId: actor,
        limit: per_page,
        offset: (page - 1) * per_page,
      });
      const items = rows.map((r) => ({
        id: r.id,
        date_gmt: r.at.toISOString(),
        actor: { id: r.actorId, label: r.actorLabel, via: r.via },
        action: r.action,
        object: { type: r.objectType, id: r.objectId },
        changes: r.changes,
        address: r.address,
      }));
      return pagedJson(input.req, items, total, page, per_page);
    });
  },
};
