/**
 * Runs `npm run build` only when the production build is missing or older than what it is built from:
 * `npm start` (scripts/start.mjs) and the test build step (tests/support/global-setup.ts) call it, so a
 * start on an existing build costs a walk over file times, not a build. Plain JavaScript so that it runs
 * on bare node, fast.
 *
 *   node scripts/build-if-stale.mjs      builds if needed; quiet when the build is fresh
 */
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The build folder, as react-router.config.ts resolves it (relative to the project). */
export const buildDir = () => path.resolve(ROOT, process.env.SHOP_BUILD_DIR ?? "build");

/** What the build reads: the three source folders (tests excepted) and the files that shape the build. */
const SOURCE_DIRS = ["app", "core", "server"];
const SOURCE_FILES = [
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
  "scripts/build-embed.ts",
  "scripts/build-admin.ts",
];

const mtime = (p) => {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return -1;
  }
};

function newest(dir) {
  let latest = mtime(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(p));
    else if (!/\.test\.tsx?$/.test(entry.name)) latest = Math.max(latest, mtime(p));
  }
  return latest;
}

/** Why the build must be rebuilt, or null when it is fresh. */
export function staleReason() {
  const outputs = [
    path.join(buildDir(), "server/index.js"),
    path.join(buildDir(), "client/embed/live-match.js"),
    path.join(buildDir(), "client/wp-admin-app/admin.js"),
  ];
  const oldest = Math.min(...outputs.map(mtime));
  if (oldest < 0) return "no build yet";
  const sources = Math.max(...SOURCE_DIRS.map((d) => newest(path.join(ROOT, d))), ...SOURCE_FILES.map((f) => mtime(path.join(ROOT, f))));
  return sources > oldest ? "sources changed since the last build" : null;
}

/** Builds (server bundle, browser files, live-match embed) when stale; returns whether it built. */
export function buildIfStale() {
  const reason = staleReason();
  if (!reason) return false;
  console.log(`building (${reason}) …`);
  execFileSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "build"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildIfStale();
