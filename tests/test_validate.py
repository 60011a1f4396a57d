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
    assert "function" not in d["warning"]


def test_heuristics_name_a_hidden_p5_function_as_a_function():
    # `let cursor` (a build slot's index) hides p5's cursor(): not a constant that
    # p5 calls take
    d = V.check_shadowing(DATA / "hides_cursor.js")
    assert d["hidden"] == ["cursor"], d
    assert "hide p5's function cursor()" in d["warning"]
    assert "textAlign" not in d["warning"]


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


def test_cli_exit_status(game_factory, capsys, tmp_path):
    bad = make_game(game_factory, draw="", name="blank")
    assert main(["validate", str(bad), "--report", str(tmp_path)]) == 1
    assert "visuals" in capsys.readouterr().out
    assert main(["validate", str(make_game(game_factory, name="fine")),
                 "--report", str(tmp_path)]) == 0
    # separate runs into one directory: summary.md keeps both games' rows
    summary = (tmp_path / "summary.md").read_text()
    assert "| blank | FAIL |" in summary and "| fine | pass |" in summary


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
    # drawn under translate(100, 100): the description adds the canvas box (stroke included)
    assert hits[0].describe().startswith(
        "#5 rect(20, 35, 10, 10) -> canvas x 114-126, y 130-140 fill=[255, 0, 0, 255]")
    assert hits[1].describe() == "#0 background([0, 0, 0, 255])"
    # a rotated shape's box holds all four corners (not only the two it was given by)
    turned = [[1, "translate", 200, 100], [1, "rotate", np.pi / 4], [1, "noStroke"],
              [1, "square", 0, 0, 10, style]]
    (hit,) = fidelity.calls_in(turned, (190, 100, 200, 120), (400, 200))
    assert hit.box == pytest.approx((192.93 - 0.5, 99.5, 207.07 + 0.5, 114.64), abs=0.01)


def test_call_log_styles_follow_push_and_pop(game_factory):
    """The style logged with each shape is the one it is drawn with: push() saves
    fill, stroke and weight, pop() restores them (a shape drawn after a pop() was
    logged with the style set inside the push())."""
    import jsgym

    draw = ("stroke(0); strokeWeight(1); fill(255, 0, 0);"
            "push(); noStroke(); strokeWeight(30); fill(0, 0, 255); rect(x, 5, 4, 4); pop();"
            "quad(1, 1, 9, 1, 9, 9, 1, 9);")
    envs = jsgym.make_vec(make_game(game_factory, draw=draw), 1)
    try:
        frames = V.capture_calls(envs, 2)
    finally:
        envs.close()
    shapes = {c[1]: c[-1] for c in frames[-1] if c[1] in ("rect", "quad")}
    assert shapes["rect"] == ["style", [0, 0, 255, 255], None, 30]
    assert shapes["quad"] == ["style", [255, 0, 0, 255], [0, 0, 0, 255], 1]


def test_text_whose_first_argument_is_a_number_is_placed_at_x_y():
    from jsgym import fidelity

    style = ["style", [255, 255, 255, 255], None, 1]
    calls = [[1, "textSize", 10], [1, "text", 3, 200, 10, style],
             [1, "text", "3", 200, 10, style], [1, "text", 3.5, 5, 150, style]]
    hits = fidelity.calls_in(calls, (190, 0, 210, 20), (400, 200))
    assert [h.index for h in hits] == [2, 1], [h.describe() for h in hits]
    assert hits[1].describe().startswith("#1 text(3, 200, 10)")
    # nothing is drawn at (3, 200) or (3.5, 5)
    assert fidelity.calls_in(calls, (0, 190, 10, 200), (400, 200)) == []
    assert [h.index for h in fidelity.calls_in(calls, (0, 140, 20, 160), (400, 200))] == [3]


def test_heat_map_names_the_frame_where_a_region_differs_most():
    """Over all frames one region differs most (a little, in every frame); the worst
    frame differs most somewhere else: both are found, with the frame to list calls from."""
    from jsgym import fidelity

    heat = fidelity.HeatMap()
    a = np.zeros((64, 64, 3), np.uint8)
    frames = {}
    for t in range(6):
        b = a.copy()
        b[8:16, 24:32] = 20 + t * (t == 3)  # differs most over all frames; most at step 3
        if t == 4:
            b[56:64, 0:8] = 40  # the worst frame differs most at the bottom left
        frames[t] = b
        heat.add(a, b, (1, t))
    summed = heat.worst_region()
    assert summed == (24, 8, 32, 16)
    assert heat.peak_frame(summed) == (1, 3)
    worst = min(frames, key=lambda t: V.psnr(a, frames[t]))
    assert worst == 4 and fidelity.frame_region(a, frames[worst]) == (0, 56, 8, 64)
    assert heat.peak_frame((0, 56, 8, 64)) == (1, 4)


def _l3_result(region, worst_frame_region, heat):
    return V.CheckResult("L3 rollouts", True, "ok", 0.0, {
        "divergence": None, "heat": heat, "psnr_worst": 38.2, "psnr_median": 45.0,
        "psnr_worst_at": {"episode": 1, "seed": 101, "step": 191},
        "region": region, "worst_frame_region": worst_frame_region})


def test_report_names_both_regions_with_the_calls_of_their_frames(tmp_path):
    from jsgym import fidelity

    heat = fidelity.HeatMap()
    heat.add(np.zeros((64, 64, 3), np.uint8), np.full((64, 64, 3), 9, np.uint8), (0, 0))
    region = {"obs": (24, 8, 32, 16), "canvas": (150, 50, 200, 100),
              "frame": {"episode": 0, "seed": 100, "step": 40},
              "calls": ["#206 rect(0, 0, 44, 16, 3) -> canvas x 150-194, y 60-76"]}
    worst = {"obs": (0, 56, 8, 64), "canvas": (0, 350, 50, 400),
             "frame": {"episode": 1, "seed": 101, "step": 191},
             "calls": ["#480 rect(-2, -2, 4, 4) -> canvas x 3-9, y 380-386"]}
    report = V.Report("g", [_l3_result(region, worst, heat)])
    md = validate_report.write_report(report, tmp_path).read_text()
    assert ("Over all frames, differs most at observation pixels x 24-32, y 8-16 (canvas x "
            "150-200, y 50-100). Drawn there in seed 100 step 40 (the frame where this region "
            "differs most)") in md
    assert ("The worst frame (seed 101 step 191, PSNR 38.2 dB) differs most at observation "
            "pixels x 0-8, y 56-64 (canvas x 0-50, y 350-400). Drawn there in that frame") in md
    over_all, in_worst = md.split("The worst frame")
    assert "#206 rect" in over_all and "#480 rect" not in over_all
    assert "#480 rect" in in_worst and "#206 rect" not in in_worst
    # the same frame and region: said once, the calls not listed twice
    same = dict(worst, calls=["#480 rect(-2, -2, 4, 4)"])
    md = validate_report.write_report(V.Report("h", [_l3_result(same, worst, heat)]),
                                      tmp_path).read_text()
    assert md.count("#480 rect") == 1 and "is that frame and differs most in that region" in md


def test_summary_keeps_the_rows_of_other_games(tmp_path):
    from jsgym.cli_validate import write_summary

    def row(game, passed):
        return {"game": game, "passed": passed, "failed": [] if passed else ["visuals"]}

    write_summary(tmp_path, [row("a", True), row("b", False)])
    write_summary(tmp_path, [row("c", True)])
    write_summary(tmp_path, [row("b", True)])
    lines = (tmp_path / "summary.md").read_text().splitlines()
    assert lines[0] == "# jsgym validate summary" and lines[2].startswith("| game |")
    assert [line.split("|")[1].strip() for line in lines[4:]] == ["a", "b", "c"]
    assert lines[5] == "| b | pass | - | - | - | - | - | - |"


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
    assert any("rect(300, 300, 60, 60)" in c for c in d["worst_frame_region"]["calls"]), d
    # the montage shows the worst frame, wherever it is
    w = d["psnr_worst_at"]
    worst = [f for f in report.frames if f[0] == f"worst frame: seed {w['seed']} step {w['step']}"]
    assert len(worst) == 1 and V.psnr(worst[0][1], worst[0][2]) == pytest.approx(d["psnr_worst"])
    if verdict == "warn":
        assert l3.passed and "differs most at" in l3.warning
    else:
        assert not l3.passed and "PSNR median" in l3.message
    md = validate_report.write_report(report, tmp_path).read_text()
    assert "rect(300, 300, 60, 60)" in md.split("The worst frame")[0], md
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
