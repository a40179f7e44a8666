import { describe, expect, it } from "vitest";
import { LogLimiter } from "./log-limit.ts";

describe("LogLimiter", () => {
  it("lets one line a minute through per key and counts the rest into the next", () => {
    const limit = new LogLimiter(60_000);
    expect(limit.take("203.0.113.1", 0)).toEqual({ suppressed: 0 });
    expect(limit.take("203.0.113.1", 1_000)).toBeNull();
    expect(limit.take("203.0.113.1", 59_999)).toBeNull();
    expect(limit.take("203.0.113.2", 2_000)).toEqual({ suppressed: 0 }); // another client is not held back
    expect(limit.take("203.0.113.1", 60_000)).toEqual({ suppressed: 2 });
    expect(limit.take("203.0.113.1", 60_001)).toBeNull();
  });

  it("stays bounded", () => {
    const limit = new LogLimiter(60_000, 3);
    for (const k of ["a", "b", "c", "d"]) expect(limit.take(k, 0)).not.toBeNull();
    // "a" was forgotten to make room, so it may log again; "d" may not.
    expect(limit.take("a", 1)).toEqual({ suppressed: 0 });
    expect(limit.take("d", 1)).toBeNull();
  });
});
