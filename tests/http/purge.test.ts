/**
 * The scheduled purge against a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): rows older than the
 * retention go (sessions, auth events, abandoned guest carts, delivered tracking events), newer rows and carts with a live session stay, two runs side by side are harmless, and the schedule
 * runs on its own and stops.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { purgeOnce, schedulePurge } from "../../server/features/purge.ts";
import { createLogger } from "../../server/log.ts";

let shop: TestShop;
beforeAll(async () => {
  // The shop's own purge keeps ten years, so it never races the runs this file makes.
  shop = await startTestShop({ PURGE_RETENTION_DAYS: "3650" });
});
afterAll(async () => shop?.close());

const DAY = 86_400_000;
const RETENTION = 30 * DAY;

async function session(id: string, expiresDaysAgo: number): Promise<void> {
  await shop.services.db.query(`INSERT INTO sessions (id, expires_at) VALUES ($1, now() - make_interval(secs => $2))`, [id, expiresDaysAgo * 86_400]);
}
async function guestCart(sessionId: string, updatedDaysAgo: number): Promise<number> {
  const [row] = await shop.services.db.query<{ id: number }>(
    `INSERT INTO carts (session_id, updated_at) VALUES ($1, now() - make_interval(secs => $2)) RETURNING id`,
    [sessionId, updatedDaysAgo * 86_400],
  );
  return row!.id;
}
async function authEvent(subject: string, daysAgo: number): Promise<void> {
  await shop.services.db.query(`INSERT INTO auth_events (kind, scope, subject, at) VALUES ('login_failed', 'address', $1, now() - make_interval(secs => $2))`, [
    subject,
    daysAgo * 86_400,
  ]);
}
/** A tracking outbox row created `daysAgo`: sent, failed or pending, for an order or not. */
async function trackingRow(key: string, daysAgo: number, state: "sent" | "failed" | "pending", orderId: number | null = null): Promise<void> {
  await shop.services.db.query(
    `INSERT INTO tracking_outbox (destination, dedupe_key, event_name, event_id, order_id, payload, created_at, sent_at, failed_at)
     VALUES ('mp', $1, 'PageView', '00000000-0000-4000-8000-000000000000', $2, '{}', now() - make_interval(secs => $3),
             CASE WHEN $4 = 'sent' THEN now() END, CASE WHEN $4 = 'failed' THEN now() END)`,
    [key, orderId, daysAgo * 86_400, state],
  );
}
const trackingKeys = async (prefix: string) =>
  (await shop.services.db.query<{ k: string }>(`SELECT dedupe_key AS k FROM tracking_outbox WHERE dedupe_key LIKE $1 ORDER BY 1`, [`${prefix}%`])).map(
    (r) => r.k,
  );
const ids = async (table: "sessions" | "carts", column: string, values: readonly (string | number)[]) =>
  (await shop.services.db.query<{ v: string | number }>(`SELECT ${column} AS v FROM ${table} WHERE ${column} = ANY($1) ORDER BY 1`, [values])).map((r) => r.v);

describe("purge", () => {
  it("deletes what is older than the retention and keeps the rest", async () => {
    const p = `p${Date.now()}`;
    await session(`${p}-expired-long-ago`, 40); // gone, and its guest cart with it
    await session(`${p}-expired-lately`, 2); // kept (expired less than the retention ago)
    await session(`${p}-expired-lately-2`, 2);
    await session(`${p}-live`, -1); // expires tomorrow: kept
    const cartOfGone = await guestCart(`${p}-expired-long-ago`, 45);
    const abandoned = await guestCart(`${p}-expired-lately`, 40); // session expired, untouched 40 days: gone
    const recent = await guestCart(`${p}-expired-lately-2`, 2); // session expired, touched 2 days ago: kept
    const liveButOld = await guestCart(`${p}-live`, 40); // live session: kept however old
    const [customer] = await shop.services.db.query<{ id: number }>(`INSERT INTO customers (email) VALUES ($1) RETURNING id`, [`${p}@example.com`]);
    const [customerCart] = await shop.services.db.query<{ id: number }>(
      `INSERT INTO carts (customer_id, updated_at) VALUES ($1, now() - interval '90 days') RETURNING id`,
      [customer!.id],
    );
    for (let i = 0; i < 5; i++) await authEvent(`${p}-old`, 31 + i);
    const [order] = await shop.services.db.query<{ id: number }>(
      `INSERT INTO orders (order_key, billing_email, currency, subtotal, discount_total, shipping_total, total, payment_method)
       VALUES ($1, 'purge@example.com', 'USD', 100, 0, 0, 100, 'sandbox') RETURNING id`,
      [`wc_order_${p}`],
    );
    await trackingRow(`${p}-t-sent-old`, 40, "sent"); // gone
    await trackingRow(`${p}-t-failed-old`, 40, "failed"); // gone
    await trackingRow(`${p}-t-pending-old`, 40, "pending"); // still to deliver: kept
    await trackingRow(`${p}-t-sent-new`, 2, "sent"); // kept
    await trackingRow(`${p}-t-purchase-old`, 40, "sent", order!.id); // an order's Purchase: kept (its dedupe key)
    await authEvent(`${p}-new`, 29);

    // A small batch, so the run has to loop; two runs side by side (two processes) delete each row once.
    const [a, b] = await Promise.all([purgeOnce(shop.services.db, new Date(), RETENTION, 2), purgeOnce(shop.services.db, new Date(), RETENTION, 2)]);
    expect(a.authEvents + b.authEvents).toBeGreaterThanOrEqual(5);
    expect(a.guestCarts + b.guestCarts).toBeGreaterThanOrEqual(1);

    expect(await ids("sessions", "id", [`${p}-expired-long-ago`, `${p}-expired-lately`, `${p}-expired-lately-2`, `${p}-live`])).toEqual(
      [`${p}-expired-lately`, `${p}-expired-lately-2`, `${p}-live`].sort(),
    );
    expect(await ids("carts", "id", [cartOfGone, abandoned, recent, liveButOld, customerCart!.id])).toEqual(
      [recent, liveButOld, customerCart!.id].sort((x, y) => x - y),
    );
    const events = await shop.services.db.query<{ subject: string; n: number }>(
      `SELECT subject, count(*)::int AS n FROM auth_events WHERE subject LIKE $1 GROUP BY subject`,
      [`${p}-%`],
    );
    expect(events).toEqual([{ subject: `${p}-new`, n: 1 }]);
    expect(await trackingKeys(`${p}-t-`)).toEqual([`${p}-t-pending-old`, `${p}-t-purchase-old`, `${p}-t-sent-new`]);

    // Nothing left to do: a further run deletes nothing of these.
    await purgeOnce(shop.services.db, new Date(), RETENTION, 2);
    expect(await ids("carts", "id", [recent, liveButOld, customerCart!.id])).toHaveLength(3);
  });

  it("runs on a schedule shortly after start, and stops", async () => {
    const p = `s${Date.now()}`;
    await authEvent(`${p}-old`, 40);
    const stop = schedulePurge({
      db: shop.services.db,
      logger: createLogger("silent"),
      now: () => new Date(),
      retentionMs: RETENTION,
      firstRunMs: 10,
      everyMs: 50,
    });
    try {
      const deadline = Date.now() + 20_000;
      while ((await shop.services.db.query(`SELECT 1 FROM auth_events WHERE subject = $1`, [`${p}-old`])).length && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 25));
      expect(await shop.services.db.query(`SELECT 1 FROM auth_events WHERE subject = $1`, [`${p}-old`])).toHaveLength(0);
    } finally {
      await stop();
    }
    // Stopped: an old row added now stays.
    await authEvent(`${p}-after`, 40);
    await new Promise((r) => setTimeout(r, 200));
    expect(await shop.services.db.query(`SELECT 1 FROM auth_events WHERE subject = $1`, [`${p}-after`])).toHaveLength(1);
  });

  it("is one of the shop's features, with the retention from PURGE_RETENTION_DAYS", async () => {
    const { FEATURES } = await import("../../server/features/index.ts");
    expect(FEATURES.some((f) => f.name === "purge" && typeof f.start === "function")).toBe(true);
    const { parseEnv } = await import("../../core/config/env.server.ts");
    expect(parseEnv({}).PURGE_RETENTION_DAYS).toBe(30);
    expect(parseEnv({ PURGE_RETENTION_DAYS: "7" }).PURGE_RETENTION_DAYS).toBe(7);
    expect(() => parseEnv({ PURGE_RETENTION_DAYS: "0" })).toThrow(/PURGE_RETENTION_DAYS/);
  });
});
