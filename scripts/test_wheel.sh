#!/usr/bin/env bash
# The README's main commands from the built wheel, in a fresh venv outside any checkout:
# the wheel's contents, `jsgym train catch --algo ppo --total-timesteps 2048`,
# `jsgym play pong` (the page and p5.js served, fetched once) and the browser backend
# for a few steps, with p5.js installed at first use into an empty user cache.
# scripts/test.sh runs it; alone: bash scripts/test_wheel.sh
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/jsgym-wheel.XXXXXX)
PLAY_PID=""
cleanup() { [ -n "$PLAY_PID" ] && kill "$PLAY_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

bash "$REPO/scripts/build_wheel.sh" "$WORK/dist"
WHEEL=$(ls "$WORK"/dist/jsgym-*manylinux*.whl)

echo "== the wheel: everything inside jsgym/, LICENSE and py.typed, no node_modules"
python3 - "$WHEEL" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
tops = {n.split("/")[0] for n in names}
bad = sorted(t for t in tops if not (t == "jsgym" or t.startswith("jsgym-")))
assert not bad, f"top-level entries besides jsgym/: {bad}"
for need in ("jsgym/py.typed", "jsgym/contract.json", "jsgym/games/pong.js", "jsgym/web/play.html",
             "jsgym/web/package-lock.json", "jsgym/trainers/ppo.py"):
    assert need in names, f"{need} missing from the wheel"
assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), "no LICENSE"
assert any(n.endswith("/_jsgym_gymnasium_hook.py") for n in names), "no Gymnasium hook"
assert not any("node_modules" in n for n in names), "node_modules in the wheel"
assert not any(n.endswith(".gitignore") for n in names), "a .gitignore in the wheel"
print(f"{sys.argv[1].rsplit('/', 1)[-1]}: {len(names)} files")
PY

echo "== fresh venv: the wheel with [train,browser]"
python3 -m venv "$WORK/venv"
PY="$WORK/venv/bin/python"
JSGYM="$WORK/venv/bin/jsgym"
"$PY" -m pip install --quiet --disable-pip-version-check "$WHEEL[train,browser]"
cd "$WORK"  # outside the checkout: nothing of it is importable from here
export JSGYM_CACHE_DIR="$WORK/cache"  # an empty cache: p5.js is installed at first use
"$PY" -c "import jsgym, sys; assert jsgym.__file__.startswith(sys.prefix), jsgym.__file__"
"$JSGYM" --version

echo "== jsgym train catch --algo ppo --total-timesteps 2048"
"$JSGYM" train catch --algo ppo --total-timesteps 2048 --no-progress
ls runs/catch__ppo__*/checkpoints/final.pt

echo "== jsgym play pong: the page served, p5.js found (installed into the cache now)"
"$JSGYM" play pong --port 0 > play.log 2>&1 &
PLAY_PID=$!
"$PY" - <<'PY'
import re, time, urllib.request
for _ in range(600):
    m = re.search(r"at (http://\S+)", open("play.log").read())
    if m:
        break
    time.sleep(0.2)
else:
    raise SystemExit("jsgym play printed no URL:\n" + open("play.log").read())
url = m.group(1).rstrip("/")
page = urllib.request.urlopen(url + "/", timeout=30).read().decode()
assert "play.js" in page, page[:500]
p5 = urllib.request.urlopen(url + "/p5.min.js", timeout=30).read()
assert len(p5) > 100_000 and b"p5" in p5[:2000], len(p5)
print(f"{url}: page {len(page)} B, p5.min.js {len(p5)} B")
PY
kill "$PLAY_PID"; PLAY_PID=""
ls "$JSGYM_CACHE_DIR"/p5-*/node_modules/p5/lib/p5.min.js

echo "== make_vec(..., backend='browser'): a few steps"
"$PY" - <<'PY'
import numpy as np, jsgym
envs = jsgym.make_vec("pong", 2, backend="browser")
obs, _ = envs.reset(seed=0)
for _ in range(5):
    obs, r, term, trunc, infos = envs.step(np.array([3, 4]))
assert obs.shape == (2, 64, 64, 3) and obs.any()
envs.close()
print("browser backend: 5 steps of 2 envs")
PY
echo "== wheel test passed"
