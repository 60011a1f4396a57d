"""Every cost a game file or a caller can cause is bounded, and every failure is the
documented class naming game, env and phase (docs/security.md): rendering and
compiling are inside a time limit, the process running out of memory is a memory
error, and bad arguments are refused before anything is allocated.

The cases too big to keep as files (megabytes of source) are generated here; the
others are in tests/corpus/bad/ (render_*, throw_symbol, throw_unprintable,
canvas_side_rounds_to_zero, syntax_not_utf8, navigate_location).
"""

from __future__ import annotations

import math
import os
import pathlib
import subprocess
import sys
import textwrap
import time
import tracemalloc

import numpy as np
import pytest

import jsgym
import jsgym._core  # noqa: F401  (imported before any allocation is measured)
import jsgym.vector  # noqa: F401
from jsgym import contract

CORPUS = pathlib.Path(__file__).resolve().parent / "corpus" / "bad"
SANITIZER = bool(os.environ.get("JSGYM_SANITIZER"))

TAIL = """
function setup() { createCanvas(64, 64); }
function draw() { background(0); }
function resetGame(seed) {}
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
"""


def compile_bomb(n: int) -> str:
    """A file QuickJS's parser needs quadratic time for: n global variables, each
    declaration scanning the ones before, then one function reading them all
    (200,000: 4.2 MB, about two minutes to compile without a limit)."""
    return ("".join(f"var v{i}=0;" for i in range(n)) + "function g(){return "
            + "+".join(f"v{i}" for i in range(n)) + ";}" + TAIL)


def test_compile_bomb_stops_at_the_compile_timeout(tmp_path):
    path = tmp_path / "compile_bomb.js"
    path.write_text(compile_bomb(200_000))
    t0 = time.perf_counter()
    with pytest.raises(jsgym.GameTimeoutError) as err:
        jsgym.make_vec(path, 1, compile_timeout=1.0)
    took = time.perf_counter() - t0
    e = err.value
    assert e.phase == "compile" and e.game == "compile_bomb", e
    assert "compile_bomb" in str(e) and contract.PHASE["compile"].text in str(e), str(e)
    assert "compile timeout of 1 s" in str(e), str(e)
    if not SANITIZER:
        assert took < 2.0, f"make_vec failed {took:.2f} s in, compile_timeout 1 s"


def test_compile_timeout_default_is_the_contracts_and_large_files_within_it_load(tmp_path):
    assert contract.default("compile_timeout") == 10.0
    path = tmp_path / "many_vars.js"
    path.write_text(compile_bomb(2_000))  # 40 kB, milliseconds
    envs = jsgym.make_vec(path, 1)
    envs.reset(seed=0)
    envs.close()


@pytest.mark.parametrize("frameskip", [1, 4])
def test_raster_bomb_fails_within_twice_the_step_timeout(frameskip):
    """99,990 stroked ellipses a frame (within max_draw_calls) are seconds of
    rasterizing: the step fails within 2x step_timeout, naming the render phase, and
    the other env of the vector env steps on."""
    name = "render_ellipse_bomb" if frameskip == 1 else "render_bomb_frameskip"
    limit = 2.0 if SANITIZER else 0.5  # the bomb's JS alone is ~0.3 s under ASan
    # supersample 4: 6.5 s of rasterizing (1.8 s at 1), well past the limit even
    # under a sanitizer, where only the JS (C) is slower
    envs = jsgym.make_vec(CORPUS / f"{name}.js", 2, num_threads=1, frameskip=frameskip,
                          step_timeout=limit, on_error="reset", supersample=4)
    envs.reset(seed=[10, 11])  # env 1 (odd seed) draws the bomb on frame 4
    failed = None
    for step in range(4):
        t0 = time.perf_counter()
        _, _, _, truncated, infos = envs.step(np.zeros(2, dtype=np.int64))
        took = time.perf_counter() - t0
        if "_error" in infos and infos["_error"][1]:
            failed = (took, infos["error"][1], truncated)
            break
        assert "_error" not in infos
    assert failed is not None, "the bomb did not fail"
    took, message, truncated = failed
    assert truncated[1] and not truncated[0]
    assert f"game '{name}' env 1" in message and contract.PHASE["render"].text in message, message
    assert f"step timeout of {limit:g} s" in message, message
    if not SANITIZER:
        # the failing step: env 1's step and its restart (setup, a reset), env 0's step
        assert took < 2 * limit + 0.5, f"the failing step took {took:.2f} s"
    envs.step(np.zeros(2, dtype=np.int64))
    envs.close()


def test_raster_bomb_in_setup_is_a_render_timeout_at_creation(tmp_path):
    path = tmp_path / "setup_bomb.js"
    path.write_text(textwrap.dedent("""
        function setup() {
          createCanvas(64, 64); stroke(255); strokeWeight(3); noFill();
          for (let i = 0; i < 99990; i++) ellipse(32, 32, 60 - (i % 50), 40);
        }
        function draw() {}
        function resetGame(seed) {}
        function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
    """))
    with pytest.raises(jsgym.GameTimeoutError) as err:
        jsgym.make_vec(path, 1, step_timeout=2.0 if SANITIZER else 0.25)
    e = err.value
    assert e.phase == "render" and e.env_index == 0 and "setup_bomb" in str(e), e


def _raises_without_allocating(exc_type, match, **kwargs):
    """make_vec(**kwargs) raises exc_type before allocating as much as a 1 MiB buffer."""
    tracemalloc.start()
    try:
        with pytest.raises(exc_type, match=match):
            jsgym.make_vec("catch", 2, **kwargs)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, f"{kwargs}: {peak} bytes allocated before the error"


@pytest.mark.parametrize("kwargs, exc_type, match", [
    ({"step_timeout": math.inf}, ValueError, r"step_timeout must be within \(0, 86400\]"),
    ({"step_timeout": 2e10}, ValueError, "step_timeout"),
    ({"step_timeout": math.nan}, ValueError, "step_timeout"),
    ({"step_timeout": 0}, ValueError, "step_timeout"),
    ({"step_timeout": "1"}, TypeError, "step_timeout must be a number"),
    ({"compile_timeout": math.inf}, ValueError, "compile_timeout"),
    ({"compile_timeout": -1.0}, ValueError, "compile_timeout"),
    ({"obs_size": (10000, 10000)}, ValueError, r"obs_size must be within 1\.\.4096"),
    ({"obs_size": 5000}, ValueError, "obs_size"),
    ({"obs_size": (64, 64.5)}, TypeError, "obs_size must be an int"),
    ({"obs_size": None}, TypeError, "obs_size"),
    ({"supersample": 5}, ValueError, "supersample"),
    ({"memory_limit": 10}, ValueError, "memory_limit"),
    ({"max_draw_calls": -1}, ValueError, "max_draw_calls"),
    ({"game_options": {"speed": math.nan}}, ValueError, "game_options must be JSON without NaN"),
    ({"game_options": {"speed": math.inf}}, ValueError, "game_options"),
    ({"game_options": {"f": object()}}, TypeError, "game_options must be JSON-serialisable"),
])
def test_bad_arguments_are_refused_before_any_allocation(kwargs, exc_type, match):
    _raises_without_allocating(exc_type, match, **kwargs)


def test_the_largest_accepted_step_timeout_runs():
    envs = jsgym.make_vec("catch", 1, step_timeout=contract.LIMITS["step_timeout"]["max"])
    envs.reset(seed=0)
    envs.step(np.zeros(1, dtype=np.int64))
    envs.close()


@pytest.mark.parametrize("seed", [[1.5, 2.0], [1, 2.0], np.array([1.0, 2.0]), [True, 1]])
def test_seed_lists_of_non_ints_raise_like_a_scalar(seed):
    envs = jsgym.make_vec("catch", 2)
    with pytest.raises(TypeError, match="seed list entries must be ints"):
        envs.reset(seed=seed)
    with pytest.raises(TypeError, match="seed must be an int"):
        envs.reset(seed=1.5)
    envs.reset(seed=[1, np.int64(2)])
    envs.close()


@pytest.mark.parametrize("name, words", [
    ("throw_symbol", "draw() threw a Symbol(boom)"),
    ("throw_unprintable", "draw() threw a value that cannot be converted to a string"),
])
def test_unprintable_throws_say_what_was_thrown(name, words):
    envs = jsgym.make_vec(CORPUS / f"{name}.js", 2)
    envs.reset(seed=[10, 11])
    with pytest.raises(jsgym.GameRuntimeError) as err:
        for _ in range(6):
            envs.step(np.zeros(2, dtype=np.int64))
    assert words in str(err.value) and err.value.env_index == 1, str(err.value)
    envs.close()


def test_canvas_side_that_rounds_to_zero_names_the_call():
    with pytest.raises(jsgym.GameRuntimeError, match=r"createCanvas\(\) sides must be .* got 1e-50"):
        jsgym.make_vec(CORPUS / "canvas_side_rounds_to_zero.js", 1)


def test_a_file_that_is_not_utf8_is_a_load_error_at_its_byte():
    with pytest.raises(jsgym.GameLoadError) as err:
        jsgym.make_vec(CORPUS / "syntax_not_utf8.js", 1)
    e = err.value
    assert (e.line, e.column) == (2, 7) and "0xe9" in str(e) and e.game == "syntax_not_utf8"


_OOM_CHILD = r"""
import resource, sys
import numpy as np
import jsgym
import jsgym._core  # noqa: F401  (imported before any allocation is measured)
import jsgym.vector  # noqa: F401
game = sys.argv[1]
envs = jsgym.make_vec(game, 1, num_threads=1, memory_limit=1 << 40, step_timeout=30.0)
envs.reset(seed=0)
with open("/proc/self/status") as f:
    vm = next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmSize:"))
resource.setrlimit(resource.RLIMIT_AS, (vm + (256 << 20), resource.RLIM_INFINITY))
try:
    envs.step(np.zeros(1, dtype=np.int64))
except jsgym.GameError as e:
    print(type(e).__name__, e.phase, "|", str(e).splitlines()[0])
else:
    print("no error")
"""


@pytest.mark.skipif(SANITIZER, reason="a sanitizer's shadow memory does not fit an "
                                       "address-space limit")
def test_process_out_of_memory_is_a_memory_error(tmp_path):
    """The system refusing memory while the env is below its own limit is a
    GameMemoryError that says so (not 'threw null')."""
    path = tmp_path / "hog.js"
    path.write_text(textwrap.dedent("""
        let keep = [];
        function setup() { createCanvas(64, 64); }
        function draw() { for (;;) keep.push(new Array(1 << 20).fill(1.5)); }
        function resetGame(seed) { keep = []; }
        function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
    """).replace("function draw() {", "let armed = false;\nfunction draw() { if (!armed) { armed = true; return; }"))
    proc = subprocess.run([sys.executable, "-c", _OOM_CHILD, str(path)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout.strip()
    assert out.startswith("GameMemoryError draw |"), out
    assert "the process ran out of memory" in out and "hog" in out, out
