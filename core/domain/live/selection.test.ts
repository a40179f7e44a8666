import { describe, expect, it } from "vitest";
import { toMatchMap } from "./schema.ts";
import { selectMatch } from "./selection.ts";
import { liveMatch } from "./testing.ts";

describe("selectMatch (docs/contract/storefront.md §4)", () => {
  const planned = liveMatch("p", "plan");
  const finished = liveMatch("f", "finished");
  const postponed = liveMatch("x", "postponed");
  const live = liveMatch("l", "live");
  const live2 = liveMatch("l2", "halftime");

  it("without a stored slug picks the first live match and stores it", () => {
    const s = selectMatch(toMatchMap([planned, live, live2]), null);
    expect(s).toEqual({ slug: "l", storage: { kind: "set", slug: "l" }, reload: false, changed: true });
  });
  it("without a live match picks the first one in an allowed stage", () => {
    const s = selectMatch(toMatchMap([postponed, finished, planned]), null);
    expect(s.slug).toBe("f");
    expect(s.storage).toEqual({ kind: "set", slug: "f" });
  });
  it("keeps a stored live match even when another one is first", () => {
    const s = selectMatch(toMatchMap([live, live2]), "l2", "l2");
    expect(s).toEqual({ slug: "l2", storage: { kind: "keep" }, reload: false, changed: false });
  });
  it("keeps a stored planned or finished match when nothing is live", () => {
    expect(selectMatch(toMatchMap([planned, finished]), "f").slug).toBe("f");
    expect(selectMatch(toMatchMap([finished, planned]), "p").storage).toEqual({ kind: "keep" });
  });
  it("switches from a stored non-live match to a live one and clears storage", () => {
    const s = selectMatch(toMatchMap([planned, live]), "p", "p");
    expect(s).toEqual({ slug: "l", storage: { kind: "clear" }, reload: false, changed: true });
  });
  it("reloads and clears when the stored match left the allowed stages", () => {
    const s = selectMatch(toMatchMap([postponed, live]), "x", "x");
    expect(s).toEqual({ slug: null, storage: { kind: "clear" }, reload: true, changed: true });
    expect(selectMatch(toMatchMap([liveMatch("o", "finished_overtime")]), "o").reload).toBe(true);
  });
  it("treats a stored slug missing from the data as no choice", () => {
    const s = selectMatch(toMatchMap([planned]), "gone");
    expect(s.storage).toEqual({ kind: "set", slug: "p" });
  });
  it("selects nothing when no match is allowed", () => {
    expect(selectMatch(toMatchMap([postponed]), null)).toMatchObject({ slug: null, storage: { kind: "keep" }, reload: false });
    expect(selectMatch(toMatchMap([]), "gone").storage).toEqual({ kind: "clear" });
  });
});
