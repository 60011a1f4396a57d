"""Every claim of docs/security.md, proven: what a game can reach (nothing of the
host), the limits with their defaults, how to change them, and that each one is
enforced where the document says."""

from __future__ import annotations

import inspect
import os
import pathlib
import subprocess
import time

import numpy as np
import pytest

import jsgym
from jsgym import GameMemoryError, GameRuntimeError, GameTimeoutError
from jsgym._core import eval_js

REPO = pathlib.Path(__file__).resolve().parent.parent
# Sanitizer builds (scripts/sanitize.sh) run 2-15x slower: time-based margins scale.
SLOW = {"asan": 6.0, "tsan": 10.0}.get(os.environ.get("JSGYM_SANITIZER", ""), 1.0)

# Host, file, network, process and module APIs of browsers, Node, Deno, Bun and
# QuickJS's own quickjs-libc. None may exist in a game's global scope.
HOST_NAMES = [
    "require", "module", "exports", "process", "Buffer", "global", "__dirname", "__filename",
    "std", "os", "bjson", "scriptArgs", "Deno", "Bun",
    "fetch", "XMLHttpRequest", "WebSocket", "EventSource", "navigator", "location", "Request",
    "Response", "Headers", "URL", "Worker", "SharedWorker", "importScripts", "postMessage",
    "window", "document", "localStorage", "sessionStorage", "indexedDB", "caches", "FileReader",
    "Blob", "File", "setTimeout", "setInterval", "setImmediate", "queueMicrotask",
    "requestAnimationFrame", "WebAssembly", "gc", "load", "loadFile", "readFile", "writeFile",
]

GAME = """
function setup() { createCanvas(64, 64); }
function resetGame(seed) {}
function draw() { background(0); %s }
function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
"""


def run(game_factory, body: str, steps: int = 2, **kwargs):
    """Runs a game whose draw() ends with `body` for a few steps; returns the env."""
    kwargs.setdefault("step_timeout", SLOW)
    envs = jsgym.make_vec(game_factory(GAME % body, "sandboxed"), 1, **kwargs)
    envs.reset(seed=0)
    for _ in range(steps):
        envs.step(np.zeros(1, dtype=np.int64))
    return envs


# ------------------------------------------------------------------ what a game can reach

@pytest.mark.parametrize("name", HOST_NAMES)
def test_no_host_api_in_the_game_context(name):
    assert eval_js(f"typeof globalThis[{name!r}]") == "undefined"
    # not reachable around the global object either
    assert eval_js(f"typeof Function('return this')()[{name!r}]") == "undefined"
    assert eval_js(f"typeof (0, eval)('this')[{name!r}]") == "undefined"


def test_console_and_print_are_silent_noops(capfd):
    assert eval_js("console.log('LEAK-1'); console.error('LEAK-2'); print('LEAK-3'); 1") == 1
    out, err = capfd.readouterr()
    assert "LEAK" not in out and "LEAK" not in err


def test_quickjs_libc_is_not_in_the_library():
    """quickjs-libc.c (std, os, file and process APIs) is not even compiled in."""
    from jsgym._core import lib, ffi
    path = os.environ.get("JSGYM_NATIVE_LIB")
    if not path:
        import jsgym._native as native
        path = next(pathlib.Path(native.__file__).parent.glob("*.so"), None)
        if path is None:
            pytest.skip("native library file not found")
    out = subprocess.run(["nm", "-D", "--defined-only", str(path)], capture_output=True,
                         text=True).stdout
    for symbol in ("js_std_add_helpers", "js_init_module_std", "js_init_module_os",
                   "js_std_loop", "js_module_loader"):
        assert symbol not in out
    exported = {line.split()[-1] for line in out.splitlines() if " T " in line}
    assert exported and all(s.startswith("jg_") for s in exported if not s.startswith("_")), (
        sorted(s for s in exported if not s.startswith("jg_"))[:20])
    del lib, ffi


def test_no_module_loader(game_factory):
    """Static import is a syntax error in a game script; import() never loads anything:
    the engine has no module loader and the promise's jobs never run."""
    path = game_factory("import * as os from 'os';\n" + GAME % "", "imports")
    with pytest.raises(jsgym.GameLoadError):
        jsgym.make_vec(path, 1)
    envs = run(game_factory, "if (frameCount === 2) { globalThis.got = 0; "
                             "import('os').then(m => { got = 1; }, e => { got = 2; }); }", steps=4)
    assert envs.call_js("got") == 0
    envs.close()


def test_atomics_wait_cannot_block_a_worker(game_factory):
    envs = run(game_factory, "globalThis.msg = (() => { try { Atomics.wait(new Int32Array("
                             "new SharedArrayBuffer(4)), 0, 0, 1e9); return 'blocked'; } "
                             "catch (e) { return String(e); } })();")
    assert "cannot block" in envs.call_js("msg")
    envs.close()


def test_global_changes_stay_in_their_env(game_factory):
    """Each env is its own JSRuntime: polluting built-ins in one env is invisible to
    the others, and a restarted env starts from a clean global object."""
    path = game_factory("""
        function setup() { createCanvas(64, 64); }
        function resetGame(seed) { if (seed === 1) { Object.prototype.evil = 1; Math.random = () => 7; } }
        function draw() { background(0); }
        function getGameState() { return {score: 0, lives: 3, gameState: 'playing'}; }
    """, "polluter2")
    envs = jsgym.make_vec(path, 2)
    envs.reset(seed=0)  # env 1 gets seed 1 and pollutes
    assert envs.call_js("({}).evil", 1) == 1
    assert envs.call_js("typeof ({}).evil", 0) == "undefined"
    assert envs.call_js("Math.random() < 1", 0) is True
    envs.close()


# ------------------------------------------------------------------ limits: defaults

def test_documented_defaults():
    sig = inspect.signature(jsgym.make_vec).parameters
    assert sig["step_timeout"].default == 1.0
    assert sig["memory_limit"].default == 64 << 20
    assert sig["stack_limit"].default == 1 << 20
    assert sig["max_draw_calls"].default == 100_000
    assert sig["on_error"].default == "raise"


def test_canvas_side_limit_is_16384(game_factory):
    ok = game_factory(GAME.replace("createCanvas(64, 64)", "createCanvas(16384, 16384)") % "", "big")
    envs = jsgym.make_vec(ok, 1)
    envs.reset(seed=0)
    envs.close()
    bad = game_factory(GAME.replace("createCanvas(64, 64)", "createCanvas(16385, 10)") % "", "bigger")
    with pytest.raises(GameRuntimeError, match=r"16384"):
        jsgym.make_vec(bad, 1)


@pytest.mark.parametrize("body, limit", [
    ("for (let i = 0; i < 5000; i++) push();", "4096"),
    ("beginShape(); for (let i = 0; i < 1000001; i++) vertex(0, 0); endShape();", "1000000"),
    ("text('x'.repeat(100001), 0, 0);", "100000"),
])
def test_fixed_per_frame_limits(game_factory, body, limit):
    # the shim's buffers count against the JS heap limit: 1M vertices take 64 MiB
    with pytest.raises(GameRuntimeError, match=limit):
        run(game_factory, body, steps=1, memory_limit=512 << 20)


def test_shim_buffers_count_against_the_memory_limit(game_factory):
    body = "beginShape(); for (let i = 0; i < 600000; i++) vertex(i, i); endShape();"
    with pytest.raises(GameMemoryError, match="16777216"):
        run(game_factory, body, steps=1, memory_limit=16 << 20)


# ------------------------------------------------------------------ limits: enforced, and configurable

def test_memory_limit_is_per_env_and_configurable(game_factory):
    body = "if (frameCount === 2) globalThis.blob = new Float64Array(3 << 20);"  # 24 MiB
    with pytest.raises(GameMemoryError, match="16777216"):
        run(game_factory, body, memory_limit=16 << 20)
    run(game_factory, body, memory_limit=64 << 20).close()


def test_freed_js_memory_is_reused(game_factory):
    """Each env's JS heap recycles what the GC frees: a game that allocates about
    6 MiB of short-lived objects of many sizes every frame runs for many frames
    within a 12 MiB limit."""
    body = ("let keep = 0; for (let i = 0; i < 6000; i++) { "
            "const a = new Array((i * 37) % 300).fill(i); const s = 'k' + i + 'x'.repeat(i % 90); "
            "keep += a.length + s.length; } globalThis.kept = keep;")
    envs = run(game_factory, body, steps=60, memory_limit=12 << 20)
    assert envs.call_js("kept") > 0
    envs.close()


def test_step_timeout_is_configurable_and_timely(game_factory):
    busy = "const t = Date.now(); let n = 0; for (let i = 0; i < 2e7; i++) n += i % 7;"
    with pytest.raises(GameTimeoutError, match="0.05"):
        run(game_factory, busy, steps=1, step_timeout=0.05)
    run(game_factory, busy, steps=1, step_timeout=30.0).close()
    # an endless loop is stopped soon after the deadline, not at some later point
    envs = jsgym.make_vec(game_factory(GAME % "if (frameCount === 2) for (;;) {}", "spin"), 1,
                          step_timeout=0.2)
    envs.reset(seed=0)
    t0 = time.perf_counter()
    with pytest.raises(GameTimeoutError):
        envs.step(np.zeros(1, dtype=np.int64))
    assert time.perf_counter() - t0 < 0.2 + 0.5 * SLOW
    envs.close()


def test_stack_limit_is_configurable(game_factory):
    body = "function f(n) { return n === 0 ? 0 : 1 + f(n - 1); } globalThis.depth = f(3000);"
    with pytest.raises(GameRuntimeError, match="stack overflow"):
        run(game_factory, body, steps=1, stack_limit=64 << 10)
    run(game_factory, body, steps=1, stack_limit=8 << 20).close()


def test_max_draw_calls_is_configurable(game_factory):
    body = "for (let i = 0; i < 500; i++) rect(i % 64, 0, 1, 1);"
    with pytest.raises(GameRuntimeError, match=r"too many draw calls in one frame \(limit 100\)"):
        run(game_factory, body, steps=1, max_draw_calls=100)
    run(game_factory, body, steps=1).close()


@pytest.mark.parametrize("kwargs, problem", [
    ({"memory_limit": 1000}, "memory_limit"),
    ({"stack_limit": 1000}, "stack_limit"),
    ({"step_timeout": 0.0}, "step_timeout"),
    ({"on_error": "ignore"}, "on_error"),
])
def test_limits_are_validated(probe_game, kwargs, problem):
    with pytest.raises(ValueError, match=problem):
        jsgym.make_vec(probe_game, 1, **kwargs)


def test_failed_env_is_rebuilt_from_scratch(game_factory):
    """on_error="reset" destroys the failing env's JSRuntime (all its memory) and
    builds a new one: state left by the failure does not survive."""
    body = "globalThis.junk = (globalThis.junk || []); junk.push(new Float64Array(1 << 17)); "
    envs = run(game_factory, body + "if (frameCount === 6) throw new Error('x');", steps=4,
               on_error="reset", memory_limit=16 << 20)
    _, _, _, trunc, infos = envs.step(np.zeros(1, dtype=np.int64))
    assert trunc[0] and "_error" in infos
    envs.step(np.zeros(1, dtype=np.int64))  # NEXT_STEP: the fresh env's first frame
    assert envs.call_js("junk.length") == 1
    envs.close()


def test_play_server_binds_loopback_only():
    """`jsgym play` serves on 127.0.0.1 unless told otherwise: nothing listens on
    the machine's other interfaces."""
    import socket

    play = pytest.importorskip("jsgym.play")
    server = play.PlayServer("catch")
    try:
        assert server.host == "127.0.0.1"
        assert ipaddress_is_loopback(server.httpd.server_address[0])
        with socket.create_connection(("127.0.0.1", server.port), timeout=5):
            pass
    finally:
        server.close()


def ipaddress_is_loopback(host: str) -> bool:
    import ipaddress
    return ipaddress.ip_address(host).is_loopback
