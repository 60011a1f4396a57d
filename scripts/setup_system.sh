#!/usr/bin/env bash
# Installs the Debian packages the build bundles and links against: the pinned font
# files (jsgym/fonts.py FONT_PACKAGES) and FreeType's headers (glyph hinting, see
# runtime/hinter.c). Idempotent; skipped where apt-get does not exist (the build then
# warns and jsgym draws text from fonts found at run time, unhinted without FreeType).
set -euo pipefail
PACKAGES=(fonts-dejavu-core fonts-dejavu-extra fonts-liberation libfreetype-dev pkg-config)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup_system.sh: no apt-get; install ${missing[*]} (or equivalents) yourself" >&2
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
