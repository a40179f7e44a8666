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
mkdir -p tmp
npx react-router typegen
# Types, and habits checked, not hoped for (docs/decisions/0008): the layering and SQL rules, lint, formatting, dead
# code; and the production build the HTTP and browser suites run. Independent of each other, so they run side by side
# (each is mostly one thread; together they keep both cores busy) and report in order once all are done.
checks=(typecheck lint format knip build)
typecheck() { npx tsc --noEmit; }
lint() { npx eslint .; }
format() { npx prettier --check . --log-level warn; }
knip() { npx knip; }
build() { node scripts/build-if-stale.mjs >/dev/null; }
for check in "${checks[@]}"; do ("$check" >"tmp/check-$check.log" 2>&1) & pids+=($!); done
failed=0
for i in "${!checks[@]}"; do
  if ! wait "${pids[$i]}"; then
    echo "== ${checks[$i]} failed:"
    cat "tmp/check-${checks[$i]}.log"
    failed=1
  fi
done
[ $failed = 0 ] || exit 1
status=0
npx vitest run --reporter=default --reporter=json --outputFile=tmp/vitest.json "$@" || status=$?
# One plain closing line that any CI can read.
node -e 'const r=require("./tmp/vitest.json");console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests+r.numTodoTests} skipped`)' || true
exit $status
