/** Debian's Chromium driven by playwright-core (Playwright's own browser download is not available here). */
import { chromium, type Browser, type Page } from "playwright-core";
import { existsSync } from "node:fs";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchBrowser(): Promise<Browser> {
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
