/**
 * How a shopper's search term becomes a full-text query (docs/contract/storefront-search.md 'Matching').
 * Pure: the SQL that uses it is core/db/repositories/catalog.ts and search.ts.
 */

/** At most this many words take part (the rest are dropped): bounds the query's cost. */
export const MAX_SEARCH_WORDS = 8;
/** A longer word is cut: no dictionary word is longer (search_words keeps 3–40 characters). */
export const MAX_WORD_LENGTH = 40;
/** Shortest substring matched with ILIKE on the title: below three characters the trigram index cannot help. */
export const MIN_SUBSTRING_LENGTH = 3;

/**
 * The term's words: runs of letters, digits and combining marks in any script, lower-cased. Everything else
 * (quotes, backslashes, `%`, `_`, `*`, `:`, `&`, `|`, `!`, `<`, brackets) only separates words, so no input can
 * reach the tsquery syntax.
 */
export function searchWords(term: string | null | undefined): string[] {
  if (!term) return [];
  const words = term.toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  return words.slice(0, MAX_SEARCH_WORDS).map((w) => Array.from(w).slice(0, MAX_WORD_LENGTH).join(""));
}

/**
 * The `to_tsquery('english', …)` text for the words: each one quoted (the parser and the English stemmer then see it
 * as plain text), all required, and the last one a prefix (`:*`) so a word still being typed matches.
 * Null when there are no words.
 */
export function prefixTsquery(words: readonly string[]): string | null {
  if (!words.length) return null;
  // Words hold no quote (searchWords keeps letters, digits and marks only); the quoting is belt and braces.
  const quoted = words.map((w) => `'${w.replace(/'/g, "''")}'`);
  quoted[quoted.length - 1] += ":*";
  return quoted.join(" & ");
}

/** The LIKE pattern for a substring, with LIKE's own wildcards and escape escaped. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/** The largest edit distance a typo correction may be from the typed word (fewer for short words). */
export function maxTypoDistance(word: string): number {
  const n = Array.from(word).length;
  return n < 3 ? 0 : n === 3 ? 1 : 2;
}
