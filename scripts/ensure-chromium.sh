#!/usr/bin/env bash
# Browser tests drive Debian's Chromium (Playwright's own browser download does not work here).
set -euo pipefail
CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Chromium from Debian's packages…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
else
  echo "Chromium is missing. Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH." >&2
  exit 1
fi
