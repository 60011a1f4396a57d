#!/usr/bin/env bash
# Sets up the browser pieces of jsgym: Chromium (Debian's package where apt-get
# exists, else Playwright's own browser), Playwright for Python, and the pinned
# npm packages of jsgym/web/ (real p5.js). Idempotent; scripts/test.sh calls it.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ] && [ -z "${JSGYM_CHROMIUM:-}" ]; then
  if command -v apt-get >/dev/null 2>&1; then
    echo "== chromium (apt-get)"
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  fi
fi

echo "== playwright (pip)"
python3 -m pip install --quiet --disable-pip-version-check "playwright>=1.40"

if [ ! -x /usr/bin/chromium ] && [ -z "${JSGYM_CHROMIUM:-}" ]; then
  echo "== no system Chromium: installing Playwright's own"
  python3 -m playwright install chromium
fi

echo "== jsgym/web/: npm ci (p5.js)"
if ! command -v npm >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm >/dev/null
fi
(cd jsgym/web && npm ci --no-audit --no-fund --loglevel=error)
