/**
 * Discount rules edited by staff (docs/contract/rest/shop-v1.md 'Discount rules'): every write is checked with the
 * engine's own schema (`discountRuleSchema`, core/domain/pricing/schema.ts) — the one the storefront's pricing reads
 * the table with — and runs in one transaction with its `onSaved` step (the audit line). The pricing cache of this
 * process is cleared after the commit, so the next cart or product page prices with the change.
 */
import type { z } from "zod";
import type { Db, Queryable } from "../db/client.ts";
import { discountRuleSchema, type DiscountRule } from "../domain/pricing/index.ts";
import { deleteRule, findRuleRow, insertRule, invalidatePricingSetupCache, saveRule, type RuleRow } from "../db/repositories/discounts.ts";

/** The fields of a rule, as the schema names them (anything else in a write is refused, not dropped). */
export const RULE_FIELDS = Object.keys(discountRuleSchema.shape);

export type RuleWrite =
  | { ok: true; row: RuleRow; before: DiscountRule | null }
  | { ok: false; reason: "invalid"; error: z.ZodError }
  | { ok: false; reason: "exists" | "not_found" | "code_changed" | "changed" };

/**
 * A rule's version (docs/contract/rest/shop-v1.md 'Discount rules', two editors): when it last changed, in
 * milliseconds; the REST API answers it as `ETag` and refuses an update whose `If-Match` names another.
 */
export const ruleVersion = (row: RuleRow) => String(row.updatedAt.getTime());

type OnSaved = (tx: Queryable, before: DiscountRule | null, after: DiscountRule) => Promise<void>;

async function committed<T>(db: Db, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(fn);
  } finally {
    invalidatePricingSetupCache();
  }
}

export async function createDiscountRule(db: Db, input: unknown, onSaved: OnSaved): Promise<RuleWrite> {
  const parsed = discountRuleSchema.safeParse(input);
  if (!parsed.success) return { ok: false, reason: "invalid", error: parsed.error };
  const rule = parsed.data as DiscountRule;
  return committed(db, async (tx): Promise<RuleWrite> => {
    if (!(await insertRule(tx, rule))) return { ok: false, reason: "exists" };
    await onSaved(tx, null, rule);
    return { ok: true, row: (await findRuleRow(tx, rule.code))!, before: null };
  });
}

/**
 * Changes the fields given (the rest stay); the whole rule must pass the schema afterwards. The code is its identity.
 * With `expectedVersion`, refused as `changed` when the stored rule is no longer that version (checked under the row lock).
 */
export async function updateDiscountRule(
  db: Db,
  code: string,
  changes: Record<string, unknown>,
  onSaved: OnSaved,
  expectedVersion?: string,
): Promise<RuleWrite> {
  if (changes.code !== undefined && changes.code !== code) return { ok: false, reason: "code_changed" };
  return committed(db, async (tx): Promise<RuleWrite> => {
    const current = await findRuleRow(tx, code, true);
    if (!current) return { ok: false, reason: "not_found" };
    if (expectedVersion !== undefined && expectedVersion !== ruleVersion(current)) return { ok: false, reason: "changed" };
    const parsed = discountRuleSchema.safeParse({ ...current.rule, ...changes, code });
    if (!parsed.success) return { ok: false, reason: "invalid", error: parsed.error };
    const rule = parsed.data as DiscountRule;
    await saveRule(tx, rule);
    await onSaved(tx, current.rule, rule);
    return { ok: true, row: (await findRuleRow(tx, code))!, before: current.rule };
  });
}

export async function deleteDiscountRule(db: Db, code: string, onDeleted: (tx: Queryable, before: DiscountRule) => Promise<void>): Promise<RuleRow | null> {
  return committed(db, async (tx) => {
    const current = await findRuleRow(tx, code, true);
    if (!current || !(await deleteRule(tx, code))) return null;
    await onDeleted(tx, current.rule);
    return current;
  });
}
