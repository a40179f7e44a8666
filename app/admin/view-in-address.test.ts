import { describe, expect, it } from "vitest";
import type { View } from "@wordpress/dataviews";
import { addressOf, viewOf } from "./view-in-address.ts";

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
});
