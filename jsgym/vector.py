"""``JsVectorEnv``: a Gymnasium 1.x ``VectorEnv`` over a pool (``jsgym._core.NativePool``:
the QuickJS game, or the browser backend's hosted game)."""

from __future__ import annotations

import functools
import time
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv

from jsgym import contract
from jsgym._core import NativePool

_RECV = contract.RECV

_AUTORESET_NAMES = {
    AutoresetMode.NEXT_STEP: "next_step",
    AutoresetMode.SAME_STEP: "same_step",
    AutoresetMode.DISABLED: "disabled",
}


@functools.lru_cache(maxsize=64)
def _all_present(n: int) -> np.ndarray:
    """The "present in every env" mask of the info keys for a batch of n envs: one
    read-only array per batch size, shared by every step of every env."""
    every = np.ones(n, dtype=np.bool_)
    every.flags.writeable = False
    return every


class JsVectorEnv(VectorEnv):
    """``num_envs`` copies of one game, stepped together by the pool's threads.

    Built by :func:`jsgym.make_vec`, which documents the arguments; ``pool`` is the
    backend (``backend`` says which). Observations are
    ``uint8`` arrays of shape ``(num_envs, height, width, 3)``. With ``copy=False`` the
    arrays returned by ``reset``/``step`` are views of the buffer the workers write
    into: the next call overwrites them.

    Infos are dicts of arrays with ``_key`` masks (Gymnasium's vector convention):
    ``score``, ``lives``, ``game_state`` (0 playing, 1 gameover, 2 won),
    ``level_seed``, ``elapsed_steps`` for every env; with ``episode_statistics=True``,
    ``episode`` (``r``, ``l``, ``t``) where an episode ended (off by default: Gymnasium's
    ``RecordEpisodeStatistics`` writes that key); ``error`` (the message) where an env
    failed and ``on_error="reset"`` restarted it; in ``SAME_STEP`` mode, where an
    episode ended, ``final_obs`` and ``final_info`` (the infos of its last step: the
    top-level ones are then the next episode's first), as Gymnasium's vector envs do.

    ``render_pool``: a second pool of the same game at the render size, stepped with the
    same seeds and actions (so the same trajectory), whose frames ``render()`` returns.
    """

    def __init__(self, pool: NativePool, *, autoreset_mode: AutoresetMode,
                 action_names: tuple[str, ...], copy: bool = True,
                 render_mode: str | None = None, seed: int | None = None,
                 episode_statistics: bool = False, render_pool: NativePool | None = None):
        self.metadata = {"autoreset_mode": autoreset_mode, "render_modes": ["rgb_array"],
                         "render_fps": contract.FRAME_RATE}
        if render_mode not in (None, "rgb_array"):
            pool.close()
            if render_pool is not None:
                render_pool.close()
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        config = pool.config
        self.episode_statistics = bool(episode_statistics)
        self._render_pool = render_pool
        # set by jsgym.make_vec: what pickling re-creates the env from
        self._make_args: tuple[str, dict] | None = None
        self.render_mode = render_mode
        self.autoreset_mode = autoreset_mode
        self.copy = copy
        self.game = config.game_name
        self.action_names = action_names
        self.num_envs = config.num_envs
        h, w = config.obs_size
        self.single_observation_space = spaces.Box(0, 255, (h, w, 3), np.uint8)
        n_act = len(config.actions)
        self.observation_space = spaces.Box(0, 255, (self.num_envs, h, w, 3), np.uint8)
        #: None, ("grid", rows, cols, width, height) or ("continuous", width, height)
        self.pointer_space = config.pointer_space
        if self.pointer_space is not None and self.pointer_space[0] == "continuous":
            _, cw, ch = self.pointer_space
            hi = np.array([cw, ch], dtype=np.float32)
            self.single_action_space = spaces.Dict({
                "action": spaces.Discrete(n_act),
                "pointer": spaces.Box(np.zeros(2, np.float32), hi, (2,), np.float32),
                "button": spaces.Discrete(3)})
            self.action_space = spaces.Dict({
                "action": spaces.MultiDiscrete(np.full(self.num_envs, n_act)),
                "pointer": spaces.Box(np.zeros((self.num_envs, 2), np.float32),
                                      np.tile(hi, (self.num_envs, 1)), (self.num_envs, 2),
                                      np.float32),
                "button": spaces.MultiDiscrete(np.full(self.num_envs, 3))})
        else:
            self.single_action_space = spaces.Discrete(n_act)
            self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, n_act))
        self._n_actions = n_act
        self.backend = pool.backend
        self._pool = pool
        self._all_ids = np.arange(self.num_envs, dtype=np.int64)
        self._episode_start = np.full(self.num_envs, time.perf_counter())
        self._seeded = False
        self._default_seed = seed
        self.closed = False

    # -- Gymnasium API -------------------------------------------------------------

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None):
        """Starts new episodes.

        Args:
            seed: an int seeds env ``i`` with ``seed + i``; a list gives one seed per
                env; ``None`` continues each env's seed stream (random seeds on the
                very first reset).
            options: ``{"reset_mask": bool array}`` resets only the envs where it is
                True; the others keep their state and their last observation.

        Returns:
            ``(observations, infos)`` for all envs.
        """
        ids = self._all_ids
        if options and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise ValueError(f"reset_mask must be a bool array of shape ({self.num_envs},), "
                                 f"got {mask.dtype} {mask.shape}")
            ids = self._all_ids[mask]
        seeds = self._seeds_for(seed, ids)
        if len(ids):
            self._pool.reset(ids, seeds)
            if self._render_pool is not None:
                self._render_pool.reset(ids, seeds)
        self._episode_start[ids] = time.perf_counter()
        obs = self._pool.obs.copy() if self.copy else self._pool.obs
        return obs, self._infos(self._all_ids, with_episode=False)

    def _seeds_for(self, seed, ids):
        if isinstance(seed, (list, tuple, np.ndarray)):
            if len(seed) != self.num_envs:
                raise ValueError(f"seed list must have {self.num_envs} entries, got {len(seed)}")
            bad = [s for s in seed
                   if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer))]
            if bad:
                raise TypeError(f"seed list entries must be ints, got {bad[0]!r}")
            self._seeded = True
            return np.asarray(seed, dtype=np.int64)[ids] % (1 << 32)
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
                raise TypeError(f"seed must be an int, a list of ints or None, got {seed!r}")
            self._np_random, self._np_random_seed = seeding.np_random(int(seed))
            self._seeded = True
            return (int(seed) + ids) % (1 << 32)
        if not self._seeded:
            self._seeded = True
            base = self._default_seed
            if base is None:
                base = int(np.random.SeedSequence().generate_state(1)[0])
            return (base + ids) % (1 << 32)
        return None

    def step(self, actions):
        """Steps every env with ``actions`` (shape ``(num_envs,)``, integers in
        ``[0, n_actions)``).

        Raises:
            ValueError: the action array has the wrong shape, dtype or range (no env
                moves).
            jsgym.GameError: a subclass naming the game, the env and the step, when an
                env failed and ``on_error="raise"``.
        """
        self.send(actions)
        obs, rewards, terminated, truncated, infos = self.recv()
        del infos["env_id"]
        return obs, rewards, terminated, truncated, infos

    def send(self, actions, env_ids=None):
        """Starts stepping the envs ``env_ids`` (all by default) and returns at once;
        :meth:`recv` collects the results. Envs not in flight can be sent in another
        call meanwhile (double buffering); up to 8 sends may be outstanding."""
        ids = None if env_ids is None else self._check_ids(env_ids)
        n = self.num_envs if ids is None else len(ids)
        if self._pool.pointer is not None:
            actions = self._write_pointer(actions, n, ids)
        actions = self._check_actions(actions, n)
        self._pool.send(actions, ids)
        if self._render_pool is not None:
            if self._pool.pointer is not None:  # the same pointer as the env it mirrors
                self._render_pool.pointer[:] = self._pool.pointer
            self._render_pool.send(actions, ids)

    def _write_pointer(self, actions, n: int, ids) -> np.ndarray:
        """A continuous action ``{"action", "pointer", "button"}``: the pointer rows of
        its envs written into the pool's pointer buffer (checked first, so that a bad
        action moves no env); returns the key actions."""
        if not isinstance(actions, dict) or set(actions) != {"action", "pointer", "button"}:
            raise ValueError("actions must be a dict {'action', 'pointer', 'button'} (the "
                             f"continuous pointer space), got {type(actions).__name__}")
        pos = np.asarray(actions["pointer"], dtype=np.float64)
        button = np.asarray(actions["button"])
        if pos.shape != (n, 2) or not np.isfinite(pos).all():
            raise ValueError(f"actions['pointer'] must be finite with shape ({n}, 2), got "
                             f"shape {pos.shape}")
        if button.shape != (n,) or button.dtype.kind not in "iu" or n and (
                button.min() < 0 or button.max() > 2):
            raise ValueError(f"actions['button'] must be integers 0 (up), 1 (held) or 2 "
                             f"(click) with shape ({n},), got {button!r}")
        rows = np.arange(self.num_envs) if ids is None else ids
        _, cw, ch = self.pointer_space
        left = contract.BUTTONS["LEFT"]
        p = self._pool.pointer
        p[rows, 0] = np.clip(pos[:, 0], 0, cw)
        p[rows, 1] = np.clip(pos[:, 1], 0, ch)
        p[rows, 2] = np.where(button == 1, left, 0)
        p[rows, 3] = np.where(button == 2, left, 0)
        return actions["action"]

    def recv(self):
        """Waits for the oldest outstanding :meth:`send` and returns
        ``(obs, rewards, terminations, truncations, infos)`` for its envs, in the
        order they were sent; ``infos["env_id"]`` holds their ids."""
        try:
            ids = self._pool.recv()
        finally:
            if self._render_pool is not None:
                self._recv_render()
        p = self._pool
        flags = p.recv_flags
        full = ids is p.all_ids
        if full:
            obs = p.obs.copy() if self.copy else p.obs
            rewards, term, trunc = p.reward.copy(), p.terminated.copy(), p.truncated.copy()
        else:
            obs = p.obs[ids]
            rewards, term, trunc = p.reward[ids], p.terminated[ids], p.truncated[ids]
        infos = self._infos(ids, with_episode=True, full=full, flags=flags)
        infos["env_id"] = ids
        return obs, rewards, term, trunc, infos

    def render(self):
        """The current frame of every env, a tuple of ``num_envs`` ``(h, w, 3)`` arrays as
        Gymnasium's vector envs return (``rgb_array``; ``render_size`` sets ``h, w``)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without render_mode='rgb_array'")
            return None
        return tuple((self._render_pool or self._pool).obs.copy())

    def close_extras(self, **kwargs):
        self._pool.close()
        if self._render_pool is not None:
            self._render_pool.close()

    def __reduce__(self):
        """Pickling (and ``copy.deepcopy``) re-creates the env from its
        :func:`jsgym.make_vec` arguments: a new env, to be reset (the game's state
        lives in native heaps and is not copied)."""
        if self._make_args is None:
            raise TypeError("a JsVectorEnv built directly from a pool cannot be pickled; "
                            "build it with jsgym.make_vec(), whose arguments pickle")
        game, kwargs = self._make_args
        return _remake, ("make_vec", game, kwargs)

    def close(self, **kwargs):
        if not self.closed:
            self.close_extras(**kwargs)
            self.closed = True

    # -- jsgym extras ----------------------------------------------------------------

    def call_js(self, code: str, env: int = 0):
        """Evaluates JavaScript in one env's global scope and returns its JSON value
        (for debugging and tests; never while a send is outstanding)."""
        return self._pool.eval(env, code)

    def profile(self, env: int = 0) -> dict:
        """Counters of env ``env`` since creation (times need ``profile=True``)."""
        return self._pool.profile(env)

    # -- helpers ---------------------------------------------------------------------

    def _recv_render(self):
        """Collects the render pool's mirror of the job just received; its failures
        are the main pool's (the same game, seeds and actions), reported from there."""
        from jsgym.errors import GameError

        try:
            self._render_pool.recv()
        except GameError:
            pass

    def _is_all(self, ids: np.ndarray) -> bool:
        """Whether ids are every env in order (plain copies then replace gathers)."""
        return len(ids) == self.num_envs and bool((ids == self._all_ids).all())

    def _check_ids(self, env_ids) -> np.ndarray:
        ids = np.asarray(env_ids)
        if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer):
            raise ValueError(f"env_ids must be a 1-D integer array, got {ids.dtype} {ids.shape}")
        if len(ids) and (ids.min() < 0 or ids.max() >= self.num_envs):
            raise ValueError(f"env_ids must be within [0, {self.num_envs}), got {ids.tolist()}")
        if len(np.unique(ids)) != len(ids):
            raise ValueError("env_ids must not repeat an env")
        return ids.astype(np.int64)

    def _check_actions(self, actions, n: int) -> np.ndarray:
        """Shape and dtype; the pool checks the range (as int64) before any env moves."""
        a = np.asarray(actions)
        if a.shape != (n,):
            raise ValueError(f"actions must have shape ({n},), got {a.shape}")
        if a.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, got dtype {a.dtype}")
        if a.dtype == np.uint64 and n and a.max() >= 1 << 63:  # would wrap to int64
            raise ValueError(f"actions must be within [0, {self._n_actions}), "
                             f"got {a[a >= self._n_actions].tolist()}")
        return a

    def _infos(self, ids: np.ndarray, *, with_episode: bool, full: bool | None = None,
               flags: int | None = None) -> dict:
        """Infos of envs ``ids``; ``flags`` (the pool's recv_flags, None: unknown) says
        which of episode ends, errors and final observations can be there at all."""
        p = self._pool
        may = (lambda flag: True) if flags is None else (lambda flag: bool(flags & flag))
        n = len(ids)
        every = _all_present(n)
        if full is None:
            full = self._is_all(ids)
        take = (lambda a: a.copy()) if full else (lambda a: a[ids])
        # Read-only checks need no copy when every env is in order.
        view = (lambda a: a) if full else (lambda a: a[ids])
        infos = {
            "score": take(p.score), "_score": every,
            "lives": take(p.lives), "_lives": every,
            "game_state": take(p.game_state), "_game_state": every,
            "level_seed": take(p.level_seed), "_level_seed": every,
            "elapsed_steps": take(p.elapsed_steps), "_elapsed_steps": every,
        }
        done = (view(p.episode_done) if with_episode and self.episode_statistics
                and may(_RECV["EPISODE_DONE"]) else None)
        if done is not None and done.any():
            done = done.copy()  # may be a view of the pool's buffer, and infos keeps it
            now = time.perf_counter()
            done_ids = ids[done]
            t = np.zeros(n)
            t[done] = now - self._episode_start[done_ids]
            self._episode_start[done_ids] = now
            infos["episode"] = {
                "r": np.where(done, p.episode_return[ids], 0.0),
                "l": np.where(done, p.episode_length[ids], 0),
                "t": t,
            }
            infos["_episode"] = done
        # reset() reports errors too: with on_error="reset" a failing resetGame() is
        # restarted, and the caller must hear of it
        errors = view(p.env_error) != contract.OK if may(_RECV["ENV_ERROR"]) else None
        if errors is not None and errors.any():
            messages = np.full(n, None, dtype=object)
            for k in np.flatnonzero(errors):
                messages[k] = p.env_error_message(int(ids[k]))
            infos["error"] = messages
            infos["_error"] = errors
        if with_episode and p.final_obs_valid is not None and may(_RECV["FINAL_OBS"]):
            valid = view(p.final_obs_valid)
            if valid.any():
                valid = valid.copy()
                infos["final_obs"] = p.final_obs[ids]
                infos["_final_obs"] = valid
                final = {
                    "score": np.where(valid, p.final_score[ids], 0.0), "_score": valid,
                    "lives": np.where(valid, p.final_lives[ids], 0.0), "_lives": valid,
                    "game_state": np.where(valid, p.final_game_state[ids], 0).astype(np.int32),
                    "_game_state": valid,
                    "level_seed": np.where(valid, p.final_level_seed[ids], 0).astype(np.uint32),
                    "_level_seed": valid,
                    "elapsed_steps": np.where(valid, p.final_elapsed_steps[ids], 0),
                    "_elapsed_steps": valid,
                }
                for key in ("episode", "error"):  # they belong to the episode that ended
                    if key in infos:
                        final[key], final[f"_{key}"] = infos[key], infos[f"_{key}"] & valid
                infos["final_info"] = final
                infos["_final_info"] = valid
        return infos

    def __repr__(self):
        return f"JsVectorEnv({self.game!r}, num_envs={self.num_envs}, backend={self.backend!r})"


def _remake(kind: str, game: str, kwargs: dict):
    """Unpickles a jsgym env: calls ``jsgym.make_vec`` or ``jsgym.make`` again."""
    import jsgym

    return getattr(jsgym, kind)(game, **kwargs)


def autoreset_name(mode: AutoresetMode | str) -> str:
    """Accepts an ``AutoresetMode`` or its name (``"next_step"``, ``"NextStep"``)."""
    if isinstance(mode, AutoresetMode):
        return _AUTORESET_NAMES[mode]
    key = str(mode).lower().replace("_", "")
    for m, name in _AUTORESET_NAMES.items():
        if key in (name.replace("_", ""), m.value.lower()):
            return name
    raise ValueError(f"unknown autoreset_mode {mode!r}; use gymnasium.vector.AutoresetMode")
