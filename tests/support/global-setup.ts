/** Builds the production bundle once before the HTTP and browser suites, unless it is already fresh. */
import { execFileSync } from "node:child_process";
import { existsSync, statSync, readdirSync } from "node:fs";
import path from "node:path";

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  const built = `${process.env.SHOP_BUILD_DIR ?? "build"}/server/index.js`;
  const sources = ["app", "core"].map(newestMtime);
  if (existsSync(built) && statSync(built).mtimeMs > Math.max(...sources)) return;
  // Vitest sets NODE_ENV=test; the bundle must be built as production (React's dev build is 3x larger).
  execFileSync("npx", ["react-router", "build"], { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
}
