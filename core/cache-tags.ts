/**
 * Named cache tags: how an in-process cache is cleared in every process of a shop, not only the one that wrote.
 *
 * A cache registers what clearing its tag means here (`onTagChanged`, at module level). A writer calls
 * `tagChanged(tag)` after its transaction commits: that clears the tag in this process at once and hands it to the
 * relays (server/invalidation-bus.ts publishes it over Redis when REDIS_URL is set), and a relay that receives a tag
 * from another process calls `clearTagHere(tag)`, which clears without relaying again.
 *
 * Tags today: "pricing-setup" (core/db/repositories/discounts.ts), "site-settings" (core/commerce/site-settings.ts).
 * A tag is a plain string; a page cache can use tags such as "product:42" the same way (decision 0033).
 */
import { registerSingleton } from "./singletons.ts";

const clearers = new Map<string, Set<() => void>>();
const relays = new Set<(tag: string) => void>();
registerSingleton("cache tags");

/** Registers how `tag` is cleared in this process. */
export function onTagChanged(tag: string, clear: () => void): void {
  let set = clearers.get(tag);
  if (!set) clearers.set(tag, (set = new Set()));
  set.add(clear);
}

/** Clears `tag` in this process only (a relay calls this for a tag another process announced). */
export function clearTagHere(tag: string): void {
  for (const clear of clearers.get(tag) ?? []) clear();
}

/** Clears `tag` here and announces it to every other process (call after the write committed). */
export function tagChanged(tag: string): void {
  clearTagHere(tag);
  for (const relay of relays) relay(tag);
}

/** Adds a relay that carries announced tags to other processes; returns its removal. */
export function addTagRelay(relay: (tag: string) => void): () => void {
  relays.add(relay);
  return () => relays.delete(relay);
}
