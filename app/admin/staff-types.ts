/** The parts of `wp/v2/users` (context=edit) and its application passwords (docs/contract/rest/people.md) the Staff screens read. */
export interface RestStaffUser {
  id: number;
  username: string;
  name: string;
  first_name: string;
  last_name: string;
  email: string;
  roles: string[];
  registered_date: string;
}

export interface RestAppPassword {
  uuid: string;
  name: string;
  created: string;
  last_used: string | null;
  last_ip: string | null;
  password?: string;
}

export const STAFF_ROLES = [
  { value: "administrator", label: "Administrator" },
  { value: "shop_manager", label: "Shop manager" },
] as const;

export const roleLabel = (role: string | undefined) =>
  STAFF_ROLES.find((r) => r.value === role)?.label ?? (role === "customer" ? "Customer (no admin)" : (role ?? "–"));

/** "2026-11-27T10:41:31+00:00" or "2026-11-27T10:41:31" (UTC) → "2026-11-27 10:41 UTC". */
export const utcDate = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "Never");
