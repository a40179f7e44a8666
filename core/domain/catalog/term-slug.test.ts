import { describe, expect, it } from "vitest";
import { attributeSlugProblem, plainName, sanitizeSlug } from "./term-slug.ts";

describe("term slugs", () => {
  it("makes WordPress-like slugs", () => {
    expect(sanitizeSlug("Bow Ties")).toBe("bow-ties");
    expect(sanitizeSlug("  Crème brûlée & co. ")).toBe("creme-brulee-co");
    expect(sanitizeSlug("<b>Bold</b> name")).toBe("bold-name");
    expect(sanitizeSlug("a__b--c")).toBe("a__b-c");
    expect(sanitizeSlug("!!!")).toBe("");
  });

  it("refuses attribute slugs WooCommerce refuses", () => {
    expect(attributeSlugProblem("color")).toBeNull();
    expect(attributeSlugProblem("x".repeat(29))).toMatch(/too long/);
    expect(attributeSlugProblem("type")).toMatch(/reserved/);
  });

  it("strips markup from names", () => {
    expect(plainName(" <script>x</script>Silk ")).toBe("xSilk");
  });
});
