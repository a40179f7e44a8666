import { describe, expect, it } from "vitest";
import { lineRefundProblem, lineRefundsLeft } from "./refund-lines.ts";

const lines = [
  { id: 1, quantity: 2, total: 3000 },
  { id: 2, quantity: 1, total: 500 },
];

describe("line refunds", () => {
  it("subtracts every earlier refund's units and money per line", () => {
    expect(lineRefundsLeft(lines, [[{ id: 1, quantity: 1, refund_total: 1500 }], [{ id: 2, quantity: 0, refund_total: 200 }]])).toEqual([
      { id: 1, quantity: 1, total: 1500 },
      { id: 2, quantity: 1, total: 300 },
    ]);
  });

  it("accepts a refund within what is left", () => {
    expect(lineRefundProblem(lines, [[{ id: 1, quantity: 1, refund_total: 1500 }]], [{ id: 1, quantity: 1, refund_total: 1500 }])).toBeNull();
  });

  it("refuses more units or money than is left on a line, a line the order lacks, a line named twice", () => {
    const earlier = [[{ id: 1, quantity: 1, refund_total: 1500 }]];
    expect(lineRefundProblem(lines, earlier, [{ id: 1, quantity: 2, refund_total: 0 }])).toMatch(/only 1 unit left/);
    expect(lineRefundProblem(lines, earlier, [{ id: 1, quantity: 0, refund_total: 1501 }])).toMatch(/only 15\.00 left/);
    expect(lineRefundProblem(lines, [], [{ id: 9, quantity: 1, refund_total: 1 }])).toMatch(/no line item 9/);
    expect(
      lineRefundProblem(
        lines,
        [],
        [
          { id: 2, quantity: 1, refund_total: 0 },
          { id: 2, quantity: 0, refund_total: 100 },
        ],
      ),
    ).toMatch(/named twice/);
  });
});
