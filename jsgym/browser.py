"""The browser backend: the same game file under the real p5.js in headless Chromium,
as a hosted game of the native pool, so that both backends share one implementation of
the episode rules, the scheduler, the checks and the errors.

    envs = jsgym.make_vec("pong", 4, backend="browser")

Layout (one page per env; the pages of every vector env of a process share one
Chromium, each vector env in a browser context of its own)::

    Python: send(actions, env_ids) --> the native pool (runtime/: job ring, one thread
        per env, the episode rules of runtime/episode.c) --> game interface callbacks
        (:class:`BrowserGame`, here) --> one page.evaluate on the backend's asyncio
        thread: __jsgym.step(held, tapped, frameskip, pointer, h, w, fit) in jsgym/web/driver.js
        (key events, redraw() x frameskip, getGameState(), the canvas area-averaged to
        h x w and returned as base64) --> the frame and state written into the
        pool's buffers
    Python: recv() <-- oldest job

The pages are served from ``jsgym/web/`` through Playwright's request routing (no socket is
opened); ``contract.js``, the env contract's values, comes first.

Differences that cannot be removed: the browser has no per-env memory limit and no
``max_draw_calls`` limit, and its step timeout is generous (JIT warm-up): see
:data:`TIMEOUT_FLOOR`.
"""

from __future__ import annotations

import asyncio
import atexit
import base64
import concurrent.futures
import dataclasses
import json
import os
import pathlib
import threading
import time

from jsgym import contract
from jsgym._core import HostedFailure, HostedGame, NativePool, PoolConfig, close_hosted_pools
# where the pages, p5.js and Chromium come from (re-exported: callers import them from here)
from jsgym.browser_setup import chromium_path, p5_path, require_playwright, web_dir  # noqa: F401

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
#: Seconds the shared Chromium stays up after its last vector env closed (starting
#: Playwright and Chromium takes seconds: a script or test that builds one vector env
#: after another reuses it).
LINGER = 30.0


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
    Shared by the browser backend and ``jsgym play``. ``libraries.js`` holds the
    optional globals the game uses (:mod:`jsgym.libraries`), empty for most games."""
    from jsgym.libraries import library_source

    web = web_dir()
    js = "text/javascript; charset=utf-8"
    files = {
        "contract.js": (contract.page_script().encode("utf-8"), js),
        "p5.min.js": (p5_path().read_bytes(), js),
        "game.js": (source.encode("utf-8"), js),
        "options.js": (options_script(game_options).encode("utf-8"), js),
        "libraries.js": ((library_source(source) or "").encode("utf-8"), js),
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
    the pool's threads can each wait for their own page at once)."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="jsgym-browser",
                                       daemon=True)
        self.thread.start()

    def run(self, coro, timeout: float | None = None):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self):
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=10)
        if not self.loop.is_running():
            self.loop.close()


class _Chromium:
    """Playwright's driver and one Chromium on an event loop thread, shared by every
    :class:`BrowserGame` of the process; closed :data:`LINGER` seconds after the last
    one released it, and at exit."""

    _lock = threading.Lock()
    _shared: _Chromium | None = None

    def __init__(self):
        self.loop = _Loop()
        self.users = 0
        self._timer: threading.Timer | None = None
        self.pw = self.browser = None
        try:
            self.loop.run(self._start())
        except BaseException:
            self._stop()
            raise

    async def _start(self):
        async_playwright = require_playwright()

        self.pw = await async_playwright().start()
        self.browser = await self.pw.chromium.launch(
            executable_path=chromium_path(), headless=True, args=list(CHROMIUM_ARGS),
            env=chromium_env())

    async def _shutdown(self):
        try:
            if self.browser is not None:
                await self.browser.close()
        finally:
            if self.pw is not None:
                await self.pw.stop()

    def _stop(self):
        try:
            if self.loop.loop.is_running():
                self.loop.run(self._shutdown(), timeout=30)
        except Exception:
            pass
        finally:
            self.loop.stop()

    @classmethod
    def acquire(cls) -> _Chromium:
        with cls._lock:
            c = cls._shared
            if c is not None and not (c.loop.loop.is_running() and c.browser.is_connected()):
                c._stop()  # the browser crashed: start another
                c = cls._shared = None
            if c is None:
                c = cls._shared = _Chromium()
            if c._timer is not None:
                c._timer.cancel()
                c._timer = None
            c.users += 1
            return c

    def release(self):
        with self._lock:
            self.users -= 1
            if self.users == 0 and self._shared is self:
                self._timer = threading.Timer(LINGER, self._close_if_idle)
                self._timer.daemon = True
                self._timer.start()

    def _close_if_idle(self):
        with self._lock:
            if self.users or self._shared is not self:
                return
            _Chromium._shared = None
        self._stop()

    @classmethod
    def close_shared(cls):
        with cls._lock:
            c, cls._shared = cls._shared, None
        if c is not None:
            if c._timer is not None:
                c._timer.cancel()
            c._stop()


def _at_exit():
    # the pools first: their threads call back into Python, which they cannot once the
    # interpreter is finalizing
    close_hosted_pools()
    _Chromium.close_shared()


atexit.register(_at_exit)


class BrowserGame(HostedGame):
    """The game interface over Chromium pages (one per env), for the native pool's
    threads: each call runs one coroutine on the backend's event loop and waits for
    it. Built by :func:`browser_pool`."""

    backend = "browser"

    def __init__(self, config: PoolConfig):
        self.config = config
        n = config.num_envs
        self._pages: list = [None] * n
        self._frames = [0] * n
        self._eval_ns = [0] * n
        self._files = page_files(config.source, config.game_options)
        self._timeout = max(TIMEOUT_FLOOR, 10 * config.step_timeout)
        self._context = None
        self._chromium = _Chromium.acquire()
        self._loop = self._chromium.loop
        self._closed = False
        try:
            self._loop.run(self._start())
        except BaseException:
            self.close()
            raise

    # -- the browser (on the loop thread) -----------------------------------------

    async def _start(self):
        self._context = await self._chromium.browser.new_context(
            device_scale_factor=1, viewport={"width": 800, "height": 800})
        await self._context.route(ORIGIN + "**", self._serve)
        self._gate = asyncio.Semaphore(LOAD_CONCURRENCY)

    async def _serve(self, route):
        path = route.request.url[len(ORIGIN):].split("?", 1)[0]
        if path in self._files:
            body, ctype = self._files[path]
            await route.fulfill(status=200, body=body, headers={"content-type": ctype})
        else:
            await route.fulfill(status=404, body=b"not found")

    async def _open(self, env: int):
        async with self._gate:
            page = self._pages[env] = await self._context.new_page()
            await page.goto(ORIGIN + "env.html", timeout=self._timeout * 1000)
            await page.wait_for_function(
                "() => (window.__jsgym && window.__jsgym.ready) || !window.__jsgym",
                timeout=self._timeout * 1000, polling=10)
            return await page.evaluate(
                "() => ({errors: window.__jsgymPrelude ? window.__jsgymPrelude.errors : null,"
                " j: window.__jsgym ? {c: __jsgym.contractError, s: __jsgym.setupError} : null})")

    async def _close_page(self, env: int):
        page, self._pages[env] = self._pages[env], None
        if page is None:
            return
        try:
            await asyncio.wait_for(page.close(run_before_unload=False), 10)
        except Exception:
            pass  # a crashed or hung renderer: the browser reaps it

    async def _close_context(self):
        if self._context is not None:
            await self._context.close()

    def _run(self, coro):
        if self._closed or not self._loop.loop.is_running():
            coro.close()
            raise HostedFailure("SYSTEM", "none", "the browser backend is closed")
        if threading.current_thread() is self._loop.thread:
            # waiting here for the loop would wait for ourselves (a finalizer run by
            # the garbage collector on the loop thread, say)
            coro.close()
            raise HostedFailure("SYSTEM", "none", "a browser call from the browser's own thread")
        return self._loop.run(coro)

    # -- the game interface (called from the pool's threads) ----------------------

    def create(self, env: int) -> None:
        self._run(self._close_page(env))
        try:
            info = self._run(self._open(env))
        except HostedFailure:
            raise
        except Exception as exc:  # Playwright errors: a crashed or hung page
            raise HostedFailure("SYSTEM", "none", f"the browser page failed to load: {exc}")
        errors = info["errors"] or []
        game_errors = [e for e in errors if e["file"].endswith("/game.js")]
        if game_errors:
            e = game_errors[0]
            if "SyntaxError" in e["message"]:
                raise HostedFailure("LOAD", "load", e["message"],
                                    file=f"{self.config.game_name}.js", line=e["line"],
                                    column=e["column"])
            raise HostedFailure("RUNTIME", "load", f"{contract.PHASE['load'].text} threw "
                                f"{e['message']}", stack=e["stack"])
        if info["j"] is None:
            detail = "; ".join(e["message"] for e in errors) or "the driver did not start"
            raise HostedFailure("SYSTEM", "none", f"the jsgym page failed: {detail}")
        if info["j"]["c"]:
            raise HostedFailure("CONTRACT", "load", info["j"]["c"])
        if info["j"]["s"]:
            s = info["j"]["s"]
            if s.get("contract"):
                raise HostedFailure("CONTRACT", "setup", s["message"])
            raise HostedFailure("RUNTIME", "setup", f"{contract.PHASE['setup'].text} threw "
                                f"{s['message']}", stack=s["stack"])

    def destroy(self, env: int) -> None:
        if self._pages[env] is not None and not self._closed and self._loop.loop.is_running():
            self._run(self._close_page(env))

    def alive(self, env: int) -> bool:
        return self._pages[env] is not None

    def _call(self, env: int, method: str, *args):
        """``__jsgym[method](...args, h, w, fit)`` in env's page, as a state and frame;
        a JS error becomes the call's failure."""
        c = self.config
        h, w = c.obs_size
        page = self._pages[env]
        t0 = time.perf_counter_ns()

        async def call():
            return await asyncio.wait_for(page.evaluate(
                "([m, a]) => __jsgym[m].apply(null, a)", [method, [*args, h, w, c.fit]]),
                self._timeout)

        try:
            r = self._run(call())
        except HostedFailure:
            raise
        except (asyncio.TimeoutError, concurrent.futures.TimeoutError):
            phase = "reset" if method == "reset" else "draw"
            raise HostedFailure("TIMEOUT", phase, f"{contract.PHASE[phase].text} ran longer than "
                                f"the browser timeout of {self._timeout:.3g} s (infinite loop?)")
        except Exception as exc:
            if page.url != ORIGIN + "env.html" or "context was destroyed" in str(exc):
                # the game set location (or submitted a form, ...): its page is gone
                phase = "reset" if method == "reset" else "draw"
                raise HostedFailure("RUNTIME", phase, f"{contract.PHASE[phase].text} navigated "
                                    f"the page away from the game (to {page.url!r}); a game "
                                    "must not change the page's location")
            raise HostedFailure("SYSTEM", "none", f"the browser page failed: {exc}")
        self._eval_ns[env] += time.perf_counter_ns() - t0
        if "error" in r:
            e = r["error"]
            if e.get("contract"):
                raise HostedFailure("CONTRACT", e["phase"], e["message"])
            raise HostedFailure("RUNTIME", e["phase"], f"{contract.PHASE[e['phase']].text} threw "
                                f"{e['message']}", stack=e["stack"])
        self._frames[env] += 1 if method == "reset" else c.frameskip
        return (float(r["s"]), float(r["l"]), int(r["g"])), base64.b64decode(r["o"])

    def reset(self, env: int, seed: int):
        return self._call(env, "reset", seed)

    def step(self, env: int, held, tapped, pointer=None):
        if pointer is not None:
            position, buttons_held, buttons_tapped = pointer
            pointer = {"at": list(position) if position is not None else None,
                       "held": buttons_held, "tapped": buttons_tapped}
        return self._call(env, "step", list(held), list(tapped), self.config.frameskip, pointer)

    def eval(self, env: int, code: str) -> str:
        page = self._pages[env]
        r = self._run(page.evaluate(
            "code => { try { const v = (0, eval)(code);"
            " const s = JSON.stringify(v); return {ok: s === undefined ? 'null' : s}; }"
            " catch (err) { return {err: String(err && err.name ? err.name + ': ' + err.message"
            " : err), stack: err && err.stack ? String(err.stack) : ''}; } }", code))
        if "err" in r:
            raise HostedFailure("RUNTIME", "eval", f"{contract.PHASE['eval'].text} threw {r['err']}",
                                stack=r["stack"])
        return r["ok"]

    def profile(self, env: int) -> dict:
        """``js_ns`` is the whole in-page time of env's calls (game logic, drawing and
        rasterizing together, as Chromium does them in one go); the split counters of
        the QuickJS backend are 0 here."""
        return {"frames": self._frames[env], "js_ns": self._eval_ns[env], "raster_ns": 0,
                "copy_ns": 0, "p5_calls": 0, "frames_rasterized": self._frames[env]}

    def close(self):
        """Closes every page and this vector env's browser context; idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._loop.loop.is_running() and threading.current_thread() is not self._loop.thread:
                self._loop.run(self._close_context(), timeout=30)
        except Exception:
            pass
        finally:
            self._chromium.release()


def browser_pool(config: PoolConfig) -> NativePool:
    """A native pool over :class:`BrowserGame`: one thread per env (each waits for its
    page, so every page steps at once), the QuickJS backend's episode rules."""
    config = dataclasses.replace(config, num_threads=config.num_envs)
    return NativePool(config, game=BrowserGame(config))
