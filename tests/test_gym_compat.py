"""jsgym among Gymnasium's own tools: its standard wrappers unchanged (episode statistics,
video), CleanRL's loop, the registered specs, one type per info key, Gymnasium's
``final_info`` in SAME_STEP mode, ``render_size``, pickling, and registration in
subprocess workers (SB3's ``SubprocVecEnv``)."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import jsgym

# catch at frameskip 4 ends an episode after about 70-80 steps
CATCH = dict(frameskip=4, max_episode_steps=200)


def test_no_episode_key_unless_asked():
    envs = jsgym.make_vec("catch", 2, seed=0, **CATCH)
    seen = with_stats = 0
    envs.reset()
    for _ in range(150):
        _, _, term, trunc, infos = envs.step(envs.action_space.sample())
        seen += int((term | trunc).sum())
        assert "episode" not in infos and "_episode" not in infos
    envs.close()
    envs = jsgym.make_vec("catch", 2, seed=0, episode_statistics=True, **CATCH)
    envs.reset()
    for _ in range(150):
        _, _, term, trunc, infos = envs.step(envs.action_space.sample())
        if "_episode" in infos:
            assert infos["_episode"].tolist() == (term | trunc).tolist()
            with_stats += int(infos["_episode"].sum())
    envs.close()
    assert seen >= 2 and with_stats == seen


def test_cleanrl_loop_with_vector_record_episode_statistics():
    """CleanRL's ppo_atari_envpool.py loop body, unchanged, over Gymnasium's own wrapper."""
    envs = jsgym.make_vec("catch", 4, seed=1, **CATCH)
    envs = gym.wrappers.vector.RecordEpisodeStatistics(envs)
    obs, _ = envs.reset(seed=1)
    returns, total = [], np.zeros(4)
    for _ in range(200):
        obs, reward, terminations, truncations, infos = envs.step(envs.action_space.sample())
        total += reward
        next_done = np.logical_or(terminations, truncations)
        if "episode" in infos:
            for i in np.flatnonzero(infos["_episode"]):
                returns.append(infos["episode"]["r"][i])
                assert infos["episode"]["r"][i] == pytest.approx(total[i])
        total[next_done] = 0.0  # NEXT_STEP: the next step starts the new episode
    envs.close()
    assert len(returns) >= 4


def test_single_env_record_episode_statistics_from_gymnasium_make():
    env = gym.wrappers.RecordEpisodeStatistics(gym.make("jsgym/Catch-v0", frameskip=4))
    env.reset(seed=2)
    total = 0.0
    for _ in range(500):
        _, r, term, trunc, info = env.step(env.action_space.sample())
        total += r
        if term or trunc:
            break
    assert term and info["episode"]["r"] == pytest.approx(total)
    env.close()


def test_registered_spec_says_the_time_limit():
    spec = gym.spec("jsgym/Pong-v0")
    assert spec.max_episode_steps == jsgym.contract.default("max_episode_steps") == 10_000
    envs = gym.make_vec("jsgym/Catch-v0", num_envs=2, vectorization_mode="vector_entry_point",
                        max_episode_steps=30)
    envs.reset(seed=0)
    for t in range(30):
        _, _, term, trunc, _ = envs.step(np.zeros(2, dtype=np.int64))
    assert trunc.all() or term.any()
    envs.close()


def test_game_state_is_an_int_everywhere():
    env = jsgym.make("catch")
    _, info = env.reset(seed=0)
    envs = jsgym.make_vec("catch", 1)
    _, infos = envs.reset(seed=0)
    assert type(info["game_state"]) is int and info["game_state"] == 0
    assert infos["game_state"].dtype.kind == "i" and infos["game_state"][0] == info["game_state"]
    assert jsgym.GAME_STATES[info["game_state"]] == "playing"
    env.close()
    envs.close()


def test_same_step_final_info_is_the_last_steps_infos():
    """SAME_STEP's final_info holds what NEXT_STEP's step returned for the last step (the
    same seeds and actions give the same trajectory), and the top-level infos the new
    episode's first."""
    keys = ("score", "lives", "game_state", "level_seed", "elapsed_steps")
    same = jsgym.make_vec("catch", 2, autoreset_mode="same_step", episode_statistics=True, **CATCH)
    nxt = jsgym.make_vec("catch", 2, autoreset_mode="next_step", **CATCH)
    same.reset(seed=3)
    nxt.reset(seed=3)
    rng = np.random.default_rng(0)
    finals = 0
    for _ in range(120):
        a = rng.integers(0, 8, size=2)
        _, _, t1, tr1, i1 = same.step(a)
        _, _, t2, tr2, i2 = nxt.step(a)
        assert t1.tolist() == t2.tolist() and tr1.tolist() == tr2.tolist()
        done = t1 | tr1
        if done.any():
            assert i1["_final_info"].tolist() == done.tolist() == i1["_final_obs"].tolist()
            fi = i1["final_info"]
            for k in keys:
                assert fi[f"_{k}"].tolist() == done.tolist()
                np.testing.assert_array_equal(fi[k][done], i2[k][done], err_msg=k)
            assert fi["episode"]["r"][done].tolist() == i1["episode"]["r"][done].tolist()
            assert (i1["elapsed_steps"][done] == 0).all()  # the new episode's first infos
            assert (fi["game_state"][done] != 0).any() or tr1.any()
            finals += int(done.sum())
            break
    same.close()
    nxt.close()
    assert finals >= 1


@pytest.mark.parametrize("vector", [False, True])
def test_render_size_renders_the_same_trajectory_larger(vector):
    size = 128
    if vector:
        big = jsgym.make_vec("pong", 2, render_mode="rgb_array", render_size=size, seed=4)
        ref = jsgym.make_vec("pong", 2, obs_size=size, seed=4)
        obs, _ = big.reset(seed=4)
        ref.reset(seed=4)
        assert obs.shape == (2, 64, 64, 3)
        for _ in range(40):
            a = np.array([3, 4])
            big.step(a)
            ref_obs, *_ = ref.step(a)
        frames = big.render()
        assert isinstance(frames, tuple) and len(frames) == 2
        frame = np.stack(frames)
        assert frame.shape == (2, size, size, 3)
        np.testing.assert_array_equal(frame, ref_obs)
    else:
        big = jsgym.make("pong", render_mode="rgb_array", render_size=(size, 96))
        ref = jsgym.make("pong", obs_size=(size, 96))
        big.reset(seed=4)
        ref.reset(seed=4)
        for t in range(40):
            big.step(3 + t % 2)
            ref_obs, *_ = ref.step(3 + t % 2)
        assert big.render().shape == (size, 96, 3)
        np.testing.assert_array_equal(big.render(), ref_obs)
    big.close()
    ref.close()
    with pytest.raises(ValueError, match="render_mode"):
        jsgym.make("pong", render_size=128)


def test_record_video_single_and_vector(tmp_path):
    pytest.importorskip("moviepy")
    env = gym.make("jsgym/Catch-v0", render_mode="rgb_array", render_size=160, frameskip=4)
    env = gym.wrappers.RecordVideo(env, str(tmp_path / "single"), episode_trigger=lambda e: e == 0,
                                   disable_logger=True)
    env.reset(seed=0)
    for _ in range(300):
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        if term or trunc:
            break
    env.close()
    envs = jsgym.make_vec("catch", 2, render_mode="rgb_array", render_size=96, **CATCH)
    envs = gym.wrappers.vector.RecordEpisodeStatistics(envs)
    envs = gym.wrappers.vector.RecordVideo(envs, str(tmp_path / "vector"),
                                           step_trigger=lambda s: s == 0, video_length=30,
                                           disable_logger=True)
    envs.reset(seed=0)
    for _ in range(40):
        envs.step(envs.action_space.sample())
    envs.close()
    for folder in ("single", "vector"):
        videos = list((tmp_path / folder).glob("*.mp4"))
        assert videos and videos[0].stat().st_size > 1000, folder
    from moviepy import VideoFileClip

    with VideoFileClip(str(next((tmp_path / "single").glob("*.mp4")))) as clip:
        assert tuple(clip.size) == (160, 160)


def test_pickle_and_deepcopy_recreate_the_env(tmp_path):
    env = gym.make("jsgym/Catch-v0", frameskip=2)
    obs, _ = env.reset(seed=7)
    for clone in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        np.testing.assert_array_equal(clone.reset(seed=7)[0], obs)
        assert clone.unwrapped._vec._pool.config.frameskip == 2
        clone.close()
    env.close()
    # a game given as a path is found from anywhere
    path = tmp_path / "mine.js"
    path.write_text((jsgym.games.games_dir() / "catch.js").read_text())
    envs = jsgym.make_vec(path, 2, frame_stack=2, seed=1)
    clone = pickle.loads(pickle.dumps(envs))
    assert clone.observation_space.shape == (2, 64, 64, 6)
    np.testing.assert_array_equal(clone.reset(seed=1)[0], envs.reset(seed=1)[0])
    clone.close()
    envs.close()
    bare = jsgym.make_vec("catch", 1)
    bare._make_args = None  # as a JsVectorEnv built straight from a pool is
    with pytest.raises(TypeError, match="make_vec"):
        pickle.dumps(bare)
    bare.close()


SB3_SUBPROC = """
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import SubprocVecEnv
import numpy as np

if __name__ == "__main__":
    venv = make_vec_env("jsgym/Catch-v0", n_envs=2, vec_env_cls=SubprocVecEnv,
                        env_kwargs={"frameskip": 4}, seed=0)
    obs = venv.reset()
    for _ in range(100):
        obs, rewards, dones, infos = venv.step(np.array([1, 2]))
    print("ok", obs.shape, sum(1 for i in infos if "episode" in i) >= 0)
    venv.close()
"""


def test_sb3_subproc_vec_env_by_gymnasium_id(tmp_path):
    """SB3's workers (forkserver or spawn) never imported jsgym: the id must resolve there."""
    pytest.importorskip("stable_baselines3")
    script = tmp_path / "sb3_subproc.py"
    script.write_text(SB3_SUBPROC)
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "ok (2, 64, 64, 3)" in proc.stdout


def test_gymnasium_make_in_a_fresh_interpreter():
    code = "import gymnasium as gym; e = gym.make('jsgym/Pong-v0'); print(e.reset(seed=0)[0].shape)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "(64, 64, 3)" in proc.stdout
