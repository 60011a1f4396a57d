"""jsgym: single-file p5.js games as fast Gymnasium environments.

    import jsgym
    envs = jsgym.make_vec("pong", num_envs=16)   # gymnasium.vector.VectorEnv
    env = jsgym.make("pong")                     # gymnasium.Env
"""

from __future__ import annotations

import inspect
import os
import re

import numpy as np
from gymnasium.vector import AutoresetMode

from jsgym import contract
from jsgym.errors import (GameContractError, GameError, GameLoadError, GameMemoryError,
                          GameRuntimeError, GameTimeoutError)
from jsgym.games import DEFAULT_ACTIONS, Action, bundled_games, gym_id, parse_actions

__all__ = [
    "make", "make_vec", "bundled_games", "Action", "DEFAULT_ACTIONS", "GameError",
    "GameLoadError", "GameContractError", "GameRuntimeError", "GameTimeoutError",
    "GameMemoryError", "AutoresetMode", "gym_id", "GAME_STATES",
]
__version__ = "0.1.0"


_D = contract.default  # every default below is contract/contract.json's

#: Names of the ``game_state`` info values: ``GAME_STATES[info["game_state"]]``.
GAME_STATES = contract.GAME_STATES


def make_vec(game: str | os.PathLike, num_envs: int = 1, *, num_threads: int | None = None,
             seed: int | None = None, obs_size: int | tuple[int, int] = _D("obs_side"),
             frameskip: int = _D("frameskip"),
             max_episode_steps: int | None = _D("max_episode_steps"), actions=None, pointer=None,
             autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP, copy: bool = True,
             render_mode: str | None = None, game_options: dict | None = None,
             num_levels: int = 0, start_level: int = 0, on_error: str = "raise",
             step_timeout: float = _D("step_timeout"),
             compile_timeout: float = _D("compile_timeout"), memory_limit: int = _D("memory_limit"),
             stack_limit: int = _D("stack_limit"), max_draw_calls: int = _D("max_draw_calls"),
             fit: str = "stretch", supersample: int = _D("supersample"), profile: bool = False,
             backend: str = "quickjs", frame_stack: int = 1, episode_statistics: bool = False,
             render_size: int | tuple[int, int] | None = None):
    """Builds a vector env running ``num_envs`` copies of a game.

    Args:
        game: a bundled game name (``"pong"``, see :func:`bundled_games`) or a path to
            a ``.js`` file written to the game contract.
        num_envs: number of envs.
        num_threads: threads stepping the envs (default: one per core, at most
            ``num_envs``). Env ``i``'s home is shard ``i % num_threads``, and a
            thread done with its own envs of a step takes the others' remaining
            ones; shards 1.. have a worker thread each, shard 0 runs on the
            thread that calls ``step()``/``recv()`` (so one thread means no thread
            hand-off at all). Results do not depend on the thread count.
        seed: seed of the first ``reset()`` without a seed (env ``i`` gets
            ``seed + i``); ``None`` draws one at random.
        obs_size: observation side (int) or ``(height, width)``.
        frameskip: ``draw()`` calls per step; only the last frame is rasterized when
            the skipped ones cannot show (the frame after each starts by covering
            the canvas: an opaque ``background()``, or opaque rectangles on canvas
            pixel edges such as a tile floor).
        max_episode_steps: truncation limit in steps (``None`` or 0: none).
        actions: action table; default: the game's own ``JSGYM_ACTIONS`` if it
            declares one, else :data:`DEFAULT_ACTIONS` (Discrete(8)). Entries are
            :class:`Action`, dicts ``{"name", "held", "tapped"}`` or strings like
            ``"LEFT+SPACE"``; a dict may also move the mouse (``"pointer": [x, y]``,
            canvas pixels) and hold (``"button"``) or tap (``"click"``) its buttons.
        pointer: pointer (mouse) actions; default: the game's own ``JSGYM_POINTER``
            if it declares one, else none. ``"grid"`` or ``(rows, cols)``: the action
            table, then a ``rows x cols`` grid of left clicks at the cells' centres
            (``"grid"`` is 8 x 8); ``"continuous"``: the action space is
            ``Dict(action=Discrete(n), pointer=Box([0, 0], [width, height]),
            button=Discrete(3))``, button 0 up, 1 held, 2 clicked (the position is
            rounded to whole canvas pixels, as a mouse reports it).
        autoreset_mode: Gymnasium ``AutoresetMode`` (``NEXT_STEP`` by default).
        copy: return copies of the observation buffer (``False``: views that the
            next call overwrites).
        render_mode: ``None`` or ``"rgb_array"``.
        game_options: JSON-serialisable dict the game reads as ``GAME_OPTIONS``.
        num_levels: with ``> 0``, every episode's level seed is drawn from
            ``[start_level, start_level + num_levels)`` (ProcGen-style split).
        start_level: first level of that range.
        on_error: ``"raise"`` (a failing env raises its ``GameError`` from ``step``)
            or ``"reset"`` (it is restarted, reported in ``info["error"]``, and its
            episode ends as truncated; the other envs are untouched).
        step_timeout: seconds one call into the game (setup, a reset, one step) may
            take, its JS and the rendering of its frames together, before
            ``GameTimeoutError`` (phase ``"render"`` when the rendering ran out of time);
            within ``(0, 86400]``.
        compile_timeout: seconds the compile of the game file to bytecode (once per vector
            env) may take before ``GameTimeoutError`` (phase ``"compile"``); within
            ``(0, 86400]``.
        memory_limit: bytes of JS heap per env before ``GameMemoryError``.
        stack_limit: bytes of JS stack per env.
        max_draw_calls: shapes one frame may draw.
        fit: ``"stretch"`` (canvas scaled to the observation, as the browser frame
            is downsampled) or ``"letterbox"`` (uniform scale, black bars).
        supersample: 1 renders exact-coverage pixels at observation size; 2-4
            render ``s x s`` subpixels each (closer to the browser, slower). Frames
            drawn over a trail (a translucent ``background()`` over the last frame)
            render at twice this while that is coarser than the game's canvas (at
            most 4), and go back to it at a frame that covers the canvas.
        profile: time JS, rasterizing and copying per env (see ``profile()``).
        backend: ``"quickjs"`` (native, fast) or ``"browser"`` (headless Chromium
            running the real p5.js, one page per env: the fidelity reference; see
            :mod:`jsgym.browser`). Both run the same episode rules (the native pool's).
        frame_stack: with ``k > 1``, observations hold the last ``k`` frames side by
            side in the channel axis, ``(num_envs, h, w, 3 * k)``, oldest first
            (:class:`jsgym.wrappers.FrameStack`; ``send``/``recv`` keep working).
        episode_statistics: write ``infos["episode"]`` (``r``, ``l``, ``t``) where an
            episode ended. Off by default, because Gymnasium's
            ``RecordEpisodeStatistics`` wrappers write (and refuse to find) that key.
        render_size: side (int) or ``(height, width)`` of ``render()``'s frames
            (``render_mode="rgb_array"``); default: the observation's. A size other
            than ``obs_size`` runs a second copy of every env at that size, with the
            same seeds and actions (the same trajectory), for its frames: twice the work.

    Returns:
        A :class:`jsgym.vector.JsVectorEnv` (a ``gymnasium.vector.VectorEnv``), wrapped
        in :class:`jsgym.wrappers.FrameStack` when ``frame_stack > 1``.

    Raises:
        FileNotFoundError: no such game.
        ValueError, TypeError: a bad argument (the message says expected vs got).
        GameLoadError, GameContractError, GameRuntimeError, GameTimeoutError,
        GameMemoryError: the game failed while loading or in ``setup()``.
    """
    make_args = _make_args(game, {k: v for k, v in locals().items() if k != "game"})
    from jsgym.vector import JsVectorEnv, autoreset_name

    config, names = _pool_config(
        game, num_envs=num_envs, num_threads=num_threads, obs_size=obs_size,
        frameskip=frameskip, max_episode_steps=max_episode_steps, actions=actions,
        pointer=pointer, autoreset=autoreset_name(autoreset_mode), game_options=game_options,
        num_levels=num_levels, start_level=start_level, on_error=on_error,
        step_timeout=step_timeout, compile_timeout=compile_timeout, memory_limit=memory_limit,
        stack_limit=stack_limit, max_draw_calls=max_draw_calls, fit=fit,
        supersample=supersample, profile=profile, backend=backend)
    mode = AutoresetMode(autoreset_mode) if isinstance(autoreset_mode, AutoresetMode) else {
        "next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP,
        "disabled": AutoresetMode.DISABLED}[config.autoreset]
    if isinstance(frame_stack, bool) or not isinstance(frame_stack, (int, np.integer)) \
            or frame_stack < 1:
        raise ValueError(f"frame_stack must be an int >= 1, got {frame_stack!r}")
    render_pool = _render_pool(config, backend, render_mode, render_size)
    envs = JsVectorEnv(_pool(config, backend), autoreset_mode=mode, action_names=names,
                       copy=copy, render_mode=render_mode, seed=seed,
                       episode_statistics=episode_statistics, render_pool=render_pool)
    envs._make_args = (make_args[0], {**make_args[1], "frame_stack": 1})
    if frame_stack > 1:
        from jsgym.wrappers import FrameStack

        envs = FrameStack(envs, frame_stack)
    return envs


def make(game: str | os.PathLike, *, render_mode: str | None = None, **kwargs):
    """Builds a single ``gymnasium.Env`` for a game; keyword arguments as for
    :func:`make_vec` (except ``num_envs``, ``num_threads``, ``autoreset_mode`` and
    ``copy``)."""
    from jsgym.env import JsEnv

    for name in ("num_envs", "num_threads", "autoreset_mode", "copy", "seed", "frame_stack"):
        if name in kwargs:
            raise TypeError(f"make() does not take {name!r}; use make_vec() or reset(seed=...)")
    unknown = set(kwargs) - set(_MAKE_OPTIONS)
    if unknown:
        raise TypeError(f"make() got unexpected keyword arguments {sorted(unknown)}")
    make_args = _make_args(game, {"render_mode": render_mode, **kwargs})
    options = {**_MAKE_OPTIONS, **kwargs}
    episode_statistics = options.pop("episode_statistics")
    render_size = options.pop("render_size")
    config, names = _pool_config(game, num_envs=1, num_threads=1, autoreset="disabled", **options)
    render_pool = _render_pool(config, options["backend"], render_mode, render_size)
    env = JsEnv(_pool(config, options["backend"]), action_names=names, render_mode=render_mode,
                episode_statistics=episode_statistics, render_pool=render_pool)
    env._make_args = make_args
    return env


def _make_args(game, kwargs: dict) -> tuple[str, dict]:
    """What pickling re-creates an env from: the game (a path made absolute, so that it
    is found from another working directory) and the keyword arguments as given."""
    import pathlib

    text = os.fspath(game)
    path = pathlib.Path(text)
    if path.suffix == ".js" and path.is_file():
        text = str(path.resolve())
    return text, dict(kwargs)


def _render_pool(config, backend: str, render_mode, render_size):
    """The pool whose frames ``render()`` returns when ``render_size`` differs from the
    observation's: the same config at another size (same seeds and actions, so the
    same trajectory); ``None`` otherwise."""
    import dataclasses

    if render_size is None:
        return None
    if isinstance(render_size, bool) or not isinstance(render_size, (int, tuple, list)):
        raise TypeError(f"render_size must be an int or (height, width), got {render_size!r}")
    hw = (render_size, render_size) if isinstance(render_size, int) else tuple(render_size)
    if len(hw) != 2 or any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in hw):
        raise ValueError(f"render_size must be a positive int or (height, width), got {render_size!r}")
    if render_mode != "rgb_array":
        raise ValueError("render_size needs render_mode='rgb_array'")
    if hw == tuple(config.obs_size):
        return None
    return _pool(dataclasses.replace(config, obs_size=hw), backend)


def _pool(config, backend: str):
    """The pool of a backend: the QuickJS game, or the browser's pages."""
    if backend == "browser":
        from jsgym.browser import browser_pool

        return browser_pool(config)
    from jsgym._core import NativePool

    return NativePool(config)


def _pool_config(game, *, num_envs, num_threads, obs_size, frameskip, max_episode_steps,
                 actions, pointer, autoreset, game_options, num_levels, start_level, on_error,
                 step_timeout, compile_timeout, memory_limit, stack_limit, max_draw_calls, fit,
                 supersample, profile, backend):
    from jsgym._core import PoolConfig, default_threads, options_json, read_source
    from jsgym.games import parse_actions, resolve
    from jsgym.libraries import library_source

    if backend not in ("quickjs", "browser"):
        raise ValueError(f"backend must be 'quickjs' or 'browser', got {backend!r}")
    name, path = resolve(game)

    def integer(value, what, lo=1, hi=None):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{what} must be an int, got {value!r}")
        if value < lo or (hi is not None and value > hi):
            span = f">= {lo}" if hi is None else f"within {lo}..{hi}"
            raise ValueError(f"{what} must be {span}, got {value!r}")
        return int(value)

    def positive(value, what):
        return integer(value, what)

    def seconds(value, what):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer,
                                                                          np.floating)):
            raise TypeError(f"{what} must be a number of seconds, got {value!r}")
        top = contract.LIMITS[what]["max"]
        if not 0 < value <= top:  # (NaN fails too)
            raise ValueError(f"{what} must be within (0, {top}] seconds, got {value!r}")
        return float(value)

    positive(num_envs, "num_envs")
    threads = default_threads(num_envs) if num_threads is None else positive(num_threads, "num_threads")
    side = contract.LIMITS["obs_side"]
    if isinstance(obs_size, (int, np.integer)) and not isinstance(obs_size, bool):
        obs_hw = (integer(obs_size, "obs_size", side["min"], side["max"]),) * 2
    else:
        try:
            obs_hw = tuple(obs_size)
        except TypeError:
            raise TypeError(f"obs_size must be an int or (height, width), got {obs_size!r}") from None
        if len(obs_hw) != 2:
            raise ValueError(f"obs_size must be an int or (height, width), got {obs_size!r}")
        obs_hw = tuple(integer(v, "obs_size", side["min"], side["max"]) for v in obs_hw)
    positive(frameskip, "frameskip")
    integer(supersample, "supersample", contract.LIMITS["supersample"]["min"],
            contract.LIMITS["supersample"]["max"])
    step_timeout = seconds(step_timeout, "step_timeout")
    compile_timeout = seconds(compile_timeout, "compile_timeout")
    integer(memory_limit, "memory_limit", contract.LIMITS["memory_limit"]["min"], 2**63 - 1)
    integer(stack_limit, "stack_limit", contract.LIMITS["stack_limit"]["min"], 2**63 - 1)
    integer(max_draw_calls, "max_draw_calls", 0, 2**32 - 1)
    if game_options is not None:
        options_json(game_options)
    source = read_source(name, path)
    if on_error not in contract.ON_ERROR:
        raise ValueError(f"on_error must be 'raise' or 'reset', got {on_error!r}")
    if fit not in contract.FIT:
        raise ValueError(f"fit must be 'stretch' or 'letterbox', got {fit!r}")
    if not 1 <= supersample <= 4:
        raise ValueError(f"supersample must be within 1..4, got {supersample!r}")
    if num_levels < 0 or start_level < 0:
        raise ValueError("num_levels and start_level must be >= 0")
    table = parse_actions(actions) if actions is not None else None
    config = PoolConfig(
        game_name=name, source=source, num_envs=num_envs, num_threads=threads,
        obs_size=obs_hw, fit=fit, supersample=supersample, frameskip=frameskip,
        max_episode_steps=int(max_episode_steps or 0), autoreset=autoreset, on_error=on_error,
        memory_limit=int(memory_limit), stack_limit=int(stack_limit),
        step_timeout=step_timeout, compile_timeout=compile_timeout,
        max_draw_calls=int(max_draw_calls),
        num_levels=int(num_levels), start_level=int(start_level), game_options=game_options,
        actions=table or DEFAULT_ACTIONS, profile=profile, library=library_source(source))
    config.actions, config.pointer_space = action_table(config, table, pointer)
    return config, tuple(a.name for a in config.actions)


def action_table(config, table, pointer):
    """The action table of a pool and its pointer space: the caller's ``table`` (or the
    game's ``JSGYM_ACTIONS``, or the default), with ``pointer`` (or the game's
    ``JSGYM_POINTER``) applied: ``None``, ``"grid"`` (8 x 8), ``(rows, cols)`` or
    ``{"grid": [rows, cols]}`` (the keys, then a grid of left clicks at the cells'
    centres), or ``"continuous"`` (every key action also moves the pointer and
    presses its buttons as a continuous action says). Returns ``(actions, space)``,
    ``space`` ``None``, ``("grid", rows, cols, width, height)`` or
    ``("continuous", width, height)``."""
    from jsgym._core import read_declarations
    from jsgym.games import ActionSpecError, declares_actions

    decl = {}
    if (table is None and declares_actions(config.source)) or pointer is not None:
        decl = read_declarations(config)
        where = f"game '{config.game_name}': {contract.MESSAGES['unmet']}"
        if "error" in decl:
            raise GameContractError(where + decl["error"], game=config.game_name, phase="load")
        if table is None and "JSGYM_ACTIONS" in decl:
            try:
                table = parse_actions(decl["JSGYM_ACTIONS"])
            except ActionSpecError as exc:
                text, n = re.subn(r"^action (\d+)", r"JSGYM_ACTIONS[\1]", str(exc))
                text = text if n else "JSGYM_ACTIONS: " + text
                raise GameContractError(where + text, game=config.game_name,
                                        phase="load") from None
        if pointer is None:
            pointer = decl.get("JSGYM_POINTER")
            if pointer is not None:
                try:
                    return _with_pointer(table or DEFAULT_ACTIONS, pointer, decl)
                except ValueError as exc:
                    raise GameContractError(where + f"JSGYM_POINTER: {exc}", game=config.game_name,
                                            phase="load") from None
    table = table or DEFAULT_ACTIONS
    if pointer is None:
        return table, None
    return _with_pointer(table, pointer, decl)


def _with_pointer(table, pointer, decl):
    from jsgym.games import continuous_pointer, pointer_grid

    w, h = float(decl.get("width", 100)), float(decl.get("height", 100))
    if pointer == "continuous":
        return continuous_pointer(table), ("continuous", w, h)
    if pointer == "grid":
        pointer = (8, 8)
    elif isinstance(pointer, dict) and set(pointer) == {"grid"}:
        pointer = pointer["grid"]
    if not isinstance(pointer, (list, tuple)) or len(pointer) != 2:
        raise ValueError(f"pointer must be None, 'grid', (rows, cols), {{'grid': [rows, cols]}} "
                         f"or 'continuous', got {pointer!r}")
    rows, cols = pointer
    return pointer_grid(table, rows, cols, w, h), ("grid", rows, cols, w, h)


# make()'s options: make_vec()'s keyword arguments and their defaults, but those of a
# vector env (make() builds one env, without autoreset, copying its observation)
_MAKE_OPTIONS = {name: p.default for name, p in inspect.signature(make_vec).parameters.items()
                 if p.kind is p.KEYWORD_ONLY and name not in (
                     "num_threads", "seed", "autoreset_mode", "copy", "render_mode", "frame_stack")}


def _register_bundled_games():
    import gymnasium

    for name in bundled_games():
        env_id = gym_id(name)
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(id=env_id, entry_point="jsgym:make",
                           vector_entry_point="jsgym:make_vec", kwargs={"game": name},
                           max_episode_steps=_D("max_episode_steps"))


_register_bundled_games()
