/**
 * Choosing the live-match widget's match (docs/contract/storefront.md §4). Pure: the caller reads the
 * stored slug from localStorage ('matchSlug') and applies `storage` and
 * `reload` from the result; every result with `changed` resets the auto-update.
 */
import type { LiveMatch, MatchMap } from "./schema.ts";
import { isKeptStage } from "./stages.ts";

export type StorageAction = { kind: "keep" } | { kind: "set"; slug: string } | { kind: "clear" };

export interface Selection {
  /** The match to show, or null (no match: placeholder message 0 or the empty text). */
  readonly slug: string | null;
  readonly storage: StorageAction;
  /** The stored match is in a stage outside the allowed set: fetch the data again. */
  readonly reload: boolean;
  /** The selection differs from `previous`. */
  readonly changed: boolean;
}

function firstLive(matches: MatchMap): LiveMatch | undefined {
  for (const m of matches.values()) if (m.live) return m;
  return undefined;
}

function firstKept(matches: MatchMap): LiveMatch | undefined {
  for (const m of matches.values()) if (isKeptStage(m.stage)) return m;
  return undefined;
}

export function selectMatch(matches: MatchMap, storedSlug: string | null, previous: string | null = null): Selection {
  const result = (slug: string | null, storage: StorageAction, reload = false): Selection => ({
    slug,
    storage,
    reload,
    changed: slug !== previous,
  });
  const stored = storedSlug ? matches.get(storedSlug) : undefined;
  if (stored) {
    if (!isKeptStage(stored.stage)) {
      // Postponed, cancelled, finished after extra time …: drop it and ask the server again.
      return result(null, { kind: "clear" }, true);
    }
    if (!stored.live) {
      const live = firstLive(matches);
      if (live) return result(live.slug, { kind: "clear" });
    }
    return result(stored.slug, { kind: "keep" });
  }
  // No stored choice, or it no longer exists in the data.
  const pick = firstLive(matches) ?? firstKept(matches);
  if (!pick) return result(null, storedSlug ? { kind: "clear" } : { kind: "keep" });
  return result(pick.slug, { kind: "set", slug: pick.slug });
}
