import { describe, expect, it } from "vitest";
import type { View } from "@wordpress/dataviews";
import { addressOf, rangeParams, viewOf, type RangeInAddress } from "./view-in-address.ts";

const initial: View = { type: "table", search: "", page: 1, perPage: 20, sort: { field: "date_created", direction: "desc" }, filters: [], fields: ["sku"] };
const filters = { stock_status: "is", categories: "isAny" } as const;

describe("the list's view in the address", () => {
  it("writes only what differs from the default, and reads it back over the layout shown", () => {
    expect(addressOf({ view: initial, extra: { post_status: "" } }, initial, filters)).toBe("");
    const view: View = {
      ...initial,
      page: 3,
      search: "silk tie",
      sort: { field: "name", direction: "asc" },
      filters: [
        { field: "stock_status", operator: "is", value: "instock" },
        { field: "categories", operator: "isAny", value: [3, 7] },
      ],
    };
    const address = addressOf({ view, extra: { post_status: "trash" } }, initial, filters);
    expect(address).toBe("?paged=3&s=silk+tie&orderby=name&order=asc&stock_status=instock&categories=3%2C7&post_status=trash");
    const listLayout: View = { ...initial, type: "list", fields: ["price"] };
    const back = viewOf(address, listLayout, initial, filters, ["post_status"]);
    expect(back.extra).toEqual({ post_status: "trash" });
    expect(back.view).toEqual({ ...view, type: "list", fields: ["price"] });
  });

  it("leaves out what it does not know or cannot read", () => {
    const read = viewOf("?paged=-2&per_page=5000&order=sideways&orderby=name&color=red&stock_status=", initial, initial, filters, []);
    expect(read.view).toEqual(initial);
    expect(read.extra).toEqual({});
  });

  it("keeps a range filter as its bounds and reads back the operator they came from", () => {
    const spend: RangeInAddress = {
      kind: "number",
      low: ["greaterThanOrEqual", "total_spend_min"],
      high: ["lessThanOrEqual", "total_spend_max"],
      between: true,
    };
    const last: RangeInAddress = { kind: "date", low: ["after", "last_order_after"], high: ["before", "last_order_before"] };
    const ranges = { total_spent: spend, date_last_order: last };
    const at = (filters: View["filters"]) => addressOf({ view: { ...initial, filters }, extra: {} }, initial, ranges);
    expect(at([{ field: "total_spent", operator: "greaterThanOrEqual", value: 100 }])).toBe("?total_spend_min=100");
    expect(at([{ field: "total_spent", operator: "lessThanOrEqual", value: 25.5 }])).toBe("?total_spend_max=25.5");
    expect(at([{ field: "total_spent", operator: "between", value: [10, 100] }])).toBe("?total_spend_min=10&total_spend_max=100");
    expect(at([{ field: "total_spent", operator: "greaterThanOrEqual", value: undefined }])).toBe("");
    expect(at([{ field: "date_last_order", operator: "before", value: "2026-11-01" }])).toBe("?last_order_before=2026-11-01");
    const read = (q: string) => viewOf(q, initial, initial, ranges, []).view.filters;
    expect(read("?total_spend_min=10&total_spend_max=100")).toEqual([{ field: "total_spent", operator: "between", value: [10, 100] }]);
    expect(read("?total_spend_max=40")).toEqual([{ field: "total_spent", operator: "lessThanOrEqual", value: 40 }]);
    expect(read("?last_order_after=2026-11-01")).toEqual([{ field: "date_last_order", operator: "after", value: "2026-11-01" }]);
    // Not a number, not a day, or both bounds where the filter has no between: left out, or the lower bound only.
    expect(read("?total_spend_min=lots&last_order_before=soon")).toEqual([]);
    expect(read("?last_order_after=2026-11-01&last_order_before=2026-12-01")).toEqual([{ field: "date_last_order", operator: "after", value: "2026-11-01" }]);
    expect(rangeParams({ ...initial, filters: [{ field: "total_spent", operator: "between", value: [10, ""] }] }, "total_spent", spend)).toEqual({
      total_spend_min: "10",
    });
  });
});
