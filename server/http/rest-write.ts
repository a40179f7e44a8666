/**
 * Small helpers shared by the shop/v1 staff write routes (docs/contract/rest/shop-v1.md): the JSON body as an object,
 * unknown fields refused by name, and the audit's before/after of the fields that changed.
 */
import { z } from "zod";
import type { Reply } from "./dispatch.ts";
import { invalidParams } from "./rest-args.ts";
import type { RestInput } from "./rest.ts";

/** The request's JSON (or form) body as an object, or the refusal naming `body`. */
export function bodyObject(input: RestInput): { ok: true; body: Record<string, unknown> } | { ok: false; reply: Reply } {
  const body = input.body ?? {};
  if (typeof body === "object" && !Array.isArray(body)) return { ok: true, body: body as Record<string, unknown> };
  return { ok: false, reply: invalidParams(new z.ZodError([{ code: "custom", path: ["body"], message: "must be a JSON object", input: body }]), {}) };
}

/** Refuses fields the schema does not know (a typo must not be dropped without a word). `id` may always come. */
export function unknownFields(body: Record<string, unknown>, known: readonly string[]): Reply | null {
  const unknown = Object.keys(body).filter((k) => k !== "id" && !known.includes(k));
  if (unknown.length === 0) return null;
  return invalidParams(new z.ZodError(unknown.map((k) => ({ code: "custom" as const, path: [k], message: "is not a known field", input: body[k] }))), body);
}

/** `{field: {from, to}}` for each top-level field whose value changed. */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown>): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of new Set([...Object.keys(before ?? {}), ...Object.keys(after)])) {
    const from = before?.[key];
    const to = after[key];
    if (JSON.stringify(from) !== JSON.stringify(to)) out[key] = { from: from ?? null, to: to ?? null };
  }
  return out;
}
