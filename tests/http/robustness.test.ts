// Robustness and page chrome over HTTP (issue 20): addresses no route may see, the posts search that finds nothing,
// the error page's title, the listing's paging globals, the search without results, and what the listing's server
// render shows before hydration. The shop runs as its own process (what `npm start` runs), so everything it writes
// to stdout and stderr is checked to be JSON lines.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyTemplateDatabase, tempDir, type TestDatabase } from "../support/database.ts";
import { readJsonLines } from "../support/json-lines.ts";
import { TestClient, pageGlobal } from "../support/client.ts";

let child: ChildProcess;
let database: TestDatabase;
let removeDir: () => void;
let base: string;
let output = "";
const lines: { level?: string; msg?: string; res?: { status?: number }; req?: { url?: string } }[] = [];

beforeAll(async () => {
  const { dir, remove } = tempDir("shop-robust-");
  removeDir = remove;
  database = await copyTemplateDatabase(path.join(dir, "pglite"));
  child = spawn(process.execPath, [`${process.env.SHOP_BUILD_DIR ?? "build"}/server/index.js`], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      SIMULATOR: "off",
      LOG_LEVEL: "info",
      SESSION_SECRET: "r".repeat(40),
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  base = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before it was ready:\n${output}`)));
    readJsonLines<(typeof lines)[number]>(
      child,
      (line) => {
        lines.push(line);
        const ready = /^shop ready at http:\/\/localhost:(\d+)/.exec(line.msg ?? "");
        if (ready) resolve(`http://127.0.0.1:${ready[1]}`);
      },
      (text) => (output += text),
    );
  });
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await database?.drop();
  removeDir?.();
});

/** Resolves once the request log has a line for `url` (the line is written when the answer is finished). */
async function logged(url: string) {
  await expect.poll(() => lines.some((l) => l.req?.url === url && l.msg?.startsWith("request"))).toBe(true);
}

const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";

describe("addresses no route may see", () => {
  it.each(["/product/%00/", "/blog/a%00b/", "/product-category/%00/", "/product-category/%00/page/2/", "/shop/page/%01/"])(
    "%s answers the 404 page, and the log stays JSON",
    async (url) => {
      const res = await fetch(base + url);
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toContain("Oops! That page can’t be found.");
      expect(title(html)).toBe("Page not found – Maskerade");
      // Rendered for the not-found route, not the address: the browser must not hydrate it as that address's route.
      expect(html).not.toContain('type="module"');
      await logged(url);
      const nonJson = output.split("\n").filter((l) => l.trim() !== "" && !l.trim().startsWith("{"));
      expect(nonJson).toEqual([]);
      expect(lines.filter((l) => l.level === "error")).toEqual([]);
    },
  );

  it("a REST address with a NUL byte is REST's own 404", async () => {
    const res = await fetch(`${base}/wp-json/wp/v2/posts/%00`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "rest_no_route", data: { status: 404 } });
  });

  it("an ordinary unknown address still hydrates its 404 page, titled", async () => {
    const res = await fetch(`${base}/no-such-page/`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(title(html)).toBe("Page not found – Maskerade");
    expect(html).toContain('type="module"');
  });
});

describe("GET /wp-json/wp/v2/posts?search=", () => {
  it("a search that matches nothing is an empty list with X-WP-Total 0", async () => {
    const res = await fetch(`${base}/wp-json/wp/v2/posts?search=${encodeURIComponent("no post says this")}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-wp-total")).toBe("0");
    expect(res.headers.get("x-wp-totalpages")).toBe("1");
    expect(await res.json()).toEqual([]);
  });

  it("a NUL byte in the search is dropped like any control character, not a 500", async () => {
    const res = await fetch(`${base}/wp-json/wp/v2/posts?search=%00`);
    expect(res.status).toBe(200);
    expect(Number(res.headers.get("x-wp-total"))).toBeGreaterThan(0); // nothing left to search for: every post
  });
});

describe("listing paging globals (astra.shop_infinite_total / shop_infinite_count)", () => {
  const pages = (html: string) => Number(/class="listing-loop"[^>]*data-pages="(\d+)"/.exec(html)?.[1]);

  it("a listing prints its page count and the next page to load, as strings", async () => {
    const client = new TestClient(base);
    const html = await (await client.get("/shop/")).text();
    const astra = pageGlobal(html, "astra");
    expect(pages(html)).toBeGreaterThan(1);
    expect(astra.shop_infinite_total).toBe(String(pages(html)));
    expect(astra.shop_infinite_count).toBe("2");
    const second = await (await client.get("/shop/page/2/")).text();
    expect(pageGlobal(second, "astra").shop_infinite_count).toBe("3");
    const category = await (await client.get("/product-category/face-masks/")).text();
    expect(pageGlobal(category, "astra").shop_infinite_total).toBe(String(pages(category)));
  });

  it("a page that is not a listing has no pages to load", async () => {
    const astra = pageGlobal(await (await fetch(`${base}/cart/`)).text(), "astra");
    expect(astra.shop_infinite_total).toBe("0");
    expect(astra.shop_infinite_count).toBe("2");
  });
});

describe("the listing's server render is what the browser shows", () => {
  it("the filter panel is closed behind its button, and the first row's images load first", async () => {
    const html = await (await fetch(`${base}/shop/`)).text();
    expect(html).toMatch(/<button[^>]*class="astra-shop-filter-button button"[^>]*aria-expanded="false"/);
    expect(html).toMatch(/<aside[^>]*id="astra-off-canvas-sidebar"[^>]*hidden=""/);
    const images = [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]).filter((img) => img.includes('width="300"'));
    expect(images.length).toBeGreaterThan(4);
    for (const img of images.slice(0, 4)) {
      expect(img).toContain('loading="eager"');
      expect(img).toMatch(/fetchpriority="high"/i);
    }
    for (const img of images.slice(4)) expect(img).toContain('loading="lazy"');
  });

  it("a search without results offers no sorting, view or filters", async () => {
    const html = await (await fetch(`${base}/shop/?s=${encodeURIComponent("no product is called this")}`)).text();
    expect(html).toContain("No products were found matching your selection.");
    expect(html).not.toContain('class="woocommerce-ordering"');
    expect(html).not.toContain("astra-shop-filter-button");
    expect(html).not.toContain("ast-view-toggle");
  });
});
