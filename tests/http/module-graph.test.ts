/**
 * One module graph: the production server (`node build/server/index.js`, what `npm start` runs) holds one
 * copy of every module — server code and route modules are one bundle — so module-level state such as the
 * payment runtimes and the pricing cache exists once per process. Modules with such state register
 * themselves (core/singletons.ts); the server logs the counts, and each must be exactly 1. The shop is
 * started from another working folder, as a service manager might.
 */
import { readJsonLines } from "../support/json-lines.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TestClient } from "../support/client.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SERVER_DIR = path.resolve(ROOT, process.env.SHOP_BUILD_DIR ?? "build", "server");

interface LogLine {
  msg?: string;
  instances?: Record<string, number>;
}

let dataDir: string;
let child: ChildProcess;
const lines: LogLine[] = [];
let output = "";

/** Every registered module once, and at least the ones this test knows reach both server code and pages. */
const expectOneOfEach = (instances: Record<string, number> | undefined) => {
  expect(instances).toMatchObject({ "payment runtimes": 1, "pricing setup cache": 1, loggers: 1 });
  for (const [name, count] of Object.entries(instances!)) expect(count, name).toBe(1);
};

const waitForLine = (match: (l: LogLine) => boolean, from = 0): Promise<LogLine> =>
  new Promise((resolve, reject) => {
    const check = () => {
      const hit = lines.slice(from).find(match);
      if (hit) return resolve(hit);
      if (child.exitCode !== null) return reject(new Error(`server exited (${child.exitCode}):\n${output}`));
      setTimeout(check, 50);
    };
    check();
  });

beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-graph-"));
  child = spawn(process.execPath, [path.join(SERVER_DIR, "index.js")], {
    cwd: dataDir, // not the project folder: the server finds its files from its own location
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SIMULATOR: "off",
      LOG_LEVEL: "debug",
      SESSION_SECRET: "g".repeat(40),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  readJsonLines<LogLine>(
    child,
    (line) => lines.push(line),
    (text) => (output += text),
  );
});

afterAll(() => {
  if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("one module graph", () => {
  it("the production server instantiates each module with process-wide state exactly once, also after pages, cart and checkout ran", async () => {
    const ready = await waitForLine((l) => l.msg?.startsWith("shop ready at ") === true);
    const url = ready.msg!.slice("shop ready at ".length).replace("localhost", "127.0.0.1");
    const atStart = await waitForLine((l) => l.msg === "module instances");
    // Both modules are reached by the server's own endpoints and by route modules: a second copy would show here.
    expectOneOfEach(atStart.instances);

    const client = new TestClient(url);
    const shop = await client.get("/shop/");
    expect(shop.status).toBe(200);
    const productId = /data-product_id="(\d+)"/.exec(await shop.text())?.[1];
    expect(productId).toBeDefined();
    await client.post("/?wc-ajax=add_to_cart", { product_id: productId! });
    const checkout = await client.get("/checkout/");
    expect(checkout.status).toBe(200);
    expect(await checkout.text()).toContain("payment_method");

    const from = lines.length;
    child.kill("SIGTERM");
    const atStop = await waitForLine((l) => l.msg === "module instances", from);
    expectOneOfEach(atStop.instances);
    expect(output).not.toContain("modules instantiated more than once");
  });

  it("the server bundle holds one definition of SandboxGateway", () => {
    const files = readdirSync(SERVER_DIR, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".js"));
    const definitions = files.flatMap((f) => readFileSync(path.join(SERVER_DIR, f), "utf8").match(/\bclass SandboxGateway\b/g) ?? []);
    expect(definitions).toHaveLength(1);
  });
});
