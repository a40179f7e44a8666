/** axe-core run inside a page: the serious and critical violations, as "rule: target" strings (empty when none). */
import axe from "axe-core";
import type { Page } from "playwright-core";

export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the shop's CSP (script nonces) would refuse an injected <script>.
  await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: { id: string; impact: string; nodes: { target: unknown[] }[] }[] }> } }
    ).axe;
    const { violations } = await axe.run(document);
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .flatMap((v) => v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)}`));
  });
}
