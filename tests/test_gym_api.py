"""Gymnasium 1.x API: spaces, env checker, registration, info conventions."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode, VectorEnv

import jsgym


def test_vector_spaces_and_metadata():
    envs = jsgym.make_vec("pong", 3)
    assert isinstance(envs, VectorEnv)
    assert envs.single_observation_space == gym.spaces.Box(0, 255, (64, 64, 3), np.uint8)
    assert envs.single_action_space == gym.spaces.Discrete(8)
    assert envs.observation_space.shape == (3, 64, 64, 3)
    assert envs.action_space == gym.spaces.MultiDiscrete([8, 8, 8])
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, infos = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    obs, r, term, trunc, infos = envs.step(envs.action_space.sample())
    assert r.dtype == np.float64 and term.dtype == np.bool_ and trunc.dtype == np.bool_
    for key in ("score", "lives", "game_state", "level_seed", "elapsed_steps"):
        assert infos[key].shape == (3,) and infos[f"_{key}"].all()
    envs.close()


def test_non_square_observations():
    envs = jsgym.make_vec("pong", 1, obs_size=(48, 80))
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (1, 48, 80, 3)
    envs.close()


@pytest.mark.parametrize("game", ["catch", "pong"])
def test_single_env_passes_gymnasium_env_checker(game):
    env = jsgym.make(game, render_mode="rgb_array")
    check_env(env, skip_render_check=False)
    env.close()


def test_single_env_step_and_infos():
    env = jsgym.make("catch", episode_statistics=True)
    obs, info = env.reset(seed=3)
    assert obs.shape == (64, 64, 3)
    assert info["game_state"] == 0 and info["level_seed"] == 3
    total = 0.0
    for _ in range(2000):
        obs, r, term, trunc, info = env.step(env.action_space.sample())
        total += r
        if term or trunc:
            break
    assert term and info["episode"]["r"] == pytest.approx(total)
    with pytest.raises(ValueError):
        env.step(9)
    env.close()


def test_bundled_games_are_registered():
    assert "jsgym/Pong-v0" in gym.registry
    env = gym.make("jsgym/Pong-v0")
    obs, _ = env.reset(seed=0)
    assert obs.shape == (64, 64, 3)
    env.close()
    envs = gym.make_vec("jsgym/Catch-v0", num_envs=2, vectorization_mode="vector_entry_point")
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (2, 64, 64, 3)
    envs.close()


def test_gym_ids():
    assert jsgym.gym_id("space_invaders") == "jsgym/SpaceInvaders-v0"
    assert jsgym.gym_id("breakout.multiball") == "jsgym/Breakout-Multiball-v0"


def test_render_returns_current_frames():
    envs = jsgym.make_vec("pong", 2, render_mode="rgb_array")
    obs, _ = envs.reset(seed=0)
    np.testing.assert_array_equal(envs.render(), obs)
    envs.close()
