"""Vector-env wrappers that keep jsgym's asynchronous ``send``/``recv`` API.

Gymnasium's own vector wrappers only wrap ``reset``/``step``; the wrappers here also
wrap ``send``/``recv`` (double-buffered stepping of env subsets), so that trainers built
on them, such as ``jsgym/trainers/impala.py``, can use them unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv, VectorWrapper


class FrameStack(VectorWrapper):
    """The last ``k`` observations of each env, stacked along the channel axis.

    Observations become ``(num_envs, h, w, c * k)``, oldest frame first, newest in the
    last ``c`` channels (the layout of Atari preprocessing's frame stack, with the
    frames side by side in the channel axis as CNN encoders take them). An episode's
    first observation fills all ``k`` slots. This is what lets a single-frame game like
    Pong show the ball's direction of travel to a feed-forward policy.

    Autoreset is handled in every mode: ``NEXT_STEP`` (the step after an episode end
    returns the new episode's first observation, which refills the stack),
    ``SAME_STEP`` (``infos["final_obs"]`` becomes the stacked final observation) and
    ``DISABLED`` (``reset(options={"reset_mask": ...})`` refills the envs it resets).
    """

    def __init__(self, env: VectorEnv, k: int):
        super().__init__(env)
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
            raise ValueError(f"frame_stack must be an int >= 1, got {k!r}")
        h, w, c = env.single_observation_space.shape
        self.k, self._c = int(k), c
        n = env.num_envs
        self.single_observation_space = spaces.Box(0, 255, (h, w, c * self.k), np.uint8)
        self.observation_space = spaces.Box(0, 255, (n, h, w, c * self.k), np.uint8)
        self._stack = np.zeros((n, h, w, c * self.k), np.uint8)
        self._starts = np.zeros(n, np.bool_)  # next observation begins an episode
        self._mode = env.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP)

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None):
        obs, infos = self.env.reset(seed=seed, options=options)
        ids = np.arange(self.num_envs)
        if options and "reset_mask" in options:
            ids = ids[np.asarray(options["reset_mask"])]
        self._stack[ids] = np.tile(obs[ids], self.k)
        self._starts[ids] = False
        return self._stack.copy(), infos

    def step(self, actions):
        obs, rewards, terminated, truncated, infos = self.env.step(actions)
        stacked = self._push(np.arange(self.num_envs), obs, terminated, truncated, infos)
        return stacked, rewards, terminated, truncated, infos

    def send(self, actions, env_ids=None):
        self.env.send(actions, env_ids)

    def recv(self):
        obs, rewards, terminated, truncated, infos = self.env.recv()
        stacked = self._push(np.asarray(infos["env_id"]), obs, terminated, truncated, infos)
        return stacked, rewards, terminated, truncated, infos

    def _push(self, ids, obs, terminated, truncated, infos) -> np.ndarray:
        c = self._c
        s = self._stack[ids]
        s[..., :-c] = s[..., c:]
        s[..., -c:] = obs
        starts = self._starts[ids]
        if starts.any():
            s[starts] = np.tile(obs[starts], self.k)
        ends = np.asarray(terminated) | np.asarray(truncated)
        if self._mode == AutoresetMode.SAME_STEP and ends.any():
            # obs already is the next episode's first frame; the final frame is in infos
            final = s[ends].copy()
            final[..., -c:] = np.asarray(infos["final_obs"])[ends] if "final_obs" in infos \
                else obs[ends]
            stacked_final = np.zeros_like(s)
            stacked_final[ends] = final
            infos["final_obs"] = stacked_final
            s[ends] = np.tile(obs[ends], self.k)
        elif self._mode == AutoresetMode.NEXT_STEP:
            self._starts[ids] = ends
        self._stack[ids] = s
        return s

    def __getattr__(self, name: str):
        # call_js, profile, game, action_names...: the wrapped env's
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.env, name)
