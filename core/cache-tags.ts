/**
 * Named cache tags: how an in-process cache is cleared in every process of a shop, not only the one that wrote.
 *
 * A cache registers what clearing its tag means here (`onTagChanged`, at module level). A writer calls
 * `tagChanged(tag)` after its transaction commits: that clears the tag in this process at once and hands it to the
 * relays. The shop's one invalidation bus (server/cache/tag-bus.ts, which also carries the page cache's write tags)
 * is the relay: it sends the tag over Redis or PostgreSQL NOTIFY, and in another process calls `clearTagHere(tag)`,
 * which clears without relaying again (decisions 0028 and 0033).
 *
 * Tags today: "pricing-setup" (core/db/repositories/discounts.ts), "site-settings" (core/commerce/site-settings.ts).
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

/** Clears every tag here: the bus lost its connection for a while, so what changed meanwhile is unknown. */
export function clearEveryTagHere(): void {
  for (const tag of clearers.keys()) clearTagHere(tag);
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
