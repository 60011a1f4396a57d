"""Stable-Baselines3 adapter: a jsgym vector env as an SB3 ``VecEnv``.

    from stable_baselines3 import PPO
    from jsgym.sb3 import SB3VecEnv

    venv = SB3VecEnv("catch", num_envs=8, frameskip=4)
    model = PPO("CnnPolicy", venv, n_steps=128, verbose=1).learn(100_000)

SB3 expects what its own ``DummyVecEnv`` does, and this adapter provides it on top of
one native pool: ``reset()`` returns only observations; ``step_wait()`` returns
``(obs, rewards, dones, infos)`` with ``dones = terminated | truncated``, a list of one
info dict per env, and the env already reset where ``dones`` is true (the pool runs in
Gymnasium's ``SAME_STEP`` autoreset mode), the episode's last observation in
``info["terminal_observation"]``, ``info["TimeLimit.truncated"]`` for time-limit ends
and ``info["episode"] = {"r", "l", "t"}`` (what SB3's ``Monitor`` writes, so SB3 logs
``rollout/ep_rew_mean`` without one). Observations stay ``(H, W, 3)`` ``uint8``: SB3
transposes image observations to channels-first itself (``VecTransposeImage``).

Requires ``stable-baselines3`` (the ``train`` extra).
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Sequence

import numpy as np
from gymnasium.vector import AutoresetMode
try:
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvStepReturn
except ModuleNotFoundError as exc:  # say which extra brings it
    if exc.name is None or not exc.name.startswith("stable_baselines3"):
        raise
    raise ModuleNotFoundError("jsgym.sb3 needs Stable-Baselines3: pip install \"jsgym[train]\"",
                              name=exc.name) from exc

import jsgym

__all__ = ["SB3VecEnv"]


class SB3VecEnv(VecEnv):
    """``num_envs`` copies of a jsgym game behind SB3's ``VecEnv`` interface.

    Args:
        game: a bundled game name or a path to a ``.js`` file.
        num_envs: number of envs.
        seed: seed of the first reset (env ``i`` gets ``seed + i``); ``VecEnv.seed()``
            overrides it for the next reset.
        **make_vec_kwargs: passed to :func:`jsgym.make_vec` (``frameskip``,
            ``max_episode_steps``, ``num_threads``, ``backend``, ...). ``autoreset_mode``
            is fixed to ``SAME_STEP``, as SB3 requires.
    """

    def __init__(self, game: str | os.PathLike, num_envs: int = 8, *, seed: int | None = None,
                 **make_vec_kwargs):
        if "autoreset_mode" in make_vec_kwargs:
            raise TypeError("SB3VecEnv fixes autoreset_mode to SAME_STEP (SB3's convention)")
        self.venv = jsgym.make_vec(game, num_envs, seed=seed, render_mode="rgb_array",
                                   autoreset_mode=AutoresetMode.SAME_STEP, episode_statistics=True,
                                   **make_vec_kwargs)
        super().__init__(num_envs, self.venv.single_observation_space,
                         self.venv.single_action_space)
        self.render_mode = "rgb_array"
        self._first_seed = seed
        self._actions: np.ndarray | None = None

    # -- the VecEnv API -----------------------------------------------------------------

    def reset(self) -> np.ndarray:
        seeds = None
        if any(s is not None for s in self._seeds):
            base = np.random.SeedSequence().generate_state(1)[0]
            seeds = [int(s) if s is not None else int(base) + i for i, s in enumerate(self._seeds)]
        elif self._first_seed is not None:
            seeds, self._first_seed = self._first_seed, None
        obs, _ = self.venv.reset(seed=seeds)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64)

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise RuntimeError("step_wait() called without step_async()")
        obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        episode, has_episode = infos.get("episode"), infos.get("_episode")
        final_obs, has_final = infos.get("final_obs"), infos.get("_final_obs")
        for i in np.flatnonzero(dones):
            info = out[i]
            info["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            if has_final is not None and has_final[i]:
                info["terminal_observation"] = final_obs[i].copy()
            if has_episode is not None and has_episode[i]:
                info["episode"] = {"r": float(episode["r"][i]), "l": int(episode["l"][i]),
                                   "t": float(episode["t"][i])}
        for key in ("score", "lives"):
            if key in infos:
                for i in range(self.num_envs):
                    out[i][key] = infos[key][i].item()
        return obs, rewards.astype(np.float32), dones, out

    def close(self) -> None:
        self.venv.close()

    def get_images(self) -> Sequence[np.ndarray | None]:
        return list(self.venv.render())

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return [getattr(self.venv, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        raise AttributeError(f"SB3VecEnv cannot set {attr_name!r}: the envs share one native pool")

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        raise AttributeError(f"SB3VecEnv has no per-env method {method_name!r}")

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return indices
