#!/usr/bin/env bash
# Every test, one Vitest run over all four projects: pure unit tests, database
# tests, HTTP and websocket tests against a real server, and browser tests in
# Debian's Chromium; the database-backed ones on copies of one migrated and seeded
# PGlite template. Installs what is missing first (dependencies, Chromium) so it
# works on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm install --no-audit --no-fund
bash scripts/ensure-chromium.sh
npx react-router typegen
npx tsc --noEmit
# Habits checked, not hoped for (docs/decisions/0008): the layering and SQL rules, lint, formatting, dead code.
npx eslint .
npx prettier --check . --log-level warn
npx knip
node scripts/build-if-stale.mjs >/dev/null
mkdir -p tmp
status=0
npx vitest run --reporter=default --reporter=json --outputFile=tmp/vitest.json "$@" || status=$?
# One plain closing line that any CI can read.
node -e 'const r=require("./tmp/vitest.json");console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests+r.numTodoTests} skipped`)' || true
exit $status
