"""Broken and misbehaving games raise the right jsgym.GameError subclass, naming the
game, the env and the place; other envs and the process carry on. Tests taking the
``backend`` fixture run on both backends; the limits (step timeout, memory) are the
QuickJS backend's sandbox: the browser has no per-env memory limit, and its step
timeout is a page-call timeout of at least jsgym.browser.TIMEOUT_FLOOR seconds after
which the page is lost."""

from __future__ import annotations

import numpy as np
import pytest

import jsgym
from jsgym import contract
from jsgym import (GameContractError, GameError, GameLoadError, GameMemoryError,
                   GameRuntimeError, GameTimeoutError)

def vec(backend, game, num_envs, **kw):
    return jsgym.make_vec(game, num_envs, backend=backend, **kw)


OK_STATE = "function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }"
BASE = """
function setup() { createCanvas(20, 20); }
function resetGame(seed) {}
function draw() { background(0); }
""" + OK_STATE


def test_syntax_error_gives_file_line_column(game_factory, backend):
    path = game_factory("function setup() {\n  createCanvas(10, 10);\n  let = = 3;\n}\n", "broken")
    with pytest.raises(GameLoadError) as err:
        vec(backend, path, 1)
    e = err.value
    assert e.game == "broken" and e.line == 3 and e.column is not None
    assert "broken" in str(e) and ":3:" in str(e)
    assert isinstance(e, GameError)


def test_missing_contract_functions_are_named(game_factory, backend):
    path = game_factory("function setup() { createCanvas(10, 10); }\nvar draw = 3;\n")
    with pytest.raises(GameContractError) as err:
        vec(backend, path, 1)
    msg = str(err.value)
    m = contract.MESSAGES
    assert f"draw() {m['not_a_function']}" in msg
    assert f"resetGame() {m['missing']}" in msg and f"getGameState() {m['missing']}" in msg


@pytest.mark.parametrize("state, problem", [
    ("return 3;", "must return an object"),
    ("return {score: 'a', lives: 1, gameState: 'playing'};", "score"),
    ("return {score: NaN, lives: 1, gameState: 'playing'};", "score"),
    ("return {score: 0, gameState: 'playing'};", "lives"),
    ("return {score: 0, lives: 1, gameState: 'paused'};", "gameState"),
])
def test_malformed_game_state(game_factory, state, problem, backend):
    path = game_factory(BASE.replace(OK_STATE, f"function getGameState() {{ {state} }}"))
    envs = vec(backend, path, 1)
    with pytest.raises(GameContractError, match=problem):
        envs.reset(seed=0)
    envs.close()


def test_playtrain_upper_case_states_are_accepted(game_factory, backend):
    path = game_factory(BASE.replace("'playing'", "frameCount > 2 ? 'WIN' : 'PLAYING'"))
    envs = vec(backend, path, 1)
    envs.reset(seed=0)
    envs.step(np.array([0]))
    _, _, term, _, infos = envs.step(np.array([0]))
    assert term.tolist() == [True] and infos["game_state"].tolist() == [2]
    envs.close()


def test_throw_in_draw_names_env_step_and_stack(game_factory, backend):
    path = game_factory(BASE.replace("background(0);", "background(0);\n if (frameCount > 3) boom();\n"), "thrower")
    envs = vec(backend, path, 2)
    envs.reset(seed=0)
    envs.step(np.zeros(2, dtype=np.int64))
    envs.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(GameRuntimeError) as err:
        envs.step(np.zeros(2, dtype=np.int64))
    e = err.value
    assert e.game == "thrower" and e.env_index in (0, 1) and e.step == 2
    assert "draw()" in str(e) and "boom" in str(e) and e.js_stack
    # the failed env keeps raising until it is reset; reset brings it back
    with pytest.raises(GameRuntimeError):
        envs.step(np.zeros(2, dtype=np.int64))
    envs.reset(seed=0)
    envs.step(np.zeros(2, dtype=np.int64))
    envs.close()


def test_on_error_reset_restarts_only_the_failing_env(game_factory, backend):
    # env 1 (seed 1) throws on its 5th frame; env 0 never does.
    path = game_factory("""
        let s = 0, n = 0, seedSeen = 0;
        function setup() { createCanvas(20, 20); }
        function resetGame(seed) { s = 0; n = 0; seedSeen = seed; }
        function draw() { background(0); n++; s++; if (seedSeen === 1 && n === 5) null.x; }
        function getGameState() { return {score: s, lives: 1, gameState: 'playing'}; }
    """)
    envs = vec(backend, path, 2, on_error="reset", episode_statistics=True)
    envs.reset(seed=0)
    for _ in range(3):
        _, r, _, trunc, infos = envs.step(np.zeros(2, dtype=np.int64))
        assert "_error" not in infos and not trunc.any()
    _, r, term, trunc, infos = envs.step(np.zeros(2, dtype=np.int64))  # env 1's 5th draw
    assert infos["_error"].tolist() == [False, True]
    assert "env 1" in infos["error"][1] and "null" in infos["error"][1]
    assert trunc.tolist() == [False, True] and r[0] == 1.0
    assert infos["_episode"].tolist() == [False, True]
    _, r, _, trunc, infos = envs.step(np.zeros(2, dtype=np.int64))
    assert r.tolist() == [1.0, 0.0] and not trunc.any()  # env 1 restarted (NEXT_STEP)
    assert envs.call_js("n", 0) == 6 and envs.call_js("n", 1) == 1
    envs.close()


def test_on_error_reset_reports_in_info(game_factory, backend):
    path = game_factory(BASE.replace("background(0);", "background(0); if (frameCount === 3) throw new Error('bad frame');"))
    envs = vec(backend, path, 3, on_error="reset")
    envs.reset(seed=0)
    envs.step(np.zeros(3, dtype=np.int64))
    _, _, term, trunc, infos = envs.step(np.zeros(3, dtype=np.int64))
    assert trunc.all() and not term.any()
    assert infos["_error"].all() and "bad frame" in infos["error"][0]
    obs, r, term, trunc, infos = envs.step(np.zeros(3, dtype=np.int64))  # NEXT_STEP reset
    assert not trunc.any() and infos["elapsed_steps"].tolist() == [0, 0, 0]
    envs.close()


def test_infinite_loop_times_out(game_factory):
    path = game_factory(BASE.replace("background(0);", "background(0); if (frameCount === 3) for (;;) {}"), "looper")
    envs = jsgym.make_vec(path, 2, step_timeout=0.2, on_error="raise")
    envs.reset(seed=0)
    envs.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(GameTimeoutError, match="looper"):
        envs.step(np.zeros(2, dtype=np.int64))
    envs.close()


def test_infinite_loop_in_setup_times_out(game_factory):
    path = game_factory(BASE.replace("createCanvas(20, 20);", "while (true) {}"))
    with pytest.raises(GameTimeoutError, match=r"setup\(\)"):
        jsgym.make_vec(path, 1, step_timeout=0.2)


def test_allocation_bomb_hits_memory_limit(game_factory):
    path = game_factory(BASE.replace("background(0);", "background(0); if (frameCount === 2) { let a = []; for (;;) a.push(new Array(1000).fill(1)); }"))
    envs = jsgym.make_vec(path, 2, memory_limit=16 << 20, on_error="reset")
    envs.reset(seed=0)
    _, _, _, trunc, infos = envs.step(np.zeros(2, dtype=np.int64))
    assert trunc.all() and "memory limit" in infos["error"][0]
    envs.close()
    envs = jsgym.make_vec(path, 1, memory_limit=16 << 20)
    envs.reset(seed=0)
    with pytest.raises(GameMemoryError):
        envs.step(np.zeros(1, dtype=np.int64))
    envs.close()


def test_deep_recursion_is_a_runtime_error(game_factory, backend):
    path = game_factory(BASE.replace("background(0);", "background(0); function f(n) { return f(n + 1) + 1; } if (frameCount === 2) f(0);"))
    envs = vec(backend, path, 1)
    envs.reset(seed=0)
    with pytest.raises(GameRuntimeError, match="stack"):
        envs.step(np.zeros(1, dtype=np.int64))
    envs.close()


@pytest.mark.parametrize("actions, problem", [
    (np.zeros(3, dtype=np.int64), "shape"),
    (np.zeros((2, 1), dtype=np.int64), "shape"),
    (np.zeros(2, dtype=np.float32), "integers"),
    (np.array([0, 8]), r"within \[0, 8\)"),
    (np.array([-1, 0]), "within"),
    (np.array([0, (1 << 32) + 1]), "within"),  # would be 1 in 32 bits
    (np.array([0, 1 << 63], dtype=np.uint64), "within"),
    (np.array([0, 300], dtype=np.int16), "within"),
])
def test_bad_action_arrays_raise_before_any_env_moves(probe_game, actions, problem, backend):
    envs = vec(backend, probe_game, 2)
    envs.reset(seed=0)
    with pytest.raises(ValueError, match=problem):
        envs.step(actions)
    assert envs.call_js("frameCount", 0) == 1 and envs.call_js("frameCount", 1) == 1
    envs.close()


def test_unknown_game_lists_bundled_games():
    with pytest.raises(FileNotFoundError, match="pong"):
        jsgym.make_vec("no_such_game", 1)


def test_close_is_idempotent_and_closed_env_raises(probe_game, backend):
    envs = vec(backend, probe_game, 1)
    envs.reset(seed=0)
    envs.close()
    envs.close()
    with pytest.raises(RuntimeError, match="closed"):
        envs.step(np.zeros(1, dtype=np.int64))


def test_native_pool_rejects_repeated_and_too_many_ids(probe_game, backend):
    """The C ABI checks job lists itself (the vector env checks them first): a
    repeated env or more ids than envs fails cleanly and leaves no env in flight."""
    envs = vec(backend, probe_game, 2)
    envs.reset(seed=0)
    pool = envs._pool
    with pytest.raises(ValueError, match="listed twice"):
        pool.send(np.zeros(2, dtype=np.int64), np.array([1, 1]))
    with pytest.raises(ValueError, match="lists 3 envs"):
        pool.send(np.zeros(3, dtype=np.int64), np.array([0, 1, 0]))
    envs.step(np.zeros(2, dtype=np.int64))  # nothing was left marked in flight
    assert envs.call_js("frameCount", 0) == envs.call_js("frameCount", 1) == 2
    envs.close()
