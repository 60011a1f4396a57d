"""Pointer input: the mouse variables and callbacks in p5's event order on both
backends, the grid and continuous pointer action spaces, a game's own declarations,
and human play recordings with mouse input replayed exactly."""

from __future__ import annotations

import numpy as np
import pytest

import jsgym
from jsgym import play

# Logs every mouse variable a callback or a frame sees, so that the two backends can
# be compared event by event.
LOGGER = """
let log = [], score = 0;
function setup() { createCanvas(200, 100); }
function resetGame(seed) { log = []; score = 0; }
function at() { return [mouseX, mouseY, pmouseX, pmouseY, movedX, movedY, mouseIsPressed, mouseButton]; }
function mouseMoved(e) { log.push(['moved', e.button].concat(at())); }
function mouseDragged(e) { log.push(['dragged'].concat(at())); }
function mousePressed(e) { log.push(['pressed', e.button].concat(at())); }
function mouseReleased(e) { log.push(['released', e.button].concat(at())); }
function mouseClicked(e) { log.push(['clicked'].concat(at())); score += 1; }
function doubleClicked(e) { log.push(['double'].concat(at())); score += 10; }
function draw() { background(0); log.push(['frame', frameCount].concat(at())); }
function getGameState() { return {score, lives: 1, gameState: 'playing'}; }
"""

ACTIONS = [
    {"name": "NOOP"},
    {"name": "MOVE", "pointer": [10.4, 20]},      # rounds to (10, 20)
    {"name": "CLICK", "pointer": [50, 60], "click": "LEFT"},
    {"name": "HOLD", "pointer": [70, 60], "button": "LEFT"},
    {"name": "RIGHT_CLICK", "pointer": [70, 60], "click": "RIGHT"},
]
SEQUENCE = [1, 1, 2, 2, 0, 2, 3, 3, 0, 4, 2]


def run_log(path, backend):
    envs = jsgym.make_vec(path, 1, actions=ACTIONS, frameskip=2, backend=backend)
    try:
        envs.reset(seed=0)
        scores = []
        for a in SEQUENCE:
            _, _, _, _, infos = envs.step(np.array([a]))
            scores.append(float(infos["score"][0]))
        return envs.call_js("log"), scores
    finally:
        envs.close()


@pytest.fixture(scope="module")
def logger(tmp_path_factory):
    path = tmp_path_factory.mktemp("pointer") / "logger.js"
    path.write_text(LOGGER)
    return path


def test_event_order_and_values(logger):
    log, scores = run_log(logger, "quickjs")
    kinds = [e[0] for e in log]
    # step 1: a move before the first frame, the first interaction: pmouse = mouse
    assert log[1] == ["moved", 0, 10, 20, 10, 20, 10, 20, False, 0]
    # the step's first frame sees the move; after a frame p5's draw loop sets
    # pmouseX = mouseX and movedX = 0
    assert log[2] == ["frame", 2, 10, 20, 10, 20, 10, 20, False, 0]
    assert log[3] == ["frame", 3, 10, 20, 10, 20, 0, 0, False, 0]
    # step 3: move, press (left), the frame, release, click: in that order
    i = kinds.index("pressed")
    assert kinds[i - 1:i + 4] == ["moved", "pressed", "frame", "released", "clicked"]
    assert log[i - 1][:8] == ["moved", 0, 50, 60, 10, 20, 40, 40]
    assert log[i][-2:] == [True, "left"] and log[i + 2][-2] is False
    # step 4: the same place within 500 ms: a double click after the second click
    j = kinds.index("double")
    assert kinds[j - 1] == "clicked" and kinds[i + 4:j + 1] == [
        "frame", "pressed", "frame", "released", "clicked", "double"]
    # a third click soon after is a single click again
    k = kinds.index("pressed", j)
    assert kinds[k:k + 5] == ["pressed", "frame", "released", "clicked", "frame"]
    # a held button: pressed once, down over the frames of both steps holding it
    hold = next(n for n, e in enumerate(log) if e[0] == "moved" and e[2] == 70)
    assert kinds[hold + 1] == "pressed" and all(e[-2] for e in log[hold + 1:hold + 6])
    # the right button: mouseButton 'right', no click event
    r = next(n for n, e in enumerate(log) if e[0] == "pressed" and e[1] == 2)
    assert log[r][-1] == "right" and kinds[r + 2] == "released" and kinds[r + 3] == "frame"
    assert scores[-1] == 15  # 5 left clicks, 1 double click


@pytest.mark.browser
def test_browser_fires_the_same_events(logger):
    assert run_log(logger, "browser") == run_log(logger, "quickjs")


def test_episode_start_forgets_the_pointer(logger):
    envs = jsgym.make_vec(logger, 1, actions=ACTIONS)
    try:
        envs.reset(seed=0)
        envs.step(np.array([3]))  # hold the button at (70, 60)
        envs.reset(seed=0)
        assert envs.call_js("at()") == [0, 0, 0, 0, 0, 0, False, 0]
        envs.step(np.array([0]))
        assert not any(e[0] == "released" for e in envs.call_js("log"))
    finally:
        envs.close()


def test_grid_pointer_space(logger):
    envs = jsgym.make_vec(logger, 2, pointer=(2, 4))
    try:
        assert envs.single_action_space.n == 8 + 8
        assert envs.action_names[8:10] == ("CLICK_0_0", "CLICK_0_1")
        envs.reset(seed=0)
        envs.step(np.array([8 + 4 + 3, 0]))  # row 1, column 3 of a 200 x 100 canvas
        assert envs.call_js("[mouseX, mouseY]", 0) == [175, 75]
        assert envs.call_js("score", 0) == 1 and envs.call_js("score", 1) == 0
    finally:
        envs.close()
    with pytest.raises(ValueError, match="pointer grid rows"):
        jsgym.make_vec(logger, 1, pointer=(0, 4))


def test_continuous_pointer_space(logger):
    envs = jsgym.make_vec(logger, 2, pointer="continuous", actions=["NOOP", "LEFT"])
    try:
        space = envs.single_action_space
        assert set(space.spaces) == {"action", "pointer", "button"}
        assert space["pointer"].high.tolist() == [200, 100]
        envs.reset(seed=0)
        envs.step({"action": np.array([0, 1]), "pointer": np.array([[12.6, 3.2], [400, -5]]),
                   "button": np.array([2, 1])})
        assert envs.call_js("[mouseX, mouseY, score]", 0) == [13, 3, 1]
        # clipped to the canvas; held, so still down after the step
        assert envs.call_js("[mouseX, mouseY, mouseIsPressed]", 1) == [200, 0, True]
        with pytest.raises(ValueError, match="actions\\['pointer'\\]"):
            envs.step({"action": np.zeros(2, int), "pointer": np.full((2, 2), np.nan),
                       "button": np.zeros(2, int)})
        with pytest.raises(ValueError, match="dict"):
            envs.step(np.zeros(2, int))
        sample = envs.action_space.sample()
        envs.step(sample)
    finally:
        envs.close()
    env = jsgym.make(logger, pointer="continuous")
    try:
        env.reset(seed=1)
        env.step({"action": 0, "pointer": [5, 6], "button": 2})
        assert env.call_js("[mouseX, mouseY, score]") == [5, 6, 1]
    finally:
        env.close()


def test_a_game_declares_its_pointer_space(game_factory):
    src = LOGGER + "\nconst JSGYM_ACTIONS = ['NOOP'];\nconst JSGYM_POINTER = {grid: [1, 2]};\n"
    envs = jsgym.make_vec(game_factory(src, "declared"), 1)
    try:
        assert envs.action_names == ("NOOP", "CLICK_0_0", "CLICK_0_1")
        assert envs.pointer_space == ("grid", 1, 2, 200.0, 100.0)
    finally:
        envs.close()
    bad = game_factory(LOGGER + "\nconst JSGYM_POINTER = 'everywhere';\n", "bad_pointer")
    with pytest.raises(jsgym.GameContractError, match="JSGYM_POINTER") as err:
        jsgym.make_vec(bad, 1)
    assert err.value.game == "bad_pointer" and "bad_pointer" in str(err.value)


def test_declarations_are_read_with_the_callers_limits(game_factory):
    """JSGYM_ACTIONS is read in the game's own context after setup: with the caller's
    memory limit (a top-level allocation past it fails as it would in any env) and
    GAME_OPTIONS."""
    src = ("const BIG = new Array(3000000).fill(1.5);\n"
           "const JSGYM_ACTIONS = GAME_OPTIONS.n === 3 ? ['NOOP', 'LEFT', 'RIGHT'] : ['NOOP'];\n"
           + LOGGER)
    path = game_factory(src, "limits")
    with pytest.raises(jsgym.GameMemoryError) as err:
        jsgym.make_vec(path, 1, memory_limit=8 << 20, game_options={"n": 3})
    assert err.value.game == "limits"
    envs = jsgym.make_vec(path, 1, game_options={"n": 3})
    assert envs.action_names == ("NOOP", "LEFT", "RIGHT")
    envs.close()


@pytest.mark.browser
def test_recorded_mouse_input_replays_exactly(logger):
    """A recording whose frames hold mouse input (as the play page writes them, from
    the browser's states) replays frame for frame in the QuickJS backend."""
    frames_in = [
        {"pointer": {"at": [30, 40], "held": 0, "tapped": 0}},
        {"pointer": {"at": [30, 40], "held": 0, "tapped": 1}},
        {"pointer": {"at": None, "held": 0, "tapped": 1}},
        {},
        {"pointer": {"at": [80, 10], "held": 1, "tapped": 0}},
        {"pointer": {"at": [90, 10], "held": 1, "tapped": 0}},
        {},
    ]
    recording = {"game": str(logger), "episodes": []}
    table = [play._combo_action(play._combo({"held": [], "pressed": [], **f})) for f in frames_in]
    envs = jsgym.make_vec(logger, 1, actions=table, backend="browser", autoreset_mode="disabled")
    try:
        _, infos = envs.reset(seed=[4])
        ep = {"seed": 4, "start": play._state(infos, ("playing", "gameover", "won")), "frames": []}
        for k, f in enumerate(frames_in):
            _, _, _, _, infos = envs.step(np.array([k]))
            ep["frames"].append({"held": [], "pressed": [], **f,
                                 **play._state(infos, ("playing", "gameover", "won"))})
    finally:
        envs.close()
    recording["episodes"].append(ep)
    # three clicks (releasing the held button is one) and a double click
    assert ep["frames"][-1]["score"] == 13
    result = play.replay(recording)
    assert result.exact, result.mismatches
    ep["frames"][2]["pointer"]["tapped"] = 0  # a recording that lost a click
    assert not play.replay(recording).exact
