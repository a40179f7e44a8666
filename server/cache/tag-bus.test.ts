import { afterEach, describe, expect, it } from "vitest";
import { TagBus, type BusTransport } from "./tag-bus.ts";
import { onTagChanged, tagChanged } from "../../core/cache-tags.ts";
import type { CacheTag } from "../../core/db/write-tags.ts";

/** A transport that records what this process sends to the others. */
function recording(): BusTransport & { sent: string[] } {
  const sent: string[] = [];
  return { sent, send: (m) => void sent.push(m), close: async () => undefined };
}

const buses: TagBus[] = [];
function bus(): TagBus {
  const b = new TagBus();
  buses.push(b);
  return b;
}
afterEach(async () => {
  for (const b of buses.splice(0)) await b.close();
});

// Named tags are process-wide (core/cache-tags.ts): each test uses its own name.
let cleared = 0;
onTagChanged("bus-test-a", () => cleared++);
onTagChanged("bus-test-b", () => cleared++);

describe("the invalidation bus", () => {
  it("delivers a write's tags here at once and sends them to the other processes", () => {
    const b = bus();
    const transport = recording();
    b.connect(transport);
    const seen: CacheTag[][] = [];
    b.subscribe((tags) => seen.push([...tags]));
    b.publish(new Set<CacheTag>(["product", "category"]));
    expect(seen).toEqual([["product", "category"]]);
    expect(transport.sent.map((m) => JSON.parse(m) as unknown)).toEqual([{ o: b.origin, t: ["product", "category"] }]);
  });

  it("delivers another process's write tags, ignores its own echo and unknown tags", () => {
    const b = bus();
    const seen: CacheTag[][] = [];
    b.subscribe((tags) => seen.push([...tags]));
    b.receive(JSON.stringify({ o: b.origin, t: ["product"] }));
    b.receive(JSON.stringify({ o: "other", t: ["menu", "orders", 42] }));
    b.receive("not json");
    expect(seen).toEqual([["menu"]]);
  });

  it("carries an in-process cache's named tag to the other processes once connected", () => {
    const b = bus();
    const transport = recording();
    const before = cleared;
    tagChanged("bus-test-a");
    expect(transport.sent).toEqual([]);
    b.connect(transport);
    tagChanged("bus-test-a");
    expect(cleared - before).toBe(2);
    expect(transport.sent.map((m) => JSON.parse(m) as unknown)).toEqual([{ o: b.origin, n: ["bus-test-a"] }]);
  });

  it("clears a named tag another process announced, never its own echo or a malformed name", () => {
    const b = bus();
    const before = cleared;
    b.receive(JSON.stringify({ o: "other", n: ["bus-test-b"] }));
    expect(cleared - before).toBe(1);
    b.receive(JSON.stringify({ o: b.origin, n: ["bus-test-b"] }));
    b.receive(JSON.stringify({ o: "other", n: ["Bus Test B", { tag: "bus-test-b" }] }));
    expect(cleared - before).toBe(1);
  });

  it("after a lost connection clears every write tag and every named cache", () => {
    const b = bus();
    const seen: CacheTag[][] = [];
    b.subscribe((tags) => seen.push([...tags]));
    const before = cleared;
    b.resync();
    expect(seen[0]).toContain("product");
    expect(seen[0]).toContain("settings");
    expect(cleared - before).toBeGreaterThanOrEqual(2);
  });

  it("stops sending named tags once closed", async () => {
    const b = bus();
    const transport = recording();
    b.connect(transport);
    await b.close();
    tagChanged("bus-test-a");
    expect(transport.sent).toEqual([]);
  });
});
