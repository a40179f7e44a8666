/**
 * Builds the admin's browser app (app/admin/main.tsx, decision 0024) apart from the storefront's build, so the
 * storefront's files stay byte for byte what they were: {SHOP_BUILD_DIR}/client/wp-admin-app/admin.js (one ES
 * module with React, `@wordpress/components`, `@wordpress/dataviews` and the screens) and admin.css. Only
 * /wp-admin/ pages load them (app/routes/wp-admin.tsx). Run after `react-router build` (which empties the client
 * folder).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(ROOT, process.env.SHOP_BUILD_DIR ?? "build", "client", "wp-admin-app");

await build({
  configFile: false,
  root: ROOT,
  logLevel: "warn",
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  esbuild: { jsx: "automatic" },
  build: {
    outDir,
    emptyOutDir: true,
    copyPublicDir: false,
    target: "es2022",
    minify: true,
    sourcemap: false,
    chunkSizeWarningLimit: 4000,
    rollupOptions: {
      // '"use client"' directives of @base-ui and zod's annotations: meaningless in a browser bundle, noise in every build.
      onwarn: (w, warn) => (w.code === "MODULE_LEVEL_DIRECTIVE" || w.code === "INVALID_ANNOTATION" ? undefined : warn(w)),
    },
    lib: { entry: path.join(ROOT, "app/admin/main.tsx"), formats: ["iife"], name: "ShopAdmin", fileName: () => "admin.js", cssFileName: "admin" },
  },
});
console.log(`admin app built: ${path.relative(ROOT, path.join(outDir, "admin.js"))}`);
