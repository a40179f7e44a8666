import { describe, expect, it } from "vitest";
import { accessExpiresFrom, downloadSettingsOf, downloadUrl, grantsForLine, privateKeyOf, refusal, staffGrants } from "./permissions.ts";

const now = new Date("2026-11-28T12:00:00Z");
const files = [
  { id: "a", name: "Pattern", file: "https://shop.example/wp-content/uploads/woocommerce_uploads/2026/11/p.pdf" },
  { id: "b", name: "Guide", file: "https://cdn.example/guide.pdf" },
];

describe("grantsForLine", () => {
  it("grants each file, the limit counted per unit and the expiry from now", () => {
    expect(grantsForLine(7, 2, { files, limit: 3, expiryDays: 10 }, now)).toEqual([
      { downloadId: "a", productId: 7, downloadsRemaining: 6, accessExpires: new Date("2026-12-08T12:00:00Z") },
      { downloadId: "b", productId: 7, downloadsRemaining: 6, accessExpires: new Date("2026-12-08T12:00:00Z") },
    ]);
  });

  it("leaves unlimited and never-expiring permissions open (-1; an expiry of 0 is never, as WooCommerce reads it)", () => {
    const [g] = grantsForLine(7, 1, { files, limit: -1, expiryDays: -1 }, now);
    expect(g).toMatchObject({ downloadsRemaining: null, accessExpires: null });
    expect(grantsForLine(7, 1, { files, limit: 0, expiryDays: 0 }, now)[0]).toMatchObject({ downloadsRemaining: 0, accessExpires: null });
  });
});

describe("refusal", () => {
  it("allows a permission with downloads left before it expires", () => {
    expect(refusal({ downloadsRemaining: 1, accessExpires: new Date(now.getTime() + 1) }, now)).toBeNull();
    expect(refusal({ downloadsRemaining: null, accessExpires: null }, now)).toBeNull();
  });
  it("refuses one used up or expired (at the instant of expiry too)", () => {
    expect(refusal({ downloadsRemaining: 0, accessExpires: null }, now)).toBe("used-up");
    expect(refusal({ downloadsRemaining: 5, accessExpires: now }, now)).toBe("expired");
    expect(refusal({ downloadsRemaining: 0, accessExpires: new Date(0) }, now)).toBe("expired");
  });
});

describe("stored settings and links", () => {
  it("reads the product's details, unset values as unlimited", () => {
    expect(downloadSettingsOf({ files: [{ name: "x", file: "f" }], downloadLimit: 4 })).toEqual({
      files: [{ id: "1", name: "x", file: "f" }],
      limit: 4,
      expiryDays: -1,
    });
    expect(downloadSettingsOf(null)).toEqual({ files: [], limit: -1, expiryDays: -1 });
  });
  it("knows a private upload by its path, and builds WooCommerce's link", () => {
    expect(privateKeyOf(files[0]!.file)).toBe("2026/11/p.pdf");
    expect(privateKeyOf(files[1]!.file)).toBeNull();
    expect(downloadUrl({ productId: 3, orderKey: "wc_order_k", userEmail: "a+b@x.example", downloadId: "a" })).toBe(
      "/?download_file=3&order=wc_order_k&email=a%2Bb%40x.example&key=a",
    );
  });
});

describe("staff's grants and expiry dates", () => {
  const now = new Date("2026-11-28T10:00:00Z");
  const settings = {
    files: [
      { id: "a", name: "A", file: "x" },
      { id: "b", name: "B", file: "y" },
    ],
    limit: 3,
    expiryDays: 2,
  };
  it("grants one file or all of them, as a purchase of one unit from now", () => {
    expect(staffGrants(7, settings, "b", now)).toEqual([
      { downloadId: "b", productId: 7, downloadsRemaining: 3, accessExpires: new Date("2026-11-30T10:00:00Z") },
    ]);
    expect(staffGrants(7, settings, undefined, now)?.map((g) => g.downloadId)).toEqual(["a", "b"]);
    expect(staffGrants(7, settings, "nope", now)).toBeNull();
    expect(staffGrants(7, { ...settings, files: [] }, undefined, now)).toBeNull();
  });
  it("reads a day as through its end (UTC), a date-time as given, and refuses what is no date", () => {
    expect(accessExpiresFrom("2026-12-01")).toEqual(new Date("2026-12-01T23:59:59Z"));
    expect(accessExpiresFrom("2026-12-01T08:30:00")).toEqual(new Date("2026-12-01T08:30:00Z"));
    expect(accessExpiresFrom("2026-12-01T08:30:00+02:00")).toEqual(new Date("2026-12-01T06:30:00Z"));
    expect(accessExpiresFrom("2026-02-30")).toBeNull();
    expect(accessExpiresFrom("soon")).toBeNull();
  });
});
