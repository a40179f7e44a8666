// The tracking worker and the funnel buffer against a real database (a copy of the migrated template) and a real
// local HTTP receiver. The HTTP entry points are tested in tests/http/tracking.test.ts.
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, openPostgres, type Db } from "../../core/db/client.ts";
import { copyTemplateDatabase, tempDir, type TestDatabase } from "../support/database.ts";
import { startTrackingReceiver, type TrackingReceiver } from "../support/tracking-receiver.ts";
import { enqueueTrackingEvents } from "../../core/db/repositories/tracking.ts";
import { deliverDueEvents, deliveryRequest } from "../../core/tracking/delivery.ts";
import { FunnelBuffer } from "../../core/tracking/funnel.ts";
import type { Destination } from "../../core/tracking/intake.ts";

let folder: ReturnType<typeof tempDir>;
let copy: TestDatabase;
let db: Db;
let receiver: TrackingReceiver;
let destinations: Destination[];

beforeAll(async () => {
  folder = tempDir("tracking-test-");
  copy = await copyTemplateDatabase(path.join(folder.dir, "pglite"));
  db = copy.databaseUrl ? await openPostgres(copy.databaseUrl, 4) : await openDatabase({ dataDir: copy.pgliteDir });
  receiver = await startTrackingReceiver();
  destinations = [
    { name: "capi", url: `${receiver.url}/capi`, secret: "tok" },
    { name: "mp", url: `${receiver.url}/mp?measurement_id=G-1`, secret: "sec" },
  ];
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await db?.close();
  await copy?.drop();
  folder?.remove();
});
beforeEach(async () => {
  await db.query(`DELETE FROM tracking_outbox`);
  receiver.received.length = 0;
  receiver.failing = false;
});

let n = 0;
const queue = (destination: "capi" | "mp", count = 1) =>
  enqueueTrackingEvents(
    db,
    Array.from({ length: count }, () => {
      const id = `e${++n}`;
      return { destination, dedupeKey: `${destination}:${id}`, eventName: "PageView", eventId: id, orderId: null, payload: { id } };
    }),
  );
const rows = () =>
  db.query<{ destination: string; attempts: number; sent: boolean; failed: boolean; last_error: string | null }>(
    `SELECT destination, attempts, sent_at IS NOT NULL AS sent, failed_at IS NOT NULL AS failed, last_error FROM tracking_outbox ORDER BY id`,
  );

describe("deliverDueEvents", () => {
  it("puts each style's secret where it belongs", () => {
    const capi = deliveryRequest(destinations[0]!, { a: 1 });
    expect(capi.url).toBe(`${receiver.url}/capi`);
    expect(capi.init.headers).toMatchObject({ Authorization: "Bearer tok", "Content-Type": "application/json" });
    const mp = deliveryRequest(destinations[1]!, { a: 1 });
    expect(new URL(mp.url).searchParams.get("api_secret")).toBe("sec");
    expect(new URL(mp.url).searchParams.get("measurement_id")).toBe("G-1");
    expect(mp.init.headers).not.toHaveProperty("Authorization");
  });

  it("a failing destination costs one attempt per run and never holds the other back", async () => {
    await queue("capi", 3);
    await queue("mp", 3);
    receiver.failing = true;
    const first = await deliverDueEvents({ db, destinations, baseDelayMs: 10_000 });
    expect(first).toMatchObject({ claimed: 6, sent: 0, deferred: 2, released: 4 });
    expect(first.down.map((d) => d.destination).sort()).toEqual(["capi", "mp"]);
    expect((await rows()).filter((r) => r.attempts === 1)).toHaveLength(2);
    // The others were handed back: due at once, without a spent attempt.
    receiver.failing = false;
    const second = await deliverDueEvents({ db, destinations, baseDelayMs: 10_000 });
    expect(second).toMatchObject({ claimed: 4, sent: 4 });
    // The two deferred ones wait for their back-off.
    const later = await deliverDueEvents({ db, destinations, now: () => new Date(Date.now() + 11_000) });
    expect(later).toMatchObject({ claimed: 2, sent: 2 });
    expect((await rows()).every((r) => r.sent)).toBe(true);
    expect(receiver.delivered()).toHaveLength(6);
  });

  it("a destination that never answers is given up after the last allowed attempt, and the row kept", async () => {
    await queue("capi");
    const closed: Destination[] = [{ name: "capi", url: "http://127.0.0.1:9/closed", secret: "" }];
    expect(await deliverDueEvents({ db, destinations: closed, maxAttempts: 1 })).toMatchObject({ failed: 1 });
    const [row] = await rows();
    expect(row).toMatchObject({ failed: true, attempts: 1 });
    expect(row!.last_error).toBeTruthy();
  });

  it("a 4xx answer is permanent", async () => {
    const http = await import("node:http");
    const server = http.createServer((_req, res) => res.writeHead(400).end("bad"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    try {
      await queue("mp");
      const port = (server.address() as { port: number }).port;
      const r = await deliverDueEvents({ db, destinations: [{ name: "mp", url: `http://127.0.0.1:${port}/mp`, secret: "" }] });
      expect(r).toMatchObject({ claimed: 1, failed: 1, deferred: 0 });
      expect((await rows())[0]).toMatchObject({ failed: true, attempts: 1, last_error: "HTTP 400" });
    } finally {
      server.close();
    }
  });

  it("does nothing without destinations", async () => {
    await queue("capi");
    expect(await deliverDueEvents({ db, destinations: [] })).toMatchObject({ claimed: 0 });
  });
});

describe("FunnelBuffer", () => {
  it("writes in batches, hashes visitors per day, counts an order once, and flushes on close", async () => {
    await db.query(`DELETE FROM funnel_events`);
    const [order] = await db.query<{ id: number; total: number }>(
      `INSERT INTO orders (order_key, billing_email, currency, subtotal, discount_total, shipping_total, total, payment_method)
       VALUES ('wc_order_funnel_test', 'a@example.com', 'USD', 1000, 0, 550, 1550, 'sandbox_credit_card') RETURNING id, total`,
    );
    const buffer = new FunnelBuffer(db, { flushEveryMs: 60_000, batchSize: 100 });
    const hit = (ua: string, step: "view" | "purchase" = "view") => ({
      step,
      address: "203.0.113.7",
      userAgent: ua,
      attribution: { source: "(direct)", medium: "(none)", campaign: "(none)" },
      ...(step === "purchase" ? { order: { id: order!.id } } : {}),
    });
    for (let i = 0; i < 150; i++) buffer.record(hit(`Mozilla/5.0 (X11; Linux x86_64; rv:${120 + (i % 3)}.0) Gecko/20100101 Firefox/${120 + (i % 3)}.0`));
    buffer.record(hit("Googlebot/2.1")); // not a visitor
    await buffer.flush(); // the 100th hit started a flush; this waits for it and writes the rest
    const count = async () => (await db.query<{ n: number; v: number }>(`SELECT count(*)::int AS n, count(DISTINCT visitor)::int AS v FROM funnel_events`))[0]!;
    expect(await count()).toEqual({ n: 150, v: 3 });
    buffer.record(hit("Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0", "purchase"));
    buffer.record(hit("Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0", "purchase"));
    await buffer.close();
    buffer.record(hit("Mozilla/5.0 (X11; Linux x86_64; rv:129.0) Gecko/20100101 Firefox/129.0")); // closed: dropped
    await buffer.flush();
    const [p] = await db.query<{ n: number; revenue: number; currency: string }>(
      `SELECT count(*)::int AS n, sum(revenue)::int AS revenue, min(currency) AS currency FROM funnel_events WHERE step = 'purchase'`,
    );
    expect(p).toEqual({ n: 1, revenue: 1550, currency: "USD" });
    expect((await count()).n).toBe(151);
    const [salts] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM funnel_salts`);
    expect(salts!.n).toBe(1);
  });
});
