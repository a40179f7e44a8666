/**
 * axe-core run inside a page (decision 0010): the serious and critical violations, as "rule: target" strings (empty
 * when none), over the whole document or only inside `include` (a CSS selector).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults } from "axe-core";
import type { Page } from "playwright-core";

// The minified build (a third of `axe.source`'s size): less for each page to parse.
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export async function seriousAxeViolations(page: Page, include?: string): Promise<string[]> {
  // A dialog or notice still fading in is half transparent, and axe would measure its text's contrast mid-way: let
  // the page's finite CSS animations and transitions end first (a spinner's endless one is not waited for).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.playState === "running" && a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  // Evaluated through the DevTools protocol: the shop's CSP (script nonces) would refuse an injected <script>.
  await page.evaluate(axeSource);
  const { passes, violations } = await page.evaluate(
    (include) => (window as unknown as { axe: { run(context: unknown): Promise<AxeResults> } }).axe.run(include ? { include: [include] } : document),
    include,
  );
  // A region that matched nothing would pass vacuously: axe must have checked something there.
  if (include && !passes.length) throw new Error(`axe checked nothing in ${include}`);
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").flatMap((v) => v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)}`));
}
