"""ProcGen clones: every seed is a different level, level splits are reproducible,
and distribution_mode reaches the game."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import jsgym

PROCGEN = ["bigfish", "bossfight", "caveflyer", "chaser", "climber", "coinrun", "dodgeball",
           "fruitbot", "heist", "jumper", "leaper", "maze", "miner", "ninja", "plunder",
           "starpilot"]


@pytest.mark.parametrize("game", PROCGEN)
def test_level_seeds_give_visibly_different_first_frames(game):
    envs = jsgym.make_vec(game, 20, num_threads=2)
    obs, _ = envs.reset(seed=1000)
    envs.close()
    frames = obs.astype(np.int16)
    for a, b in itertools.combinations(range(20), 2):
        # "visibly": at least 20 of the 4096 pixels differ by more than a rounding
        # step (plunder's first frames can differ only in the ship's 24-pixel hull
        # colour, which is the level's target colour: a real difference)
        changed = (np.abs(frames[a] - frames[b]).max(axis=-1) > 8).sum()
        assert changed >= 20, f"{game}: levels {1000 + a} and {1000 + b} look alike"


@pytest.mark.parametrize("game", PROCGEN)
def test_hard_mode_reaches_the_game(game):
    envs = jsgym.make_vec(game, 1, game_options={"distribution_mode": "hard"})
    envs.reset(seed=3)
    assert envs.call_js("OPT.distribution_mode") == "hard"
    envs.close()


def level_sequence(game, *, num_levels, start_level, seed, steps=400):
    envs = jsgym.make_vec(game, 4, num_levels=num_levels, start_level=start_level,
                          max_episode_steps=20)
    _, infos = envs.reset(seed=seed)
    seq = [infos["level_seed"].tolist()]
    for _ in range(steps // 20):
        for _ in range(21):
            _, _, _, _, infos = envs.step(np.zeros(4, dtype=np.int64))
        seq.append(infos["level_seed"].tolist())
    envs.close()
    return seq


def test_train_test_level_split_is_reproducible_and_disjoint():
    train_a = level_sequence("coinrun", num_levels=50, start_level=0, seed=7)
    train_b = level_sequence("coinrun", num_levels=50, start_level=0, seed=7)
    test = level_sequence("coinrun", num_levels=50, start_level=10_000, seed=7)
    assert train_a == train_b
    train_levels = set(itertools.chain.from_iterable(train_a))
    test_levels = set(itertools.chain.from_iterable(test))
    assert train_levels <= set(range(50)) and len(train_levels) > 10
    assert test_levels <= set(range(10_000, 10_050))
