import { describe, expect, it } from "vitest";
import { DEFAULT_SWATCH_SETTINGS, type SwatchSettings } from "./settings.ts";
import {
  applyDisplayLimit,
  clickSwatch,
  computeAttributeSwatches,
  computeSwatchItems,
  keySwatch,
  radioGroupKeyTarget,
  radioGroupTabStop,
  stockLeftInfo,
  type SwatchStateInput,
} from "./swatches.ts";
import { attributeOptionsState, type Variation } from "./variations.ts";

const C = "attribute_pa_color";
const S = "attribute_pa_size";
const values = [
  { value: "red", title: "Red" },
  { value: "blue", title: "Blue" },
  { value: "green", title: "Green" },
];
const with_ = (over: Partial<SwatchSettings>): SwatchSettings => ({ ...DEFAULT_SWATCH_SETTINGS, ...over });

function input(over: Partial<SwatchStateInput> = {}): SwatchStateInput {
  return {
    attributeName: C,
    values,
    enabledOptions: ["red", "blue"],
    outOfStockOptions: [],
    selectedValue: "red",
    loadOnDemand: false,
    ...over,
  };
}

function v(id: number, color: string, size: string, inStock = true, maxQty: number | null = 10, left = 7): Variation {
  return {
    variation_id: id,
    attributes: { [C]: color, [S]: size },
    is_in_stock: inStock,
    max_qty: maxQty,
    variation_stock_left: left,
    is_bundled: false,
  };
}

describe("settings defaults (docs/contract/storefront.md §9)", () => {
  it("match the spec", () => {
    expect(DEFAULT_SWATCH_SETTINGS).toMatchObject({
      disable_out_of_stock: true,
      show_variation_stock: false,
      clear_on_reselect: false,
      deselect_unavailable: false,
      clickable_out_of_stock: false,
      stock_label_threshold: 5,
      variation_label_separator: "-",
      archive_variation_label_separator: ":",
      tooltip_unavailable: "(Unavailable)",
      tooltip_out_of_stock: "(Out of Stock)",
    });
  });
});

describe("computeSwatchItems (docs/contract/storefront.md §4 steps 1–5)", () => {
  it("enables the enabled options, checks the selected one, marks the rest unavailable", () => {
    expect(computeSwatchItems(input())).toEqual([
      { value: "red", title: "Red", selected: true, disabled: false, noStock: false, ariaChecked: true, tooltip: null },
      { value: "blue", title: "Blue", selected: false, disabled: false, noStock: false, ariaChecked: false, tooltip: null },
      {
        value: "green",
        title: "Green",
        selected: false,
        disabled: true,
        noStock: false,
        ariaChecked: false,
        tooltip: "(Unavailable)",
      },
    ]);
  });
  it("nothing selected: no item is checked", () => {
    expect(computeSwatchItems(input({ selectedValue: "" })).some((i) => i.selected || i.ariaChecked)).toBe(false);
  });
  it("a selected value that is not enabled is not checked (step 1 reset)", () => {
    const green = computeSwatchItems(input({ selectedValue: "green" }))[2];
    expect(green).toMatchObject({ selected: false, disabled: true, tooltip: "(Unavailable)" });
  });
  it("out-of-stock enabled options: disabled with '(Out of Stock)' when clickable_out_of_stock is off", () => {
    const blue = computeSwatchItems(input({ outOfStockOptions: ["blue"] }))[1];
    expect(blue).toMatchObject({ disabled: true, noStock: false, tooltip: "(Out of Stock)" });
  });
  it("out-of-stock enabled options: 'no-stock' and clickable when clickable_out_of_stock is on", () => {
    const blue = computeSwatchItems(input({ outOfStockOptions: ["blue"], settings: with_({ clickable_out_of_stock: true }) }))[1];
    expect(blue).toMatchObject({ disabled: false, noStock: true, tooltip: "(Out of Stock)" });
  });
  it("a selected out-of-stock option stays checked", () => {
    const red = computeSwatchItems(input({ outOfStockOptions: ["red"] }))[0];
    expect(red).toMatchObject({ selected: true, ariaChecked: true, disabled: true });
  });
  it("out-of-stock list entries that are not enabled stay '(Unavailable)'", () => {
    const green = computeSwatchItems(input({ outOfStockOptions: ["green"] }))[2];
    expect(green?.tooltip).toBe("(Unavailable)");
  });
  it("uses configured tooltip texts", () => {
    const items = computeSwatchItems(
      input({
        outOfStockOptions: ["blue"],
        settings: with_({ tooltip_unavailable: "N/A", tooltip_out_of_stock: "Sold out" }),
      }),
    );
    expect(items.map((i) => i.tooltip)).toEqual([null, "Sold out", "N/A"]);
  });
  it("step 5: loaded on demand, all items enabled and only the current value selected", () => {
    const items = computeSwatchItems(input({ loadOnDemand: true, enabledOptions: [], outOfStockOptions: ["red"], selectedValue: "green" }));
    expect(items.map((i) => [i.value, i.disabled, i.selected, i.tooltip])).toEqual([
      ["red", false, false, null],
      ["blue", false, false, null],
      ["green", false, true, null],
    ]);
  });
  it("works end to end with attributeOptionsState, both disable_out_of_stock settings", () => {
    const variations = [v(1, "red", "s"), v(2, "blue", "s", false)];
    const chosen = { [C]: "", [S]: "s" };
    const names = values.map((x) => x.value);
    const on = attributeOptionsState(variations, chosen, C, names, { disableOutOfStock: true });
    const off = attributeOptionsState(variations, chosen, C, names, { disableOutOfStock: false });
    const itemsOn = computeSwatchItems(input({ enabledOptions: on.enabled, outOfStockOptions: on.outOfStock, selectedValue: "" }));
    const itemsOff = computeSwatchItems(
      input({
        enabledOptions: off.enabled,
        outOfStockOptions: off.outOfStock,
        selectedValue: "",
        settings: with_({ disable_out_of_stock: false }),
      }),
    );
    expect(itemsOn[1]?.tooltip).toBe("(Unavailable)");
    expect(itemsOff[1]?.tooltip).toBe("(Out of Stock)");
  });
});

describe("clickSwatch", () => {
  const variations = [v(1, "red", "s"), v(2, "blue", "m"), v(3, "green", "s", false)];
  const base = { variations, attributeName: C, item: { disabled: false } };

  it("selects the clicked value", () => {
    expect(clickSwatch({ ...base, chosen: { [C]: "", [S]: "" }, value: "red" })).toEqual({ [C]: "red", [S]: "" });
    expect(clickSwatch({ ...base, chosen: { [C]: "blue", [S]: "" }, value: "red" })).toEqual({
      [C]: "red",
      [S]: "",
    });
  });
  it("ignores clicks on disabled items", () => {
    const chosen = { [C]: "", [S]: "" };
    expect(clickSwatch({ ...base, chosen, value: "red", item: { disabled: true } })).toBe(chosen);
  });
  it("clear_on_reselect off: reselecting keeps the value", () => {
    const chosen = { [C]: "red", [S]: "" };
    expect(clickSwatch({ ...base, chosen, value: "red" })).toBe(chosen);
  });
  it("clear_on_reselect on: reselecting clears that attribute only", () => {
    expect(
      clickSwatch({
        ...base,
        chosen: { [C]: "red", [S]: "s" },
        value: "red",
        settings: with_({ clear_on_reselect: true }),
      }),
    ).toEqual({ [C]: "", [S]: "s" });
  });
  it("deselect_unavailable off: keeps other attributes even if nothing matches", () => {
    expect(clickSwatch({ ...base, chosen: { [C]: "", [S]: "m" }, value: "red" })).toEqual({ [C]: "red", [S]: "m" });
  });
  it("deselect_unavailable on: no in-stock match clears the others and keeps the new choice", () => {
    const settings = with_({ deselect_unavailable: true });
    expect(clickSwatch({ ...base, chosen: { [C]: "", [S]: "m" }, value: "red", settings })).toEqual({
      [C]: "red",
      [S]: "",
    });
    // green/s exists but is out of stock: counts as no in-stock match even with disable_out_of_stock off.
    expect(
      clickSwatch({
        ...base,
        chosen: { [C]: "", [S]: "s" },
        value: "green",
        settings: with_({ deselect_unavailable: true, disable_out_of_stock: false }),
      }),
    ).toEqual({ [C]: "green", [S]: "" });
    // A still-possible choice keeps the others.
    expect(clickSwatch({ ...base, chosen: { [C]: "", [S]: "s" }, value: "red", settings })).toEqual({
      [C]: "red",
      [S]: "s",
    });
  });
  it("deselect_unavailable on but variations loaded on demand: cannot judge, keeps the others", () => {
    expect(
      clickSwatch({
        ...base,
        variations: [],
        chosen: { [C]: "", [S]: "m" },
        value: "red",
        settings: with_({ deselect_unavailable: true }),
      }),
    ).toEqual({ [C]: "red", [S]: "m" });
  });
  it("a 'no-stock' (clickable out-of-stock) item is clickable", () => {
    expect(clickSwatch({ ...base, chosen: { [C]: "" }, value: "green", item: { disabled: false } })).toEqual({
      [C]: "green",
    });
  });
});

describe("keySwatch", () => {
  const chosen = { [C]: "" };
  const base = { chosen, variations: [], attributeName: C, value: "red", item: { disabled: false } };
  it("Space and Enter on a non-disabled item act as a click", () => {
    expect(keySwatch(" ", base)).toEqual({ handled: true, chosen: { [C]: "red" } });
    expect(keySwatch("Enter", base)).toEqual({ handled: true, chosen: { [C]: "red" } });
    expect(keySwatch("Spacebar", base).handled).toBe(true);
  });
  it("other keys and disabled items are not handled", () => {
    expect(keySwatch("a", base)).toEqual({ handled: false, chosen });
    expect(keySwatch("Tab", base).handled).toBe(false);
    expect(keySwatch("Enter", { ...base, item: { disabled: true } })).toEqual({ handled: false, chosen });
  });
});

describe("applyDisplayLimit ('more' control)", () => {
  const items = ["a", "b", "c", "d", "e"];
  it("no limit shows everything (the spec's archive limit is off)", () => {
    expect(applyDisplayLimit(items, null, false)).toEqual({ visible: items, hidden: [], showMore: false });
    expect(applyDisplayLimit(items, 0, false).showMore).toBe(false);
    expect(applyDisplayLimit(items, 2.5, false).showMore).toBe(false);
  });
  it("hides items past the limit until revealed", () => {
    expect(applyDisplayLimit(items, 3, false)).toEqual({ visible: ["a", "b", "c"], hidden: ["d", "e"], showMore: true });
    expect(applyDisplayLimit(items, 3, true)).toEqual({ visible: items, hidden: [], showMore: false });
  });
  it("no 'more' control when everything fits", () => {
    expect(applyDisplayLimit(items, 5, false).showMore).toBe(false);
    expect(applyDisplayLimit(items, 9, false).showMore).toBe(false);
  });
});

describe("stockLeftInfo", () => {
  const variations = [v(1, "red", "s", true, 3, 3), v(2, "red", "m", true, 6, 6), v(3, "blue", "s", false, 2, 0)];
  const on = with_({ show_variation_stock: true });
  it("off in this configuration: never shown", () => {
    expect(stockLeftInfo({ variations, chosen: { [C]: "", [S]: "s" }, attributeName: C, value: "red" })).toBeNull();
  });
  it("shown when every other attribute is chosen and max_qty ≤ threshold", () => {
    expect(stockLeftInfo({ variations, chosen: { [C]: "", [S]: "s" }, attributeName: C, value: "red", settings: on })).toBe(3);
  });
  it("not shown while another attribute is unchosen", () => {
    expect(stockLeftInfo({ variations, chosen: { [C]: "", [S]: "" }, attributeName: C, value: "red", settings: on })).toBeNull();
  });
  it("not shown above the threshold, exactly at it shown", () => {
    expect(stockLeftInfo({ variations, chosen: { [C]: "", [S]: "m" }, attributeName: C, value: "red", settings: on })).toBeNull();
    expect(
      stockLeftInfo({
        variations,
        chosen: { [C]: "", [S]: "m" },
        attributeName: C,
        value: "red",
        settings: with_({ show_variation_stock: true, stock_label_threshold: 6 }),
      }),
    ).toBe(6);
  });
  it("not shown for out-of-stock variations, nor for unmanaged stock", () => {
    const settings = with_({ show_variation_stock: true, disable_out_of_stock: false });
    expect(stockLeftInfo({ variations, chosen: { [C]: "", [S]: "s" }, attributeName: C, value: "blue", settings })).toBeNull();
    expect(
      stockLeftInfo({
        variations: [v(1, "red", "s", true, null)],
        chosen: { [C]: "", [S]: "s" },
        attributeName: C,
        value: "red",
        settings: on,
      }),
    ).toBeNull();
  });
});

describe("computeAttributeSwatches (refresh on form change)", () => {
  const variations = [v(1, "red", "s"), v(2, "blue", "s", false), v(3, "green", "m")];
  const summary = (items: ReturnType<typeof computeAttributeSwatches>) =>
    items.map((i) => `${i.value}:${i.selected ? "sel" : ""}${i.disabled ? "dis" : ""}${i.noStock ? "nostock" : ""}:${i.tooltip ?? ""}`);
  it("default settings: out-of-stock blue is unavailable, green needs size m", () => {
    expect(summary(computeAttributeSwatches({ variations, chosen: { [C]: "red", [S]: "s" }, attributeName: C, values }))).toEqual([
      "red:sel:",
      "blue:dis:(Unavailable)",
      "green:dis:(Unavailable)",
    ]);
  });
  it("disable_out_of_stock off: blue is '(Out of Stock)' and disabled; clickable makes it no-stock", () => {
    const off = with_({ disable_out_of_stock: false });
    expect(summary(computeAttributeSwatches({ variations, chosen: { [C]: "", [S]: "s" }, attributeName: C, values, settings: off }))).toEqual([
      "red::",
      "blue:dis:(Out of Stock)",
      "green:dis:(Unavailable)",
    ]);
    const clickable = with_({ disable_out_of_stock: false, clickable_out_of_stock: true });
    expect(summary(computeAttributeSwatches({ variations, chosen: { [C]: "", [S]: "s" }, attributeName: C, values, settings: clickable }))).toEqual([
      "red::",
      "blue:nostock:(Out of Stock)",
      "green:dis:(Unavailable)",
    ]);
  });
  it("no variations: loaded on demand, everything enabled", () => {
    expect(summary(computeAttributeSwatches({ variations: [], chosen: { [C]: "blue" }, attributeName: C, values }))).toEqual(["red::", "blue:sel:", "green::"]);
  });
});

describe("radio group keys and roving tabindex (WAI-ARIA APG 'Radio Group')", () => {
  const items = [{ disabled: false }, { disabled: true }, { disabled: false }, { disabled: false }];
  it("arrow keys move to the next or previous enabled item, wrapping and skipping disabled ones", () => {
    expect(radioGroupKeyTarget(items, 0, "ArrowRight")).toBe(2);
    expect(radioGroupKeyTarget(items, 0, "ArrowDown")).toBe(2);
    expect(radioGroupKeyTarget(items, 3, "ArrowRight")).toBe(0);
    expect(radioGroupKeyTarget(items, 2, "ArrowLeft")).toBe(0);
    expect(radioGroupKeyTarget(items, 0, "ArrowUp")).toBe(3);
    expect(radioGroupKeyTarget(items, 2, "Home")).toBe(0);
    expect(radioGroupKeyTarget(items, 0, "End")).toBe(3);
  });
  it("other keys, and a group with no other enabled item, move nowhere", () => {
    expect(radioGroupKeyTarget(items, 0, "a")).toBeNull();
    expect(radioGroupKeyTarget(items, 0, " ")).toBeNull();
    expect(radioGroupKeyTarget([{ disabled: false }, { disabled: true }], 0, "ArrowRight")).toBeNull();
    expect(radioGroupKeyTarget([], 0, "ArrowRight")).toBeNull();
  });
  it("the one tab stop is the checked item, else the first enabled one", () => {
    expect(
      radioGroupTabStop([
        { disabled: false, selected: false },
        { disabled: false, selected: true },
      ]),
    ).toBe(1);
    expect(
      radioGroupTabStop([
        { disabled: true, selected: false },
        { disabled: false, selected: false },
      ]),
    ).toBe(1);
    expect(
      radioGroupTabStop([
        { disabled: true, selected: true },
        { disabled: false, selected: false },
      ]),
    ).toBe(1);
    expect(radioGroupTabStop([{ disabled: true, selected: false }])).toBe(-1);
  });
});
