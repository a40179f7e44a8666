/**
 * Records a staff write in the audit log (migration 0019, docs/contract/wire.md §2.4 'Audit log'). Every REST route
 * that changes data calls it after the change, passing the transaction when there is one.
 */
import type { RestInput, RestUser } from "./rest.ts";
import type { Queryable } from "../../core/db/client.ts";
import { insertAuditEntry } from "../../core/db/repositories/audit-log.ts";
import { findCustomerProfile } from "../../core/db/repositories/customers.ts";

export interface AuditWhat {
  /** e.g. "create", "update", "delete", "refund", "status" */
  action: string;
  /** e.g. "product", "order", "post", "media", "user", "setting" */
  objectType: string;
  objectId: string | number;
  changes?: Record<string, unknown>;
}

export async function audit(input: RestInput, user: RestUser, what: AuditWhat, db: Queryable = input.services.db): Promise<void> {
  const profile = await findCustomerProfile(db, user.id);
  await insertAuditEntry(db, {
    actorId: user.id,
    actorLabel: profile?.email ?? `user ${user.id}`,
    via: user.via,
    address: input.req.ip ?? null,
    ...what,
  });
}
