/**
 * `npm run dev`: the shop on Vite's dev server. server/main.ts, and with it everything in core/ and server/,
 * is loaded through Vite, in the same module graph as the route modules (as the production bundle is one
 * graph); pages come from Vite's current app on every request, so route modules reload on save.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RequestHandler } from "express";
import type { ServerBuild } from "react-router";
import { createServer } from "vite";
import type * as Main from "./main.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const vite = await createServer({ root: ROOT, server: { middlewareMode: true }, appType: "custom" });
const main = (await vite.ssrLoadModule("/server/main.ts")) as typeof Main;
await main.runShop({
  getBuild: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
  devMiddleware: vite.middlewares as unknown as RequestHandler,
  close: () => vite.close(),
});
