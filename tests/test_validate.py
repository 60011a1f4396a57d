"""jsgym validate: each check passes on a good game and fails, with a message that
says why, on a game built to break it; the CLI's exit status and report."""

from __future__ import annotations

import numpy as np
import pytest

from jsgym import validate as V
from jsgym.cli import main

GOOD = "catch"

# Everything a check can catch, switched by GAME_OPTIONS-free variants below.
TEMPLATE = """
let score = 0, lives = 3, state = 'playing', x = 0, rng;
function mulberry32(a) { return function() { a |= 0; a = a + 0x6D2B79F5 | 0;
  let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
  return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }
function setup() { createCanvas(64, 64); }
function resetGame(seed) { rng = mulberry32(SEED_EXPR); score = 0; lives = 3; state = 'playing';
  x = Math.floor(rng() * 50); }
function draw() {
  background(0);
  DRAW
  if (keyIsDown(RIGHT_ARROW)) x += 1;
  if (keyIsDown(LEFT_ARROW)) x -= 1;
  if (frameCount % 20 === 0) score += SCORE_STEP;
  if (frameCount > 300) state = 'gameover';
}
function getGameState() { return {score: score, lives: lives, gameState: STATE}; }
"""

SHAPES = "fill(255, 0, 0); rect(x, 20, 10, 10); fill(0, 255, 0); rect(10, 50, 20, 5);"


def make_game(game_factory, *, seed_expr="seed", draw=SHAPES, score_step="1",
              state="state", name="g"):
    src = (TEMPLATE.replace("SEED_EXPR", seed_expr).replace("DRAW", draw)
           .replace("SCORE_STEP", score_step).replace("STATE", state))
    return game_factory(src, name)


def test_checks_pass_on_a_bundled_game():
    assert V.check_contract(GOOD)["state"]["gameState"] == "playing"
    assert V.check_runs(GOOD, steps=200)["steps"] == 400
    V.check_determinism(GOOD, steps=50)
    V.check_visuals(GOOD)
    V.check_reward(GOOD, steps=300)
    cost = V.check_cost(GOOD, steps=50)
    assert cost["frames"] > 0 and cost["js_us"] > 0 and cost["p5_calls"] > 0


def test_check_cost_sees_an_expensive_reset(game_factory):
    cheap = V.check_cost(make_game(game_factory, name="cheap"), steps=60, resets=10)
    # a level generator that does about 10 ms of work per reset, against a step of tens
    # of microseconds: the margin is two orders of magnitude, not a timing threshold
    slow_seed = "(() => { let h = seed; for (let i = 0; i < 300000; i++) h = (h * 31 + i) | 0; return h; })()"
    slow = V.check_cost(make_game(game_factory, seed_expr=slow_seed, name="slow"),
                        steps=60, resets=10)
    assert slow["reset_steps"] > 10 * max(cheap["reset_steps"], 1.0)
    assert slow["reset_us"] > slow["step_us"]


def test_template_game_passes(game_factory):
    game = make_game(game_factory)
    report = V.validate(game)
    assert report.passed, report.table()


def test_contract_failures(game_factory):
    missing = game_factory("function setup() { createCanvas(10, 10); }\nfunction draw() {}", "m")
    with pytest.raises(V.CheckFailed, match="resetGame\\(\\) is missing"):
        V.check_contract(missing)
    bad_state = make_game(game_factory, state="'paused'", name="bad_state")
    with pytest.raises(V.CheckFailed, match="gameState"):
        V.check_contract(bad_state)


def test_seed_ignored_fails_determinism(game_factory):
    game = make_game(game_factory, seed_expr="42")
    with pytest.raises(V.CheckFailed, match="different seeds gave identical"):
        V.check_determinism(game, steps=20)


def test_blank_frames_fail_visuals(game_factory):
    game = make_game(game_factory, draw="")
    with pytest.raises(V.CheckFailed, match="single constant value"):
        V.check_visuals(game)


def test_frozen_score_fails_reward(game_factory):
    game = make_game(game_factory, score_step="0")
    with pytest.raises(V.CheckFailed, match="score never changed"):
        V.check_reward(game, steps=100)


def test_endless_game_fails_episode_check(game_factory):
    game = make_game(game_factory, state="'playing'")
    with pytest.raises(V.CheckFailed, match="0 of 4 random-play episodes ended"):
        V.check_episodes_end(game, num_seeds=4, limit=400)


def test_runtime_error_fails_runs(game_factory):
    game = make_game(game_factory, draw=SHAPES + " if (frameCount > 50) undefinedThing();")
    with pytest.raises(V.CheckFailed, match="undefinedThing"):
        V.check_runs(game, steps=100)


def test_psnr():
    a = np.zeros((4, 4, 3), np.uint8)
    assert V.psnr(a, a) == V.PSNR_IDENTICAL
    b = a.copy()
    b[0, 0, 0] = 255
    assert 10 < V.psnr(a, b) < 30


def test_cli_exit_status(game_factory, capsys):
    bad = make_game(game_factory, draw="", name="blank")
    assert main(["validate", str(bad)]) == 1
    assert "visuals" in capsys.readouterr().out
    assert main(["validate", str(make_game(game_factory, name="fine"))]) == 0


def test_browser_validation_and_report(tmp_path, capsys):
    pytest.importorskip("playwright")
    from jsgym.browser import p5_path

    try:
        p5_path()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    rc = main(["validate", "pong", "--browser", "--episodes", "2", "--max-steps", "120",
               "--l2-frames", "15", "--report", str(tmp_path)])
    out = capsys.readouterr().out
    assert rc == 0, out
    md = (tmp_path / "pong.md").read_text()
    assert "L3 rollouts" in md and "PSNR median" in md and "L2 call stream" in md
    assert (tmp_path / "pong_montage.png").stat().st_size > 1000
    assert "| pong | pass | identical | identical |" in (tmp_path / "summary.md").read_text()


def test_tost_paired():
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).resolve().parent.parent / "bench" / "policy_transfer.py"
    spec = importlib.util.spec_from_file_location("policy_transfer", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    same = mod.tost_paired(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0]), 0.5)
    assert same["p"] == 0.0
    rng = np.random.default_rng(0)
    a = rng.normal(10, 1, 200)
    close = mod.tost_paired(a, a + rng.normal(0, 0.1, 200), 0.2)
    assert close["p"] < 0.05
    far = mod.tost_paired(a, a + 1.0 + rng.normal(0, 0.1, 200), 0.2)
    assert far["p"] > 0.5
