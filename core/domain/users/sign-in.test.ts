import { describe, expect, it } from "vitest";
import { editLinkPath, editScreenPath, safeRedirectPath, signInDestination } from "./sign-in.ts";

const origin = "https://shop.example";

describe("safeRedirectPath", () => {
  it("keeps paths and absolute addresses on this site, as paths", () => {
    expect(safeRedirectPath("/wp-admin/", origin)).toBe("/wp-admin/");
    expect(safeRedirectPath("/shop/?orderby=price#top", origin)).toBe("/shop/?orderby=price#top");
    expect(safeRedirectPath("https://shop.example/wp-admin/post.php?post=3&action=edit", origin)).toBe("/wp-admin/post.php?post=3&action=edit");
  });
  it("refuses other sites and whatever a browser could read as one", () => {
    for (const bad of [
      "https://evil.example/",
      "//evil.example/",
      "/\\evil.example",
      "\\\\evil.example",
      "https://shop.example@evil.example/",
      "http://shop.example/", // another scheme is another origin
      "javascript:alert(1)",
      "data:text/html,x",
      "wp-admin/",
      "/a\nb",
      "",
      undefined,
      ["/"],
    ])
      expect(safeRedirectPath(bad, origin), String(bad)).toBeNull();
  });
});

describe("signInDestination", () => {
  it("sends staff to redirect_to or the dashboard, customers to My account unless redirect_to is outside the admin", () => {
    expect(signInDestination(true, null)).toBe("/wp-admin/");
    expect(signInDestination(true, "/wp-admin/edit/product/3/")).toBe("/wp-admin/edit/product/3/");
    expect(signInDestination(false, "/wp-admin/")).toBe("/my-account/");
    expect(signInDestination(false, "/wp-admin")).toBe("/my-account/");
    expect(signInDestination(false, null)).toBe("/my-account/");
    expect(signInDestination(false, "/cart/")).toBe("/cart/");
  });
  it("builds the edit addresses", () => {
    expect(editScreenPath("product", 12)).toBe("/wp-admin/edit/product/12/");
    expect(editLinkPath("product", 12)).toBe("/wp-admin/post.php?post=12&action=edit");
    expect(editLinkPath("post", 4)).toBe("/wp-admin/post.php?post=4&action=edit&post_type=post");
  });
});
