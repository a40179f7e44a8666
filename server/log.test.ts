// The logger's line format and redaction, and the request log: a request id on every request (and on every line
// logged while it runs), never a secret in the output. A real Express app on a real socket; lines are captured.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, isSecretName, redactUrl, requestLogger, type Logger } from "./log.ts";
import { openPostgres } from "../core/db/client.ts";

const CARD = "4242424242424242";
const SECRETS = [CARD, "hunter2-pass", "cookie-secret-value", "Bearer tok-123", "nonce-abc", "737"];

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(logger: Logger, trustProxy: string | false = "loopback") {
  const app = express();
  app.set("trust proxy", trustProxy);
  app.use(requestLogger(logger));
  app.use(express.urlencoded({ extended: true }));
  app.post("/checkout", (req, res) => {
    // A handler that logs while the request runs, with the fields a careless call might pass.
    logger.warn("checkout attempt", { fields: req.body as Record<string, unknown>, gateway: "sandbox" });
    res.status(200).json({ ok: true });
  });
  app.get("/boom", () => {
    throw new Error("boom");
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server!.once("listening", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe("createLogger", () => {
  it("writes one JSON line per call with a level label, an ISO time, the message and the fields", () => {
    const lines: string[] = [];
    const logger = createLogger("info", (l) => lines.push(l));
    logger.debug("hidden");
    logger.info("plain");
    logger.warn("with fields", { orderId: 7, error: new Error("bad") });
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toEqual({ level: "info", t: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), msg: "plain" });
    const second = JSON.parse(lines[1]!);
    expect(second).toMatchObject({ level: "warn", msg: "with fields", orderId: 7, error: { message: "bad" } });
    expect(second.error.stack).toContain("log.test.ts");
  });

  it("replaces secret-named fields at any depth", () => {
    const lines: string[] = [];
    const logger = createLogger("debug", (l) => lines.push(l));
    logger.error("form", {
      form: { "wc-sandbox-card-number": CARD, "wc-sandbox-card-cvc": "737", password: "hunter2-pass", billing_email: "a@b.c" },
      list: [{ pwd: "hunter2-pass", token: "tok-123" }],
      headers: { cookie: "cookie-secret-value", authorization: "Bearer tok-123", "x-wp-nonce": "nonce-abc" },
    });
    for (const secret of SECRETS) expect(lines.join("\n")).not.toContain(secret);
    expect(JSON.parse(lines[0]!).form).toEqual({
      "wc-sandbox-card-number": "[Redacted]",
      "wc-sandbox-card-cvc": "[Redacted]",
      password: "[Redacted]",
      billing_email: "a@b.c",
    });
  });

  it("knows the card, password and token field names and leaves ordinary ones alone", () => {
    for (const name of [
      "password",
      "pwd",
      "pass1",
      "account_password",
      "wc-sandbox-card-number",
      "card_number",
      "number",
      "csc",
      "wc-sandbox-card-cvc",
      "cvv",
      "wc-echeck-account-number",
      "routing_number",
      "wc-sandbox-card-expiry",
      "exp_month",
      "token",
      "wc-sandbox-payment-token",
      "_wpnonce",
      "security_nonce",
      "cookie",
      "set-cookie",
      "Authorization",
      "key",
      "secret",
    ])
      expect(isSecretName(name), name).toBe(true);
    for (const name of ["orderId", "order_number", "quantity", "billing_email", "status", "method", "url", "gateway", "pending", "attemptId"])
      expect(isSecretName(name), name).toBe(false);
    expect(redactUrl("/?wc-ajax=checkout&pwd=hunter2-pass&key=abc&x=1")).toBe("/?wc-ajax=checkout&pwd=%5BRedacted%5D&key=%5BRedacted%5D&x=1");
  });
});

describe("requestLogger", () => {
  it("gives each request a new X-Request-Id, logs one line at info with it, and tags lines logged meanwhile", async () => {
    const lines: string[] = [];
    const url = await serve(createLogger("info", (l) => lines.push(l)));
    const body = new URLSearchParams({ "wc-sandbox-card-number": CARD, "wc-sandbox-card-cvc": "737", password: "hunter2-pass", billing_first_name: "Ada" });
    const [a, b] = await Promise.all(
      [0, 1].map(() =>
        fetch(`${url}/checkout?pwd=hunter2-pass`, {
          method: "POST",
          body,
          headers: { cookie: "wp_session=cookie-secret-value", authorization: "Bearer tok-123", "x-wp-nonce": "nonce-abc" },
        }),
      ),
    );
    const ids = [a!.headers.get("x-request-id"), b!.headers.get("x-request-id")];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
    await until(() => lines.filter((l) => l.includes("request completed")).length === 2);
    const parsed = lines.map((l) => JSON.parse(l));
    for (const id of ids) {
      expect(parsed).toContainEqual(
        expect.objectContaining({ level: "info", msg: "request completed", req: expect.objectContaining({ id, method: "POST" }), res: { status: 200 } }),
      );
      expect(parsed).toContainEqual(expect.objectContaining({ level: "warn", msg: "checkout attempt", reqId: id }));
    }
    const out = lines.join("\n");
    expect(out).toContain("Ada"); // the body did reach the log, through a non-secret field
    for (const secret of SECRETS) expect(out).not.toContain(secret);
  });

  it("keeps an incoming X-Request-Id from a trusted proxy only, and only a plain token", async () => {
    const lines: string[] = [];
    let url = await serve(createLogger("info", (l) => lines.push(l)));
    expect((await fetch(`${url}/checkout`, { method: "POST", headers: { "x-request-id": "edge-42.abc" } })).headers.get("x-request-id")).toBe("edge-42.abc");
    expect((await fetch(`${url}/checkout`, { method: "POST", headers: { "x-request-id": 'bad id"}' } })).headers.get("x-request-id")).toMatch(
      /^[0-9a-f-]{36}$/,
    );
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    url = await serve(
      createLogger("info", (l) => lines.push(l)),
      false,
    );
    expect((await fetch(`${url}/checkout`, { method: "POST", headers: { "x-request-id": "edge-42.abc" } })).headers.get("x-request-id")).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });

  it("stays quiet at warn (the tests' level) and logs a failed request as a warning", async () => {
    const lines: string[] = [];
    const url = await serve(createLogger("warn", (l) => lines.push(l)));
    expect((await fetch(`${url}/checkout`, { method: "POST" })).status).toBe(200);
    const failed = await fetch(`${url}/boom`);
    expect(failed.status).toBe(500);
    await until(() => lines.some((l) => l.includes("request failed")));
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(["checkout attempt", "request failed"]);
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: "warn", req: { id: failed.headers.get("x-request-id"), url: "/boom" }, res: { status: 500 } });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("openPostgres pool errors", () => {
  it("reports an idle client's failure to onError instead of swallowing it", async () => {
    const errors: Error[] = [];
    const db = await openPostgres(process.env.TEST_DATABASE_URL!, 2, { onError: (e) => errors.push(e) });
    try {
      const [row] = await db.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const pid = row!.pid;
      const pg = (await import("pg")).default;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      await admin.end();
      await until(() => errors.length > 0);
      expect(errors[0]!.message).toMatch(/terminat/i);
    } finally {
      await db.close();
    }
  });
});
