/**
 * Arguments of REST routes, validated the way WordPress's `args` schemas are (docs/contract/wire.md §2.4):
 * a refused value answers 400 `rest_invalid_param` with `data.params` naming each bad parameter (and `data.details`),
 * a missing required one `rest_missing_callback_param`; nothing runs before the arguments pass. Lists take
 * `page`, `per_page` (1–100, default 10), `search`, `order`, `orderby`, `offset`, `context` and answer with
 * `X-WP-Total`, `X-WP-TotalPages` and a `Link` header (`rel="next"`/`"prev"`), which `@wordpress/api-fetch` follows to
 * fetch `per_page=-1` in pages of 100.
 */
import type { Request } from "express";
import { z } from "zod";
import { json, type Reply } from "./dispatch.ts";
import { restError } from "./rest.ts";

/** Query values arrive as strings (or arrays of them): these coerce as WordPress's schema types do. */
export const restInt = (min = 0, max = 2_147_483_647) =>
  z.preprocess((v) => (typeof v === "string" && /^-?\d{1,12}$/.test(v.trim()) ? Number(v) : v), z.number().int().min(min).max(max));
export const restBool = () => z.preprocess((v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" || v === "" ? false : v), z.boolean());
/** `include=1,2,3` or `include[]=1&include[]=2`. */
export const restIdList = (max = 100) => z.preprocess((v) => (typeof v === "string" ? (v === "" ? [] : v.split(",")) : v), z.array(restInt(1)).max(max));
export const restId = () => restInt(1);
/** An ISO 8601 date (`2026-11-01`, midnight UTC) or date-time with an optional offset, as a Date. */
export const restDate = () =>
  z.preprocess((v) => (typeof v === "string" && /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) ? new Date(v) : v), z.date());
/** An amount in the shop's currency as WooCommerce writes it (`25`, `25.5`, `25.50`), as cents. */
export const restAmount = () =>
  z.preprocess(
    (v) => {
      const text = typeof v === "number" ? String(v) : v;
      return typeof text === "string" && /^\d{1,10}(\.\d{1,2})?$/.test(text.trim()) ? Math.round(Number(text) * 100) : NaN;
    },
    z.number({ error: "must be an amount like 25 or 25.50" }).int("must be an amount like 25 or 25.50").min(0, "must be an amount like 25 or 25.50"),
  );

export const CONTEXTS = ["view", "edit", "embed"] as const;
export type RestContext = (typeof CONTEXTS)[number];

/** The list parameters every collection takes; extend with the route's own filters. */
export const listArgs = {
  context: z.enum(CONTEXTS).default("view"),
  page: restInt(1, 1_000_000).default(1),
  per_page: restInt(1, 100).default(10),
  offset: restInt(0, 100_000_000).optional(),
  search: z.string().max(200).optional(),
  order: z.enum(["asc", "desc"]).default("desc"),
};

/**
 * `If-Match: "v"` (or `W/"v"`) → "v"; absent or `*` → undefined (no precondition); anything else → a version that
 * never matches. Products and coupons (docs/contract/rest/products.md 'Two editors at once', orders.md 'Coupons').
 */
export function ifMatchOf(req: Request): string | undefined {
  const header = req.headers["if-match"];
  if (header === undefined || header.trim() === "*") return undefined;
  return /^\s*(?:W\/)?"([^"]*)"\s*$/.exec(header)?.[1] ?? "\0";
}

/** An argument-validation refusal in WordPress's shape. */
export function invalidParams(error: z.ZodError, value?: unknown): Reply {
  const given = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  const params: Record<string, string> = {};
  const details: Record<string, { code: string; message: string }> = {};
  const missing: string[] = [];
  for (const issue of error.issues) {
    const name = String(issue.path[0] ?? (issue.code === "unrecognized_keys" ? issue.keys[0] : "body"));
    if (issue.code === "invalid_type" && issue.path.length === 1 && given[name] === undefined) {
      missing.push(name);
      continue;
    }
    const text = issue.message.replace(/^Invalid input: /, "");
    // A schema's own message may already name the parameter ("regular_price must be …"); zod's defaults do not.
    const message = text.startsWith(name) ? text : `${name} ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
    params[name] ??= message;
    details[name] ??= { code: "rest_invalid_param", message };
  }
  if (missing.length > 0 && Object.keys(params).length === 0) {
    return restError("rest_missing_callback_param", `Missing parameter(s): ${missing.join(", ")}`, 400, { params: missing });
  }
  return restError("rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, 400, { params, details });
}

/** `items[0].children[2].object_id`: where a nested problem is. */
const paramPath = (path: readonly PropertyKey[]) => path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");

/**
 * `rest_invalid_param` naming each top-level parameter, its message starting with the nested field
 * (`action.tiers[1].max must be at least min`), for bodies with objects inside (discount rules, the promotion
 * simulator). `prefix` places the value under a parameter (`["rule"]`). Only top-level problems: as `invalidParams`.
 */
export function nestedInvalidParams(error: z.ZodError, value: unknown, prefix: readonly PropertyKey[] = []): Reply {
  const issues = error.issues.map((i) => ({
    path: [...prefix, ...(i.code === "unrecognized_keys" ? [...i.path, i.keys[0]!] : i.path)],
    message: i.message.replace(/^Invalid input: /, ""),
  }));
  if (prefix.length === 0 && issues.every((i) => i.path.length <= 1)) return invalidParams(error, value);
  const params: Record<string, string> = {};
  for (const issue of issues) params[String(issue.path[0] ?? "body")] ??= `${paramPath(issue.path)} ${issue.message}`;
  return restError("rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, 400, { params });
}

/** Parses `value` with `schema`: the data, or the refusal to answer. */
export function parseArgs<S extends z.ZodType>(schema: S, value: unknown): { ok: true; data: z.output<S> } | { ok: false; reply: Reply } {
  const parsed = schema.safeParse(value ?? {});
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, reply: invalidParams(parsed.error, value) };
}

/** The JSON body merged over the query, as WordPress's `get_params()` reads a request (body wins). */
export function requestArgs(input: { query: Record<string, unknown>; body: unknown; pathParams?: Record<string, string> }): Record<string, unknown> {
  const body = input.body && typeof input.body === "object" && !Array.isArray(input.body) ? (input.body as Record<string, unknown>) : {};
  const { _method: _m, _fields: _f, _envelope: _e, _locale: _l, _wpnonce: _n, rest_route: _r, _embed: _em, ...query } = input.query;
  return { ...query, ...body, ...(input.pathParams ?? {}) };
}

/** A page of a collection with WordPress's paging headers. `total` counts the whole filtered collection. */
export function pagedJson(req: Request, items: unknown[], total: number, page: number, perPage: number): Reply {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const links: string[] = [];
  const url = new URL(req.originalUrl, "http://placeholder");
  const at = (p: number) => {
    url.searchParams.set("page", String(p));
    return `<${req.protocol}://${req.get("host")}${url.pathname}${url.search}>`;
  };
  if (page > 1) links.push(`${at(Math.min(page - 1, totalPages))}; rel="prev"`);
  if (page < totalPages) links.push(`${at(page + 1)}; rel="next"`);
  const headers: Record<string, string> = { "X-WP-Total": String(total), "X-WP-TotalPages": String(totalPages) };
  if (links.length > 0) headers.Link = links.join(", ");
  return json(items, 200, headers);
}

/** WordPress refuses a page past the end of a non-empty collection. */
export function pageOutOfRange(total: number, page: number, perPage: number): Reply | null {
  return total > 0 && page > Math.ceil(total / perPage)
    ? restError("rest_post_invalid_page_number", "The page number requested is larger than the number of pages available.", 400)
    : null;
}
