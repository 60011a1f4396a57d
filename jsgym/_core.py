"""The native env pool behind every backend: cffi calls and the numpy buffers the
pool's threads write into. One instance per vector env; nothing here knows Gymnasium.

A pool runs either the built-in QuickJS game (``NativePool(config)``) or a hosted
game, whose interface Python implements (``NativePool(config, game=...)``, see
:class:`HostedGame`; the browser backend is one). Both get the same episode rules,
scheduler, checks and errors, from the same C code.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import threading
import warnings
import weakref
from dataclasses import dataclass, field

import numpy as np

from jsgym import contract
from jsgym.errors import GameLoadError, error_message, from_error
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


def check_library(library=None, where: str | None = None) -> None:
    """Raises ImportError unless ``library`` (default: the one in use) was built from
    this checkout's C ABI and contract (``jg_abi_version``, ``jg_contract_digest``).
    Checked at import, before any other call: a library of another commit would
    otherwise be called with today's declarations."""
    library = lib if library is None else library
    where = where or os.environ.get("JSGYM_NATIVE_LIB") or "jsgym._native"
    fix = "rebuild it from this checkout (pip install -e .)"
    try:
        version = int(library.jg_abi_version())
        digest = ffi.string(library.jg_contract_digest()).decode()
    except AttributeError:
        raise ImportError(f"the native library {where} has no ABI version: it was built at "
                          f"another commit; {fix}") from None
    if version != contract.ABI_VERSION:
        raise ImportError(f"the native library {where} has C ABI version {version}, this "
                          f"jsgym needs {contract.ABI_VERSION}; {fix}")
    if digest != contract.DIGEST:
        raise ImportError(f"the native library {where} was built from another "
                          f"contract/contract.json (digest {digest[:12]}, this checkout's "
                          f"{contract.DIGEST[:12]}); {fix}")


check_library()

_L = contract.default


@dataclass
class PoolConfig:
    """Everything a pool needs; see ``jsgym.make_vec`` for the meaning. The defaults are
    the contract's (contract/contract.json "limits")."""

    game_name: str
    source: str
    num_envs: int
    num_threads: int
    obs_size: tuple[int, int] = (_L("obs_side"), _L("obs_side"))  # (height, width)
    fit: str = contract.RAW["modes"]["fit"][0]
    supersample: int = _L("supersample")
    frameskip: int = _L("frameskip")
    max_episode_steps: int = _L("max_episode_steps")
    autoreset: str = contract.RAW["modes"]["autoreset"][0]
    on_error: str = contract.RAW["modes"]["on_error"][0]
    memory_limit: int = _L("memory_limit")
    stack_limit: int = _L("stack_limit")
    step_timeout: float = _L("step_timeout")
    compile_timeout: float = _L("compile_timeout")
    max_draw_calls: int = _L("max_draw_calls")
    num_levels: int = 0
    start_level: int = 0
    game_options: dict | None = None
    actions: tuple[Action, ...] = field(default_factory=tuple)
    profile: bool = False
    #: None, ("grid", rows, cols, width, height) or ("continuous", width, height)
    pointer_space: tuple | None = None
    #: a script run before the game file (jsgym.libraries: the optional globals it uses)
    library: str | None = None


class PoolBuffers:
    """The output buffers a pool writes into, indexed by env id (the ``jg_buffers`` of
    runtime/include/jsgym.h)."""

    def __init__(self, config: PoolConfig):
        self.config = config
        self.num_envs = n = config.num_envs
        h, w = config.obs_size
        side = contract.LIMITS["obs_side"]
        if not (side["min"] <= h <= side["max"] and side["min"] <= w <= side["max"]):
            # (before the buffers: 10000 x 10000 would be 300 MB per env)
            raise ValueError(f"obs_size sides must be within {side['min']}..{side['max']}, "
                             f"got {config.obs_size!r}")
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
        # SAME_STEP: the infos of the step that ended an episode (Gymnasium's final_info)
        self.final_score = np.zeros(n, dtype=np.float64) if same_step else None
        self.final_lives = np.zeros(n, dtype=np.float64) if same_step else None
        self.final_game_state = np.zeros(n, dtype=np.int32) if same_step else None
        self.final_level_seed = np.zeros(n, dtype=np.uint32) if same_step else None
        self.final_elapsed_steps = np.zeros(n, dtype=np.int64) if same_step else None
        self.env_error = np.zeros(n, dtype=np.int32)
        self.level_seed = np.zeros(n, dtype=np.uint32)
        self.elapsed_steps = np.zeros(n, dtype=np.int64)
        #: input: x, y, held and tapped button masks of each env's next step, for
        #: action tables whose actions take the pointer from it (``pointer="input"``)
        self.pointer = np.zeros((n, 4), dtype=np.float32) if any(
            a.pointer == "input" for a in config.actions) else None


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
    if status != contract.OK:
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
    if status != contract.OK:
        why = ffi.string(lib.jg_hinting_error()).decode("utf-8", "replace")
        warnings.warn(f"jsgym: text is drawn unhinted: {why}", RuntimeWarning, stacklevel=4)


def error_fields(err) -> dict:
    """A ``jg_error *`` as a dict of the contract's error fields."""
    out = {}
    for name in contract.ERROR_FIELDS:
        value = getattr(err, name)
        if isinstance(value, ffi.CData):  # a char[] field
            value = ffi.string(value).decode("utf-8", "replace")
        out[name] = value
    return out


class HostedFailure(Exception):
    """Raised by a :class:`HostedGame` method to fail the call: the fields of the
    failure (``kind`` a contract error name, ``phase`` a phase name)."""

    def __init__(self, kind: str, phase: str, message: str, *, stack: str = "", file: str = "",
                 line: int = 0, column: int = 0):
        super().__init__(message)
        self.kind, self.phase, self.message = kind, phase, message
        self.stack, self.file, self.line, self.column = stack, file, line, column


class HostedGame:
    """The game interface of a hosted pool (``jg_game`` in runtime/include/jsgym.h),
    implemented in Python: the pool calls these from its threads, never twice at once
    for one env, and applies the episode rules on top. A failing call raises
    :class:`HostedFailure`."""

    backend = "hosted"

    def create(self, env: int) -> None:
        """Makes env's game and runs its setup (again after a failure)."""
        raise NotImplementedError

    def destroy(self, env: int) -> None:
        """Drops env's game (also one that failed to be created, or never was)."""
        raise NotImplementedError

    def alive(self, env: int) -> bool:
        """Whether env's game can run (False: create it again before the next reset)."""
        raise NotImplementedError

    def reset(self, env: int, seed: int) -> tuple[tuple[float, float, int], bytes]:
        """Starts an episode: ``((score, lives, game_state), frame bytes)``."""
        raise NotImplementedError

    def step(self, env: int, held: tuple[int, ...], tapped: tuple[int, ...],
             pointer: tuple | None = None) -> tuple[tuple[float, float, int], bytes]:
        """One step holding ``held`` and tapping ``tapped`` keys: as :meth:`reset`.
        ``pointer`` is ``None`` (the pointer stays, no button changes) or
        ``(position, held_buttons, tapped_buttons)``: ``position`` ``(x, y)`` in whole
        canvas pixels or ``None`` (stays), the buttons ``JG_BUTTON_*`` masks."""
        raise NotImplementedError

    def eval(self, env: int, code: str) -> str:
        """Evaluates JS in env's global scope; returns the JSON text of its value."""
        raise NotImplementedError

    def profile(self, env: int) -> dict:
        return dict.fromkeys(_PROFILE_FIELDS, 0)

    def close(self) -> None:
        """After the pool has destroyed every env."""


_PROFILE_FIELDS = ("frames", "js_ns", "raster_ns", "copy_ns", "p5_calls", "frames_rasterized")


class _Callbacks:
    """A :class:`HostedGame` as the C ``jg_game`` struct: one cffi callback per
    function, which turns the game's return values and failures into what the C
    interface says (the frame and state written in place, the error record filled)."""

    def __init__(self, game: HostedGame, obs_bytes: int):
        self.game = game
        self.obs_bytes = obs_bytes
        self.results: dict[int, object] = {}  # eval results, alive until the env's next eval
        sig = {
            "create": "int32_t(void *, uint32_t, jg_error *)",
            "destroy": "void(void *, uint32_t)",
            "alive": "int32_t(void *, uint32_t)",
            "reset": "int32_t(void *, uint32_t, uint32_t, uint8_t *, jg_state *, jg_error *)",
            "step": "int32_t(void *, uint32_t, const jg_action *, uint8_t *, jg_state *, jg_error *)",
            "eval": "int32_t(void *, uint32_t, const char *, size_t, const char **, jg_error *)",
        }
        self.cdata = {name: ffi.callback(s, getattr(self, "_" + name)) for name, s in sig.items()}
        self.struct = ffi.new("jg_game *")
        for name, cb in self.cdata.items():
            setattr(self.struct, name, cb)

    @staticmethod
    def _fail(err, exc: BaseException) -> int:
        if isinstance(exc, HostedFailure):
            kind, phase = contract.ERR[exc.kind], contract.PHASE[exc.phase].value
            text = dict(message=exc.message, stack=exc.stack, file=exc.file)
            err.line, err.column = exc.line, exc.column
        else:  # a bug of the host: still an error of this env, never a crash
            kind, phase = contract.ERR["SYSTEM"], contract.PHASE["none"].value
            text = dict(message=f"the game host failed: {type(exc).__name__}: {exc}", stack="",
                        file="")
            err.line = err.column = 0
        err.kind, err.phase = kind, phase
        for name, value in text.items():
            cap = ffi.sizeof(getattr(err, name))
            data = value.encode("utf-8", "replace")[:cap - 1]
            ffi.memmove(getattr(err, name), data + b"\0", len(data) + 1)
        return kind

    def _frame(self, result, obs, state) -> int:
        (score, lives, game_state), frame = result
        if len(frame) != self.obs_bytes:
            raise ValueError(f"the frame has {len(frame)} bytes, expected {self.obs_bytes}")
        ffi.memmove(obs, frame, self.obs_bytes)
        state.score, state.lives, state.game_state = score, lives, game_state
        return 0

    def _create(self, user, env, err):
        try:
            self.game.create(env)
            return 0
        except BaseException as exc:  # noqa: BLE001 - every failure becomes the env's
            return self._fail(err, exc)

    def _destroy(self, user, env):
        try:
            self.game.destroy(env)
        except BaseException:  # noqa: BLE001 - nothing to report to: the env is gone
            pass

    def _alive(self, user, env):
        try:
            return 1 if self.game.alive(env) else 0
        except BaseException:  # noqa: BLE001
            return 0

    def _reset(self, user, env, seed, obs, state, err):
        try:
            return self._frame(self.game.reset(env, seed), obs, state)
        except BaseException as exc:  # noqa: BLE001
            return self._fail(err, exc)

    def _step(self, user, env, action, obs, state, err):
        try:
            held = tuple(k for k in action.held if k)
            tapped = tuple(k for k in action.tapped if k)
            pointer = None
            if action.pointer == contract.POINTER_MODES["at"] or action.buttons_held or \
                    action.buttons_tapped:
                at = action.pointer == contract.POINTER_MODES["at"]
                pointer = ((action.x, action.y) if at else None, int(action.buttons_held),
                           int(action.buttons_tapped))
            return self._frame(self.game.step(env, held, tapped, pointer), obs, state)
        except BaseException as exc:  # noqa: BLE001
            return self._fail(err, exc)

    def _eval(self, user, env, code, length, result, err):
        try:
            text = self.game.eval(env, ffi.unpack(code, length).decode("utf-8"))
            buf = self.results[env] = ffi.new("char[]", text.encode("utf-8"))
            result[0] = buf
            return 0
        except BaseException as exc:  # noqa: BLE001
            return self._fail(err, exc)


class NativePool(PoolBuffers):
    """Owns a ``jg_pool``; its threads write into the :class:`PoolBuffers` in place.

    Args:
        config: the pool's configuration.
        game: ``None`` for the QuickJS game, or a :class:`HostedGame`.
    """

    def __init__(self, config: PoolConfig, game: HostedGame | None = None):
        super().__init__(config)
        n = self.num_envs
        self.game = game
        self.backend = "quickjs" if game is None else game.backend
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
        self._callbacks = None
        if game is None:
            install_fonts()  # the QuickJS game draws text() with them
        self._close_lock = threading.Lock()
        try:
            self._create()
        except BaseException:
            if game is not None:
                game.close()
            raise

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
            actions[i].pointer = contract.POINTER_MODES[a.pointer]
            actions[i].buttons_held = a.buttons_held
            actions[i].buttons_tapped = a.buttons_tapped
            actions[i].x, actions[i].y = a.x, a.y
        source = c.source.encode("utf-8")
        source_buf = ffi.from_buffer(source)
        cfg = ffi.new("jg_config *")
        cfg.game_name = cstr(c.game_name)
        cfg.source = source_buf
        cfg.source_len = len(source)
        cfg.options_json = cstr(options_json(c.game_options) if c.game_options is not None else "")
        cfg.num_envs = c.num_envs
        cfg.num_threads = c.num_threads
        cfg.obs_height, cfg.obs_width = c.obs_size
        cfg.fit = contract.FIT[c.fit]
        cfg.supersample = c.supersample
        cfg.frameskip = c.frameskip
        cfg.max_episode_steps = c.max_episode_steps
        cfg.autoreset_mode = contract.AUTORESET[c.autoreset]
        cfg.on_error = contract.ON_ERROR[c.on_error]
        cfg.memory_limit = c.memory_limit
        cfg.stack_limit = c.stack_limit
        cfg.step_timeout = c.step_timeout
        cfg.compile_timeout = c.compile_timeout
        cfg.max_draw_calls = c.max_draw_calls
        cfg.num_levels = c.num_levels
        cfg.start_level = c.start_level
        cfg.num_actions = len(c.actions)
        cfg.actions = actions
        cfg.profile = int(c.profile)
        if c.library:
            library = c.library.encode("utf-8")
            keep.append(library)
            cfg.library = ffi.from_buffer(library)
            keep.append(cfg.library)
            cfg.library_len = len(library)
        status = ffi.new("int32_t *")
        if self.game is None:
            pool = lib.jg_pool_create(cfg, status)
        else:
            self._callbacks = _Callbacks(self.game, self.obs[0].nbytes)
            pool = lib.jg_pool_create_hosted(cfg, self._callbacks.struct, status)
        if pool == ffi.NULL:
            raise from_error(error_fields(lib.jg_last_create_error()), c.game_name)
        self._pool = pool
        if self.game is not None:
            _HOSTED.add(self)
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
        bufs.final_score = ptr("double *", self.final_score)
        bufs.final_lives = ptr("double *", self.final_lives)
        bufs.final_game_state = ptr("int32_t *", self.final_game_state)
        bufs.final_level_seed = ptr("uint32_t *", self.final_level_seed)
        bufs.final_elapsed_steps = ptr("int64_t *", self.final_elapsed_steps)
        bufs.env_error = ptr("int32_t *", self.env_error)
        bufs.level_seed = ptr("uint32_t *", self.level_seed)
        bufs.elapsed_steps = ptr("int64_t *", self.elapsed_steps)
        bufs.pointer = ptr("float *", self.pointer)
        self._check(lib.jg_pool_set_buffers(self._pool, bufs))

    # -- errors ------------------------------------------------------------------

    def env_failure(self, env: int) -> dict:
        """The fields of env ``env``'s last failure (``env_error[env]`` says whether
        this step had one)."""
        return error_fields(lib.jg_pool_env_error(self._pool, env))

    def env_error_message(self, env: int) -> str:
        return error_message(self.env_failure(env), self.config.game_name)

    def _check(self, status: int, env_ids=None):
        """Raises for a failed call: a per-env failure names the first failed env."""
        if status == contract.OK:
            return
        if env_ids is not None:
            failed = env_ids[self.env_error[env_ids] != contract.OK]
            if len(failed):
                raise from_error(self.env_failure(int(failed[0])), self.config.game_name)
        raise from_error(error_fields(lib.jg_pool_last_error(self._pool)), self.config.game_name)

    # -- calls -------------------------------------------------------------------

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
        self._check(lib.jg_pool_send(self._pool, ffi.from_buffer("int64_t[]", a), ids_c, n))

    def recv(self) -> np.ndarray:
        self._require_open()
        status = lib.jg_pool_recv(self._pool, self._ids_out_c, self._n_out, self._flags_out)
        self.recv_flags = flags = self._flags_out[0]
        if flags & contract.RECV["ALL_IN_ORDER"]:
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
            raise from_error(error_fields(lib.jg_pool_last_error(self._pool)),
                             self.config.game_name)
        return json.loads(ffi.string(result).decode("utf-8"))

    def profile(self, env: int) -> dict:
        if self.game is not None:
            return self.game.profile(env)
        out = ffi.new("jg_profile *")
        self._check(lib.jg_pool_profile(self._pool, env, out))
        return {k: int(getattr(out, k)) for k in _PROFILE_FIELDS}

    def _require_open(self):
        if self._pool == ffi.NULL:
            raise RuntimeError(f"the env of game '{self.config.game_name}' is closed")

    def close(self):
        """Destroys every env and the pool; idempotent."""
        with self._close_lock:
            if self._pool != ffi.NULL:
                lib.jg_pool_destroy(self._pool)
                self._pool = ffi.NULL
                if self.game is not None:
                    self.game.close()

    def __del__(self):
        if getattr(self, "_pool", ffi.NULL) == ffi.NULL:
            return
        if self.game is not None:
            # The garbage collector runs finalizers on whatever thread it is on, which
            # may be one the hosted game's calls wait for (the browser's event loop):
            # close on a thread of its own.
            try:
                threading.Thread(target=self.close, name="jsgym-close", daemon=True).start()
                return
            except RuntimeError:  # the interpreter is shutting down
                pass
        try:
            self.close()
        except Exception:
            pass


#: Open pools over hosted games (closed at exit by the host: see close_hosted_pools).
_HOSTED: weakref.WeakSet[NativePool] = weakref.WeakSet()


def close_hosted_pools() -> None:
    """Closes every open pool over a hosted game. A host calls this at exit, while
    the pools' threads can still call back into Python (they cannot once the
    interpreter is finalizing)."""
    for pool in list(_HOSTED):
        try:
            pool.close()
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


def options_json(game_options) -> str:
    """``game_options`` as the JSON the game parses into ``GAME_OPTIONS`` (strict JSON:
    NaN and Infinity have no JSON form and would reach the game as a syntax error)."""
    try:
        return json.dumps(game_options, allow_nan=False)
    except ValueError as exc:
        raise ValueError(f"game_options must be JSON without NaN or Infinity: {exc}") from None
    except TypeError as exc:
        raise TypeError(f"game_options must be JSON-serialisable: {exc}") from None


def read_source(name: str, path) -> str:
    """The text of a game file, which must be UTF-8: anything else is a
    :class:`GameLoadError` that locates the first byte that is not."""
    data = pathlib.Path(path).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise GameLoadError(
            f"game '{name}' is not UTF-8 text: byte 0x{data[exc.start]:02x} at {path}:{line}:"
            f"{column} ({exc.reason}); save the file as UTF-8",
            game=name, file=str(path), line=line, column=column, phase="load",
            js_message=None) from None


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


# Copies a game's declarations out of its context as plain data: only the fields an
# action may have, short strings, numbers and short lists of them; any other value, a
# throwing getter or a proxy becomes an error text naming the place, never an
# exception of the eval (so the message is the game's, with its name).
_READ_DECLARATIONS = r"""
(function () {
  var MAX = %(max)d, FIELDS = %(fields)s, out = { width: width, height: height };
  function kind(v) { return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v; }
  function plain(v, where) {
    if (v === null || typeof v === 'number' || typeof v === 'boolean') return v;
    if (typeof v === 'string') {
      if (v.length > 200) throw new Error(where + ': a string of ' + v.length + ' characters');
      return v;
    }
    if (Array.isArray(v)) {
      if (v.length > 8) throw new Error(where + ': a list of ' + v.length + ' values (at most 8)');
      var a = [];
      for (var i = 0; i < v.length; i++) {
        var x = v[i];
        if (x !== null && typeof x === 'object')
          throw new Error(where + '[' + i + ']: expected a key, a button or a number, got ' + kind(x));
        a.push(plain(x, where + '[' + i + ']'));
      }
      return a;
    }
    throw new Error(where + ': expected a string, a number or a list, got ' + kind(v));
  }
  function entry(v, i) {
    var where = 'JSGYM_ACTIONS[' + i + ']';
    if (typeof v === 'string') return plain(v, where);
    if (v === null || typeof v !== 'object' || Array.isArray(v))
      throw new Error(where + ': expected an object {name, held, tapped} or a string like ' +
                      "'LEFT+SPACE', got " + kind(v));
    var o = {}, keys = Object.keys(v);
    for (var k = 0; k < keys.length; k++) {
      if (FIELDS.indexOf(keys[k]) < 0)
        throw new Error(where + ': unknown field ' + JSON.stringify(keys[k].slice(0, 40)) +
                        '; an action has ' + FIELDS.join(', '));
      o[keys[k]] = plain(v[keys[k]], where + '.' + keys[k]);
    }
    return o;
  }
  function read(name, f) {
    try {
      var v = (0, eval)('typeof ' + name + " === 'undefined' ? undefined : " + name);
      if (v !== undefined) out[name] = f(v);
    } catch (e) {
      out.error = e && e.message !== undefined ? String(e.message).slice(0, 300) : String(e);
      if (!/^JSGYM_/.test(out.error)) out.error = name + ' could not be read: ' + out.error;
    }
  }
  read('JSGYM_ACTIONS', function (v) {
    if (!Array.isArray(v))
      throw new Error('JSGYM_ACTIONS: expected a list of actions, got ' + kind(v) +
                      (typeof v === 'string' ? ' ' + JSON.stringify(v.slice(0, 40)) : ''));
    if (v.length > MAX) throw new Error('JSGYM_ACTIONS: at most ' + MAX + ' actions, got ' + v.length);
    var t = [];
    for (var i = 0; i < v.length; i++) t.push(entry(v[i], i));
    return t;
  });
  if (out.error === undefined)
    read('JSGYM_POINTER', function (v) {
      if (typeof v === 'string') return plain(v, 'JSGYM_POINTER');
      if (v !== null && typeof v === 'object' && !Array.isArray(v) &&
          Object.keys(v).length === 1 && 'grid' in v)
        return { grid: plain(v.grid, 'JSGYM_POINTER.grid') };
      throw new Error("JSGYM_POINTER: expected 'continuous', 'grid' or {grid: [rows, cols]}, got " +
                      kind(v));
    });
  return out;
})()
"""


def read_declarations(config: PoolConfig) -> dict:
    """What a game declares about its actions, read from its context after
    ``setup()`` (one env with ``config``'s limits and game options): ``JSGYM_ACTIONS``
    and ``JSGYM_POINTER`` as plain data (absent when not defined), the canvas
    ``width``/``height``, and ``error`` when a declaration is malformed (which names the
    place). A game that fails to load or set up raises its :class:`GameError`."""
    from jsgym.games import _FIELDS, MAX_ACTIONS

    cfg = dataclasses.replace(config, num_envs=1, num_threads=1, actions=(Action("NOOP"),),
                              autoreset="disabled", on_error="raise", profile=False)
    pool = NativePool(cfg)
    try:
        return pool.eval(0, _READ_DECLARATIONS % {"max": MAX_ACTIONS, "fields": json.dumps(_FIELDS)})
    finally:
        pool.close()


def default_threads(num_envs: int) -> int:
    from jsgym.machine import usable_cores

    return max(1, min(num_envs, usable_cores()))
