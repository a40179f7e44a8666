/**
 * Who may edit or delete which account (docs/contract/rest/people.md 'Rules every route keeps'): WordPress's
 * `edit_user` / `delete_user` meta capabilities with WooCommerce's limit that a shop manager acts on customers only.
 * Pure: the callers pass the roles they read.
 */
import { roleCan } from "../../security/capabilities.ts";

interface Account {
  id: number;
  role: string;
}

/** Oneself; or `edit_users`, where anyone but an administrator may edit customers only. */
export function canEditUser(caller: Account | null, target: Account): boolean {
  if (!caller) return false;
  if (caller.id === target.id) return true;
  if (!roleCan(caller.role, "edit_users")) return false;
  return caller.role === "administrator" || target.role === "customer";
}

/** `delete_users`, with the same customers-only limit for anyone not an administrator. */
export function canDeleteUser(caller: Account | null, target: Account): boolean {
  if (!caller || !roleCan(caller.role, "delete_users")) return false;
  return caller.role === "administrator" || target.role === "customer";
}

/** Plain text as WordPress's sanitize_text_field leaves it: no tags, no control characters, one space between words. */
export function plainText(value: string): string {
  return value
    .replace(/<[^>]*>?/g, "")
    .replace(/[^\P{Cc}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}
