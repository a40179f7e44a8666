import { describe, expect, it } from "vitest";
import { lineReceiptDetails } from "./receipt.ts";

describe("lineReceiptDetails", () => {
  it("keeps a variation's attributes as the cart showed them", () => {
    expect(lineReceiptDetails({ details: "Size: M, Color: Blue", components: [] })).toBe("Size: M, Color: Blue");
  });
  it("lists a bundle's contents with units per bundle", () => {
    expect(
      lineReceiptDetails({
        details: "With Silk Tie",
        components: [
          { name: "Cotton Face Mask", unitsPerBundle: 2 },
          { name: "Silk Tie", unitsPerBundle: 1 },
        ],
      }),
    ).toBe("Contains: Cotton Face Mask × 2, Silk Tie × 1");
  });
});
