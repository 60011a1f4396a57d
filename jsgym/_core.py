"""The native env pool behind every QuickJS env: cffi calls and the numpy buffers the
workers write into. One instance per vector env; nothing here knows Gymnasium."""

from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass, field

import numpy as np

from jsgym import _codes
from jsgym.errors import from_status
from jsgym.games import Action

try:
    from jsgym._native import ffi, lib
except ImportError as exc:  # pragma: no cover - only without a build
    raise ImportError(
        "jsgym's native module is not built: run `pip install -e .` in the repository "
        f"({exc})") from exc

# Another build of the same C ABI (e.g. the other QuickJS engine, or a sanitizer
# build) can stand in for the installed one; bench/engines.py uses this.
if os.environ.get("JSGYM_NATIVE_LIB"):
    lib = ffi.dlopen(os.environ["JSGYM_NATIVE_LIB"])


@dataclass
class PoolConfig:
    """Everything the native pool needs; see ``jsgym.make_vec`` for the meaning."""

    game_name: str
    source: str
    num_envs: int
    num_threads: int
    obs_size: tuple[int, int] = (64, 64)  # (height, width)
    fit: str = "stretch"
    supersample: int = 1
    frameskip: int = 1
    max_episode_steps: int = 0
    autoreset: str = "next_step"
    on_error: str = "raise"
    memory_limit: int = 64 << 20
    stack_limit: int = 1 << 20
    step_timeout: float = 1.0
    max_draw_calls: int = 100_000
    num_levels: int = 0
    start_level: int = 0
    game_options: dict | None = None
    actions: tuple[Action, ...] = field(default_factory=tuple)
    profile: bool = False


class PoolBuffers:
    """The output buffers every backend's pool writes into, indexed by env id (the
    ``jg_buffers`` of runtime/include/jsgym.h)."""

    def __init__(self, config: PoolConfig):
        self.config = config
        self.num_envs = n = config.num_envs
        h, w = config.obs_size
        self.obs = np.zeros((n, h, w, 3), dtype=np.uint8)
        self.reward = np.zeros(n, dtype=np.float64)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.score = np.zeros(n, dtype=np.float64)
        self.lives = np.zeros(n, dtype=np.float64)
        self.game_state = np.zeros(n, dtype=np.int32)
        self.episode_done = np.zeros(n, dtype=np.bool_)
        self.episode_return = np.zeros(n, dtype=np.float64)
        self.episode_length = np.zeros(n, dtype=np.int32)
        same_step = config.autoreset == "same_step"
        self.final_obs = np.zeros((n, h, w, 3), dtype=np.uint8) if same_step else None
        self.final_obs_valid = np.zeros(n, dtype=np.bool_) if same_step else None
        self.env_error = np.zeros(n, dtype=np.int32)
        self.level_seed = np.zeros(n, dtype=np.uint32)
        self.elapsed_steps = np.zeros(n, dtype=np.int64)


_fonts_installed: bool | None = None  # None: not tried yet


def install_fonts() -> bool:
    """Hands the process's font set (``jsgym.fonts``) to the native module, once; every
    pool draws ``text()`` with it. Without the font files, text draws nothing and
    ``textWidth`` is 0 (a warning says how to install them); returns whether fonts are
    installed."""
    global _fonts_installed
    if _fonts_installed is not None:
        return _fonts_installed
    from jsgym import fonts

    try:
        lib.jg_install_fonts
    except (AttributeError, ffi.error):
        # a library from before text had fonts (JSGYM_NATIVE_LIB: bench/ab.py's
        # 'before' side) draws its own bitmap text
        _fonts_installed = False
        return False
    try:
        fs = fonts.font_set()
    except (FileNotFoundError, ImportError) as exc:
        warnings.warn(f"jsgym: text() draws nothing: {exc}", RuntimeWarning, stacklevel=3)
        _fonts_installed = False  # warn once; pools still run
        return False
    data = [ffi.from_buffer("uint8_t[]", f) for f in fs.faces]
    names = [ffi.new("char[]", n.encode()) for n in fs.families]
    faces = [i for ids in fs.families.values() for i in ids]
    standard = list(fs.families).index(fs.standard)
    none = 0xFFFFFFFF
    fallbacks = [f for fb in fs.fallbacks for f in (tuple(fb) + (none, none))[:2]]
    status = lib.jg_install_fonts(ffi.new("uint8_t *[]", data),
                                  ffi.new("size_t[]", [len(f) for f in fs.faces]), len(data),
                                  ffi.new("char *[]", names), ffi.new("uint32_t[]", faces),
                                  len(names), standard, ffi.new("uint32_t[]", fallbacks))
    if status != _codes.OK:
        raise RuntimeError(f"jsgym: the native module refused the font set ({status})")
    _fonts_installed = True
    _install_hinting(fs)
    return True


def _install_hinting(fs) -> None:
    from jsgym import fonts

    library = fonts.freetype_library()
    if library is None:
        warnings.warn("jsgym: no FreeType found (install libfreetype6 or the freetype-py "
                      "package): text is drawn unhinted and matches the browser less closely",
                      RuntimeWarning, stacklevel=4)
        return
    files = [f.read_bytes() for f in fs.files]
    status = lib.jg_install_hinting(library.encode(), [ffi.from_buffer("uint8_t[]", b) for b in files],
                                    [len(b) for b in files], len(files))
    if status != _codes.OK:
        why = ffi.string(lib.jg_hinting_error()).decode("utf-8", "replace")
        warnings.warn(f"jsgym: text is drawn unhinted: {why}", RuntimeWarning, stacklevel=4)


class NativePool(PoolBuffers):
    """Owns a ``jg_pool``; its workers write into the :class:`PoolBuffers` in place."""

    def __init__(self, config: PoolConfig):
        super().__init__(config)
        n = self.num_envs
        self._ids_out = np.zeros(n, dtype=np.uint32)
        self._ids_out_c = ffi.from_buffer("uint32_t[]", self._ids_out)
        self._n_out = ffi.new("uint32_t *")
        self._flags_out = ffi.new("uint32_t *")
        # Every env in order: the common send, prepared once; recv() returns all_ids
        # itself (read-only) for such a job, so `ids is pool.all_ids` tells it apart.
        self._all_ids_c = ffi.from_buffer("uint32_t[]", np.arange(n, dtype=np.uint32))
        self.all_ids = np.arange(n, dtype=np.int64)
        self.all_ids.flags.writeable = False
        # JG_RECV_* flags of the last recv() (what its envs hold: episode ends, errors,
        # final observations), so that infos skip scanning for what is not there
        self.recv_flags = 0
        self._pool = ffi.NULL
        install_fonts()
        self._create()

    def _create(self):
        c = self.config
        keep = []  # cdata that must outlive the create call

        def cstr(s: str):
            buf = ffi.new("char[]", s.encode("utf-8"))
            keep.append(buf)
            return buf

        actions = ffi.new("jg_action[]", len(c.actions))
        for i, a in enumerate(c.actions):
            for k, code in enumerate(a.held):
                actions[i].held[k] = code
            for k, code in enumerate(a.tapped):
                actions[i].tapped[k] = code
        source = c.source.encode("utf-8")
        source_buf = ffi.from_buffer(source)
        cfg = ffi.new("jg_config *")
        cfg.game_name = cstr(c.game_name)
        cfg.source = source_buf
        cfg.source_len = len(source)
        cfg.options_json = cstr(json.dumps(c.game_options) if c.game_options is not None else "")
        cfg.num_envs = c.num_envs
        cfg.num_threads = c.num_threads
        cfg.obs_height, cfg.obs_width = c.obs_size
        cfg.fit = _codes.FIT[c.fit]
        cfg.supersample = c.supersample
        cfg.frameskip = c.frameskip
        cfg.max_episode_steps = c.max_episode_steps
        cfg.autoreset_mode = _codes.AUTORESET[c.autoreset]
        cfg.on_error = _codes.ON_ERROR[c.on_error]
        cfg.memory_limit = c.memory_limit
        cfg.stack_limit = c.stack_limit
        cfg.step_timeout = c.step_timeout
        cfg.max_draw_calls = c.max_draw_calls
        cfg.num_levels = c.num_levels
        cfg.start_level = c.start_level
        cfg.num_actions = len(c.actions)
        cfg.actions = actions
        cfg.profile = int(c.profile)
        status = ffi.new("int32_t *")
        pool = lib.jg_pool_create(cfg, status)
        if pool == ffi.NULL:
            message = ffi.string(lib.jg_last_create_error()).decode("utf-8", "replace")
            raise from_status(status[0], message, c.game_name)
        self._pool = pool
        bufs = ffi.new("jg_buffers *")
        self._buffer_refs = []

        def ptr(ctype, array):
            if array is None:
                return ffi.NULL
            p = ffi.cast(ctype, ffi.from_buffer(array))
            self._buffer_refs.append(p)
            return p

        bufs.obs = ptr("uint8_t *", self.obs)
        bufs.reward = ptr("double *", self.reward)
        bufs.terminated = ptr("uint8_t *", self.terminated)
        bufs.truncated = ptr("uint8_t *", self.truncated)
        bufs.score = ptr("double *", self.score)
        bufs.lives = ptr("double *", self.lives)
        bufs.game_state = ptr("int32_t *", self.game_state)
        bufs.episode_done = ptr("uint8_t *", self.episode_done)
        bufs.episode_return = ptr("double *", self.episode_return)
        bufs.episode_length = ptr("int32_t *", self.episode_length)
        bufs.final_obs_valid = ptr("uint8_t *", self.final_obs_valid)
        bufs.final_obs = ptr("uint8_t *", self.final_obs)
        bufs.env_error = ptr("int32_t *", self.env_error)
        bufs.level_seed = ptr("uint32_t *", self.level_seed)
        bufs.elapsed_steps = ptr("int64_t *", self.elapsed_steps)
        self._check(lib.jg_pool_set_buffers(self._pool, bufs))

    # -- calls -------------------------------------------------------------------

    def _pool_message(self) -> str:
        return ffi.string(lib.jg_pool_last_error(self._pool)).decode("utf-8", "replace")

    def env_error_message(self, env: int) -> str:
        return ffi.string(lib.jg_pool_env_error(self._pool, env)).decode("utf-8", "replace")

    def _check(self, status: int, env_ids=None):
        """Raises for a failed call: a per-env failure names the first failed env."""
        if status == _codes.OK:
            return
        if status in (_codes.ERR_ARGUMENT, _codes.ERR_STATE, _codes.ERR_SYSTEM) and not (
                env_ids is not None and np.any(self.env_error[env_ids] == status)):
            raise from_status(status, self._pool_message(), self.config.game_name)
        ids = np.arange(self.num_envs) if env_ids is None else env_ids
        failed = ids[self.env_error[ids] != _codes.OK]
        env = int(failed[0]) if len(failed) else 0
        raise from_status(int(self.env_error[env]) or status, self.env_error_message(env),
                          self.config.game_name)

    def reset(self, env_ids: np.ndarray, seeds: np.ndarray | None):
        self._require_open()
        ids = np.ascontiguousarray(env_ids, dtype=np.uint32)
        if seeds is None:  # each env continues its own seed stream
            seed_ptr = ffi.NULL
        else:
            s = np.ascontiguousarray(seeds, dtype=np.uint32)
            seed_ptr = ffi.from_buffer("uint32_t[]", s)
        status = lib.jg_pool_reset(self._pool, ffi.from_buffer("uint32_t[]", ids), seed_ptr,
                                   len(ids))
        self._check(status, ids.astype(np.int64))

    def send(self, actions: np.ndarray, env_ids: np.ndarray | None):
        """Starts a job for ``env_ids`` (``None``: every env, in order)."""
        self._require_open()
        a = np.ascontiguousarray(actions, dtype=np.int64)  # the pool checks the range
        if env_ids is None:
            ids_c, n = self._all_ids_c, len(self._ids_out)
        else:
            ids = np.ascontiguousarray(env_ids, dtype=np.uint32)
            ids_c, n = ffi.from_buffer("uint32_t[]", ids), len(ids)
        status = lib.jg_pool_send(self._pool, ffi.from_buffer("int64_t[]", a), ids_c, n)
        self._check(status)

    def recv(self) -> np.ndarray:
        self._require_open()
        status = lib.jg_pool_recv(self._pool, self._ids_out_c, self._n_out, self._flags_out)
        self.recv_flags = flags = self._flags_out[0]
        if flags & _codes.RECV_ALL_IN_ORDER:
            ids = self.all_ids
        else:
            ids = self._ids_out[: self._n_out[0]].astype(np.int64)
        self._check(status, ids)
        return ids

    def eval(self, env: int, code: str):
        """Evaluates JavaScript in env ``env`` and returns its JSON-decoded value."""
        self._require_open()
        data = code.encode("utf-8")
        result = lib.jg_pool_eval(self._pool, env, data, len(data))
        if result == ffi.NULL:
            message = self.env_error_message(env) or self._pool_message()
            status = _codes.ERR_RUNTIME if self.env_error_message(env) else _codes.ERR_STATE
            raise from_status(status, message, self.config.game_name)
        return json.loads(ffi.string(result).decode("utf-8"))

    def profile(self, env: int) -> dict:
        out = ffi.new("jg_profile *")
        self._check(lib.jg_pool_profile(self._pool, env, out))
        return {k: int(getattr(out, k)) for k in
                ("frames", "js_ns", "raster_ns", "copy_ns", "p5_calls", "frames_rasterized")}

    def _require_open(self):
        if self._pool == ffi.NULL:
            raise RuntimeError(f"the env of game '{self.config.game_name}' is closed")

    def close(self):
        if self._pool != ffi.NULL:
            lib.jg_pool_destroy(self._pool)
            self._pool = ffi.NULL

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def engine_name() -> str:
    """The QuickJS engine compiled into the native module."""
    return ffi.string(lib.jg_engine_name()).decode()


_EVAL_GAME = """
function setup() { createCanvas(100, 100); }
function draw() {}
function resetGame(seed) {}
function getGameState() { return {score: 0, lives: 0, gameState: 'playing'}; }
"""


def eval_js(code: str, game_source: str | None = None):
    """Evaluates ``code`` in a fresh env (p5 installed, ``game_source`` loaded, setup
    run, one episode started with seed 0) and returns the JSON-decoded completion
    value. A test and debugging hook."""
    cfg = PoolConfig(game_name="eval", source=game_source or _EVAL_GAME, num_envs=1,
                     num_threads=1, actions=(Action("NOOP"),))
    pool = NativePool(cfg)
    try:
        pool.reset(np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64))
        return pool.eval(0, code)
    finally:
        pool.close()


def default_threads(num_envs: int) -> int:
    return max(1, min(num_envs, os.cpu_count() or 1))
