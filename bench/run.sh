#!/usr/bin/env bash
# `npm run bench`: builds, then runs every benchmark in bench/ and prints figures (no pass/fail).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm install --no-audit --no-fund
npm run build >/dev/null
for b in pages catalog cart discounts checkout checkout-storm popups tracking search rest-products js-per-route render-cost page-cache; do
  if [ -f "bench/$b.ts" ]; then echo; echo "# bench/$b.ts"; npx tsx "bench/$b.ts"; fi
done
if [ -f bench/ws-fanout.ts ]; then echo; echo "# bench/ws-fanout.ts"; npx tsx bench/ws-fanout.ts; fi
