/** `@wordpress/api-fetch` as one script for a browser page (window.wpApiFetch), bundled once per test run with Vite. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

let bundled: Promise<string> | undefined;

export function apiFetchScript(): Promise<string> {
  bundled ??= (async () => {
    const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), "api-fetch-entry.ts");
    const out = await build({
      configFile: false,
      logLevel: "silent",
      define: { "process.env.NODE_ENV": '"production"' },
      build: { write: false, minify: false, lib: { entry, formats: ["iife"], name: "wpApiFetchBundle", fileName: "api-fetch" } },
    });
    const output = (Array.isArray(out) ? out[0]! : out) as { output: { type: string; code?: string }[] };
    return output.output.find((o) => o.type === "chunk")!.code!;
  })();
  return bundled;
}
