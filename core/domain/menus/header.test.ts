import { describe, expect, it } from "vitest";
import { featuredProductIds } from "./header.ts";
import type { DisplayMenuItem } from "./menus.ts";

const item = (id: number, extra: Partial<DisplayMenuItem> = {}): DisplayMenuItem => ({
  id,
  title: `Item ${id}`,
  href: `/x/${id}/`,
  kind: "custom",
  mega: false,
  featured: false,
  object_id: null,
  children: [],
  ...extra,
});

describe("featuredProductIds", () => {
  it("finds featured products at any depth, each once, in tree order; ignores other featured kinds", () => {
    const tree = [
      item(1, { mega: true, children: [item(2), item(3, { kind: "product", object_id: 30, featured: true })] }),
      item(4, { children: [item(5, { children: [item(6, { kind: "product", object_id: 10, featured: true })] })] }),
      item(7, { kind: "product", object_id: 30, featured: true }),
      item(8, { kind: "product", object_id: 40 }),
      item(9, { kind: "product_cat", object_id: 50, featured: true }),
    ];
    expect(featuredProductIds(tree)).toEqual([30, 10]);
    expect(featuredProductIds([])).toEqual([]);
  });
});
