import { reactRouter } from "@react-router/dev/vite";
import { build, defineConfig, type Plugin } from "vite";

const IIFE = "\0iife:";

/**
 * `import code from "./module.ts?iife"`: the module and its imports built into one minified classic script, as a
 * string the server inlines in the page (the pre-hydration attribution script, decision 0017).
 */
const inlineScripts: Plugin = {
  name: "inline-iife-scripts",
  enforce: "pre",
  async resolveId(source, importer) {
    if (!source.endsWith("?iife")) return null;
    const resolved = await this.resolve(source.slice(0, -"?iife".length), importer, { skipSelf: true });
    return resolved ? IIFE + resolved.id : null;
  },
  async load(id) {
    if (!id.startsWith(IIFE)) return null;
    const out = await build({
      configFile: false,
      logLevel: "warn",
      build: {
        write: false,
        minify: true,
        target: "es2020",
        copyPublicDir: false,
        emptyOutDir: false,
        lib: { entry: id.slice(IIFE.length), formats: ["iife"], name: "__inline", fileName: () => "inline.js" },
      },
    });
    const output = (Array.isArray(out) ? out[0]! : out) as { output: { code?: string }[] };
    return `export default ${JSON.stringify(output.output[0]!.code!.trim())};`;
  },
};

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [inlineScripts, reactRouter()],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  build: {
    assetsInlineLimit: 0,
    // The browser files through terser (a few KB less gzip per page than esbuild's minifier, issue 18); the server
    // bundle is not minified.
    ...(isSsrBuild ? {} : { minify: "terser" as const, terserOptions: { compress: { passes: 2 } } }),
    // One module graph: the server bundle's input is the server itself, which imports the React Router app
    // (virtual:react-router/server-build), so server and pages share every module of core/ and server/.
    // Output: {build}/server/index.js; packages in node_modules stay external.
    ...(isSsrBuild ? { rollupOptions: { input: "server/main.ts" } } : {}),
  },
}));
