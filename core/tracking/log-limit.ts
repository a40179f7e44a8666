/**
 * At most one log line per key (a client address) per window, so a broken or hostile script cannot flood the log
 * (docs/contract/wire.md §6.1); the lines not written are counted into the next one. Bounded: beyond `maxKeys`,
 * keys whose window has passed are forgotten.
 */
export class LogLimiter {
  private readonly seen = new Map<string, { at: number; suppressed: number }>();
  constructor(
    private readonly windowMs = 60_000,
    private readonly maxKeys = 10_000,
  ) {}

  /** null: stay quiet; otherwise log now, with how many were suppressed for this key since its last line. */
  take(key: string, now: number): { suppressed: number } | null {
    const entry = this.seen.get(key);
    if (entry && now - entry.at < this.windowMs) {
      entry.suppressed++;
      return null;
    }
    if (!entry && this.seen.size >= this.maxKeys) {
      for (const [k, v] of this.seen) if (now - v.at >= this.windowMs) this.seen.delete(k);
      if (this.seen.size >= this.maxKeys) this.seen.delete(this.seen.keys().next().value!);
    }
    this.seen.delete(key); // re-inserted last: the map stays in order of last line
    this.seen.set(key, { at: now, suppressed: 0 });
    return { suppressed: entry?.suppressed ?? 0 };
  }
}
