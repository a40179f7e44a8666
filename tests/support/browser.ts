/** Debian's Chromium driven by playwright-core (Playwright's own browser download is not available here). */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { existsSync } from "node:fs";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it with 'apt-get install chromium' or set CHROMIUM_PATH`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

// One Chromium per test worker process. The browser project runs its files one after another in one module graph
// (vitest.config.ts, isolate: false), so this module — and the browser — outlive a file: launching Chromium for every
// file cost about a second of CPU each. Files stay apart because everything they do happens in their own contexts
// (browser.newPage() opens a new context too: its own cookies, storage, cache and routes), and closing a file's
// handle closes those contexts. When no file has had a handle open for IDLE_CLOSE_MS, Chromium is closed properly
// (after the last file, or a file run alone); should the worker exit first, Playwright kills it on exit.
let shared: Promise<Browser> | undefined;
let openHandles = 0;
let idleTimer: NodeJS.Timeout | undefined;
const IDLE_CLOSE_MS = 5_000;

function handleClosed(): void {
  if (--openHandles > 0) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    const closing = shared;
    shared = undefined;
    void closing?.then((browser) => browser.close()).catch(() => undefined);
  }, IDLE_CLOSE_MS);
}

function sharedChromium(): Promise<Browser> {
  clearTimeout(idleTimer);
  if (!shared) {
    const launching = launchChromium();
    const forget = () => {
      if (shared === launching) shared = undefined;
    };
    shared = launching;
    launching.then((browser) => browser.on("disconnected", forget), forget);
  }
  return shared;
}

/**
 * A browser for one test file: a handle on the worker's shared Chromium. It behaves as a Browser of its own —
 * `contexts()` lists only the contexts opened through it, and `close()` closes those, leaving Chromium running for
 * the next file.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await sharedChromium();
  openHandles++;
  let closed = false;
  const mine = new Set<BrowserContext>();
  const track = (context: BrowserContext) => {
    mine.add(context);
    context.once("close", () => mine.delete(context));
    return context;
  };
  return new Proxy(browser, {
    get(target, prop) {
      if (prop === "newContext") return async (...args: Parameters<Browser["newContext"]>) => track(await target.newContext(...args));
      if (prop === "newPage")
        return async (...args: Parameters<Browser["newPage"]>) => {
          const page = await target.newPage(...args);
          track(page.context());
          return page;
        };
      if (prop === "contexts") return () => target.contexts().filter((context) => mine.has(context));
      if (prop === "close")
        return async () => {
          await Promise.all([...mine].map((context) => context.close().catch(() => undefined)));
          if (!closed) {
            closed = true;
            handleClosed();
          }
        };
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * For checks that something does NOT happen, where there is no state to wait for: lets the page run its own event
 * loop for `frames` animation frames (a scroll handler scheduled with requestAnimationFrame has run by then) and
 * then `ms` of its own timers (a debounce set before this call has fired). The wait is on the page's clock, not the
 * test process's, so a busy machine that slows the page slows this wait with it.
 */
export async function letPageSettle(page: Page, { frames = 2, ms = 0 }: { frames?: number; ms?: number } = {}): Promise<void> {
  await page.evaluate(
    ({ frames, ms }) =>
      new Promise<void>((resolve) => {
        let left = frames;
        const frame = () => (left-- > 0 ? requestAnimationFrame(frame) : setTimeout(resolve, ms));
        frame();
      }),
    { frames, ms },
  );
}
