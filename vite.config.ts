import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [reactRouter()],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  build: {
    assetsInlineLimit: 0,
    // One module graph: the server bundle's input is the server itself, which imports the React Router app
    // (virtual:react-router/server-build), so server and pages share every module of core/ and server/.
    // Output: {build}/server/index.js; packages in node_modules stay external.
    ...(isSsrBuild ? { rollupOptions: { input: "server/main.ts" } } : {}),
  },
}));
