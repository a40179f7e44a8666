/**
 * The layering rules of decision 0008 hold by a check, not by intention: ESLint (run by `npm test`) must refuse each
 * kind of wrong import and SQL outside core/db. Each case lints a small snippet as if it were a file at that path.
 */
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: new URL("../..", import.meta.url).pathname });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe("layering rules (decision 0008)", () => {
  it("refuses app/ importing server/", async () => {
    expect(await ruleIds("app/routes/probe.tsx", `import { createApp } from "../../server/app.ts";\nexport const x = createApp;\n`)).toContain(
      "no-restricted-imports",
    );
  });

  it("refuses server/ importing app/, except the fragment renderers' one door", async () => {
    const component = `import { CartPage } from "../../app/components/cart/CartPage.tsx";\nexport const x = CartPage;\n`;
    expect(await ruleIds("server/http/probe.ts", component)).toContain("no-restricted-imports");
    expect(await ruleIds("server/features/cart.ts", component)).toContain("no-restricted-imports");
    const door = `import { cartFragments } from "../../app/components/fragments.tsx";\nexport const x = cartFragments;\n`;
    expect(await ruleIds("server/features/cart.ts", door)).not.toContain("no-restricted-imports");
  });

  it("refuses browser code importing the database, use cases, .server modules or Node built-ins", async () => {
    const file = "app/components/cart/Probe.tsx";
    for (const from of ["../../../core/db/client.ts", "../../../core/commerce/cart.ts", "./cart.server.ts", "node:fs"]) {
      expect(await ruleIds(file, `import * as m from "${from}";\nexport const x = m;\n`), from).toContain("no-restricted-imports");
    }
    expect(await ruleIds(file, `import { formatMoney } from "../../../core/domain/money/money.ts";\nexport const x = formatMoney;\n`)).toEqual([]);
  });

  it("refuses SQL text outside core/db and allows it inside", async () => {
    const code = `export const q = (db: { query(t: string): unknown }) => db.query(\`SELECT id FROM orders WHERE id = 1\`);\n`;
    expect(await ruleIds("core/commerce/probe.ts", code)).toContain("no-restricted-syntax");
    expect(await ruleIds("app/routes/probe.server.ts", code)).toContain("no-restricted-syntax");
    expect(await ruleIds("core/db/repositories/probe.ts", code)).not.toContain("no-restricted-syntax");
  });
});
