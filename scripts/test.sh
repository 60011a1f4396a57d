#!/usr/bin/env bash
# Sets up jsgym from a clean checkout (the package, Chromium, Playwright and the
# pinned p5.js) and runs every test suite: the Rust rasterizer's cargo tests, the p5
# shim's and the JS heap's C tests (ASan/UBSan), pytest (QuickJS and browser backends), and
# the built wheel from a fresh venv outside the checkout (scripts/test_wheel.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== system packages (fonts both backends draw text with, FreeType's headers)"
bash scripts/setup_system.sh

echo "== install (builds QuickJS, the runtime, the shim and the rasterizer)"
# extras: pytest; torch (pinned) and the trainers' libraries; ray from PyPI (the [ray]
# extra, no torch of its own) for tests/test_distributed.py's local two-node cluster
python3 -m pip install --quiet --disable-pip-version-check -e ".[test,train,ray]"

echo "== browser pieces (Chromium, Playwright, real p5.js in jsgym/web/)"
bash scripts/setup_browser.sh

echo "== rasterizer: cargo test"
(cd rasterizer && cargo test --release --no-default-features --quiet)

if [ -f p5shim/tests/Makefile ]; then
  echo "== p5 shim: C tests under ASan/UBSan"
  make -s -C p5shim/tests test
fi

echo "== runtime: per-env JS heap, C test under ASan/UBSan"
make -s -f runtime/tests/Makefile.heap check

echo "== pytest"
python3 -m pytest -q -m "not slow" "$@"

echo "== the wheel: built, repaired to manylinux, the README's commands from a fresh venv"
bash scripts/test_wheel.sh
