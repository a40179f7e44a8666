/**
 * `npm start`: builds only when the build is missing or stale (scripts/build-if-stale.mjs), then runs the
 * compiled server, {build}/server/index.js, in this process — plain node, no TypeScript at run time. The
 * same as `NODE_ENV=production node build/server/index.js` on a fresh build; works from any folder.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildDir, buildIfStale } from "./build-if-stale.mjs";

// Set before the bundle (and React with it) is loaded: `npm start` is always production.
process.env.NODE_ENV = "production";
buildIfStale();
const { runShop } = await import(pathToFileURL(path.join(buildDir(), "server/index.js")).href);
await runShop();
