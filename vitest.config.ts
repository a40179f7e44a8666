import { defineConfig } from "vitest/config";

// Three suites: pure unit tests, HTTP/websocket tests against a real server
// process, and browser tests driving Debian's Chromium. `npm test` runs all three.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["core/**/*.test.ts", "app/**/*.test.{ts,tsx}", "server/**/*.test.ts"],
          environment: "node",
          // Property tests run thousands of cases; give them room on a busy 2-core machine.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "http",
          globalSetup: ["tests/support/global-setup.ts"],
          include: ["tests/http/**/*.test.ts", "tests/realtime/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "browser",
          globalSetup: ["tests/support/global-setup.ts"],
          include: ["tests/e2e/**/*.test.ts"],
          testTimeout: 90_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
