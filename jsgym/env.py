"""``JsEnv``: one game as a single Gymnasium ``Env`` (a one-env pool of either backend)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from jsgym import contract
from jsgym.vector import JsVectorEnv


class JsEnv(gym.Env):
    """A single env; built by :func:`jsgym.make`, which documents the arguments.

    ``step`` after the episode ended keeps running the game (it does not reset by
    itself): call ``reset``. Infos are plain scalars: ``score``, ``lives``,
    ``game_state`` (an int, as in the vector env's infos: 0 playing, 1 gameover, 2 won;
    ``jsgym.GAME_STATES`` names them), ``level_seed``, ``elapsed_steps``, plus
    ``episode`` when one ended (with ``episode_statistics=True``) and ``error`` when the
    game failed under ``on_error="reset"``.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": contract.FRAME_RATE}

    def __init__(self, pool, *, action_names: tuple[str, ...], render_mode: str | None = None,
                 episode_statistics: bool = False, render_pool=None):
        if render_mode not in (None, "rgb_array"):
            pool.close()
            if render_pool is not None:
                render_pool.close()
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.render_mode = render_mode
        self._vec = JsVectorEnv(pool, autoreset_mode=AutoresetMode.DISABLED,
                                action_names=action_names, copy=True,
                                episode_statistics=episode_statistics, render_pool=render_pool)
        # set by jsgym.make: what pickling re-creates the env from
        self._make_args: tuple[str, dict] | None = None
        self.backend = pool.backend
        self.game = pool.config.game_name
        self.action_names = action_names
        self.observation_space = self._vec.single_observation_space
        self.action_space = self._vec.single_action_space
        self._continuous = isinstance(self.action_space, spaces.Dict)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        episode_seed = seed if seed is not None else int(self.np_random.integers(1 << 32))
        obs, infos = self._vec.reset(seed=[episode_seed])
        return obs[0], self._scalar_infos(infos)

    def step(self, action):
        if self._continuous:
            if not isinstance(action, dict) or set(action) != {"action", "pointer", "button"}:
                raise ValueError("action must be a dict {'action', 'pointer', 'button'}, got "
                                 f"{action!r}")
            batch = {"action": np.array([int(action["action"])]),
                     "pointer": np.asarray(action["pointer"], dtype=np.float64).reshape(1, 2),
                     "button": np.array([int(action["button"])])}
            obs, rewards, terminated, truncated, infos = self._vec.step(batch)
            return (obs[0], float(rewards[0]), bool(terminated[0]), bool(truncated[0]),
                    self._scalar_infos(infos))
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) and not (
                isinstance(action, np.ndarray) and action.shape == () and
                np.issubdtype(action.dtype, np.integer)):
            raise ValueError(f"action must be an int in [0, {self.action_space.n}), got {action!r}")
        obs, rewards, terminated, truncated, infos = self._vec.step(np.array([int(action)]))
        return (obs[0], float(rewards[0]), bool(terminated[0]), bool(truncated[0]),
                self._scalar_infos(infos))

    def render(self):
        if self.render_mode is None:
            gym.logger.warn("render() called without render_mode='rgb_array'")
            return None
        return (self._vec._render_pool or self._vec._pool).obs[0].copy()

    def close(self):
        self._vec.close()

    def __reduce__(self):
        """Pickling (and ``copy.deepcopy``) re-creates the env from its
        :func:`jsgym.make` arguments: a new env, to be reset (the game's state lives in
        a native heap and is not copied)."""
        if self._make_args is None:
            raise TypeError("a JsEnv built directly from a pool cannot be pickled; "
                            "build it with jsgym.make(), whose arguments pickle")
        from jsgym.vector import _remake

        game, kwargs = self._make_args
        return _remake, ("make", game, kwargs)

    def call_js(self, code: str):
        """Evaluates JavaScript in the game's global scope; returns its JSON value."""
        return self._vec.call_js(code, 0)

    @staticmethod
    def _scalar_infos(infos: dict) -> dict:
        out = {
            "score": float(infos["score"][0]),
            "lives": float(infos["lives"][0]),
            "game_state": int(infos["game_state"][0]),
            "level_seed": int(infos["level_seed"][0]),
            "elapsed_steps": int(infos["elapsed_steps"][0]),
        }
        if infos.get("_episode", [False])[0]:
            ep = infos["episode"]
            out["episode"] = {"r": float(ep["r"][0]), "l": int(ep["l"][0]), "t": float(ep["t"][0])}
        if infos.get("_error", [False])[0]:
            out["error"] = infos["error"][0]
        return out
