/**
 * Before the HTTP and browser suites: the production build — server bundle, browser files and the
 * live-match embed — rebuilt when it is missing or older than its sources (scripts/build-if-stale.mjs,
 * the same check `npm start` makes). The suites then run exactly what production runs.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export default function setup(): void {
  // Vitest sets NODE_ENV=test; the script builds as production (React's dev build is 3x larger).
  execFileSync(process.execPath, [path.join(ROOT, "scripts/build-if-stale.mjs")], { cwd: ROOT, stdio: "inherit" });
}
