import { describe, expect, it } from "vitest";
import {
  ORDER_STATUSES,
  ORDER_STATUS_LABELS,
  ORDER_STATUS_TRANSITIONS,
  PAYABLE_STATUSES,
  canTransition,
  isOrderStatus,
  isPaidStatus,
  isPayable,
  parseOrderStatus,
  statusesLeadingTo,
  transitionPairs,
  type OrderStatus,
} from "./status.ts";

describe("order status machine", () => {
  it("allows exactly the edges of the lifecycle", () => {
    expect(canTransition("pending", "processing")).toBe(true);
    expect(canTransition("pending", "failed")).toBe(true);
    expect(canTransition("failed", "pending")).toBe(true);
    expect(canTransition("failed", "processing")).toBe(true);
    expect(canTransition("processing", "completed")).toBe(true);
    expect(canTransition("completed", "refunded")).toBe(true);
    // Nothing leaves a cancelled or refunded order, and a paid order never goes back to unpaid.
    for (const to of ORDER_STATUSES) {
      expect(canTransition("cancelled", to)).toBe(false);
      expect(canTransition("refunded", to)).toBe(false);
    }
    expect(canTransition("processing", "pending")).toBe(false);
    expect(canTransition("processing", "failed")).toBe(false);
    expect(canTransition("completed", "cancelled")).toBe(false);
    expect(canTransition("pending", "completed")).toBe(false);
  });

  it("has no self-loops and only known statuses in the table", () => {
    for (const from of ORDER_STATUSES) {
      expect(canTransition(from, from)).toBe(false);
      for (const to of ORDER_STATUS_TRANSITIONS[from]) expect(ORDER_STATUSES).toContain(to);
    }
    expect(Object.keys(ORDER_STATUS_TRANSITIONS).sort()).toEqual([...ORDER_STATUSES].sort());
    expect(Object.keys(ORDER_STATUS_LABELS).sort()).toEqual([...ORDER_STATUSES].sort());
  });

  it("lists the 13 edges of migration 0004 as pairs", () => {
    expect(transitionPairs()).toHaveLength(13);
    expect(transitionPairs()).toContainEqual(["on-hold", "cancelled"]);
  });

  it("answers which statuses lead to a status", () => {
    expect(statusesLeadingTo("cancelled").sort()).toEqual(["failed", "on-hold", "pending", "processing"]);
    expect(statusesLeadingTo("pending")).toEqual(["failed"]);
    expect(statusesLeadingTo("refunded").sort()).toEqual(["completed", "processing"]);
    for (const to of ORDER_STATUSES) for (const from of statusesLeadingTo(to)) expect(canTransition(from, to)).toBe(true);
  });

  it("an order can be paid (again) or cancelled by its customer only while unpaid", () => {
    expect([...PAYABLE_STATUSES].sort()).toEqual(["failed", "pending"]);
    for (const s of ORDER_STATUSES) {
      expect(isPayable(s)).toBe(s === "pending" || s === "failed");
      // Every payable order can move to paid and to cancelled.
      if (isPayable(s)) expect(canTransition(s, "processing") && canTransition(s, "cancelled")).toBe(true);
    }
    expect(isPaidStatus("processing")).toBe(true);
    expect(isPaidStatus("completed")).toBe(true);
    expect(isPaidStatus("pending")).toBe(false);
  });

  it("reads statuses from storage strictly", () => {
    expect(isOrderStatus("on-hold")).toBe(true);
    expect(isOrderStatus("shipped")).toBe(false);
    expect(parseOrderStatus("failed")).toBe("failed" satisfies OrderStatus);
    expect(() => parseOrderStatus("Processing")).toThrow(/unknown order status/);
  });
});
