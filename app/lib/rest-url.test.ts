import { describe, expect, it } from "vitest";
import { withUserLocale } from "./rest-url.ts";

describe("withUserLocale", () => {
  it("adds _locale=user with the right joiner, once", () => {
    expect(withUserLocale("/wp-json/shop/v1/popups/3/events")).toBe("/wp-json/shop/v1/popups/3/events?_locale=user");
    expect(withUserLocale("https://a.example/wp-json/wp/v2/users/7")).toBe("https://a.example/wp-json/wp/v2/users/7?_locale=user");
    expect(withUserLocale("https://a.example/?rest_route=/wp/v2/users/7")).toBe("https://a.example/?rest_route=/wp/v2/users/7&_locale=user");
    expect(withUserLocale("/x?")).toBe("/x?_locale=user");
    expect(withUserLocale("/x?a=1#top")).toBe("/x?a=1&_locale=user#top");
    expect(withUserLocale("/x?_locale=user")).toBe("/x?_locale=user");
  });
});
