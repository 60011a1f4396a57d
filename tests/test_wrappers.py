"""jsgym.wrappers.FrameStack (make_vec(..., frame_stack=k)): layout, episode starts in
every autoreset mode, and send/recv over env subsets."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import jsgym

GAME = "catch"


def frames(stacked: np.ndarray, k: int) -> list[np.ndarray]:
    return [stacked[..., 3 * j:3 * (j + 1)] for j in range(k)]


def test_layout_and_history_match_the_unstacked_env():
    plain = jsgym.make_vec(GAME, 3, num_threads=1)
    stacked = jsgym.make_vec(GAME, 3, num_threads=1, frame_stack=4)
    assert stacked.single_observation_space.shape == (64, 64, 12)
    assert stacked.observation_space.shape == (3, 64, 64, 12)
    o_plain, _ = plain.reset(seed=5)
    o_stack, _ = stacked.reset(seed=5)
    history = [o_plain] * 4       # the first observation fills every slot
    for f, h in zip(frames(o_stack, 4), history):
        np.testing.assert_array_equal(f, h)
    rng = np.random.default_rng(0)
    for _ in range(12):
        a = rng.integers(0, 8, 3)
        o_plain, r1, *_ = plain.step(a)
        o_stack, r2, *_ = stacked.step(a)
        history = history[1:] + [o_plain]
        np.testing.assert_array_equal(r1, r2)
        for f, h in zip(frames(o_stack, 4), history):   # oldest first
            np.testing.assert_array_equal(f, h)
    assert not np.array_equal(frames(o_stack, 4)[0], frames(o_stack, 4)[3])
    plain.close()
    stacked.close()


def _run_to_episode_end(envs, rng):
    for t in range(2000):
        out = envs.step(rng.integers(0, 8, envs.num_envs))
        if (out[2] | out[3]).any():
            return out
    raise AssertionError("no episode ended")


def test_next_step_autoreset_refills_the_stack():
    envs = jsgym.make_vec(GAME, 2, num_threads=1, frame_stack=3, max_episode_steps=20)
    envs.reset(seed=1)
    rng = np.random.default_rng(1)
    _, _, term, trunc, _ = _run_to_episode_end(envs, rng)
    ended = np.flatnonzero(term | trunc)
    obs, *_ = envs.step(np.zeros(2, np.int64))        # the reset step of those envs
    for i in ended:
        f = frames(obs[i], 3)
        np.testing.assert_array_equal(f[0], f[2])
        np.testing.assert_array_equal(f[1], f[2])
    envs.close()


def test_same_step_final_obs_is_stacked():
    envs = jsgym.make_vec(GAME, 2, num_threads=1, frame_stack=2, max_episode_steps=15,
                          autoreset_mode=AutoresetMode.SAME_STEP)
    obs, _ = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    prev = obs
    for _ in range(100):
        obs, _, term, trunc, infos = envs.step(rng.integers(0, 8, 2))
        ends = term | trunc
        if ends.any():
            break
        prev = obs
    i = int(np.flatnonzero(ends)[0])
    final = infos["final_obs"][i]
    assert final.shape == (64, 64, 6)
    # the final stacked obs continues the episode: its older frame was the newest one before
    np.testing.assert_array_equal(final[..., :3], prev[i][..., 3:])
    # and the returned obs starts the next episode: both slots equal
    np.testing.assert_array_equal(obs[i][..., :3], obs[i][..., 3:])
    envs.close()


def test_send_recv_on_halves_keeps_separate_histories():
    a = jsgym.make_vec(GAME, 4, num_threads=1, frame_stack=2)
    b = jsgym.make_vec(GAME, 4, num_threads=1, frame_stack=2)
    a.reset(seed=9)
    b.reset(seed=9)
    rng = np.random.default_rng(3)
    for _ in range(6):
        acts = rng.integers(0, 8, 4)
        a.send(acts[:2], [0, 1])
        a.send(acts[2:], [2, 3])
        o1, r1, *_, i1 = a.recv()
        o2, r2, *_, i2 = a.recv()
        ob, rb, *_ = b.step(acts)
        np.testing.assert_array_equal(np.concatenate([o1, o2]), ob)
        np.testing.assert_array_equal(np.concatenate([i1["env_id"], i2["env_id"]]), [0, 1, 2, 3])
    a.close()
    b.close()


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "4"])
def test_bad_frame_stack_is_rejected(bad):
    with pytest.raises(ValueError, match="frame_stack"):
        jsgym.make_vec(GAME, 1, frame_stack=bad)
