"""The CI-sized soak (tests/tools/soak.py runs the long one): creating, failing, restarting
and closing envs over and over loses no memory."""

from __future__ import annotations

import gc
import os
import importlib.util
import pathlib

import numpy as np
import pytest

import jsgym
from jsgym._core import engine_name

REPO = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("soak", REPO / "tests" / "tools" / "soak.py")
soak = importlib.util.module_from_spec(spec)
spec.loader.exec_module(soak)

MIB = 1 << 20
# Under ASan freed memory sits in a quarantine and TSan keeps shadow memory: RSS says
# nothing there, and LeakSanitizer checks leaks instead (scripts/sanitize.sh).
pytestmark = pytest.mark.skipif(bool(os.environ.get("JSGYM_SANITIZER")),
                                reason="RSS is not meaningful under a sanitizer")


def rss_growth(cycle, warmup: int, rounds: int) -> float:
    """RSS growth (MiB) over `rounds` calls of cycle() after `warmup` calls."""
    for _ in range(warmup):
        cycle()
    gc.collect()
    before = soak.rss_bytes()
    for _ in range(rounds):
        cycle()
    gc.collect()
    return (soak.rss_bytes() - before) / MIB


def test_creating_and_closing_vector_envs_loses_no_memory():
    def cycle():
        envs = jsgym.make_vec("catch", 4, num_threads=2)
        envs.reset(seed=0)
        envs.step(np.zeros(4, dtype=np.int64))
        envs.close()
    # one leaked env (JSRuntime, canvas, command buffers) is >= 200 KiB: 4 x 150 would be 120 MiB
    assert rss_growth(cycle, warmup=30, rounds=150) < 8


def test_restarting_failing_envs_loses_no_memory(tmp_path):
    game = tmp_path / "crasher.js"
    game.write_text("""
        let junk;
        function setup() { createCanvas(64, 64); }
        function resetGame(seed) { junk = new Array(20000).fill('x' + seed); }
        function draw() { background(0); rect(1, 1, 5, 5); if (frameCount === 3) throw new Error('again'); }
        function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
    """)
    envs = jsgym.make_vec(game, 4, num_threads=2, on_error="reset")
    envs.reset(seed=0)
    restarts = {"n": 0}

    def cycle():
        _, _, _, _, infos = envs.step(np.zeros(4, dtype=np.int64))
        restarts["n"] += int(infos.get("_error", np.zeros(4, bool)).sum())
    growth = rss_growth(cycle, warmup=60, rounds=600)  # ~800 env rebuilds after warm-up
    envs.close()
    assert restarts["n"] > 500
    assert growth < 8


def test_hard_stops_lose_no_memory(tmp_path):
    """An env stopped from outside (a loop inside a built-in) has its whole JS heap
    released: 8 MiB held per episode, 30 stops, no growth."""
    if engine_name().startswith("quickjs-ng"):
        pytest.skip("quickjs-ng has no hard stop")
    game = tmp_path / "hang.js"
    game.write_text("""
        let junk;
        function setup() { createCanvas(64, 64); }
        function resetGame(seed) { junk = []; for (let i = 0; i < 64; i++) junk.push(new Float64Array(16384)); }
        function draw() { background(0); if (frameCount === 2) Array.prototype.indexOf.call({length: 2 ** 53 - 1}, 'x'); }
        function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
    """)
    envs = jsgym.make_vec(game, 1, on_error="reset", step_timeout=0.05, memory_limit=32 << 20)
    envs.reset(seed=0)
    stops = {"n": 0}

    def cycle():
        for _ in range(3):
            _, _, _, _, infos = envs.step(np.zeros(1, dtype=np.int64))
            if "_error" in infos and infos["_error"][0]:
                assert "stopped from outside" in infos["error"][0]
                stops["n"] += 1
    growth = rss_growth(cycle, warmup=3, rounds=30)
    envs.close()
    assert stops["n"] >= 30
    assert growth < 40  # a kept heap is >= 8 MiB: 30 of them would be 240 MiB


def test_short_soak_is_flat():
    r = soak.soak(steps=30_000, envs=24, samples=15, churn_every=10)
    print(soak.report(r).split("RSS over time")[0])
    assert r["errors"] > 0 and r["episodes"] > 0 and r["churned_vector_envs"] > 0
    assert r["growth_after_warmup_mib"] < 16, soak.report(r)


@pytest.mark.slow
def test_long_soak_is_flat():
    r = soak.soak(steps=1_000_000, envs=64)
    assert r["slope_kib_per_1e5_steps"] < 256, soak.report(r)
