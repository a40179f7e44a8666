// Pure recovery decision: given where a client says it is and what the broker still holds, can we replay
// exactly the missed publications? The rule is "all of them, in order, or say recovered:false" — a silent
// gap is the one outcome that must never happen.
import type { Publication, StreamPosition } from "./protocol.ts";

export interface HistorySnapshot {
  /** Top of the stream: offset of the last publication ever made in this epoch (0 when none). */
  top: StreamPosition;
  /** Retained publications with offset > the requested one, oldest first (already TTL-filtered). */
  publications: Publication[];
}

export type RecoveryOutcome = { recovered: true; publications: Publication[]; from: number } | { recovered: false };

/**
 * @param since the client's position. An empty epoch means "any epoch" (centrifuge-js sends none when it
 *   has none), matching Centrifugo.
 */
export function decideRecovery(since: StreamPosition, history: HistorySnapshot): RecoveryOutcome {
  const { top } = history;
  if (since.epoch !== "" && since.epoch !== top.epoch) return { recovered: false };
  if (since.offset > top.offset) return { recovered: false }; // a position from the future: stream was reset
  if (since.offset === top.offset) return { recovered: true, publications: [], from: since.offset };
  const pubs = history.publications.filter((p) => p.offset > since.offset);
  // Contiguity check rather than trusting counts: history may have been trimmed by size or expired by TTL.
  let expected = since.offset + 1;
  for (const p of pubs) {
    if (p.offset !== expected) return { recovered: false };
    expected++;
  }
  if (expected - 1 !== top.offset) return { recovered: false };
  return { recovered: true, publications: pubs, from: since.offset };
}

/** Drop publications older than the TTL. History is append-ordered, so this keeps a suffix. */
export function withinTtl(pubs: Publication[], ttlSeconds: number, now: number): Publication[] {
  if (ttlSeconds <= 0) return pubs;
  const cutoff = now - ttlSeconds * 1000;
  const first = pubs.findIndex((p) => p.time >= cutoff);
  return first === -1 ? [] : first === 0 ? pubs : pubs.slice(first);
}
