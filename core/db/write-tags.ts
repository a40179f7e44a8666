/**
 * What a write changes, for the page cache (docs/decisions/0028-page-cache.md): every statement goes through the one
 * `Db` (client.ts), so the tags are read off the statement itself here, and no repository, use case or entry point
 * can forget to invalidate. A statement outside a transaction reports its tags when it has run (it is committed); a
 * transaction reports the tags of all its statements once, after COMMIT, and nothing when it rolls back.
 */
import type { Db, Queryable } from "./client.ts";

/** What a cached page can depend on. */
export const CACHE_TAGS = ["product", "category", "settings", "menu", "popup", "discount", "content"] as const;
export type CacheTag = (typeof CACHE_TAGS)[number];

/**
 * The tables whose rows a storefront page shows, and the tags a write to each invalidates. A table not named here
 * (sessions, carts, orders, outboxes, logs) is on no cached page; the order tables change stock and sales through
 * `products` and `variations`, which are.
 */
const TABLE_TAGS: Readonly<Record<string, readonly CacheTag[]>> = {
  products: ["product"],
  variations: ["product"],
  product_terms: ["product", "category"],
  product_links: ["product"],
  product_attributes: ["product", "category"],
  reviews: ["product"],
  media: ["product", "content"],
  terms: ["category", "content"],
  catalog_counts: ["category"],
  posts: ["content"],
  post_terms: ["content"],
  comments: ["content"],
  settings: ["settings"],
  discount_rules: ["discount"],
  menus: ["menu"],
  menu_items: ["menu"],
  popups: ["popup"],
};

// Kysely quotes names ("products"); hand-written SQL may not, or may name the schema (public.products).
const WRITE = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+(?:only\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;
const MAYBE_WRITE = /\b(?:insert|update|delete|truncate)\b/i;

/** The tags a statement's writes invalidate (none for a read; `for update` and `do update set` name no table here). */
export function tagsOfStatement(text: string, into: Set<CacheTag> = new Set()): Set<CacheTag> {
  if (!MAYBE_WRITE.test(text)) return into;
  for (const m of text.matchAll(WRITE)) for (const tag of TABLE_TAGS[m[1]!.toLowerCase()] ?? []) into.add(tag);
  return into;
}

/** The same database, reporting the tags of each committed write to `publish`. */
export function reportingWrites(db: Db, publish: (tags: ReadonlySet<CacheTag>) => void): Db {
  const report = (tags: Set<CacheTag>) => {
    if (tags.size) publish(tags);
  };
  const collecting = (q: Queryable, tags: Set<CacheTag>): Queryable => ({
    query<T>(text: string, params?: readonly unknown[]) {
      tagsOfStatement(text, tags);
      return q.query<T>(text, params);
    },
    exec(text: string) {
      tagsOfStatement(text, tags);
      return q.exec(text);
    },
  });
  const over = (d: Db, lane: () => Db): Db => ({
    kind: d.kind,
    async query<T>(text: string, params?: readonly unknown[]) {
      const rows = await d.query<T>(text, params);
      report(tagsOfStatement(text));
      return rows;
    },
    async exec(text: string) {
      await d.exec(text);
      report(tagsOfStatement(text));
    },
    async transaction(fn) {
      let tags = new Set<CacheTag>();
      const result = await d.transaction((tx) => {
        tags = new Set(); // a retried attempt starts again
        return fn(collecting(tx, tags));
      });
      report(tags);
      return result;
    },
    // The order lane's writes (orders, stock taken) report too: it is wrapped the same way.
    get orderLane() {
      return lane();
    },
    close: () => d.close(),
  });
  const wrapped: Db = over(db, () => lane);
  const lane: Db = db.orderLane === db ? wrapped : over(db.orderLane, () => lane);
  return wrapped;
}
