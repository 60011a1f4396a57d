"""Where the browser backend's third-party pieces come from, and how they get there.

- p5.js: the version ``jsgym/web/package.json`` pins, installed by npm from
  ``jsgym/web/package-lock.json`` (``npm ci``: the lock's integrity hashes are checked)
  into a user-writable cache, ``$JSGYM_CACHE_DIR`` or ``$XDG_CACHE_HOME/jsgym`` or
  ``~/.cache/jsgym``, as ``p5-<version>/node_modules/p5/``. A source checkout's own
  ``npm ci`` in ``jsgym/web/`` (``scripts/setup_browser.sh``) is used first. The first
  use installs it when npm is there; ``jsgym setup-browser`` does it up front.
- Playwright for Python: pip, the ``browser`` extra (``pip install "jsgym[browser]"``).
- Chromium: ``$JSGYM_CHROMIUM``, else the system's ``/usr/bin/chromium``, else
  Playwright's own (``python -m playwright install chromium``).

Nothing here imports the native library, so ``jsgym setup-browser`` runs on any install.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

#: p5.min.js below an npm prefix.
P5_FILE = ("node_modules", "p5", "lib", "p5.min.js")


def web_dir() -> pathlib.Path:
    """The ``jsgym/web/`` folder of the pages (``JSGYM_WEB_DIR`` overrides it)."""
    override = os.environ.get("JSGYM_WEB_DIR")
    if override:
        return pathlib.Path(override)
    return pathlib.Path(__file__).resolve().parent / "web"


def pinned_p5() -> str:
    """The p5 version ``package.json`` pins (e.g. ``"1.11.13"``)."""
    package = json.loads((web_dir() / "package.json").read_text(encoding="utf-8"))
    return package["dependencies"]["p5"]


def cache_root() -> pathlib.Path:
    """jsgym's user cache: ``$JSGYM_CACHE_DIR``, ``$XDG_CACHE_HOME/jsgym``, ``~/.cache/jsgym``."""
    explicit = os.environ.get("JSGYM_CACHE_DIR")
    if explicit:
        return pathlib.Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (pathlib.Path(xdg) if xdg else pathlib.Path.home() / ".cache") / "jsgym"


def p5_prefix() -> pathlib.Path:
    """The npm prefix the pinned p5.js is installed into: ``<cache>/p5-<version>``."""
    return cache_root() / f"p5-{pinned_p5()}"


def find_p5() -> pathlib.Path | None:
    """The pinned p5.min.js if it is installed (the checkout's ``jsgym/web/`` first, then
    the cache), else ``None``."""
    return find_npm_file(*P5_FILE[1:])


def find_npm_file(package: str, *path: str) -> pathlib.Path | None:
    """A file of an npm package of ``package-lock.json`` (``"matter-js", "build",
    "matter.min.js"``), in the checkout's ``jsgym/web/node_modules/`` or the cache's."""
    for prefix in (web_dir(), p5_prefix()):
        found = prefix.joinpath("node_modules", package, *path)
        if found.is_file():
            return found
    return None


def _locked_packages() -> list[str]:
    """The packages ``package-lock.json`` installs (``["matter-js", "p5"]``)."""
    lock = json.loads((web_dir() / "package-lock.json").read_text(encoding="utf-8"))
    return sorted(k.split("node_modules/", 1)[1] for k in lock.get("packages", {})
                  if k.startswith("node_modules/"))


def npm_file(package: str, *path: str, install: bool | None = None) -> pathlib.Path:
    """:func:`find_npm_file`, installing the locked packages into the cache at this first
    use when the file is missing (as :func:`p5_path` does)."""
    found = find_npm_file(package, *path)
    if found is None:
        p5_path(install=install)  # installs every locked package, not only p5
        found = find_npm_file(package, *path)
    if found is None:
        raise FileNotFoundError(f"{'/'.join((package, *path))} is not in "
                                f"{p5_prefix() / 'node_modules'}: run `jsgym setup-browser`")
    return found


def _say(message: str) -> None:
    print(f"jsgym: {message}", file=sys.stderr, flush=True)


def install_p5(*, say=_say) -> pathlib.Path:
    """Installs the pinned p5.js into :func:`p5_prefix` with ``npm ci`` (from a copy of
    ``package.json`` and ``package-lock.json``) and returns p5.min.js. Installs into a
    temporary folder that is renamed when complete, so a process that stops half-way
    or one that installs at the same time never leaves a partial install behind.

    Raises:
        FileNotFoundError: npm is not installed (the message says how to get it).
        RuntimeError: npm failed (its output is in the message).
    """
    target = p5_prefix()
    done = target.joinpath(*P5_FILE)
    complete = all((target / "node_modules" / p).is_dir() for p in _locked_packages())
    if done.is_file() and complete:
        return done
    npm = shutil.which("npm")
    if npm is None:
        raise FileNotFoundError(
            f"p5.js {pinned_p5()} is not installed and npm is not there to install it: "
            "install Node.js's npm (Debian: `apt-get install npm`), then run "
            "`jsgym setup-browser`")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f"{target.name}.tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(web_dir() / name, tmp / name)
    say(f"installing p5@{pinned_p5()} (npm package 'p5', the version and integrity hash "
        f"of {web_dir() / 'package-lock.json'}) with `npm ci` into {target}")
    proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=tmp,
                          capture_output=True, text=True)
    if proc.returncode != 0 or not tmp.joinpath(*P5_FILE).is_file():
        shutil.rmtree(tmp, ignore_errors=True)
        raise RuntimeError(f"`npm ci` of p5@{pinned_p5()} in {tmp} failed "
                           f"(exit {proc.returncode}):\n{proc.stdout}{proc.stderr}")
    if target.exists() and not complete:  # a cache from a lock with fewer packages
        shutil.rmtree(target, ignore_errors=True)
    try:
        os.rename(tmp, target)
    except OSError:  # another process finished first: keep its install
        shutil.rmtree(tmp, ignore_errors=True)
    if not done.is_file():
        raise RuntimeError(f"p5.js was installed but {done} is missing")
    say(f"p5.js installed: {done}")
    return done


def p5_path(*, install: bool | None = None) -> pathlib.Path:
    """The pinned p5.min.js, installed at this first use when it is missing.

    Args:
        install: install it when missing (default: yes, unless ``JSGYM_NO_INSTALL=1``).

    Raises:
        FileNotFoundError: not installed, and not installable here (the message says how).
    """
    found = find_p5()
    if found is not None and (found.parents[3] == web_dir() or all(
            (p5_prefix() / "node_modules" / p).is_dir() for p in _locked_packages())):
        return found
    if install is None:
        install = os.environ.get("JSGYM_NO_INSTALL", "") not in ("1", "true", "yes")
    if not install:
        raise FileNotFoundError(
            f"p5.js {pinned_p5()} is not installed (looked for "
            f"{web_dir().joinpath(*P5_FILE)} and {p5_prefix().joinpath(*P5_FILE)}): run "
            "`jsgym setup-browser`")
    return install_p5()


def chromium_path() -> str | None:
    """Chromium to launch: ``JSGYM_CHROMIUM``, else Debian's ``/usr/bin/chromium``,
    else ``None`` (Playwright's own browser)."""
    explicit = os.environ.get("JSGYM_CHROMIUM")
    if explicit:
        return explicit
    return "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None


def require_playwright():
    """Imports Playwright's async API, or says which extra provides it."""
    try:
        from playwright.async_api import async_playwright
    except ModuleNotFoundError as exc:
        if exc.name is None or not exc.name.startswith("playwright"):
            raise
        raise ModuleNotFoundError(
            "the browser backend needs Playwright for Python: "
            "pip install \"jsgym[browser]\" (then `jsgym setup-browser`)",
            name=exc.name) from exc
    return async_playwright


def setup(*, say=print) -> int:
    """``jsgym setup-browser``: installs the pinned p5.js into the cache and reports on
    Playwright and Chromium. Returns 0 when the browser backend can run."""
    ok = True
    found = find_p5()
    if found is not None:
        say(f"p5.js {pinned_p5()}: {found}")
    else:
        try:
            say(f"p5.js {pinned_p5()}: {install_p5(say=say)}")
        except (FileNotFoundError, RuntimeError) as exc:
            say(f"p5.js: {exc}")
            ok = False
    try:
        import playwright
        from importlib.metadata import version

        say(f"Playwright for Python {version('playwright')}: "
            f"{pathlib.Path(playwright.__file__).parent}")
    except ModuleNotFoundError:
        say("Playwright for Python: missing; pip install \"jsgym[browser]\"")
        ok = False
    chromium = chromium_path()
    if chromium is not None:
        say(f"Chromium: {chromium}" + ("" if os.path.exists(chromium) else " (missing!)"))
        ok = ok and os.path.exists(chromium)
    else:
        say("Chromium: no system Chromium (/usr/bin/chromium, or JSGYM_CHROMIUM): Playwright's "
            "own is used; install it with `python -m playwright install chromium`")
    return 0 if ok else 1
