/**
 * Builds the admin's browser app (app/admin/main.tsx, decision 0024) apart from the storefront's build, so the
 * storefront's files stay byte for byte what they were: {SHOP_BUILD_DIR}/client/wp-admin-app/admin.js (an ES
 * module with React, `@wordpress/components`, `@wordpress/dataviews` and the screens), admin.css, and the chunks
 * screens import lazily (the product editor's rich text, decision 0046). Only
 * /wp-admin/ pages load them (app/routes/wp-admin.tsx). Run after `react-router build` (which empties the client
 * folder).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The modules only the product editor's rich text (RichTextEditor.tsx) loads: they stay in its chunk. */
const LAZY_ONLY =
  /[\\/]node_modules[\\/](@tiptap|prosemirror-[^\\/]+|linkifyjs|orderedmap|rope-sequence|w3c-keyname)[\\/]|[\\/]app[\\/]admin[\\/]RichTextEditor\.tsx$/;
const outDir = path.join(ROOT, process.env.SHOP_BUILD_DIR ?? "build", "client", "wp-admin-app");

await build({
  configFile: false,
  root: ROOT,
  base: "/wp-admin-app/",
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
      input: path.join(ROOT, "app/admin/main.tsx"),
      output: {
        format: "es",
        entryFileNames: "admin.js",
        chunkFileNames: "[name]-[hash].js",
        // Everything but the lazily loaded editor in one chunk both import: the page loads admin.js with `?v=`, so a
        // chunk importing admin.js itself would run a second copy of it (and of React).
        manualChunks: (id) => (LAZY_ONLY.test(id) || id.endsWith("/app/admin/main.tsx") ? undefined : "admin-core"),
        assetFileNames: (asset) => (asset.names.some((n) => n.endsWith(".css")) ? "admin.css" : "[name]-[hash][extname]"),
      },
    },
    // An ES module (the page loads it with type="module"), not a library build: minified, and a screen's heavy part
    // can be a chunk of its own, fetched only when that screen opens: the product editor's rich text (decision 0046),
    // RichTextEditor-[hash].js beside admin.js and admin-core-[hash].js (the rest). Their names change with their
    // bytes, and admin.js (whose bytes version the admin's files) names them.
    cssCodeSplit: false,
    modulePreload: { polyfill: false },
  },
});
console.log(`admin app built: ${path.relative(ROOT, path.join(outDir, "admin.js"))}`);
