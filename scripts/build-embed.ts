/**
 * Builds the standalone live-match embed (app/live-embed.tsx) as one small
 * script, {SHOP_BUILD_DIR}/client/embed/live-match.js, which the shop serves
 * statically. Any page hosts the widget with
 *   <div data-place="widget-live-match" data-lang="pl"></div>
 *   <script src="https://shop.example/embed/live-match.js" defer></script>
 * The widget's stylesheet is inlined and added to the host page on load, so
 * the script is all a page needs. Run after `react-router build` (which empties
 * the client folder).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "vite";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(ROOT, process.env.SHOP_BUILD_DIR ?? "build", "client", "embed");
const ENTRY = "\0live-embed-entry";

// The app's components import no CSS (one global stylesheet), so the embed adds live.css itself.
const entry: Plugin = {
  name: "live-embed-entry",
  resolveId: (id) => (id.endsWith("live-embed-entry") ? ENTRY : null),
  load: (id) =>
    id === ENTRY
      ? [
          `import css from ${JSON.stringify(path.join(ROOT, "app/components/live/live.css") + "?inline")};`,
          `const style = document.createElement("style");`,
          `style.setAttribute("data-live-widget", "");`,
          `style.textContent = css;`,
          `document.head.appendChild(style);`,
          `import ${JSON.stringify(path.join(ROOT, "app/live-embed.tsx"))};`,
        ].join("\n")
      : null,
};

await build({
  configFile: false,
  root: ROOT,
  logLevel: "warn",
  plugins: [entry],
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  esbuild: { jsx: "automatic" },
  build: {
    outDir,
    emptyOutDir: true,
    copyPublicDir: false,
    target: "es2020",
    minify: true,
    sourcemap: false,
    // zod's comments carry annotations Rollup cannot place; harmless, and noise in every build.
    rollupOptions: { onwarn: (w, warn) => (w.code === "INVALID_ANNOTATION" ? undefined : warn(w)) },
    lib: { entry: "live-embed-entry", formats: ["iife"], name: "ShopLiveMatch", fileName: () => "live-match.js" },
  },
});
console.log(`live-match embed built: ${path.relative(ROOT, path.join(outDir, "live-match.js"))}`);
