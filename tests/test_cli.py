"""The command line as a user meets it: --version, bad arguments and bad games reported
in one line, a closed pipe, game names (Gymnasium ids, typos), jsgym train's checks
before anything is written, the play page's action list, and where p5.js comes from
(jsgym setup-browser and the install at first use, with a stand-in npm)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

import jsgym
from jsgym import browser_setup
from jsgym.cli import main

JSGYM = [sys.executable, "-m", "jsgym"]


def run(args, cwd, **kw):
    return subprocess.run([*JSGYM, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=240, **kw)


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == f"jsgym {jsgym.__version__}"


@pytest.mark.parametrize("flag", ["--steps", "--num-envs", "--frameskip", "--threads"])
def test_rollout_rejects_non_positive_counts(flag, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["rollout", "catch", flag, "-5"])
    assert exc.value.code == 2
    assert f"argument {flag}: expected a positive integer, got -5" in capsys.readouterr().err


def test_a_broken_game_is_one_line_not_a_traceback(tmp_path):
    bad = tmp_path / "broken.js"
    bad.write_text("function setup( {\n")
    proc = run(["rollout", str(bad), "--steps", "3"], tmp_path)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("jsgym: GameLoadError:") and "broken" in proc.stderr
    assert "1:" in proc.stderr  # the line (and column) of the syntax error


def test_list_into_a_closed_pipe_is_quiet(tmp_path):
    proc = subprocess.Popen([*JSGYM, "list"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader leaves before jsgym writes (as `| head -0` does)
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) in (0, 1)
    assert "BrokenPipe" not in err and "Traceback" not in err, err


def test_game_names_gymnasium_ids_and_typos(capsys):
    assert jsgym.games.resolve("jsgym/SpaceInvaders-v0")[0] == "space_invaders"
    assert jsgym.games.resolve("jsgym:jsgym/Breakout-Multiball-v0")[0] == "breakout.multiball"
    assert main(["rollout", "jsgym/Catch-v0", "--steps", "2", "--num-envs", "1"]) == 0
    assert main(["rollout", "pongg", "--steps", "2"]) == 2
    assert "Did you mean 'pong'?" in capsys.readouterr().err
    with pytest.raises(FileNotFoundError, match="no such file"):
        jsgym.games.resolve("missing/game.js")


def test_train_checks_before_writing_anything(tmp_path):
    pytest.importorskip("torch")
    proc = run(["train", "pongg", "--algo", "ppo"], tmp_path)
    assert proc.returncode == 2 and "Did you mean 'pong'?" in proc.stderr
    proc = run(["train", "catch", "--algo", "ppo", "--total-timesteps", "100"], tmp_path)
    assert proc.returncode == 2
    assert "--total-timesteps 100 is less than one update of 2048 env steps" in proc.stderr
    assert not (tmp_path / "runs").exists()


def test_missing_extras_are_named(monkeypatch):
    import jsgym.trainers

    monkeypatch.setattr(jsgym.trainers, "TRAIN_EXTRA", ("numpy", "no_such_module_here"))
    with pytest.raises(ModuleNotFoundError, match=r"jsgym train requires the train extra "
                       r"\(no_such_module_here missing\): pip install \"jsgym\[train\]\""):
        jsgym.trainers.require_train_extra("jsgym train")
    code = ("import sys; sys.modules['stable_baselines3'] = None\n"
            "try:\n    import jsgym.sb3\nexcept ModuleNotFoundError as e:\n    print(e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120).stdout
    assert 'jsgym.sb3 needs Stable-Baselines3: pip install "jsgym[train]"' in out


def test_play_page_lists_what_this_games_actions_do():
    from jsgym.play import play_files

    _, files = play_files("pong")
    config = files["config.js"][0].decode()
    assert '"effect": "paddle moves up"' in config and '"effect": "paddle moves down"' in config
    assert '"name": "SPACE"' not in config  # pong ignores it: its header says so
    effects = jsgym.games.action_effects("0 NOOP; 1 LEFT held / 2 RIGHT held: move; "
                                         "3 UP, 4 DOWN: no effect; 6 LEFT + SPACE = LEFT")
    assert effects == {0: "0 NOOP", 1: "move", 2: "move", 3: "no effect", 4: "no effect",
                       6: "= LEFT"}
    assert jsgym.games.is_no_effect("no effect (same as NOOP)")
    assert not jsgym.games.is_no_effect("move")


# -- p5.js: the cache and the install at first use -----------------------------------------

FAKE_NPM = """#!/bin/sh
# a stand-in npm: counts its calls, then does what `npm ci` leaves behind
echo "$@" >> "{log}"
[ -n "{fail}" ] && {{ echo "npm ERR! no network" >&2; exit 1; }}
mkdir -p node_modules/p5/lib && echo "/*! p5.js */" > node_modules/p5/lib/p5.min.js
mkdir -p node_modules/matter-js/build && echo "/* matter */" > node_modules/matter-js/build/matter.min.js
"""


@pytest.fixture
def no_p5(tmp_path, monkeypatch):
    """A web folder without node_modules, an empty cache, and a stand-in npm."""
    web = tmp_path / "web"
    web.mkdir()
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(browser_setup.web_dir() / name, web / name)
    monkeypatch.setenv("JSGYM_WEB_DIR", str(web))
    monkeypatch.setenv("JSGYM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("JSGYM_NO_INSTALL", raising=False)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()

    def npm(fail=False):
        script = bin_dir / "npm"
        script.write_text(FAKE_NPM.format(log=tmp_path / "npm.log", fail="1" if fail else ""))
        script.chmod(0o755)
        monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
        return tmp_path / "npm.log"
    return tmp_path, npm


def test_p5_installed_at_first_use_into_the_cache(no_p5, capsys):
    tmp, npm = no_p5
    log = npm()
    version = browser_setup.pinned_p5()
    path = browser_setup.p5_path()
    assert path == tmp / "cache" / f"p5-{version}" / "node_modules" / "p5" / "lib" / "p5.min.js"
    err = capsys.readouterr().err
    assert f"installing p5@{version}" in err and str(tmp / "cache" / f"p5-{version}") in err
    assert "npm ci" in err
    assert browser_setup.p5_path() == path  # found now: npm is not run again
    assert log.read_text().split("\n")[0].startswith("ci ")
    assert len(log.read_text().splitlines()) == 1
    assert not list((tmp / "cache").glob("*.tmp*"))


def test_p5_missing_without_install_or_npm(no_p5, monkeypatch):
    tmp, npm = no_p5
    monkeypatch.setenv("JSGYM_NO_INSTALL", "1")
    with pytest.raises(FileNotFoundError, match="jsgym setup-browser"):
        browser_setup.p5_path()
    monkeypatch.delenv("JSGYM_NO_INSTALL")
    monkeypatch.setenv("PATH", str(tmp / "empty"))
    with pytest.raises(FileNotFoundError, match="npm is not there"):
        browser_setup.p5_path()


def test_a_failed_npm_leaves_no_partial_install(no_p5):
    tmp, npm = no_p5
    npm(fail=True)
    with pytest.raises(RuntimeError, match="no network"):
        browser_setup.p5_path()
    assert list((tmp / "cache").iterdir()) == []


def test_setup_browser_command(no_p5, capsys):
    tmp, npm = no_p5
    npm()
    rc = main(["setup-browser"])
    out = capsys.readouterr().out
    assert f"p5.js {browser_setup.pinned_p5()}: {tmp / 'cache'}" in out
    assert "Playwright for Python" in out and "Chromium" in out
    try:
        import playwright  # noqa: F401
        has_playwright = True
    except ImportError:
        has_playwright = False
    chromium = browser_setup.chromium_path()
    assert rc == (0 if has_playwright and chromium and os.path.exists(chromium) else 1)
