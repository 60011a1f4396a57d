"""The browser backend: the same game file under the real p5.js in headless Chromium,
with the QuickJS backend's spaces, step semantics, seeding, autoreset and infos.

    envs = jsgym.make_vec("pong", 4, backend="browser")

Layout (one Chromium per vector env, one page per env)::

    Python: send(actions, env_ids) --> job (a coroutine) on the backend's asyncio
        thread --> one page.evaluate per env, all envs concurrently:
        __jsgym.step(held, tapped, frameskip, h, w, fit) in web/driver.js
        (key events, redraw() x frameskip, getGameState(), canvas area-averaged to
        h x w and returned as base64) --> the same numpy buffers NativePool has
    Python: recv() <-- oldest job

The Gymnasium side is :class:`jsgym.vector.JsVectorEnv` itself (this module only
swaps its native pool for :class:`BrowserPool`), and :class:`BrowserPool` repeats
runtime/pool.c's episode logic line by line, level seeds (splitmix64) included, so
both backends give the same seeds, resets and infos. The pages are served from
``web/`` through Playwright's request routing (no socket is opened).

Differences that cannot be removed: the browser has no per-env memory limit and no
``max_draw_calls`` limit, and its step timeout is generous (JIT warm-up): see
:data:`TIMEOUT_FLOOR`.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import concurrent.futures
import json
import os
import pathlib
import threading
import time

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from jsgym import _codes
from jsgym._core import PoolBuffers, PoolConfig
from jsgym.env import JsEnv
from jsgym.errors import GameRuntimeError, from_status
from jsgym.vector import JsVectorEnv

#: Chromium flags of every browser the backend starts.
CHROMIUM_ARGS = (
    "--headless=new", "--disable-gpu", "--no-sandbox", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
)
#: The origin the pages are served from (a reserved name: nothing is ever fetched).
ORIGIN = "http://jsgym.invalid/"
#: The browser's per-call timeout is max(TIMEOUT_FLOOR, 10 x step_timeout) seconds:
#: Chromium compiles lazily and the first frames of a page are much slower.
TIMEOUT_FLOOR = 10.0
#: Pages loaded at once while creating envs (the machine may have few cores).
LOAD_CONCURRENCY = 4

_MASK64 = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """One step of runtime/pool.c's splitmix64: returns ``(new_state, output)``."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def web_dir() -> pathlib.Path:
    """The ``web/`` folder (``JSGYM_WEB_DIR`` overrides it)."""
    override = os.environ.get("JSGYM_WEB_DIR")
    if override:
        return pathlib.Path(override)
    return pathlib.Path(__file__).resolve().parent.parent / "web"


def p5_path() -> pathlib.Path:
    """The pinned p5.js build (``web/node_modules/p5/lib/p5.min.js``).

    Raises:
        FileNotFoundError: the npm packages are not installed (the message says how).
    """
    path = web_dir() / "node_modules" / "p5" / "lib" / "p5.min.js"
    if not path.is_file():
        raise FileNotFoundError(
            f"p5.js is not installed ({path} is missing): run `npm ci` in {web_dir()} "
            "or `bash scripts/setup_browser.sh`")
    return path


def chromium_env() -> dict[str, str]:
    """The environment Chromium runs in: fontconfig sees exactly the font files the
    fast backend draws with (``jsgym.fonts.fontconfig_file``), so that both backends
    resolve and draw every family alike on any machine. Without those files Chromium
    keeps the system's fonts (the fast backend then draws no text)."""
    from jsgym import fonts

    env = dict(os.environ)
    try:
        env["FONTCONFIG_FILE"] = str(fonts.fontconfig_file())
    except FileNotFoundError:
        pass
    return env


def chromium_path() -> str | None:
    """Chromium to launch: ``JSGYM_CHROMIUM``, else Debian's ``/usr/bin/chromium``,
    else ``None`` (Playwright's own browser)."""
    explicit = os.environ.get("JSGYM_CHROMIUM")
    if explicit:
        return explicit
    return "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None


def options_script(game_options: dict | None) -> str:
    """``options.js``: defines ``GAME_OPTIONS`` as the QuickJS backend does (a
    writable, configurable, non-enumerable global), or nothing without options."""
    if game_options is None:
        return "// no GAME_OPTIONS\n"
    text = json.dumps(json.dumps(game_options))
    return ("Object.defineProperty(window, 'GAME_OPTIONS', {value: JSON.parse(" + text +
            "), writable: true, configurable: true});\n")


def page_files(source: str, game_options: dict | None = None) -> dict[str, tuple[bytes, str]]:
    """Every file a jsgym page loads, by URL path: ``{path: (body, content_type)}``.
    Shared by the browser backend and ``jsgym play``."""
    web = web_dir()
    js = "text/javascript; charset=utf-8"
    files = {
        "p5.min.js": (p5_path().read_bytes(), js),
        "game.js": (source.encode("utf-8"), js),
        "options.js": (options_script(game_options).encode("utf-8"), js),
    }
    for name in ("prelude.js", "driver.js", "capture.js", "play.js"):
        if (web / name).is_file():
            files[name] = ((web / name).read_bytes(), js)
    for name in ("env.html", "play.html"):
        if (web / name).is_file():
            files[name] = ((web / name).read_bytes(), "text/html; charset=utf-8")
    return files


class _Loop:
    """An asyncio event loop on a daemon thread (Playwright's async API lives here, so
    pages can be stepped concurrently and ``send`` can return at once)."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="jsgym-browser",
                                       daemon=True)
        self.thread.start()

    def submit(self, coro) -> concurrent.futures.Future:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def run(self, coro, timeout: float | None = None):
        return self.submit(coro).result(timeout)

    def stop(self):
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=10)
        if not self.loop.is_running():
            self.loop.close()


class _Env:
    """Python-side state of one env, as runtime/internal.h's jg_env holds it."""

    def __init__(self, index: int):
        self.id = index
        self.page = None
        self.seed_stream = 0
        self.level_seed = 0
        self.has_episode = False
        self.needs_reset = False
        self.broken = False
        self.score = 0.0
        self.lives = 0.0
        self.game_state = 0
        self.elapsed = 0
        self.episode_return = 0.0
        self.error = ""
        self.error_kind = _codes.OK
        self.frames = 0
        self.eval_ns = 0


class _EnvFailure(Exception):
    def __init__(self, kind: int):
        super().__init__(kind)
        self.kind = kind


_PHASE_TOP = "the top level of the game file"


class BrowserPool(PoolBuffers):
    """Drop-in for :class:`jsgym._core.NativePool`: the same buffers and calls, with
    one Chromium page per env. Built by :class:`BrowserVectorEnv`."""

    # recv() summarises nothing: the vector env scans the buffers itself
    recv_flags = None
    all_ids = None

    def __init__(self, config: PoolConfig):
        super().__init__(config)
        n = self.num_envs
        self._envs = [_Env(i) for i in range(n)]
        self._files = page_files(config.source, config.game_options)
        self._timeout_ms = 1000 * max(TIMEOUT_FLOOR, 10 * config.step_timeout)
        self._jobs: collections.deque = collections.deque()
        self._loop = _Loop()
        self._closed = False
        self._pw = self._browser = self._context = None
        try:
            self._loop.run(self._start())
            self._raise_first_failure(np.arange(n))
        except BaseException:
            self.close()
            raise

    # -- lifecycle (on the loop thread) ----------------------------------------------

    async def _start(self):
        from playwright.async_api import async_playwright

        self._pw = await async_playwright().start()
        self._browser = await self._pw.chromium.launch(
            executable_path=chromium_path(), headless=True, args=list(CHROMIUM_ARGS),
            env=chromium_env())
        self._context = await self._browser.new_context(
            device_scale_factor=1, viewport={"width": 800, "height": 800})
        await self._context.route(ORIGIN + "**", self._serve)
        gate = asyncio.Semaphore(LOAD_CONCURRENCY)

        async def create(env):
            async with gate:
                await self._create_env(env)

        await asyncio.gather(*(create(e) for e in self._envs))

    async def _serve(self, route):
        path = route.request.url[len(ORIGIN):].split("?", 1)[0]
        if path in self._files:
            body, ctype = self._files[path]
            await route.fulfill(status=200, body=body, headers={"content-type": ctype})
        else:
            await route.fulfill(status=404, body=b"not found")

    def _env_fail(self, env: _Env, kind: int, text: str) -> int:
        env.error = f"game '{self.config.game_name}' env {env.id} step {env.elapsed}: {text}"
        env.error_kind = kind
        return kind

    async def _create_env(self, env: _Env) -> int:
        """Opens env's page and runs setup(); returns a status code."""
        env.error_kind = _codes.OK
        env.error = ""
        env.elapsed = 0
        env.has_episode = False
        if env.page is not None:
            await self._close_page(env)
        try:
            env.page = await self._context.new_page()
            await env.page.goto(ORIGIN + "env.html", timeout=self._timeout_ms)
            await env.page.wait_for_function(
                "() => (window.__jsgym && window.__jsgym.ready) || !window.__jsgym",
                timeout=self._timeout_ms, polling=10)
            info = await env.page.evaluate(
                "() => ({errors: window.__jsgymPrelude ? window.__jsgymPrelude.errors : null,"
                " j: window.__jsgym ? {c: __jsgym.contractError, s: __jsgym.setupError} : null})")
        except Exception as exc:  # Playwright errors: a crashed or hung page
            env.broken = True
            return self._env_fail(env, _codes.ERR_SYSTEM, f"the browser page failed to load: {exc}")
        errors = info["errors"] or []
        game_errors = [e for e in errors if e["file"].endswith("/game.js")]
        if game_errors:
            e = game_errors[0]
            env.broken = True
            if "SyntaxError" in e["message"]:
                message = f"{self.config.game_name}.js:{e['line']}:{e['column']}: {e['message']}"
                env.error, env.error_kind = message, _codes.ERR_LOAD
                return _codes.ERR_LOAD
            return self._env_fail(env, _codes.ERR_RUNTIME, f"{_PHASE_TOP} threw {e['message']}"
                                  + (f"\n{e['stack']}" if e["stack"] else ""))
        if info["j"] is None:
            env.broken = True
            detail = "; ".join(e["message"] for e in errors) or "the driver did not start"
            return self._env_fail(env, _codes.ERR_SYSTEM, f"the jsgym page failed: {detail}")
        if info["j"]["c"]:
            env.broken = True
            return self._env_fail(env, _codes.ERR_CONTRACT, info["j"]["c"])
        if info["j"]["s"]:
            env.broken = True
            s = info["j"]["s"]
            return self._env_fail(env, _codes.ERR_RUNTIME, f"setup() threw {s['message']}"
                                  + (f"\n{s['stack']}" if s["stack"] else ""))
        env.broken = False
        return _codes.OK

    async def _close_page(self, env: _Env):
        page, env.page = env.page, None
        try:
            await asyncio.wait_for(page.close(run_before_unload=False), 10)
        except Exception:
            pass  # a crashed or hung renderer: the browser reaps it

    async def _shutdown(self):
        try:
            if self._browser is not None:
                await self._browser.close()
        finally:
            if self._pw is not None:
                await self._pw.stop()

    def close(self):
        """Closes every page and the browser; idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._loop.loop.is_running():
                self._loop.run(self._shutdown(), timeout=30)
        except Exception:
            pass
        finally:
            self._loop.stop()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    # -- one env (runtime/pool.c, on the loop thread) -------------------------------

    def _level_of(self, raw: int) -> int:
        c = self.config
        if not c.num_levels:
            return raw & 0xFFFFFFFF
        return (c.start_level + raw % c.num_levels) & 0xFFFFFFFF

    def _next_level(self, env: _Env) -> int:
        env.seed_stream, out = splitmix64(env.seed_stream)
        return self._level_of(out & 0xFFFFFFFF)

    def _write_infos(self, env: _Env):
        i = env.id
        self.score[i] = env.score
        self.lives[i] = env.lives
        self.game_state[i] = env.game_state
        self.level_seed[i] = env.level_seed
        self.elapsed_steps[i] = env.elapsed

    def _clear_step_outputs(self, i: int):
        self.reward[i] = 0.0
        self.terminated[i] = False
        self.truncated[i] = False
        self.episode_done[i] = False
        self.env_error[i] = _codes.OK
        if self.final_obs_valid is not None:
            self.final_obs_valid[i] = False

    def _end_episode(self, env: _Env):
        self.episode_done[env.id] = True
        self.episode_return[env.id] = env.episode_return
        self.episode_length[env.id] = env.elapsed

    async def _call(self, env: _Env, method: str, *args):
        """Runs ``__jsgym[method](...args)`` in env's page; the JS error, if any,
        becomes env's error (raises _EnvFailure with its kind)."""
        c = self.config
        h, w = c.obs_size
        t0 = time.perf_counter_ns()
        try:
            r = await asyncio.wait_for(env.page.evaluate(
                "([m, a]) => __jsgym[m].apply(null, a)", [method, [*args, h, w, c.fit]]),
                self._timeout_ms / 1000)
        except asyncio.TimeoutError:
            phase = "resetGame()" if method == "reset" else "draw()"
            raise _EnvFailure(self._env_fail(
                env, _codes.ERR_TIMEOUT, f"{phase} ran longer than the browser timeout of "
                f"{self._timeout_ms / 1000:.3g} s (infinite loop?)"))
        except Exception as exc:
            raise _EnvFailure(self._env_fail(env, _codes.ERR_SYSTEM,
                                             f"the browser page failed: {exc}"))
        env.eval_ns += time.perf_counter_ns() - t0
        if "error" in r:
            e = r["error"]
            if e.get("contract"):
                raise _EnvFailure(self._env_fail(env, _codes.ERR_CONTRACT, e["message"]))
            raise _EnvFailure(self._env_fail(
                env, _codes.ERR_RUNTIME,
                f"{e['phase']} threw {e['message']}" + (f"\n{e['stack']}" if e["stack"] else "")))
        env.frames += 1 if method == "reset" else c.frameskip
        env.score, env.lives, env.game_state = float(r["s"]), float(r["l"]), int(r["g"])
        self.obs[env.id] = np.frombuffer(base64.b64decode(r["o"]), dtype=np.uint8).reshape(h, w, 3)
        return r

    async def _start_episode(self, env: _Env, level_seed: int) -> int:
        env.error_kind = _codes.OK
        env.elapsed = 0
        env.level_seed = level_seed
        try:
            await self._call(env, "reset", level_seed)
        except _EnvFailure as f:
            return f.kind
        env.has_episode = True
        env.episode_return = 0.0
        env.needs_reset = False
        self._write_infos(env)
        return _codes.OK

    async def _recreate(self, env: _Env) -> int:
        saved, kind = env.error, env.error_kind
        rc = await self._create_env(env)
        if rc == _codes.OK:
            env.error, env.error_kind = saved, kind
        return rc

    async def _fail(self, env: _Env, rc: int) -> int:
        self.env_error[env.id] = rc
        if self.config.on_error == "raise":
            env.broken = True
            return rc
        self.truncated[env.id] = True
        self.terminated[env.id] = False
        self._end_episode(env)
        if await self._recreate(env):
            env.broken = True
            return env.error_kind
        if self.config.autoreset == "next_step":
            env.needs_reset = True
            return _codes.OK
        if self.final_obs is not None:
            self.final_obs[env.id] = self.obs[env.id]
            self.final_obs_valid[env.id] = True
        rc2 = await self._start_episode(env, self._next_level(env))
        if rc2:
            env.broken = True
            return rc2
        return _codes.OK

    async def _reset_one(self, env: _Env, seed: int | None) -> int:
        self._clear_step_outputs(env.id)
        if env.broken or env.page is None:
            if await self._recreate(env):
                return await self._fail(env, env.error_kind)
            env.broken = False
        if seed is not None:
            env.seed_stream, _ = splitmix64(seed & 0xFFFFFFFF)
            level = self._level_of(seed & 0xFFFFFFFF)
        else:
            level = self._next_level(env)
        rc = await self._start_episode(env, level)
        return await self._fail(env, rc) if rc else _codes.OK

    async def _step_one(self, env: _Env, action: int) -> int:
        i = env.id
        self._clear_step_outputs(i)
        if env.broken:
            self.env_error[i] = env.error_kind
            return env.error_kind
        if not env.has_episode or env.needs_reset:
            rc = await self._start_episode(env, self._next_level(env))
            return await self._fail(env, rc) if rc else _codes.OK
        previous = env.score
        a = self.config.actions[action]
        try:
            await self._call(env, "step", list(a.held), list(a.tapped), self.config.frameskip)
        except _EnvFailure as f:
            return await self._fail(env, f.kind)
        env.elapsed += 1
        reward = env.score - previous
        env.episode_return += reward
        self.reward[i] = reward
        terminated = env.game_state != 0
        limit = self.config.max_episode_steps
        truncated = not terminated and bool(limit) and env.elapsed >= limit
        self.terminated[i] = terminated
        self.truncated[i] = truncated
        self._write_infos(env)
        if not terminated and not truncated:
            return _codes.OK
        self._end_episode(env)
        if self.config.autoreset == "next_step":
            env.needs_reset = True
        elif self.config.autoreset == "same_step":
            if self.final_obs is not None:
                self.final_obs[i] = self.obs[i]
                self.final_obs_valid[i] = True
            rc = await self._start_episode(env, self._next_level(env))
            return await self._fail(env, rc) if rc else _codes.OK
        return _codes.OK

    # -- the NativePool interface ------------------------------------------------------

    async def _gather(self, coros) -> int:
        worst = _codes.OK
        for rc in await asyncio.gather(*coros):
            if rc and not worst:
                worst = rc
        return worst

    def _raise_first_failure(self, ids: np.ndarray):
        """At creation: a failing env fails the whole pool, as jg_pool_create does."""
        for i in ids:
            env = self._envs[int(i)]
            if env.error_kind != _codes.OK:
                raise from_status(env.error_kind, env.error, self.config.game_name)

    def _check(self, status: int, ids: np.ndarray):
        if status == _codes.OK:
            return
        failed = ids[self.env_error[ids] != _codes.OK]
        env = self._envs[int(failed[0])] if len(failed) else None
        if env is None:
            env = next((e for e in (self._envs[int(i)] for i in ids) if e.error_kind), None)
        if env is None:
            raise RuntimeError(f"game '{self.config.game_name}': a browser call failed")
        raise from_status(int(self.env_error[env.id]) or status, env.error, self.config.game_name)

    def reset(self, env_ids: np.ndarray, seeds: np.ndarray | None):
        self._require_open()
        ids = np.asarray(env_ids, dtype=np.int64)
        seed_list = [None] * len(ids) if seeds is None else [int(s) for s in np.asarray(seeds)]
        status = self._loop.run(self._gather(
            self._reset_one(self._envs[int(i)], s) for i, s in zip(ids, seed_list)))
        self._check(status, ids)

    def send(self, actions: np.ndarray, env_ids: np.ndarray | None):
        """Starts stepping ``env_ids`` (``None``: every env, in order)."""
        self._require_open()
        if len(self._jobs) >= 8:
            raise RuntimeError("at most 8 sends may be outstanding; call recv() first")
        if env_ids is None:
            env_ids = np.arange(len(self._envs))
        ids = np.asarray(env_ids, dtype=np.int64).copy()
        acts = [int(a) for a in np.asarray(actions)]
        n_actions = len(self.config.actions)
        for i, a in zip(ids, acts):  # as jg_pool_send checks, before any env moves
            if not 0 <= a < n_actions:
                raise ValueError(f"actions must be within [0, {n_actions}), got {a} for env {i}")
        busy = {int(i) for _, job_ids in self._jobs for i in job_ids}
        if busy.intersection(ids.tolist()):
            raise ValueError("an env in env_ids is still in flight; recv() it first")
        future = self._loop.submit(self._gather(
            self._step_one(self._envs[int(i)], a) for i, a in zip(ids, acts)))
        self._jobs.append((future, ids))

    def recv(self) -> np.ndarray:
        self._require_open()
        if not self._jobs:
            raise RuntimeError("recv() without an outstanding send()")
        future, ids = self._jobs.popleft()
        status = future.result()
        self._check(status, ids)
        return ids

    def eval(self, env: int, code: str):
        """Evaluates JavaScript as a global script in env ``env``'s page; returns its
        JSON-decoded completion value (as ``jg_pool_eval`` does)."""
        self._require_open()
        e = self._envs[env]

        async def run():
            return await e.page.evaluate(
                "code => { try { const v = (0, eval)(code);"
                " const s = JSON.stringify(v); return {ok: s === undefined ? 'null' : s}; }"
                " catch (err) { return {err: String(err && err.name ? err.name + ': ' + err.message"
                " : err), stack: err && err.stack ? String(err.stack) : ''}; } }", code)

        r = self._loop.run(run())
        if "err" in r:
            message = f"game '{self.config.game_name}' env {env} step {e.elapsed}: eval threw " \
                      f"{r['err']}" + (f"\n{r['stack']}" if r["stack"] else "")
            raise GameRuntimeError(message, game=self.config.game_name, env_index=env,
                                   step=e.elapsed)
        return json.loads(r["ok"])

    def profile(self, env: int) -> dict:
        """Counters of env ``env``: ``js_ns`` is the whole in-page time of its calls
        (game logic, drawing and rasterizing together, as Chromium does them in one
        go); the split counters of the QuickJS backend are 0 here."""
        e = self._envs[env]
        return {"frames": e.frames, "js_ns": e.eval_ns, "raster_ns": 0, "copy_ns": 0,
                "p5_calls": 0, "frames_rasterized": e.frames}

    def env_error_message(self, env: int) -> str:
        return self._envs[env].error

    def _require_open(self):
        if self._closed:
            raise RuntimeError(f"the env of game '{self.config.game_name}' is closed")


class BrowserVectorEnv(JsVectorEnv):
    """:class:`jsgym.vector.JsVectorEnv` over :class:`BrowserPool`: the same
    game in headless Chromium with the real p5.js. Built by
    ``jsgym.make_vec(..., backend="browser")``, which documents the arguments;
    everything but the pool (reset, step, send/recv, infos) is JsVectorEnv's."""

    def __init__(self, config: PoolConfig, *, autoreset_mode, action_names, copy=True,
                 render_mode=None, seed=None):
        # JsVectorEnv.__init__ with BrowserPool in place of NativePool.
        self.metadata = {"autoreset_mode": autoreset_mode, "render_modes": ["rgb_array"],
                         "render_fps": 60}
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.render_mode = render_mode
        self.autoreset_mode = autoreset_mode
        self.copy = copy
        self.game = config.game_name
        self.action_names = action_names
        self.num_envs = config.num_envs
        self.backend = "browser"
        h, w = config.obs_size
        self.single_observation_space = spaces.Box(0, 255, (h, w, 3), np.uint8)
        self.single_action_space = spaces.Discrete(len(config.actions))
        self.observation_space = spaces.Box(0, 255, (self.num_envs, h, w, 3), np.uint8)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, len(config.actions)))
        self._pool = BrowserPool(config)
        self._all_ids = np.arange(self.num_envs, dtype=np.int64)
        self._episode_start = np.full(self.num_envs, time.perf_counter())
        self._seeded = False
        self._default_seed = seed
        self.closed = False

    def __repr__(self):
        return f"BrowserVectorEnv({self.game!r}, num_envs={self.num_envs})"


class BrowserEnv(JsEnv):
    """:class:`jsgym.env.JsEnv` over a one-page :class:`BrowserVectorEnv`. Built by
    ``jsgym.make(..., backend="browser")``."""

    def __init__(self, config, *, action_names, render_mode=None):
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.render_mode = render_mode
        self._vec = BrowserVectorEnv(config, autoreset_mode=AutoresetMode.DISABLED,
                                     action_names=action_names, copy=True)
        self.game = config.game_name
        self.action_names = action_names
        self.observation_space = self._vec.single_observation_space
        self.action_space = spaces.Discrete(len(action_names))
