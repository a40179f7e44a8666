import { accessSync, constants, statSync } from "node:fs";
import { defineConfig } from "vitest/config";

// Every shop test file copies a 31 MB, 1,300-file PGlite template, writes to it and deletes it; Chromium makes a
// profile per context. On the machine's disk a copy and its removal took 2–6 s of waiting per file (about a third of
// the suite's time); in RAM, a tenth of a second (docs/decisions/0030-test-suite-speed.md). So temporary files go to
// /dev/shm when the machine has it and TMPDIR is not set; Vitest's workers and Chromium inherit the variable.
const RAM_DISK = "/dev/shm";
function usableRamDisk(): boolean {
  try {
    accessSync(RAM_DISK, constants.W_OK);
    return statSync(RAM_DISK).isDirectory();
  } catch {
    return false;
  }
}
if (!process.env.TMPDIR && usableRamDisk()) process.env.TMPDIR = RAM_DISK;

/** HTTP test files that must run alone (the `http-alone` project below). */
const HTTP_ALONE = [
  "tests/http/checkout-concurrency.test.ts",
  "tests/http/checkout-busy.test.ts",
  "tests/http/checkout-kill.test.ts",
  "tests/http/processes.test.ts",
  "tests/http/live.test.ts",
  "tests/http/restart.test.ts",
];

// Four suites: pure unit tests; database tests (tests/db) on a copy of a migrated template database; HTTP/websocket
// tests against a real server process (projects `http`, two files at a time, and `http-alone`); browser tests driving
// Debian's Chromium. `npm test` runs them all, in that order.
// The database-backed suites migrate (and seed) one template per run and give every test file its own copy of it
// (tests/support/database.ts): a PGlite folder, or with TEST_DATABASE_URL a PostgreSQL database of its own.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          // Pure tests only: no database, no server, no network peer (those go to tests/db or tests/http).
          include: ["core/**/*.test.ts", "app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/lint/**/*.test.ts"],
          environment: "node",
          // The files share one module graph per worker instead of re-importing it for every file (5x faster). Safe
          // while they mock no modules and change no globals; a file that must would need `isolate: true` again.
          isolate: false,
          // Property tests run thousands of cases; give them room on a busy 2-core machine.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "db",
          globalSetup: ["tests/support/template-migrated.ts"],
          include: ["tests/db/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "http",
          globalSetup: ["tests/support/global-setup.ts", "tests/support/template-seeded.ts"],
          include: ["tests/http/**/*.test.ts", "tests/realtime/**/*.test.ts"],
          exclude: HTTP_ALONE,
          // A guard against hangs, not a speed check: some tests sign in 20 times (scrypt) on a 2-core machine others share.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Two files at a time, each starting its own shop on its own database copy in its worker: a file's test code,
          // shop and PGlite share one thread, so one file at a time left a core idle (222 s against 127 s for this
          // project, decision 0030). In one module graph per worker: the built server and PGlite's WebAssembly load
          // once per worker, not per file; none mocks modules or changes globals.
          fileParallelism: true,
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 2 },
          // Waits on state (expect.poll) get the time a loaded machine needs; they end as soon as the state is there.
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        test: {
          // The HTTP files that load the machine on purpose or time the shop's own limits (checkout storms, a pool
          // wait of 300 ms, several processes, a killed process): alone, after the others, one at a time.
          name: "http-alone",
          globalSetup: ["tests/support/global-setup.ts", "tests/support/template-seeded.ts"],
          include: HTTP_ALONE,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          isolate: false,
          sequence: { groupOrder: 3 },
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        test: {
          name: "browser",
          globalSetup: ["tests/support/global-setup.ts", "tests/support/template-seeded.ts"],
          include: ["tests/e2e/**/*.test.ts"],
          testTimeout: 90_000,
          hookTimeout: 180_000,
          // One file at a time: Chromium already fills both cores.
          fileParallelism: false,
          isolate: false, // as in the http project
          sequence: { groupOrder: 4 },
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
