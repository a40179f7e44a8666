// The real shop's request log: every page and API answer carries an X-Request-Id, one line per request records it,
// and neither the card fields of a checkout nor a reset key in an address reach the log. Lines captured at info.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../core/config/env.server.ts";
import { createScratchSchema } from "../../core/db/scratch-schema.ts";
import type { RunningShop } from "../../server/main.ts";
import { builtServer } from "../support/shop.ts";

const { startShop, createLogger } = await builtServer();

const SECRETS = ["4242424242424242", "hunter2-secret", "RESETKEY123", "cookie-value-xyz"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let shop: RunningShop;
let url: string;
let dataDir: string;
const lines: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-reqlog-"));
  const databaseUrl = process.env.TEST_DATABASE_URL;
  let schemaUrl: string | undefined;
  if (databaseUrl) {
    // One schema for this file (the shop runs in this process, on its own database URL).
    const scratch = await createScratchSchema(databaseUrl, "t_reqlog");
    schemaUrl = scratch.url;
    afterAll(scratch.drop);
  }
  const env = parseEnv({
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SIMULATOR: "off",
    LOG_LEVEL: "info",
    ...(schemaUrl ? { DATABASE_URL: schemaUrl } : {}),
  });
  shop = await startShop(
    env,
    createLogger("info", (l) => lines.push(l)),
  );
  url = `http://127.0.0.1:${(shop.server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await shop?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const completed = async (id: string) => {
  for (let i = 0; i < 100; i++) {
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.msg === "request completed" && l.req?.id === id);
    if (line) return line;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no request line for ${id}`);
};

describe("request log", () => {
  it("gives pages, wc-ajax and REST answers an X-Request-Id and logs one line for each", async () => {
    for (const address of ["/shop/", "/?wc-ajax=get_refreshed_fragments", "/wp-json/wp/v2/posts"]) {
      const res = await fetch(`${url}${address}`, { method: address.includes("wc-ajax") ? "POST" : "GET" });
      await res.arrayBuffer();
      const id = res.headers.get("x-request-id");
      expect(id, address).toMatch(UUID);
      expect(await completed(id!)).toMatchObject({ level: "info", req: { url: address }, res: { status: 200 } });
    }
  });

  it("keeps the id a local proxy sends", async () => {
    // /cart/: a page the page cache answers is not logged by the shop (docs/decisions/0028-page-cache.md).
    const res = await fetch(`${url}/cart/`, { headers: { "x-request-id": "edge-7f3a" } });
    await res.arrayBuffer();
    expect(res.headers.get("x-request-id")).toBe("edge-7f3a");
    await completed("edge-7f3a");
  });

  it("never writes card fields, passwords, cookies or reset keys", async () => {
    const body = new URLSearchParams({
      billing_email: "log@example.com",
      payment_method: "sandbox_card",
      "wc-sandbox-card-number": "4242424242424242",
      "wc-sandbox-card-cvc": "737",
      account_password: "hunter2-secret",
      createaccount: "1",
    });
    const checkout = await fetch(`${url}/?wc-ajax=checkout`, { method: "POST", body, headers: { cookie: "wp_woocommerce_session_x=cookie-value-xyz" } });
    await checkout.arrayBuffer();
    const reset = await fetch(`${url}/my-account/lost-password/?key=RESETKEY123&login=log%40example.com`);
    await reset.arrayBuffer();
    expect((await completed(reset.headers.get("x-request-id")!)).req.url).toBe("/my-account/lost-password/?key=%5BRedacted%5D&login=log%40example.com");
    await completed(checkout.headers.get("x-request-id")!);
    const out = lines.join("\n");
    for (const secret of SECRETS) expect(out).not.toContain(secret);
  });
});
