/** Records for the sandbox store tests: the memory store (unit) and the SQL store (db) are held to one contract. */
import type { ChargeRecord, IdempotencyClaim } from "../../core/payments/store.server.ts";

export const claim = (key: string, claimId: string, claimedAt = 1000): IdempotencyClaim => ({
  key,
  operation: "chargeToken",
  fingerprint: "[1]",
  claimId,
  claimedAt,
});

export const charge = (id: string, version: number, refunded = 0): ChargeRecord => ({
  type: "charge",
  id,
  version,
  createdAt: 1,
  amount: 500,
  currency: "USD",
  method: { kind: "card", brand: "visa", last4: "4242", expMonth: 1, expYear: 2030 },
  refunded,
});

export const result = { status: "approved", chargeId: "ch_1", amount: 500, currency: "USD", method: charge("x", 1).method } as const;
