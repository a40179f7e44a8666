/**
 * The typo side of product search (docs/contract/storefront-search.md 'Typos'): the search_words dictionary the
 * 0028 triggers fill, pg_trgm similarity and fuzzystrmatch's edit distance. Both extensions are loaded on PGlite
 * and PostgreSQL alike (core/db/client.ts, 0028_product_search.sql).
 */
import type { Db, Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import { listedIn } from "./catalog.ts";

/**
 * The dictionary word nearest `word` within `maxDistance` edits (a transposition counts two), or null when the word
 * is itself in the dictionary or nothing is near. Ties go to the most similar by trigrams, then alphabetically.
 */
export async function nearestWord(db: Queryable, word: string, maxDistance: number): Promise<string | null> {
  if (maxDistance <= 0) return null;
  const known = await sql(db).selectFrom("search_words").select("word").where("word", "=", word).executeTakeFirst();
  if (known) return null;
  const len = Array.from(word).length;
  // The length window keeps the edit-distance scan to words that could be within reach.
  const row = await sql(db)
    .selectFrom("search_words")
    .select("word")
    .where(raw`length(word)`, ">=", len - maxDistance)
    .where(raw`length(word)`, "<=", len + maxDistance)
    .where(raw<number>`levenshtein_less_equal(word, ${word}, ${maxDistance})`, "<=", maxDistance)
    .orderBy(raw`levenshtein_less_equal(word, ${word}, ${maxDistance})`)
    .orderBy(raw`similarity(word, ${word})`, "desc")
    .orderBy("word")
    .limit(1)
    .executeTakeFirst();
  return row?.word ?? null;
}

/** The product search results may show (catalog_visibility: catalog.ts) whose title is nearest the term by trigram word similarity (the GIN trigram index), or null. */
export async function nearestProduct(db: Queryable, term: string): Promise<{ id: number; name: string; slug: string } | null> {
  const row = await sql(db)
    .selectFrom("products as p")
    .select(["p.id", "p.name", "p.slug"])
    .where((eb) => listedIn(eb, "search"))
    .where(raw<boolean>`${term} <% p.name`)
    .orderBy(raw`word_similarity(${term}, p.name)`, "desc")
    .orderBy("p.total_sales", "desc")
    .orderBy("p.id")
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** PostgreSQL's "canceling statement due to statement timeout". */
export const isStatementTimeout = (error: unknown): boolean => (error as { code?: string } | null)?.code === "57014";

/**
 * Runs a search's reads in one transaction with a time budget: `SET LOCAL statement_timeout` on a PostgreSQL
 * server (the statement is cancelled, `isStatementTimeout` tells), and a lower trigram threshold for
 * `nearestProduct`. PGlite has no timer to cancel a statement with (measured: statement_timeout is accepted and
 * ignored), so there the cost is bounded by the term's caps alone (core/domain/catalog/search.ts).
 */
export function withSearchBudget<T>(db: Db, timeoutMs: number, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    if (db.kind === "postgres") await tx.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
    await tx.query("SET LOCAL pg_trgm.word_similarity_threshold = 0.3");
    return fn(tx);
  });
}
