import { describe, expect, it } from "vitest";
import type { AuthorizeResult, CardInput, CardSource, GatewayResult } from "./gateway.ts";
import { SANDBOX_MAX_AMOUNT, SANDBOX_MESSAGES, SandboxGateway, type SandboxOptions } from "./sandbox.server.ts";
import { MemorySandboxStore, type SandboxRecord } from "./store.server.ts";
import { SANDBOX_TEST_BANK_ACCOUNTS, SANDBOX_TEST_CARDS, SANDBOX_TEST_ROUTING_NUMBERS } from "./test-numbers.ts";
import { isValidCardNumber } from "../domain/payments/card-types.ts";
import { isValidAbaRoutingNumber } from "../domain/payments/aba.ts";

const MAY_15_2026 = Date.UTC(2026, 4, 15, 12, 0, 0);
const DAY = 24 * 60 * 60 * 1000;

function setup(options: SandboxOptions = {}) {
  let now = MAY_15_2026;
  const counts = new Map<string, number>();
  const waits: number[] = [];
  const logs: { event: string; fields: Record<string, unknown> }[] = [];
  const store = (options.store as MemorySandboxStore | undefined) ?? new MemorySandboxStore();
  const gateway = new SandboxGateway({
    now: () => now,
    wait: async (ms) => {
      waits.push(ms); // the simulated deadline passes at once: no real sleeping in tests
    },
    newId: (prefix) => {
      const n = (counts.get(prefix) ?? 0) + 1;
      counts.set(prefix, n);
      return `${prefix}_${n}`;
    },
    log: (event, fields) => logs.push({ event, fields }),
    ...options,
    store,
  });
  return {
    gateway,
    store,
    waits,
    logs,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const card = (number: string, extra: Partial<CardInput> = {}): CardSource => ({
  type: "card",
  card: { number, expMonth: 12, expYear: 2030, csc: "123", ...extra },
});

let keySeq = 0;
const key = () => `key-${++keySeq}`;

async function authorize(gateway: SandboxGateway, number: string, amount = 1500, extra: Partial<CardInput> = {}) {
  return gateway.authorize({ amount, currency: "USD", source: card(number, extra), idempotencyKey: key() });
}

function approved<T extends GatewayResult>(result: T): Extract<T, { status: "approved" }> {
  if (result.status !== "approved") throw new Error(`expected approved, got ${JSON.stringify(result)}`);
  return result as Extract<T, { status: "approved" }>;
}

describe("test numbers", () => {
  it("every documented card number is a valid number of its brand", () => {
    for (const c of SANDBOX_TEST_CARDS) expect(isValidCardNumber(c.number), c.number).toBe(true);
  });
  it("the documented routing numbers pass the ABA checksum", () => {
    for (const r of SANDBOX_TEST_ROUTING_NUMBERS) expect(isValidAbaRoutingNumber(r)).toBe(true);
  });
});

describe("authorize: documented outcomes", () => {
  it.each(SANDBOX_TEST_CARDS.filter((c) => c.scenario === "approve"))("$note ($number)", async (c) => {
    const { gateway } = setup();
    const result = await authorize(gateway, c.number, 1500, { csc: c.brand === "amex" ? "1234" : "123" });
    expect(result).toEqual({
      status: "approved",
      authId: "auth_1",
      amount: 1500,
      currency: "USD",
      method: { kind: "card", brand: c.brand, last4: c.number.slice(-4), expMonth: 12, expYear: 2030 },
    });
  });

  it("accepts spaces and dashes in the number and a 2-digit year", async () => {
    const { gateway } = setup();
    const result = approved(await authorize(gateway, "4242 4242-4242 4242", 100, { expYear: 30 }));
    expect(result.method).toMatchObject({ brand: "visa", last4: "4242", expYear: 2030 });
  });

  it.each([
    ["4000000000000002", "card_declined", SANDBOX_MESSAGES.cardDeclined],
    ["4000000000009995", "insufficient_funds", SANDBOX_MESSAGES.cardInsufficientFunds],
    ["4000000000000069", "expired_card", "Card expiration date is invalid"],
    ["4000000000000127", "incorrect_csc", SANDBOX_MESSAGES.incorrectCsc],
  ])("%s is declined with %s", async (number, code, message) => {
    const { gateway, store } = setup();
    expect(await authorize(gateway, number)).toEqual({ status: "declined", code, message });
    expect(store.snapshot().records).toEqual([]);
  });

  it("4000 0000 0000 0119 is a retryable processing error that is not remembered", async () => {
    const { gateway, store } = setup();
    const request = { amount: 100, currency: "USD", source: card("4000000000000119"), idempotencyKey: "k-err" };
    const first = await gateway.authorize(request);
    expect(first).toEqual({
      status: "error",
      code: "processing_error",
      retryable: true,
      message: "An error occurred, please try again or try an alternate form of payment.",
    });
    expect(await gateway.lookup("k-err")).toEqual({ found: false });
    expect(await gateway.authorize(request)).toEqual(first); // retried with the same key: runs again
    expect(store.snapshot()).toEqual({ keys: [], records: [] });
  });

  it("any other valid number is declined: only documented numbers are approved", async () => {
    const { gateway } = setup();
    for (const number of ["4111111111111111", "5105105105105100", "371449635398431"]) {
      expect(await authorize(gateway, number, 100, { csc: "1234".slice(0, number.startsWith("37") ? 4 : 3) })).toEqual({
        status: "declined",
        code: "test_mode_number",
        message: "test mode: use a documented test number",
      });
    }
  });

  it("validates like a real processor before anything else", async () => {
    const { gateway } = setup();
    expect(await authorize(gateway, "4242424242424241")).toMatchObject({ status: "declined", code: "invalid_number", message: "Card number is invalid" });
    expect(await authorize(gateway, "1234")).toMatchObject({ code: "invalid_number" });
    expect(await authorize(gateway, "4242424242424242", 100, { expMonth: 4, expYear: 2026 })).toMatchObject({
      code: "expired_card",
      message: "Card expiration date is invalid",
    });
    expect(await authorize(gateway, "4242424242424242", 100, { expMonth: 5, expYear: 2026 })).toMatchObject({ status: "approved" });
    expect(await authorize(gateway, "4242424242424242", 100, { expMonth: 13 })).toMatchObject({ code: "invalid_expiry" });
    expect(await authorize(gateway, "4242424242424242", 100, { csc: "12" })).toMatchObject({
      code: "invalid_csc",
      message: "Card security code is invalid (must be 3 or 4 digits)",
    });
    expect(await authorize(gateway, "4242424242424242", 100, { csc: "1234" })).toMatchObject({ code: "invalid_csc" });
    expect(await authorize(gateway, "4242424242424242", 100, { csc: "12a" })).toMatchObject({
      code: "invalid_csc",
      message: "Card security code is invalid (only digits are allowed)",
    });
    expect(await authorize(gateway, "378282246310005", 100, { csc: "1234" })).toMatchObject({ status: "approved" });
  });

  it("refuses a malformed request without claiming the key", async () => {
    const { gateway } = setup();
    for (const amount of [0, -5, 12.5, SANDBOX_MAX_AMOUNT + 1, Number.NaN]) {
      const r = await gateway.authorize({ amount, currency: "USD", source: card("4242424242424242"), idempotencyKey: "bad" });
      expect(r).toMatchObject({ status: "error", code: "invalid_amount", retryable: false });
    }
    expect(await gateway.authorize({ amount: 100, currency: "usd", source: card("4242424242424242"), idempotencyKey: "bad" })).toMatchObject({
      code: "invalid_request",
    });
    expect(await gateway.authorize({ amount: 100, currency: "USD", source: card("4242424242424242"), idempotencyKey: "" })).toMatchObject({
      code: "invalid_request",
    });
    expect(await gateway.lookup("bad")).toEqual({ found: false });
    expect(
      approved(await gateway.authorize({ amount: SANDBOX_MAX_AMOUNT, currency: "USD", source: card("4242424242424242"), idempotencyKey: "bad" })),
    ).toMatchObject({ amount: SANDBOX_MAX_AMOUNT });
  });
});

describe("timeout (4000 0000 0000 7700)", () => {
  it("approves, but answers 'timeout' once the call's deadline has passed; the same key then returns the approval", async () => {
    const { gateway, store, waits } = setup();
    const request = { amount: 2500, currency: "USD", source: card("4000000000007700"), idempotencyKey: "order-9", deadlineMs: 8000 };
    expect(await gateway.authorize(request)).toEqual({
      status: "error",
      code: "timeout",
      retryable: true,
      message: SANDBOX_MESSAGES.timeout,
    });
    expect(waits).toEqual([8000]);

    // A reconciler asks what happened…
    const lookup = await gateway.lookup("order-9");
    expect(lookup).toMatchObject({ found: true, state: "completed", operation: "authorize", result: { status: "approved", authId: "auth_1" } });
    // …or the caller retries with the same key: the first result, no second authorization.
    expect(await gateway.authorize(request)).toMatchObject({ status: "approved", authId: "auth_1", amount: 2500 });
    expect(store.snapshot().records.filter((r) => r.type === "authorization")).toHaveLength(1);
    expect(waits).toEqual([8000]);
  });

  it("waits the default deadline when the call gives none", async () => {
    const { gateway, waits } = setup({ defaultDeadlineMs: 12_345 });
    await authorize(gateway, "4000000000007700");
    expect(waits).toEqual([12_345]);
  });

  it("the default wait is a real timer (checked with a tiny deadline)", async () => {
    const gateway = new SandboxGateway();
    const started = Date.now();
    const r = await gateway.authorize({ amount: 1, currency: "USD", source: card("4000000000007700"), idempotencyKey: "t", deadlineMs: 5 });
    expect(r).toMatchObject({ code: "timeout" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4);
  });
});

describe("idempotency", () => {
  it("the same key twice returns the first result and authorizes once", async () => {
    const { gateway, store } = setup();
    const request = { amount: 1000, currency: "USD", source: card("4242424242424242"), idempotencyKey: "same" };
    const first = await gateway.authorize(request);
    const second = await gateway.authorize(request);
    expect(second).toEqual(first);
    expect(store.snapshot().records).toHaveLength(1);
  });

  it("declines are remembered too", async () => {
    const { gateway } = setup();
    const request = { amount: 1000, currency: "USD", source: card("4000000000000002"), idempotencyKey: "d" };
    const first = await gateway.authorize(request);
    expect(await gateway.authorize(request)).toEqual(first);
    expect(await gateway.lookup("d")).toEqual({ found: true, state: "completed", operation: "authorize", result: first });
  });

  it("re-using a key for a different request is refused", async () => {
    const { gateway } = setup();
    await gateway.authorize({ amount: 1000, currency: "USD", source: card("4242424242424242"), idempotencyKey: "k" });
    expect(await gateway.authorize({ amount: 1001, currency: "USD", source: card("4242424242424242"), idempotencyKey: "k" })).toMatchObject({
      status: "error",
      code: "idempotency_key_reused",
      retryable: false,
    });
    expect(await gateway.authorize({ amount: 1000, currency: "USD", source: card("5555555555554444"), idempotencyKey: "k" })).toMatchObject({
      code: "idempotency_key_reused",
    });
    expect(await gateway.void({ authId: "auth_1", idempotencyKey: "k" })).toMatchObject({ code: "idempotency_key_reused" });
  });

  it("a concurrent call with the same key is told it is in progress, and charges nothing", async () => {
    const { gateway, store } = setup();
    const request = { amount: 1000, currency: "USD", source: card("4242424242424242"), idempotencyKey: "race" };
    const [a, b] = await Promise.all([gateway.authorize(request), gateway.authorize(request)]);
    expect([a.status, b.status].sort()).toEqual(["approved", "error"]);
    expect([a, b].find((r) => r.status === "error")).toMatchObject({ code: "in_progress", retryable: true });
    expect(store.snapshot().records).toHaveLength(1);
    expect(await gateway.authorize(request)).toEqual([a, b].find((r) => r.status === "approved"));
  });

  it("lookup: unknown key, in progress, completed", async () => {
    const store = new MemorySandboxStore();
    const { gateway } = setup({ store });
    expect(await gateway.lookup("nope")).toEqual({ found: false });
    await store.claimKey({ key: "busy", operation: "chargeToken", fingerprint: "[]", claimId: "c", claimedAt: MAY_15_2026 }, 0);
    expect(await gateway.lookup("busy")).toEqual({ found: true, state: "in_progress", operation: "chargeToken" });
  });

  it("a claim left by a call that died is taken over once stale", async () => {
    const store = new MemorySandboxStore();
    const { gateway, advance } = setup({ store, staleClaimMs: 60_000 });
    const request = { amount: 1000, currency: "USD", source: card("4242424242424242"), idempotencyKey: "crashed" };
    const fingerprint = JSON.stringify([1000, "USD", "card:visa:16:4242:12/2030", ""]);
    await store.claimKey({ key: "crashed", operation: "authorize", fingerprint, claimId: "dead", claimedAt: MAY_15_2026 }, 0);
    expect(await gateway.authorize(request)).toMatchObject({ code: "in_progress" });
    advance(60_001);
    expect(await gateway.authorize(request)).toMatchObject({ status: "approved" });
  });

  it("every operation takes a key: capture, void, refund, tokenize and charges repeat safely", async () => {
    const { gateway, store } = setup();
    const auth = approved(await authorize(gateway, "4242424242424242", 5000));
    const cap = { authId: auth.authId, idempotencyKey: "cap" };
    const c1 = await gateway.capture(cap);
    expect(await gateway.capture(cap)).toEqual(c1);
    const charge = approved(c1);
    const ref = { chargeId: charge.chargeId, amount: 1000, idempotencyKey: "ref" };
    const r1 = await gateway.refund(ref);
    expect(await gateway.refund(ref)).toEqual(r1);
    expect(approved(r1).refundedTotal).toBe(1000);
    const tok = {
      source: { type: "card" as const, card: { number: "4242424242424242", expMonth: 1, expYear: 2031 } },
      customerRef: "c1",
      idempotencyKey: "tok",
    };
    const t1 = await gateway.tokenize(tok);
    expect(await gateway.tokenize(tok)).toEqual(t1);
    const ct = { token: approved(t1).token.token, amount: 700, currency: "USD", idempotencyKey: "ct" };
    const ct1 = await gateway.chargeToken(ct);
    expect(await gateway.chargeToken(ct)).toEqual(ct1);
    const deb = {
      source: { type: "bank" as const, account: { routingNumber: "110000000", accountNumber: "000123456789" } },
      amount: 900,
      currency: "USD",
      idempotencyKey: "deb",
    };
    const d1 = await gateway.echeckDebit(deb);
    expect(await gateway.echeckDebit(deb)).toEqual(d1);
    const types = store
      .snapshot()
      .records.map((r) => r.type)
      .sort();
    expect(types).toEqual(["authorization", "charge", "charge", "charge", "refund", "token"]);
  });
});

describe("capture / void / refund rules", () => {
  it("captures the full amount by default, then refunds up to what was captured", async () => {
    const { gateway } = setup();
    const auth = approved(await authorize(gateway, "5555555555554444", 5000));
    const charge = approved(await gateway.capture({ authId: auth.authId, idempotencyKey: key() }));
    expect(charge).toEqual({ status: "approved", chargeId: "ch_1", authId: "auth_1", amount: 5000, currency: "USD" });
    expect(approved(await gateway.refund({ chargeId: charge.chargeId, amount: 2000, idempotencyKey: key() }))).toMatchObject({
      amount: 2000,
      refundedTotal: 2000,
    });
    expect(approved(await gateway.refund({ chargeId: charge.chargeId, amount: 3000, idempotencyKey: key() }))).toMatchObject({
      refundedTotal: 5000,
    });
    expect(await gateway.refund({ chargeId: charge.chargeId, amount: 1, idempotencyKey: key() })).toMatchObject({
      status: "error",
      code: "invalid_amount",
      retryable: false,
    });
  });

  it("a partial capture limits the refund to the captured amount", async () => {
    const { gateway } = setup();
    const auth = approved(await authorize(gateway, "4242424242424242", 5000));
    const charge = approved(await gateway.capture({ authId: auth.authId, amount: 3000, idempotencyKey: key() }));
    expect(charge.amount).toBe(3000);
    expect(await gateway.refund({ chargeId: charge.chargeId, amount: 3001, idempotencyKey: key() })).toMatchObject({ code: "invalid_amount" });
    expect(await gateway.refund({ chargeId: charge.chargeId, amount: 3000, idempotencyKey: key() })).toMatchObject({ status: "approved" });
  });

  it("cannot capture more than authorized", async () => {
    const { gateway } = setup();
    const auth = approved(await authorize(gateway, "4242424242424242", 5000));
    expect(await gateway.capture({ authId: auth.authId, amount: 5001, idempotencyKey: key() })).toMatchObject({ code: "invalid_amount" });
    expect(await gateway.capture({ authId: auth.authId, amount: 0, idempotencyKey: key() })).toMatchObject({ code: "invalid_amount" });
  });

  it("cannot capture twice", async () => {
    const { gateway } = setup();
    const auth = approved(await authorize(gateway, "4242424242424242"));
    approved(await gateway.capture({ authId: auth.authId, idempotencyKey: key() }));
    expect(await gateway.capture({ authId: auth.authId, idempotencyKey: key() })).toMatchObject({ code: "invalid_state", retryable: false });
  });

  it("cannot capture a voided authorization, nor void it twice", async () => {
    const { gateway } = setup();
    const auth = approved(await authorize(gateway, "4242424242424242"));
    expect(await gateway.void({ authId: auth.authId, idempotencyKey: key() })).toEqual({ status: "approved", authId: auth.authId });
    expect(await gateway.capture({ authId: auth.authId, idempotencyKey: key() })).toMatchObject({ code: "invalid_state" });
    expect(await gateway.void({ authId: auth.authId, idempotencyKey: key() })).toMatchObject({ code: "invalid_state" });
  });

  it("cannot void a captured authorization (refund it instead)", async () => {
    const { gateway } = setup();
    const auth = approved(await authorize(gateway, "4242424242424242"));
    approved(await gateway.capture({ authId: auth.authId, idempotencyKey: key() }));
    expect(await gateway.void({ authId: auth.authId, idempotencyKey: key() })).toMatchObject({ code: "invalid_state" });
  });

  it("an authorization expires after 7 days", async () => {
    const { gateway, advance } = setup();
    const auth = approved(await authorize(gateway, "4242424242424242"));
    advance(7 * DAY);
    expect(await gateway.capture({ authId: auth.authId, idempotencyKey: key() })).toMatchObject({ code: "authorization_expired" });
    expect(await gateway.void({ authId: auth.authId, idempotencyKey: key() })).toMatchObject({ status: "approved" });
  });

  it("unknown ids are not found; an authorization is not a charge", async () => {
    const { gateway } = setup();
    const auth = approved(await authorize(gateway, "4242424242424242"));
    expect(await gateway.capture({ authId: "auth_x", idempotencyKey: key() })).toMatchObject({ code: "not_found" });
    expect(await gateway.void({ authId: "auth_x", idempotencyKey: key() })).toMatchObject({ code: "not_found" });
    expect(await gateway.refund({ chargeId: auth.authId, amount: 1, idempotencyKey: key() })).toMatchObject({ code: "not_found" });
  });

  it("a capture and a void racing on one authorization: one wins, the other gets a retryable conflict", async () => {
    // Both read the authorization before either writes.
    class BarrierStore extends MemorySandboxStore {
      enabled = true;
      waiting: (() => void)[] = [];
      override async getRecord(id: string): Promise<SandboxRecord | null> {
        const record = await super.getRecord(id);
        if (this.enabled && record?.type === "authorization") {
          await new Promise<void>((resolve) => {
            this.waiting.push(resolve);
            if (this.waiting.length === 2) this.waiting.forEach((release) => release());
          });
        }
        return record;
      }
    }
    const store = new BarrierStore();
    const { gateway } = setup({ store });
    const auth = approved(await authorize(gateway, "4242424242424242"));
    const [capture, voided] = await Promise.all([
      gateway.capture({ authId: auth.authId, idempotencyKey: "race-capture" }),
      gateway.void({ authId: auth.authId, idempotencyKey: "race-void" }),
    ]);
    expect(capture.status).toBe("approved");
    expect(voided).toMatchObject({ status: "error", code: "conflict", retryable: true });
    expect(await gateway.lookup("race-void")).toEqual({ found: false }); // not remembered: retry with the same key
    store.enabled = false;
    expect(await gateway.void({ authId: auth.authId, idempotencyKey: "race-void" })).toMatchObject({ code: "invalid_state" });
    expect(store.snapshot().records.find((r) => r.id === auth.authId)).toMatchObject({ status: "captured", version: 2 });
  });
});

describe("tokenize and charge a token", () => {
  const tokenizeCard = (gateway: SandboxGateway, number: string, customerRef = "cust-1", extra: Partial<CardInput> = {}) =>
    gateway.tokenize({
      source: { type: "card", card: { number, expMonth: 8, expYear: 2029, csc: "123", ...extra } },
      customerRef,
      idempotencyKey: key(),
    });

  it("returns a token with brand, last four and expiry only, and charges it", async () => {
    const { gateway } = setup();
    const result = approved(await tokenizeCard(gateway, "5555 5555 5555 4444"));
    expect(result.token).toEqual({ token: "tok_1", kind: "card", brand: "mastercard", last4: "4444", expMonth: 8, expYear: 2029 });
    const charge = await gateway.chargeToken({ token: "tok_1", amount: 1999, currency: "USD", customerRef: "cust-1", idempotencyKey: key() });
    expect(charge).toEqual({
      status: "approved",
      chargeId: "ch_1",
      amount: 1999,
      currency: "USD",
      method: { kind: "card", brand: "mastercard", last4: "4444", expMonth: 8, expYear: 2029 },
    });
    expect(await gateway.refund({ chargeId: "ch_1", amount: 1999, idempotencyKey: key() })).toMatchObject({ status: "approved" });
  });

  it("authorizes a token, with the CSC when the shop asks for it", async () => {
    const { gateway } = setup();
    const { token } = approved(await tokenizeCard(gateway, "4242424242424242"));
    const auth = await gateway.authorize({ amount: 500, currency: "USD", source: { type: "token", token: token.token, csc: "321" }, idempotencyKey: key() });
    expect(approved(auth).method).toMatchObject({ brand: "visa", last4: "4242" });
    expect(
      await gateway.authorize({ amount: 500, currency: "USD", source: { type: "token", token: token.token, csc: "32" }, idempotencyKey: key() }),
    ).toMatchObject({ code: "invalid_csc" });
  });

  it("declines at tokenization what a verification would decline", async () => {
    const { gateway } = setup();
    expect(await tokenizeCard(gateway, "4000000000000002")).toMatchObject({ status: "declined", code: "card_declined" });
    expect(await tokenizeCard(gateway, "4000000000000127")).toMatchObject({ code: "incorrect_csc" });
    expect(await tokenizeCard(gateway, "4111111111111111")).toMatchObject({ code: "test_mode_number" });
    expect(await tokenizeCard(gateway, "4000000000000119")).toMatchObject({ code: "processing_error", retryable: true });
  });

  it("4000 0000 0000 0341 tokenizes, then every charge is declined; 9995 tokenizes, then lacks funds", async () => {
    const { gateway } = setup();
    const a = approved(await tokenizeCard(gateway, "4000000000000341")).token.token;
    expect(await gateway.chargeToken({ token: a, amount: 100, currency: "USD", idempotencyKey: key() })).toMatchObject({
      status: "declined",
      code: "card_declined",
    });
    const b = approved(await tokenizeCard(gateway, "4000000000009995")).token.token;
    expect(await gateway.chargeToken({ token: b, amount: 100, currency: "USD", idempotencyKey: key() })).toMatchObject({
      code: "insufficient_funds",
    });
  });

  it("a token is charged only for its customer, and not after its card expires", async () => {
    const { gateway, advance } = setup();
    const t = approved(await tokenizeCard(gateway, "4242424242424242", "cust-1", { expMonth: 6, expYear: 2026 })).token.token;
    expect(await gateway.chargeToken({ token: t, amount: 100, currency: "USD", customerRef: "cust-2", idempotencyKey: key() })).toMatchObject({
      code: "token_mismatch",
    });
    expect(await gateway.chargeToken({ token: "tok_nope", amount: 100, currency: "USD", idempotencyKey: key() })).toMatchObject({
      code: "not_found",
    });
    expect(await gateway.chargeToken({ token: t, amount: 100, currency: "USD", idempotencyKey: key() })).toMatchObject({ status: "approved" });
    advance(60 * DAY); // mid-July 2026: the 06/2026 card has expired
    expect(await gateway.chargeToken({ token: t, amount: 100, currency: "USD", idempotencyKey: key() })).toMatchObject({
      code: "expired_card",
    });
  });

  it("tokenizing the timeout number times out, and the token exists for the same key", async () => {
    const { gateway } = setup();
    const request = {
      source: { type: "card" as const, card: { number: "4000000000007700", expMonth: 1, expYear: 2030 } },
      customerRef: "c",
      idempotencyKey: "tok-timeout",
    };
    expect(await gateway.tokenize(request)).toMatchObject({ code: "timeout" });
    expect(await gateway.tokenize(request)).toMatchObject({ status: "approved", token: { token: "tok_1", last4: "7700" } });
  });

  it("requires a customer reference", async () => {
    const { gateway } = setup();
    expect(await tokenizeCard(gateway, "4242424242424242", "")).toMatchObject({ code: "invalid_request" });
  });
});

describe("e-check", () => {
  const bank = (accountNumber: string, routingNumber = "110000000") => ({
    type: "bank" as const,
    account: { routingNumber, accountNumber, accountType: "checking" as const },
  });
  const debit = (gateway: SandboxGateway, source: ReturnType<typeof bank> | { type: "token"; token: string }, amount = 4200) =>
    gateway.echeckDebit({ source, amount, currency: "USD", idempotencyKey: key() });

  it("debits a documented account with a routing number that passes the ABA checksum", async () => {
    const { gateway } = setup();
    expect(await debit(gateway, bank("000123456789"))).toEqual({
      status: "approved",
      chargeId: "ch_1",
      amount: 4200,
      currency: "USD",
      method: { kind: "bank", last4: "6789", routingLast4: "0000", accountType: "checking" },
    });
    expect(await debit(gateway, bank("000123456789", "011000015"))).toMatchObject({ status: "approved" });
  });

  it("refuses a routing number that fails the checksum or the form's rules", async () => {
    const { gateway } = setup();
    expect(await debit(gateway, bank("000123456789", "123456789"))).toEqual({
      status: "declined",
      code: "invalid_routing_number",
      message: "Routing Number is invalid",
    });
    expect(await debit(gateway, bank("000123456789", "11000000"))).toMatchObject({
      code: "invalid_routing_number",
      message: "Routing Number is invalid (must be 9 digits)",
    });
    expect(await debit(gateway, bank("12"))).toMatchObject({
      code: "invalid_account_number",
      message: "Account Number is invalid (must be between 5 and 17 digits)",
    });
    expect(await debit(gateway, bank("12345x"))).toMatchObject({ code: "invalid_account_number" });
  });

  it.each(SANDBOX_TEST_BANK_ACCOUNTS.filter((a) => a.scenario !== "approve"))("$accountNumber: $note", async (a) => {
    const { gateway } = setup();
    const result = await debit(gateway, bank(a.accountNumber));
    expect(result.status).toBe(a.scenario === "processing_error" ? "error" : "declined");
    expect(result).toMatchObject({ code: a.scenario });
  });

  it("any other valid account is declined in test mode", async () => {
    const { gateway } = setup();
    expect(await debit(gateway, bank("123456"))).toEqual({
      status: "declined",
      code: "test_mode_number",
      message: "test mode: use a documented test number",
    });
  });

  it("tokenizes a bank account and debits the token; a closed account fails at the debit", async () => {
    const { gateway } = setup();
    const t = approved(await gateway.tokenize({ source: bank("000123456789"), customerRef: "c", idempotencyKey: key() })).token;
    expect(t).toEqual({ token: "tok_1", kind: "bank", last4: "6789", routingLast4: "0000", accountType: "checking" });
    expect(await debit(gateway, { type: "token", token: t.token })).toMatchObject({ status: "approved" });
    expect(await gateway.chargeToken({ token: t.token, amount: 10, currency: "USD", idempotencyKey: key() })).toMatchObject({ status: "approved" });
    const closed = approved(await gateway.tokenize({ source: bank("000111111116"), customerRef: "c", idempotencyKey: key() })).token;
    expect(await debit(gateway, { type: "token", token: closed.token })).toMatchObject({ code: "account_closed" });
  });

  it("a card token is not a bank account, and a bank token is not a card", async () => {
    const { gateway } = setup();
    const cardToken = approved(
      await gateway.tokenize({
        source: { type: "card", card: { number: "4242424242424242", expMonth: 1, expYear: 2030 } },
        customerRef: "c",
        idempotencyKey: key(),
      }),
    ).token.token;
    expect(await debit(gateway, { type: "token", token: cardToken })).toMatchObject({ code: "invalid_request" });
    const bankToken = approved(await gateway.tokenize({ source: bank("000123456789"), customerRef: "c", idempotencyKey: key() })).token.token;
    expect(await gateway.authorize({ amount: 1, currency: "USD", source: { type: "token", token: bankToken }, idempotencyKey: key() })).toMatchObject({
      code: "invalid_request",
    });
  });
});

describe("card numbers and security codes are never stored, returned or logged", () => {
  it("serializes everything the sandbox holds, returns and logs, and finds no full number and no CSC", async () => {
    const { gateway, store, logs } = setup();
    const returned: unknown[] = [];
    const keep = async <T>(p: Promise<T>) => {
      const r = await p;
      returned.push(r);
      return r;
    };
    const CSC3 = "739";
    const CSC4 = "7391";
    for (const [i, c] of SANDBOX_TEST_CARDS.entries()) {
      const csc = c.brand === "amex" ? CSC4 : CSC3;
      const spaced = c.number.replace(/(\d{4})(?=\d)/g, "$1 ");
      const auth = (await keep(
        gateway.authorize({ amount: 1234, currency: "USD", source: card(spaced, { csc }), idempotencyKey: `a-${i}` }),
      )) as AuthorizeResult;
      // replay, lookup, capture, refund
      await keep(gateway.authorize({ amount: 1234, currency: "USD", source: card(spaced, { csc }), idempotencyKey: `a-${i}` }));
      await keep(gateway.lookup(`a-${i}`));
      if (auth.status === "approved") {
        const ch = await keep(gateway.capture({ authId: auth.authId, idempotencyKey: `c-${i}` }));
        if (ch.status === "approved") await keep(gateway.refund({ chargeId: ch.chargeId, amount: 100, idempotencyKey: `r-${i}` }));
      }
      const tok = await keep(
        gateway.tokenize({ source: { type: "card", card: { number: c.number, expMonth: 3, expYear: 2031, csc } }, customerRef: "c", idempotencyKey: `t-${i}` }),
      );
      if (tok.status === "approved") {
        await keep(gateway.chargeToken({ token: tok.token.token, amount: 50, currency: "USD", csc, idempotencyKey: `ct-${i}` }));
      }
    }
    for (const [i, a] of SANDBOX_TEST_BANK_ACCOUNTS.entries()) {
      const account = { routingNumber: "110000000", accountNumber: a.accountNumber };
      await keep(gateway.echeckDebit({ source: { type: "bank", account }, amount: 10, currency: "USD", idempotencyKey: `e-${i}` }));
      await keep(gateway.tokenize({ source: { type: "bank", account }, customerRef: "c", idempotencyKey: `bt-${i}` }));
    }

    const everything = JSON.stringify({ snapshot: store.snapshot(), returned, logs });
    expect(store.snapshot().records.length).toBeGreaterThan(20);
    expect(logs.length).toBeGreaterThan(50);
    for (const c of SANDBOX_TEST_CARDS) {
      expect(everything).not.toContain(c.number);
      expect(everything).not.toContain(c.number.replace(/(\d{4})(?=\d)/g, "$1 "));
      expect(everything).not.toContain(c.number.slice(0, 8)); // not even a partial number beyond the last four
    }
    for (const a of SANDBOX_TEST_BANK_ACCOUNTS) expect(everything).not.toContain(a.accountNumber);
    expect(everything).not.toContain(CSC3);
    expect(everything).not.toMatch(/"(csc|cvv|cvc|number|accountNumber)"\s*:/i); // no such field anywhere
  });
});
