"""Determinism: same seed and actions give the same trajectory, whatever the thread
count or sharding; different seeds differ; Math.random and friends are seeded."""

from __future__ import annotations

import numpy as np
import pytest

import jsgym
from conftest import GAMES


def rollout(game, *, num_envs=4, num_threads=1, seed=0, steps=150, action_seed=1, **kw):
    envs = jsgym.make_vec(game, num_envs, num_threads=num_threads, **kw)
    obs, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(action_seed)
    frames, rewards, scores = [obs], [], []
    for _ in range(steps):
        obs, r, term, trunc, infos = envs.step(rng.integers(0, envs.single_action_space.n, num_envs))
        frames.append(obs)
        rewards.append(r)
        scores.append(infos["score"])
    envs.close()
    return np.stack(frames), np.stack(rewards), np.stack(scores)


@pytest.mark.parametrize("game", ["pong", "breakout", "catch"])
def test_same_seed_same_trajectory(game):
    a = rollout(game)
    b = rollout(game)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("game", ["pong", "breakout", "catch"])
def test_thread_count_does_not_change_results(game):
    one = rollout(game, num_envs=5, num_threads=1)
    two = rollout(game, num_envs=5, num_threads=2)
    three = rollout(game, num_envs=5, num_threads=3)
    for x, y, z in zip(one, two, three):
        np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(x, z)


@pytest.mark.parametrize("game", ["pong", "breakout", "catch"])
def test_different_seeds_differ(game):
    frames_a, _, _ = rollout(game, num_envs=1, seed=1, steps=60)
    frames_b, _, _ = rollout(game, num_envs=1, seed=2, steps=60)
    assert not np.array_equal(frames_a, frames_b)


def test_seed_list_equals_offset_seeds():
    a = jsgym.make_vec("catch", 3)
    b = jsgym.make_vec("catch", 3)
    obs_a, info_a = a.reset(seed=7)
    obs_b, info_b = b.reset(seed=[7, 8, 9])
    np.testing.assert_array_equal(obs_a, obs_b)
    assert info_b["level_seed"].tolist() == [7, 8, 9]
    a.close()
    b.close()


def test_unseeded_builtins_are_seeded_per_episode(game_factory):
    path = game_factory("""
        let v = [];
        function setup() { createCanvas(10, 10); }
        function resetGame(seed) { v = [Math.random(), random(), random(10), noise(0.5, 0.25),
                                        Date.now(), new Date().getTime(), performance.now()]; }
        function draw() { background(0); }
        function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
    """)
    envs = jsgym.make_vec(path, 2)
    envs.reset(seed=[4, 4])
    a0, a1 = envs.call_js("v", 0), envs.call_js("v", 1)
    envs.reset(seed=[4, 5])
    b1 = envs.call_js("v", 1)
    assert a0 == a1
    assert a0[:4] != b1[:4]
    assert all(0 <= x < 1 for x in a0[:2])
    envs.close()


def test_level_split_draws_levels_from_the_range():
    envs = jsgym.make_vec("catch", 4, num_levels=5, start_level=100, max_episode_steps=5)
    _, infos = envs.reset(seed=0)
    seen = set(infos["level_seed"].tolist())
    for _ in range(60):
        _, _, _, _, infos = envs.step(np.zeros(4, dtype=np.int64))
        seen.update(infos["level_seed"].tolist())
    assert seen <= set(range(100, 105)) and len(seen) >= 3
    envs.close()


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
def test_every_bundled_game_is_deterministic(game):
    a = rollout(game, num_envs=2, steps=100)
    b = rollout(game, num_envs=2, num_threads=2, steps=100)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
