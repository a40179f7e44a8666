import { describe, expect, it } from "vitest";
import { likeContains, maxTypoDistance, prefixTsquery, searchWords } from "./search.ts";

describe("searchWords / prefixTsquery", () => {
  it("keeps letters, digits and marks of any script; everything else only separates words", () => {
    expect(searchWords("Silk  MASKS")).toEqual(["silk", "masks"]);
    expect(searchWords(`a'b"c\\d%e_f*g(h)i:j&k|l!m<n`)).toEqual("abcdefgh".split("")); // the first 8
    expect(searchWords("口罩 маска")).toEqual(["口罩", "маска"]);
    expect(searchWords("!!!...")).toEqual([]);
    expect(searchWords(null)).toEqual([]);
  });

  it("caps the words and their length", () => {
    expect(searchWords("a b c d e f g h i j")).toHaveLength(8);
    expect(searchWords("x".repeat(500))[0]).toHaveLength(40);
  });

  it("quotes every word, requires all, and makes the last a prefix", () => {
    expect(prefixTsquery(["silk", "mas"])).toBe("'silk' & 'mas':*");
    expect(prefixTsquery([])).toBeNull();
  });

  it("escapes LIKE wildcards and allows more edits for longer words", () => {
    expect(likeContains("50%_off\\")).toBe("%50\\%\\_off\\\\%");
    expect([maxTypoDistance("ab"), maxTypoDistance("abc"), maxTypoDistance("msak")]).toEqual([0, 1, 2]);
  });
});
