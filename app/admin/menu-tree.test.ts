import { describe, expect, it } from "vitest";
import { apiItems, editorItems, indentItem, moveItem, outdentItem, removeItem, updateItem, type EditorItem } from "./menu-tree.ts";

const item = (title: string, children: EditorItem[] = []): EditorItem => ({
  key: title,
  kind: "custom",
  url: `/${title}/`,
  title,
  mega: false,
  featured: false,
  children,
});
const titles = (items: EditorItem[]): unknown => items.map((i) => (i.children.length ? [i.title, titles(i.children)] : i.title));

describe("menu tree", () => {
  const tree = [item("a"), item("b", [item("b1"), item("b2")]), item("c")];

  it("moves an item among its siblings, and not past either end", () => {
    expect(titles(moveItem(tree, [1, 1], -1)!.items)).toEqual(["a", ["b", ["b2", "b1"]], "c"]);
    expect(moveItem(tree, [0], -1)).toBeNull();
    expect(moveItem(tree, [2], 1)).toBeNull();
    expect(moveItem(tree, [0], 1)!.path).toEqual([1]);
  });

  it("indents under the sibling above and outdents to just after the parent", () => {
    const indented = indentItem(tree, [2])!;
    expect(titles(indented.items)).toEqual(["a", ["b", ["b1", "b2", "c"]]]);
    expect(indented.path).toEqual([1, 2]);
    const back = outdentItem(indented.items, indented.path)!;
    expect(titles(back.items)).toEqual(titles(tree));
    expect(back.path).toEqual([2]);
    expect(indentItem(tree, [0])).toBeNull();
    expect(outdentItem(tree, [1])).toBeNull();
  });

  it("refuses an indent that would nest deeper than three levels", () => {
    const deep = [item("a", [item("a1", [item("a11")])]), item("b", [item("b1")])];
    // b under a is fine (b1 at level three); b under a1 would put b1 at level four.
    const once = indentItem(deep, [1])!;
    expect(titles(once.items)).toEqual([
      [
        "a",
        [
          ["a1", ["a11"]],
          ["b", ["b1"]],
        ],
      ],
    ]);
    expect(once.path).toEqual([0, 1]);
    expect(indentItem(once.items, once.path)).toBeNull();
  });

  it("updates and removes without changing the tree it was given", () => {
    const renamed = updateItem(tree, [1, 0], { title: "B one" });
    expect(titles(renamed)).toEqual(["a", ["b", ["B one", "b2"]], "c"]);
    expect(titles(removeItem(tree, [1]))).toEqual(["a", "c"]);
    expect(titles(tree)).toEqual(["a", ["b", ["b1", "b2"]], "c"]);
  });

  it("round-trips the API's items: ids, parents and positions dropped, keys added and removed", () => {
    const fromApi = editorItems([{ id: 7, parent: 0, position: 0, kind: "page", page: "shop", title: "", mega: true, featured: false, children: [] }]);
    expect(fromApi[0]!.key).toMatch(/^item-\d+$/);
    expect(apiItems(fromApi)).toEqual([{ kind: "page", page: "shop", title: "", mega: true, featured: false, children: [] }]);
  });
});
