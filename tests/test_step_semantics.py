"""Step semantics from docs/design.md: episode start, key events, reward, termination,
truncation, the three autoreset modes, reset masks and frameskip, on both backends
(every test takes the ``backend`` fixture: the contract is the same for both)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import jsgym

NOOP, LEFT, RIGHT, UP, DOWN, SPACE, LEFT_SPACE, RIGHT_SPACE = range(8)


def vec(backend, game, num_envs, **kw):
    return jsgym.make_vec(game, num_envs, backend=backend, **kw)


def log_of(envs, env=0):
    return envs.call_js("log", env)


def test_reset_runs_resetgame_then_one_draw(probe_game, backend):
    envs = vec(backend, probe_game, 2, num_threads=1)
    obs, infos = envs.reset(seed=10)
    assert obs.shape == (2, 64, 64, 3) and obs.dtype == np.uint8
    assert envs.call_js("seedSeen", 0) == 10 and envs.call_js("seedSeen", 1) == 11
    # one draw() after resetGame, with frameCount 1, and the frame is on screen
    assert log_of(envs) == [["frame", 1, False, False]]
    assert obs[0].max() > 0
    assert infos["score"].tolist() == [0, 0] and infos["_score"].all()
    assert infos["level_seed"].tolist() == [10, 11]
    envs.close()


def test_held_keys_and_taps(probe_game, backend):
    envs = vec(backend, probe_game, 1)
    envs.reset(seed=0)
    envs.step(np.array([LEFT]))
    envs.step(np.array([LEFT]))
    envs.step(np.array([NOOP]))
    envs.step(np.array([SPACE]))
    envs.step(np.array([SPACE]))
    envs.step(np.array([LEFT_SPACE]))
    assert log_of(envs) == [
        ["frame", 1, False, False],
        ["down", 37], ["frame", 2, True, False],     # held: keyPressed once
        ["frame", 3, True, False],                   # still held, no new event
        ["up", 37], ["frame", 4, False, False],      # released
        ["down", 32], ["frame", 5, False, True], ["up", 32],   # tap: first frame only
        ["down", 32], ["frame", 6, False, True], ["up", 32],   # taps fire every step
        ["down", 37], ["down", 32], ["frame", 7, True, True], ["up", 32],
    ]
    envs.close()


def test_reward_is_score_delta_and_episode_stats(probe_game, backend):
    envs = vec(backend, probe_game, 1, game_options={"limit": 4}, episode_statistics=True)
    envs.reset(seed=0)
    rewards = []
    for _ in range(3):
        _, r, term, trunc, infos = envs.step(np.array([RIGHT]))
        rewards.append(float(r[0]))
    assert rewards == [1.0, 1.0, 1.0]
    assert term.tolist() == [True] and trunc.tolist() == [False]
    assert infos["_episode"].tolist() == [True]
    assert infos["episode"]["r"].tolist() == [3.0] and infos["episode"]["l"].tolist() == [3]
    assert infos["game_state"].tolist() == [1]
    # what a step returned stays as it was: the next step (an autoreset) writes into
    # the pool's buffers, not into the arrays handed out
    envs.step(np.array([RIGHT]))
    assert infos["_episode"].tolist() == [True] and term.tolist() == [True]
    assert infos["game_state"].tolist() == [1] and infos["score"].tolist() == [3]
    envs.close()


def test_truncation_at_max_episode_steps(probe_game, backend):
    envs = vec(backend, probe_game, 1, max_episode_steps=3)
    envs.reset(seed=0)
    flags = [envs.step(np.array([NOOP]))[3][0] for _ in range(3)]
    assert flags == [False, False, True]
    envs.close()


def test_next_step_autoreset(probe_game, backend):
    envs = vec(backend, probe_game, 2, game_options={"limit": 3},
                          autoreset_mode=AutoresetMode.NEXT_STEP)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    first, _ = envs.reset(seed=5)
    envs.step(np.array([RIGHT, NOOP]))
    _, _, term, _, _ = envs.step(np.array([RIGHT, NOOP]))
    assert term.tolist() == [True, True]
    # the next step resets (action ignored): reward 0, flags clear, new episode
    obs, r, term, trunc, infos = envs.step(np.array([RIGHT, RIGHT]))
    assert r.tolist() == [0, 0] and not term.any() and not trunc.any()
    assert log_of(envs) == [["frame", 1, False, False]]
    assert infos["elapsed_steps"].tolist() == [0, 0]
    # autoreset episodes draw fresh seeds from each env's stream
    assert infos["level_seed"][0] != 5 and infos["level_seed"][0] != infos["level_seed"][1]
    envs.close()


def test_same_step_autoreset_gives_final_obs(probe_game, backend):
    envs = vec(backend, probe_game, 1, game_options={"limit": 3},
                          autoreset_mode=AutoresetMode.SAME_STEP)
    envs.reset(seed=5)
    envs.step(np.array([NOOP]))
    before_end = envs._pool.obs.copy()
    obs, r, term, trunc, infos = envs.step(np.array([RIGHT]))
    assert term.tolist() == [True] and r.tolist() == [1.0]
    assert infos["_final_obs"].tolist() == [True]
    assert infos["final_obs"].shape == (1, 64, 64, 3)
    assert log_of(envs) == [["frame", 1, False, False]]  # already the new episode
    assert not np.array_equal(infos["final_obs"][0], obs[0]) or not np.array_equal(before_end, obs)
    envs.close()


def test_disabled_autoreset_keeps_running_until_reset(probe_game, backend):
    envs = vec(backend, probe_game, 1, game_options={"limit": 2},
                          autoreset_mode=AutoresetMode.DISABLED)
    envs.reset(seed=0)
    assert envs.step(np.array([NOOP]))[2].tolist() == [True]
    envs.step(np.array([NOOP]))
    assert envs.call_js("frameCount") == 3  # no reset happened
    envs.reset(seed=0)
    assert envs.call_js("frameCount") == 1
    envs.close()


def test_reset_mask_resets_only_masked_envs(probe_game, backend):
    envs = vec(backend, probe_game, 3)
    envs.reset(seed=0)
    for _ in range(4):
        envs.step(np.array([NOOP, NOOP, NOOP]))
    envs.reset(seed=100, options={"reset_mask": np.array([False, True, False])})
    assert [envs.call_js("frameCount", i) for i in range(3)] == [5, 1, 5]
    assert envs.call_js("seedSeen", 1) == 101
    with pytest.raises(ValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": [1, 0, 1]})
    envs.close()


def test_frameskip_runs_draw_n_times(probe_game, backend):
    envs = vec(backend, probe_game, 1, frameskip=4)
    envs.reset(seed=0)
    _, r, _, _, _ = envs.step(np.array([RIGHT]))
    assert r.tolist() == [4.0]
    assert envs.call_js("frameCount") == 5
    envs.close()


def test_frame_count_and_clock_restart_each_episode(game_factory, backend):
    path = game_factory("""
        let t = [];
        function setup() { createCanvas(10, 10); }
        function resetGame(seed) { t = []; }
        function draw() { background(0); t.push([frameCount, millis(), deltaTime, Date.now()]); }
        function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
    """)
    envs = vec(backend, path, 1)
    envs.reset(seed=1)
    envs.step(np.array([0]))
    a = envs.call_js("t")
    envs.reset(seed=1)
    envs.step(np.array([0]))
    assert envs.call_js("t") == a
    assert [row[0] for row in a] == [1, 2]
    assert a[1][1] - a[0][1] == pytest.approx(1000 / 60)
    assert a[0][2] == pytest.approx(1000 / 60)
    envs.close()


def test_canvas_persists_between_frames(game_factory, backend):
    # No background(): each frame adds a rect, as the canvas accumulates in p5.
    path = game_factory("""
        let x = 0;
        function setup() { createCanvas(64, 64); background(0); }
        function resetGame(seed) { x = 0; }
        function draw() { noStroke(); fill(255); rect(x, 0, 8, 8); x += 8; }
        function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
    """)
    envs = vec(backend, path, 1, frameskip=2)
    envs.reset(seed=0)
    obs, *_ = envs.step(np.array([0]))
    # three rects drawn (reset frame + 2 skipped-or-not frames), none lost to frameskip
    assert (obs[0, 2, :, 0] > 200).sum() == 24
    envs.close()


@pytest.mark.parametrize("resize_frame", [2, 3, 4])
def test_a_canvas_resized_in_a_skipped_frame_stays_resized(game_factory, backend, resize_frame):
    # frameskip drops a skipped frame that the next one paints over, but not the
    # resizeCanvas() it made: every observation equals that of frameskip 1 at the same
    # frame, wherever the resize falls
    path = game_factory("""
        function setup() { createCanvas(400, 400); }
        function resetGame(seed) {}
        function draw() {
          if (frameCount === %d) resizeCanvas(200, 100);
          background(20, 30, 40); noStroke(); fill(250, 200, 0);
          rect(0, 0, 100, 50);
        }
        function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
    """ % resize_frame)
    every = vec(backend, path, 1, num_threads=1)
    skipping = vec(backend, path, 1, num_threads=1, frameskip=2)
    a, _ = every.reset(seed=0)
    b, _ = skipping.reset(seed=0)
    assert np.array_equal(a, b)
    for _ in range(3):
        every.step(np.array([0]))
        a, *_ = every.step(np.array([0]))
        b, *_ = skipping.step(np.array([0]))
        assert np.array_equal(a, b)
    # the yellow rect covers a quarter of the resized canvas's width and half its height
    assert (b[0, :, :, 0] > 200).sum() == 32 * 32
    every.close()
    skipping.close()


@pytest.mark.parametrize("outline, rasterized", [("noStroke();", 6), ("stroke(0); strokeWeight(1);", 24)])
def test_frameskip_drops_skipped_frames_a_tile_floor_paints_over(game_factory, outline, rasterized):
    # No background(): each frame starts with opaque tiles on canvas pixel edges that
    # cover the canvas (their colours change every frame), so the skipped frames
    # before it cannot show and are not rasterized. Tiles with an outline are: the
    # outline straddling a tile's edge blends over the last frame there before the
    # next tile covers it, which leaves a trace in the edge pixels here. Either way
    # every observation equals frameskip 1's at the same frame, bit for bit.
    game = game_factory("""
        let x = 0;
        function setup() { createCanvas(400, 300); }
        function resetGame(seed) { x = seed; }
        function draw() {
          if (keyIsDown(RIGHT_ARROW)) x += 7.3;
          OUTLINE
          for (let r = 0; r < 15; r++)
            for (let c = 0; c < 20; c++) {
              fill(40 + 9 * ((r + c) % 3), 60 + (frameCount % 7) * 20, 80);
              rect(c * 20, r * 20, 20, 20);
            }
          fill(255, 200, 0); ellipse(20 + x % 360, 150.5, 23, 17);
        }
        function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
    """.replace("OUTLINE", outline))
    every = jsgym.make_vec(game, 1, num_threads=1)
    skipping = jsgym.make_vec(game, 1, num_threads=1, frameskip=4, profile=True)
    a, _ = every.reset(seed=3)
    b, _ = skipping.reset(seed=3)
    assert np.array_equal(a, b)
    before = skipping.profile(0)
    for step in range(6):
        action = np.array([RIGHT if step % 2 else NOOP])
        for _ in range(4):
            a, *_ = every.step(action)
        b, *_ = skipping.step(action)
        assert np.array_equal(a, b), f"step {step}"
    after = skipping.profile(0)
    assert after["frames"] - before["frames"] == 24
    assert after["frames_rasterized"] - before["frames_rasterized"] == rasterized
    every.close()
    skipping.close()


def test_a_frame_that_draws_nothing_keeps_the_picture(game_factory, backend):
    # A game may skip redrawing an unchanged scene (p5 keeps the canvas): every
    # observation must equal that of the same game redrawing every frame, including
    # the frames drawn after an empty one.
    body = """
        let x = 0, v = 0, drawn = -1;
        function setup() { createCanvas(100, 100); }
        function resetGame(seed) { x = seed %% 7; v += 1; }
        function draw() {
          if (keyIsDown(RIGHT_ARROW)) { x += 3.3; v += 1; }
          %s
          background(20, 30, 40); noStroke();
          for (let i = 0; i < 10; i++) { fill(200, 10 * i, 90); rect(i * 9.7, 50.3, 9.7, 12.1); }
          fill(255, 220, 0); ellipse(10 + x, 30.5, 13, 9);
        }
        function getGameState() { return {score: 0, lives: 1, gameState: x > 80 ? 'won' : 'playing'}; }
    """
    every = vec(backend, game_factory(body % ""), 2, num_threads=1)
    changed = vec(backend, game_factory(body % "if (drawn === v) return; drawn = v;"), 2,
                             num_threads=1)
    a, _ = every.reset(seed=3)
    b, _ = changed.reset(seed=3)
    assert np.array_equal(a, b)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(120):
        actions = rng.choice([NOOP, RIGHT], size=2, p=[0.7, 0.3])
        a, _, term, _, _ = every.step(actions)
        b, *_ = changed.step(actions)
        episodes += int(term.sum())
        assert np.array_equal(a, b)
    assert episodes > 0   # the autoreset frames were compared too
    every.close()
    changed.close()


def test_game_options_reach_the_game(probe_game, backend):
    envs = vec(backend, probe_game, 1, game_options={"limit": 7, "name": "x"})
    envs.reset(seed=0)
    assert envs.call_js("GAME_OPTIONS") == {"limit": 7, "name": "x"}
    envs.close()


def test_custom_action_table(probe_game, backend):
    envs = vec(backend, probe_game, 1, actions=["NOOP", {"name": "both", "held": ["RIGHT", "LEFT"]}])
    assert envs.single_action_space.n == 2
    envs.reset(seed=0)
    _, r, *_ = envs.step(np.array([1]))
    assert r.tolist() == [1.0]
    assert log_of(envs)[-1] == ["frame", 2, True, False]
    envs.close()


def test_game_declared_action_table(game_factory, backend):
    path = game_factory("""
        const JSGYM_ACTIONS = [{name: 'wait', held: []}, {name: 'jump', press: 32}, {name: 'go', held: [39]}];
        let s = 0;
        function setup() { createCanvas(10, 10); }
        function resetGame(seed) { s = 0; }
        function draw() { background(0); }
        function keyPressed() { if (keyCode === 32) s += 1; }
        function getGameState() { return {score: s, lives: 1, gameState: 'playing'}; }
    """)
    envs = vec(backend, path, 1)
    assert envs.single_action_space.n == 3 and envs.action_names == ("wait", "jump", "go")
    envs.reset(seed=0)
    assert envs.step(np.array([1]))[1].tolist() == [1.0]
    envs.close()


def test_send_recv_subsets_match_sync_steps(probe_game, backend):
    a = vec(backend, probe_game, 4, num_threads=2)
    b = vec(backend, probe_game, 4, num_threads=2)
    a.reset(seed=3)
    b.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(20):
        actions = rng.integers(0, 8, size=4)
        obs_a, r_a, *_ = a.step(actions)
        b.send(actions[[0, 2]], np.array([0, 2]))
        b.send(actions[[1, 3]], np.array([1, 3]))
        obs_02, r_02, _, _, info_02 = b.recv()
        obs_13, r_13, _, _, info_13 = b.recv()
        assert info_02["env_id"].tolist() == [0, 2] and info_13["env_id"].tolist() == [1, 3]
        np.testing.assert_array_equal(obs_a[[0, 2]], obs_02)
        np.testing.assert_array_equal(obs_a[[1, 3]], obs_13)
        np.testing.assert_array_equal(r_a[[1, 3]], r_13)
    with pytest.raises(RuntimeError, match="recv"):
        b.recv()
    b.send(np.zeros(2, dtype=np.int64), np.array([0, 1]))
    with pytest.raises(RuntimeError, match="already stepping"):
        b.send(np.zeros(1, dtype=np.int64), np.array([1]))
    b.recv()
    a.close()
    b.close()


def test_copy_false_returns_views(probe_game, backend):
    envs = vec(backend, probe_game, 1, copy=False)
    obs, _ = envs.reset(seed=0)
    obs2, *_ = envs.step(np.array([0]))
    assert np.shares_memory(obs, obs2)
    envs.close()


def test_unseeded_reset_continues_each_env_seed_stream(probe_game, backend):
    a = vec(backend, probe_game, 2)
    b = vec(backend, probe_game, 2)
    a.reset(seed=9)
    b.reset(seed=9)
    _, info_a = a.reset()
    _, info_b = b.reset()
    assert info_a["level_seed"].tolist() == info_b["level_seed"].tolist()
    assert 9 not in info_a["level_seed"].tolist()
    assert info_a["level_seed"][0] != info_a["level_seed"][1]
    a.close()
    b.close()
