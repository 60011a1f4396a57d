"""jsgym.sb3.SB3VecEnv: Stable-Baselines3's conventions, and SB3's own PPO training on it."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
torch = pytest.importorskip("torch")
from jsgym.sb3 import SB3VecEnv  # noqa: E402

# catch at frameskip 4 ends an episode after about 70-80 steps
CATCH = dict(frameskip=4, max_episode_steps=200)


def test_sb3_conventions():
    venv = SB3VecEnv("catch", num_envs=3, seed=5, **CATCH)
    try:
        assert venv.num_envs == 3 and venv.action_space.n == 8
        assert venv.observation_space.shape == (64, 64, 3)
        obs = venv.reset()
        assert obs.shape == (3, 64, 64, 3) and obs.dtype == np.uint8
        ended = 0
        for _ in range(120):
            obs, rewards, dones, infos = venv.step(np.full(3, 1))
            assert rewards.dtype == np.float32 and dones.dtype == np.bool_
            assert isinstance(infos, list) and len(infos) == 3
            for i in np.flatnonzero(dones):
                ended += 1
                info = infos[i]
                assert info["terminal_observation"].shape == (64, 64, 3)
                assert info["TimeLimit.truncated"] is False
                assert set(info["episode"]) == {"r", "l", "t"}
                # SAME_STEP: the returned observation already starts the next episode
                assert not np.array_equal(info["terminal_observation"], obs[i])
        assert ended >= 3
        assert len(venv.get_images()) == 3
        assert venv.env_is_wrapped(object) == [False] * 3
    finally:
        venv.close()


def test_sb3_seed_makes_resets_reproducible():
    a = SB3VecEnv("catch", num_envs=2, **CATCH)
    b = SB3VecEnv("catch", num_envs=2, **CATCH)
    try:
        a.seed(7)
        b.seed(7)
        np.testing.assert_array_equal(a.reset(), b.reset())
        actions = np.array([1, 2])
        for _ in range(30):
            oa, ra, _, _ = a.step(actions)
            ob, rb, _, _ = b.step(actions)
        np.testing.assert_array_equal(oa, ob)
    finally:
        a.close()
        b.close()


def test_time_limit_is_reported_as_truncation():
    venv = SB3VecEnv("catch", num_envs=2, frameskip=4, max_episode_steps=5)
    try:
        venv.reset()
        for _ in range(5):
            _, _, dones, infos = venv.step(np.zeros(2, dtype=np.int64))
        assert dones.all()
        assert all(info["TimeLimit.truncated"] for info in infos)
    finally:
        venv.close()


def test_sb3_ppo_trains_on_jsgym(tmp_path, monkeypatch):
    from stable_baselines3 import PPO

    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))  # else SB3 leaves a log folder in /tmp
    torch.set_num_threads(1)
    venv = SB3VecEnv("catch", num_envs=4, seed=0, **CATCH)
    try:
        model = PPO("CnnPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, verbose=0)
        model.learn(total_timesteps=512)
        assert model.num_timesteps == 512
        assert len(model.ep_info_buffer) >= 4  # episode infos reached SB3's logger
        model.save(tmp_path / "sb3_catch")
        loaded = PPO.load(tmp_path / "sb3_catch")
        actions, _ = loaded.predict(venv.reset(), deterministic=True)
        assert actions.shape == (4,)
    finally:
        venv.close()
