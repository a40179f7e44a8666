import { describe, expect, it } from "vitest";
import { COUNT_ENDPOINTS, SHARE_NETWORKS, parseShareCount, shareHref, shareNetwork, validateShareSettings } from "./networks.ts";

describe("share networks", () => {
  it("has the contract's twenty networks, each id once, across the five groups", () => {
    expect(SHARE_NETWORKS).toHaveLength(20);
    expect(new Set(SHARE_NETWORKS.map((n) => n.id)).size).toBe(20);
    expect(new Set(SHARE_NETWORKS.map((n) => n.group))).toEqual(new Set(["social", "messaging", "aggregator", "read-later", "other"]));
  });
  it("builds links with the encoded canonical address and title", () => {
    const page = { url: "https://shop.test/product/a&b/?x=1", title: "Mask & Tie" };
    expect(shareHref(shareNetwork("facebook")!, page)).toBe(
      "https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fshop.test%2Fproduct%2Fa%26b%2F%3Fx%3D1",
    );
    expect(shareHref(shareNetwork("email")!, page)).toBe("mailto:?subject=Mask%20%26%20Tie&body=https%3A%2F%2Fshop.test%2Fproduct%2Fa%26b%2F%3Fx%3D1");
    expect(shareHref(shareNetwork("print")!, page)).toBe("");
    for (const n of SHARE_NETWORKS) if (n.id !== "print") expect(shareHref(n, page)).toContain("shop.test");
  });
  it("marks as counted exactly the networks with a count endpoint", () => {
    expect(
      SHARE_NETWORKS.filter((n) => n.counter)
        .map((n) => n.id)
        .sort(),
    ).toEqual(Object.keys(COUNT_ENDPOINTS).sort());
  });
  it("refuses unknown networks and counters a network does not publish", () => {
    expect(validateShareSettings({ networks: ["facebook", "myspace"], counters: ["vk", "facebook"] })).toEqual([
      'share.networks: unknown network "myspace"',
      "share.counters: Facebook publishes no share count",
    ]);
    expect(validateShareSettings({ networks: ["x"], counters: [] })).toEqual([]);
  });
  it("reads each endpoint's count and nothing else", () => {
    expect(parseShareCount("vk", "VK.Share.count(1, 42);")).toBe(42);
    expect(parseShareCount("odnoklassniki", "ODKL.updateCount('odklcnt0','7');")).toBe(7);
    expect(parseShareCount("pinterest", 'receiveCount({"url":"u","count":3})')).toBe(3);
    expect(parseShareCount("tumblr", '{"meta":{"status":200},"response":{"url":"u","note_count":12}}')).toBe(12);
    expect(parseShareCount("vk", "<html>error</html>")).toBeNull();
    expect(parseShareCount("facebook", '{"count":5}')).toBeNull();
  });
});
