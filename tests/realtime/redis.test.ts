// Two hubs (standing in for two server processes) sharing one Redis at redis://127.0.0.1:6379.
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Centrifuge } from "centrifuge";
import { Redis } from "ioredis";
import { createRedisBroker, type Broker } from "../../server/realtime/index.ts";
import { newClient, Recorder, startServer, type TestServer } from "./helpers.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `test:rt:${randomBytes(4).toString("hex")}`;
const SUB_EVENTS = ["subscribed", "unsubscribed", "publication", "error"] as const;

let admin: Redis;
const brokers: Broker[] = [];
const servers: TestServer[] = [];
const clients: Centrifuge[] = [];

async function deleteKeys(): Promise<void> {
  const keys = await admin.keys(`${prefix}:*`);
  if (keys.length > 0) await admin.del(...keys);
}

beforeAll(async () => {
  admin = new Redis(REDIS_URL);
  await admin.ping();
});

afterEach(async () => {
  clients.splice(0).forEach((c) => c.disconnect());
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(brokers.splice(0).map((b) => b.close()));
  await deleteKeys();
});

afterAll(async () => {
  expect(await admin.keys(`${prefix}:*`)).toEqual([]);
  await admin.quit();
});

async function twoProcesses(testPrefix: string, options: { historySize?: number } = {}) {
  const hubs: TestServer[] = [];
  for (let i = 0; i < 2; i++) {
    const broker = await createRedisBroker(REDIS_URL, { prefix: `${prefix}:${testPrefix}` });
    brokers.push(broker);
    const s = await startServer({ broker, ...options });
    servers.push(s);
    hubs.push(s);
  }
  return hubs as [TestServer, TestServer];
}

async function subscriber(url: string) {
  const client = newClient(url);
  clients.push(client);
  const rec = new Recorder(client, ["connecting", "connected", "disconnected"]);
  const sub = client.newSubscription("football");
  const subRec = new Recorder(sub, SUB_EVENTS);
  sub.subscribe();
  client.connect();
  await rec.next("connected");
  const subscribed = await subRec.next("subscribed");
  return { client, rec, sub, subRec, subscribed };
}

describe("Redis broker across two hubs", () => {
  it("a publication on hub A reaches a client of hub B", async () => {
    const [a, b] = await twoProcesses("fanout");
    const onB = await subscriber(b.url);
    const onA = await subscriber(a.url);
    const pos = await a.hub.publish("football", { slug: "ajax-psv", stage: "live" });
    expect(pos.offset).toBe(1);
    expect(await onB.subRec.next("publication")).toMatchObject({ data: { slug: "ajax-psv", stage: "live" }, offset: 1 });
    expect(await onA.subRec.next("publication")).toMatchObject({ offset: 1 });
    expect(onB.subscribed.streamPosition.epoch).toBe(pos.epoch);
  });

  it("two processes publishing at once give every client one gap-free order", async () => {
    const [a, b] = await twoProcesses("order");
    const onA = await subscriber(a.url);
    const onB = await subscriber(b.url);
    const sent = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? a : b).hub.publish("football", { from: i % 2 === 0 ? "A" : "B", i })));
    expect(new Set(sent.map((p) => p.offset)).size).toBe(100);
    const recvA = [];
    const recvB = [];
    for (let i = 0; i < 100; i++) recvA.push(await onA.subRec.next("publication"));
    for (let i = 0; i < 100; i++) recvB.push(await onB.subRec.next("publication"));
    expect(recvA.map((p) => p.offset)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(recvB.map((p) => p.data)).toEqual(recvA.map((p) => p.data)); // same order on both processes
  });

  it("history and offsets are shared: a client of hub A recovers what hub B published", async () => {
    const [a, b] = await twoProcesses("recover");
    const onA = await subscriber(a.url);
    await b.hub.publish("football", { seq: 0 });
    await onA.subRec.next("publication");
    onA.client.disconnect();
    await onA.rec.next("disconnected");
    for (let seq = 1; seq <= 100; seq++) await b.hub.publish("football", { seq });
    onA.client.connect();
    expect(await onA.subRec.next("subscribed")).toMatchObject({ wasRecovering: true, recovered: true });
    const got = [];
    for (let i = 0; i < 100; i++) got.push(await onA.subRec.next("publication"));
    expect(got.map((p) => p.data.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it("a position older than the shared history gives recovered:false", async () => {
    const [a, b] = await twoProcesses("tooold", { historySize: 20 });
    const onA = await subscriber(a.url);
    onA.client.disconnect();
    await onA.rec.next("disconnected");
    for (let seq = 1; seq <= 30; seq++) await b.hub.publish("football", { seq });
    onA.client.connect();
    const resub = await onA.subRec.next("subscribed");
    expect(resub).toMatchObject({ wasRecovering: true, recovered: false });
    expect(resub.streamPosition.offset).toBe(30);
    expect(onA.subRec.all("publication")).toHaveLength(0);
  });

  it("losing the stream in Redis starts a new epoch: recovered:false, never a silent gap", async () => {
    const [a] = await twoProcesses("epoch");
    const onA = await subscriber(a.url);
    const before = await a.hub.publish("football", { seq: 1 });
    await onA.subRec.next("publication");
    onA.client.disconnect();
    await onA.rec.next("disconnected");
    await deleteKeys(); // e.g. Redis restarted without persistence
    const after = await a.hub.publish("football", { seq: 2 });
    expect(after.epoch).not.toBe(before.epoch);
    expect(after.offset).toBe(1);
    onA.client.connect();
    expect(await onA.subRec.next("subscribed")).toMatchObject({ wasRecovering: true, recovered: false });
  });
});
