"""jsgym validate: each check passes on a good game and fails, with a message that
says why, on a game built to break it; the CLI's exit status and report."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from jsgym import validate as V
from jsgym import validate_report
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


def test_seed_ignored_is_a_warning_with_evidence(game_factory):
    """A seed that changes nothing random play sees cannot be told from one that is
    ignored: over the long rollouts the check warns, naming what it compared."""
    game = make_game(game_factory, seed_expr="42")
    d = V.check_determinism(game, steps=20)
    assert d["seed_differs_at"] is None
    assert "identical" in d["warning"] and f"{V.SEED_STEPS} random steps" in d["warning"]
    assert "warning" not in V.check_determinism(make_game(game_factory, name="seeded"), steps=20)


DATA = pathlib.Path(__file__).resolve().parent / "data" / "validator"


def test_seed_that_only_changes_unentered_rooms_is_not_a_failure():
    report = V.validate(DATA / "seed_rooms.js", reset_seeds=64)
    det = next(r for r in report.results if r.name == "determinism")
    assert det.passed and "resetGame(seed) may ignore its seed" in det.warning, report.table()
    assert report.passed, report.table()


def test_reset_sweep_names_the_seed_that_hangs():
    """resetGame() loops forever for seed % 50 == 37: a short rollout rarely meets such
    a seed, the sweep over 0..99 does and names it."""
    with pytest.raises(V.CheckFailed, match=r"^seed 37: GameTimeoutError: .*resetGame\(\)"):
        V.check_reset_sweep(DATA / "reset_hang.js", seeds=100, step_timeout=0.2)
    assert V.check_reset_sweep("catch", seeds=64)["seeds"] == 64


def test_heuristics_warn_when_the_last_life_does_not_end_the_game():
    d = V.check_play_heuristics(DATA / "last_life.js", num_seeds=4, limit=700)
    assert "lives reached 0" in d["warning"] and "does not end the episode" in d["warning"]
    assert "random play won all 4 episodes" in d["warning"]
    assert "warning" not in V.check_play_heuristics("catch", num_seeds=4, limit=700)


def test_heuristics_warn_about_hidden_p5_names():
    d = V.check_shadowing(DATA / "hides_top.js")
    assert d["hidden"] == ["TOP"] and d["replaced"] == ["random"]
    assert "hide p5's TOP" in d["warning"]


@pytest.mark.parametrize("game", ["pong", "breakout", "breakout.multiball"])
def test_bundled_games_hide_no_p5_name(game):
    d = V.check_shadowing(game)
    assert d["hidden"] == [] and d["replaced"] == [], d


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


def test_heat_map_finds_the_region_and_the_calls_drawn_there():
    from jsgym import fidelity

    heat = fidelity.HeatMap()
    a = np.zeros((64, 64, 3), np.uint8)
    b = a.copy()
    b[40:48, 16:24] = 30  # the region that differs
    b[2, 2] = 10          # noise elsewhere
    for _ in range(3):
        heat.add(a, b)
    assert heat.frames == 3 and heat.mse()[44, 20] == pytest.approx(900)
    assert heat.worst_region() == (16, 40, 24, 48)
    canvas = fidelity.obs_to_canvas((16, 40, 24, 48), (64, 64), (400, 200))
    assert canvas == pytest.approx((100, 125, 150, 150))
    style = ["style", [255, 0, 0, 255], None, 1]
    calls = [[1, "background", ["rgba", 0, 0, 0, 255]],
             [1, "rect", 0, 0, 20, 20, style],            # elsewhere
             [1, "push"], [1, "translate", 100, 100],
             [1, "rectMode", "center"], [1, "rect", 20, 35, 10, 10, style],  # (115-125, 130-140)
             [1, "pop"],
             [1, "ellipse", 300, 100, 10, 10, style]]      # elsewhere
    hits = fidelity.calls_in(calls, canvas, (400, 200))
    assert [h.call[1] for h in hits] == ["rect", "background"]
    assert hits[0].describe().startswith("#5 rect(20, 35, 10, 10) fill=[255, 0, 0, 255]")


# Draws one rectangle a little brighter in the browser than in QuickJS (the page has a
# `document`, QuickJS does not), so its pixels are the only difference.
BROWSER_TINT = """
let t = 0;
function setup() { createCanvas(400, 400); }
function resetGame(seed) { t = 0; }
function draw() {
  t++;
  background(40);
  fill(200, 0, 0); rect(20 + (t % 50), 40, 60, 60);
  fill(typeof document === 'undefined' ? 100 : 100 + TINT); rect(300, 300, 60, 60);
}
function getGameState() { return {score: t, lives: 1, gameState: t > 80 ? 'gameover' : 'playing'}; }
"""


@pytest.mark.parametrize("tint, verdict", [(20, "warn"), (70, "fail")])
def test_browser_psnr_gates_and_names_the_region(game_factory, tmp_path, capsys, tint, verdict):
    pytest.importorskip("playwright")
    from jsgym.browser import p5_path

    try:
        p5_path()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    game = game_factory(BROWSER_TINT.replace("TINT", str(tint)), f"tint{tint}")
    report = V.validate(str(game), browser=True, episodes=1, max_steps=40, l2_frames=2)
    l3 = next(r for r in report.results if r.name == "L3 rollouts")
    d = l3.details
    # 60x60 of 400x400 pixels differ by `tint` levels: MSE = 0.0225 * tint^2
    assert d["psnr_median"] == pytest.approx(10 * np.log10(255 ** 2 / (0.0225 * tint ** 2)), abs=1.5)
    x0, y0, x1, y1 = d["region"]["canvas"]
    assert 300 <= x1 and x0 <= 360 and 300 <= y1 and y0 <= 360, d["region"]
    assert any("rect(300, 300, 60, 60)" in c for c in d["region"]["calls"]), d["region"]
    if verdict == "warn":
        assert l3.passed and "differs most at" in l3.warning
    else:
        assert not l3.passed and "PSNR median" in l3.message
    assert validate_report.write_report(report, tmp_path).read_text().count("rect(300, 300, 60, 60)") == 1
    assert (tmp_path / f"tint{tint}_heat.png").stat().st_size > 100


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
