"""The browser backend (real p5.js in headless Chromium) against the QuickJS backend:
same spaces, step semantics, seeding, level seeds, autoreset, infos, key events,
clock and errors. CI-sized: a few pages, a few hundred steps.

Tolerances: states, rewards, terminations and infos must be identical (the QuickJS
backend is built to match V8 and p5.js exactly). Frames are compared by PSNR because
our rasterizer anti-aliases at observation size while Chromium anti-aliases at canvas
size and then is area-averaged: edges differ by a few levels, so 30 dB is required
(a misplaced or wrongly coloured shape drops far below it).
"""

from __future__ import annotations

import numpy as np
import pytest

import jsgym
from jsgym import contract
from jsgym.validate import psnr


pytestmark = pytest.mark.browser

# Logs everything the runtime does that a game can see: key events with keyCode and
# key, keyIsDown, keyIsPressed, frameCount, millis(), Date.now(), performance.now(),
# deltaTime, Math.random, random(), noise(), GAME_OPTIONS.
EVENTS_GAME = """
let log = [], score = 0, state = 'playing';
function setup() { createCanvas(64, 48); log.push(['setup', Math.random(), noise(0.5)]); }
function resetGame(seed) {
  score = 0; state = 'playing'; log = [['reset', seed, Math.random(), random(), noise(1.5, 2.5),
    frameCount, millis(), typeof GAME_OPTIONS === 'object' ? GAME_OPTIONS.k : null]];
}
function draw() {
  log.push(['frame', frameCount, millis(), Date.now(), performance.now(), deltaTime,
            keyIsDown(37), keyIsDown(39), keyIsDown(32), keyIsPressed, keyCode, key,
            Math.random(), random(10), noise(frameCount * 0.1)]);
  background(20, 30, 40);
  fill(200, 100, 50);
  rect((frameCount * 5) % 64, 10, 10, 20);
  if (keyIsDown(39)) score += 1;
  if (frameCount > 40) state = 'gameover';
}
function keyPressed(e) { log.push(['pressed', keyCode, key, e.keyCode, millis()]); score += 2; }
function keyReleased(e) { log.push(['released', keyCode, key, e.keyCode]); }
function keyTyped() { log.push(['typed', key]); }
function getGameState() { return {score, lives: 3, gameState: state}; }
"""


@pytest.fixture
def events_game(game_factory):
    return game_factory(EVENTS_GAME, "events")


def _pair(game, n, **kw):
    q = jsgym.make_vec(game, n, **kw)
    try:
        b = jsgym.make_vec(game, n, backend="browser", **kw)
    except BaseException:
        q.close()
        raise
    return q, b


def _assert_same_step(rq, rb, where):
    oq, rewq, tq, trq, iq = rq
    ob, rewb, tb, trb, ib = rb
    np.testing.assert_array_equal(rewq, rewb, err_msg=f"reward {where}")
    np.testing.assert_array_equal(tq, tb, err_msg=f"terminated {where}")
    np.testing.assert_array_equal(trq, trb, err_msg=f"truncated {where}")
    for key in ("score", "lives", "game_state", "level_seed", "elapsed_steps"):
        np.testing.assert_array_equal(iq[key], ib[key], err_msg=f"{key} {where}")
    assert set(iq) == set(ib), where
    if "_episode" in iq:
        np.testing.assert_array_equal(iq["_episode"], ib["_episode"])
        np.testing.assert_array_equal(iq["episode"]["r"], ib["episode"]["r"])
        np.testing.assert_array_equal(iq["episode"]["l"], ib["episode"]["l"])
    for i in range(len(oq)):
        assert psnr(oq[i], ob[i]) >= 30.0, f"frame of env {i} {where}: PSNR {psnr(oq[i], ob[i]):.1f}"


def test_spaces_and_metadata_match():
    q, b = _pair("catch", 2, obs_size=(48, 40))
    try:
        assert b.single_observation_space == q.single_observation_space
        assert b.observation_space == q.observation_space
        assert b.single_action_space == q.single_action_space
        assert b.action_space == q.action_space
        assert b.metadata == q.metadata
        assert b.action_names == q.action_names
        obs, _ = b.reset(seed=0)
        assert obs.shape == (2, 48, 40, 3) and obs.dtype == np.uint8
    finally:
        q.close()
        b.close()


@pytest.mark.parametrize("game", ["pong", "catch"])
def test_rollouts_identical(game):
    """L3 in small: random actions, autoreset (NEXT_STEP), level seeds."""
    q, b = _pair(game, 2, max_episode_steps=60, num_levels=7, start_level=3)
    try:
        rq, rb = q.reset(seed=11), b.reset(seed=11)
        np.testing.assert_array_equal(rq[1]["level_seed"], rb[1]["level_seed"])
        acts = np.random.default_rng(0).integers(0, 8, size=(150, 2))
        for t in range(150):
            _assert_same_step(q.step(acts[t]), b.step(acts[t]), f"at step {t}")
    finally:
        q.close()
        b.close()


def test_level_seed_streams_match(events_game):
    """Autoresets draw level seeds from a splitmix64 stream seeded by reset(seed)."""
    q, b = _pair(events_game, 2, max_episode_steps=3)
    try:
        q.reset(seed=[5, 2**32 - 1])
        b.reset(seed=[5, 2**32 - 1])
        for t in range(12):
            a = np.array([0, 2])
            _, _, _, _, iq = q.step(a)
            _, _, _, _, ib = b.step(a)
            np.testing.assert_array_equal(iq["level_seed"], ib["level_seed"], err_msg=str(t))
    finally:
        q.close()
        b.close()


def test_key_events_clock_and_randomness_identical(events_game):
    """Held keys, taps (repeated taps too), key names, the virtual clock, Math.random,
    random(), noise() and GAME_OPTIONS are the same in both backends."""
    kw = dict(game_options={"k": "v"}, autoreset_mode="disabled")
    q, b = _pair(events_game, 1, **kw)
    try:
        q.reset(seed=7)
        b.reset(seed=7)
        assert q.call_js("log") == b.call_js("log")
        for a in [1, 1, 6, 6, 5, 5, 7, 2, 2, 0, 3, 4, 5, 0, 7, 7, 1, 0]:
            q.step(np.array([a]))
            b.step(np.array([a]))
        lq, lb = q.call_js("log"), b.call_js("log")
        assert lq == lb
        assert any(e[0] == "typed" for e in lq) and any(e[0] == "released" for e in lq)
        frame = next(e for e in lq if e[0] == "frame")
        assert frame[2] == pytest.approx(1000 / 60 * frame[1]) and frame[5] == pytest.approx(1000 / 60)
        assert frame[3] == contract.EPOCH_MS + int(frame[2])
    finally:
        q.close()
        b.close()


def test_frameskip_and_same_step_autoreset(events_game):
    q, b = _pair(events_game, 2, frameskip=3, autoreset_mode="same_step")
    try:
        q.reset(seed=1)
        b.reset(seed=1)
        for t in range(20):
            a = np.array([t % 8, (t * 3) % 8])
            rq, rb = q.step(a), b.step(a)
            _assert_same_step(rq, rb, f"at step {t}")
            if "_final_obs" in rq[4]:
                np.testing.assert_array_equal(rq[4]["_final_obs"], rb[4]["_final_obs"])
        assert q.call_js("log", 1) == b.call_js("log", 1)
    finally:
        q.close()
        b.close()


def test_single_env_and_send_recv():
    env = jsgym.make("catch", backend="browser")
    try:
        obs, info = env.reset(seed=3)
        assert obs.shape == (64, 64, 3) and info["game_state"] == 0
        obs, reward, term, trunc, info = env.step(2)
        assert isinstance(reward, float) and info["elapsed_steps"] == 1
        assert env.call_js("1 + 2") == 3
    finally:
        env.close()
    envs = jsgym.make_vec("catch", 2, backend="browser")
    try:
        envs.reset(seed=0)
        envs.send(np.array([1]), np.array([1]))
        envs.send(np.array([2]), np.array([0]))
        _, _, _, _, i1 = envs.recv()
        _, _, _, _, i0 = envs.recv()
        assert i1["env_id"].tolist() == [1] and i0["env_id"].tolist() == [0]
        # out-of-range actions fail before any env moves, as in the native pool
        with pytest.raises(ValueError, match=r"within \[0, 8\)"):
            envs.step(np.array([0, 8]))
        assert envs.call_js("frameCount", 0) == envs.call_js("frameCount", 1) == 2
    finally:
        envs.close()
        envs.close()  # idempotent


def test_errors_match(game_factory):
    from jsgym.errors import GameContractError, GameLoadError, GameRuntimeError

    bad_syntax = game_factory("function setup( { createCanvas(10, 10); }", "syntax")
    with pytest.raises(GameLoadError) as exc:
        jsgym.make_vec(bad_syntax, 1, backend="browser")
    assert exc.value.line == 1

    missing = game_factory("function setup() { createCanvas(10, 10); }\nfunction draw() {}",
                           "missing")
    with pytest.raises(GameContractError, match="resetGame\\(\\) is missing"):
        jsgym.make_vec(missing, 1, backend="browser")

    throws = game_factory("""
        let n = 0;
        function setup() { createCanvas(10, 10); }
        function resetGame(s) { n = 0; }
        function draw() { n++; if (n > 3) throw new Error('boom'); }
        function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
        """, "throws")
    where = {}
    for backend in ("quickjs", "browser"):
        envs = jsgym.make_vec(throws, 1, backend=backend)
        try:
            envs.reset(seed=0)
            with pytest.raises(GameRuntimeError, match="draw\\(\\) threw Error: boom") as exc:
                for _ in range(5):
                    envs.step(np.array([0]))
            where[backend] = (exc.value.env_index, exc.value.step)
        finally:
            envs.close()
    assert where["browser"] == where["quickjs"] == (0, 2)
    envs = jsgym.make_vec(throws, 1, backend="browser", on_error="reset")
    try:
        envs.reset(seed=0)
        errors = []
        for _ in range(6):
            _, _, _, trunc, infos = envs.step(np.array([0]))
            if "_error" in infos:
                errors.append(infos["error"][0])
                assert trunc[0]
        assert errors and "boom" in errors[0]
    finally:
        envs.close()


def test_l2_call_streams_identical():
    from jsgym.validate import check_l2_calls

    details = check_l2_calls("breakout", frames=20)
    assert details["calls"] > 100


def test_bad_backend_name():
    with pytest.raises(ValueError, match="backend must be"):
        jsgym.make_vec("pong", 1, backend="webgl")
