/** axe-core run inside a page: the serious and critical violations, as "rule: target" strings (empty when none). */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults } from "axe-core";
import type { Page } from "playwright-core";

// The minified build (a third of `axe.source`'s size): less for each page to parse.
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the shop's CSP (script nonces) would refuse an injected <script>.
  await page.evaluate(axeSource);
  const { violations } = await page.evaluate(() => (window as unknown as { axe: { run(context: Document): Promise<AxeResults> } }).axe.run(document));
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").flatMap((v) => v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)}`));
}
