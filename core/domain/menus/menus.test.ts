import { describe, expect, it } from "vitest";
import { displayMenu, menuPatchSchema, menuSchema, menuSlug, menuTargets, missingTarget, type StoredMenuItem } from "./menus.ts";

const page = (children: unknown[] = []) => ({ kind: "page", page: "shop", children });

describe("menu schema", () => {
  it("orders siblings by position (stable), fills defaults and drops the input's ids", () => {
    const menu = menuSchema.parse({
      name: "Main",
      id: 7,
      items: [
        page([
          { kind: "post", object_id: 3, position: 2, id: 99, parent: 5 },
          { kind: "product", object_id: 4, position: 0 },
          { kind: "custom", url: "/a/" },
        ]),
      ],
    });
    expect(menu.items[0]!.children.map((c) => c.kind)).toEqual(["product", "post", "custom"]);
    expect(menu.items[0]!.children[1]).toEqual({ kind: "post", object_id: 3, title: "", mega: false, featured: false, children: [] });
  });

  it("nests three levels and no more", () => {
    expect(menuSchema.safeParse({ name: "M", items: [page([page([page()])])] }).success).toBe(true);
    const deep = menuSchema.safeParse({ name: "M", items: [page([page([page([page()])])])] });
    expect(deep.error?.issues[0]?.path).toEqual(["items", 0, "children", 0, "children", 0, "children"]);
    expect(menuPatchSchema.safeParse({ items: [page([page([page([page()])])])] }).success).toBe(false);
  });

  it("accepts link actions and safe addresses only", () => {
    for (const href of ["#popup:open:3", "#popup:close", "#off_canvas:toggle:cart", "#reload-page"]) {
      expect(menuSchema.safeParse({ name: "M", items: [{ kind: "link_action", href }] }).success, href).toBe(true);
    }
    for (const url of ["javascript:alert(1)", "//evil.example/", "data:text/html,x", " "]) {
      expect(menuSchema.safeParse({ name: "M", items: [{ kind: "custom", url }] }).success, url).toBe(false);
    }
    expect(menuSlug("Main menu — Footer!")).toBe("main-menu-footer");
  });
});

describe("targets", () => {
  const items = menuSchema.parse({
    name: "M",
    items: [
      page([
        { kind: "product_cat", object_id: 1 },
        { kind: "link_action", href: "#popup:open:9" },
      ]),
      { kind: "post", object_id: 2 },
    ],
  }).items;

  it("collects what items point at and names the first that is missing", () => {
    expect(menuTargets(items)).toEqual({ product_cat: [1], product: [], post: [2], popup: [9] });
    expect(missingTarget(items, () => true)).toBeNull();
    expect(missingTarget(items, (kind) => kind !== "popup")).toEqual({ path: ["items", 0, "children", 1, "href"], message: "no popup has id 9" });
  });

  it("the header's view leaves out an item whose target is gone, with its children", () => {
    let id = 0;
    const stored = (list: typeof items): StoredMenuItem[] => list.map((i) => ({ ...i, id: ++id, children: stored(i.children) }));
    const view = displayMenu(stored(items), (item) => (item.kind === "page" ? null : { name: "n", href: "/x/" }));
    expect(view.map((i) => i.kind)).toEqual(["post"]);
  });
});
