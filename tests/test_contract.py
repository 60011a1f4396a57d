"""The env contract (contract/contract.json) is written once and read by C, Python and
the browser pages: these tests fail when any of them disagrees with it, when the
generated C headers are stale, or when one of its values is written anywhere else."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import jsgym
from jsgym import contract
from jsgym._core import ffi, lib

from conftest import BACKENDS

REPO = pathlib.Path(__file__).resolve().parent.parent


def test_generated_c_headers_are_current():
    """runtime/include/jsgym.h's block and jsgym_contract.h are what generate.py writes."""
    proc = subprocess.run([sys.executable, str(REPO / "contract" / "generate.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_library_was_built_from_this_contract():
    assert lib.jg_abi_version() == contract.ABI_VERSION
    assert ffi.string(lib.jg_contract_digest()).decode() == contract.DIGEST


def test_a_library_of_another_contract_is_refused():
    from jsgym._core import check_library

    class Stale:
        def jg_abi_version(self):
            return contract.ABI_VERSION

        def jg_contract_digest(self):
            return ffi.new("char[]", b"0" * 64)

    with pytest.raises(ImportError, match="another contract"):
        check_library(Stale(), "stale.so")

    class Old:  # a library from before the ABI had a version
        pass

    with pytest.raises(ImportError, match="no ABI version"):
        check_library(Old(), "old.so")


def test_c_abi_constants_are_the_contract():
    expected = {"JG_ABI_VERSION": contract.ABI_VERSION,
                "JG_MAX_KEYS_PER_ACTION": contract.MAX_KEYS_PER_ACTION,
                "JG_MAX_JOBS": contract.MAX_JOBS}
    expected.update({("JG_OK" if k == "OK" else f"JG_ERR_{k}"): v for k, v in contract.ERR.items()})
    expected.update({f"JG_PHASE_{p.name.upper()}": p.value for p in contract.PHASES})
    expected.update({f"JG_{s.upper()}": i for i, s in enumerate(contract.GAME_STATES)})
    expected.update({f"JG_AUTORESET_{k.upper()}": v for k, v in contract.AUTORESET.items()})
    expected.update({f"JG_ON_ERROR_{k.upper()}": v for k, v in contract.ON_ERROR.items()})
    expected.update({f"JG_OBS_FIT_{k.upper()}": v for k, v in contract.FIT.items()})
    expected.update({f"JG_RECV_{k}": v for k, v in contract.RECV.items()})
    expected.update({f"JG_POINTER_{k.upper()}": v for k, v in contract.POINTER_MODES.items()})
    expected.update({f"JG_BUTTON_{k}": v for k, v in contract.BUTTONS.items()})
    got = {name: getattr(lib, name) for name in expected}
    assert got == expected
    c_names = {n for n in dir(lib) if n.startswith("JG_") and isinstance(getattr(lib, n), int)}
    assert c_names - set(expected) <= {"JG_ERROR_FILE_CAP", "JG_ERROR_TEXT_CAP"}, \
        "a JG_ constant of jsgym.h that is not the contract's"


def test_error_records_have_the_contract_fields():
    assert [name for name, _ in ffi.typeof("jg_error").fields] == list(contract.ERROR_FIELDS)


def test_default_actions_are_the_contract():
    assert [(a.name, a.held, a.tapped) for a in jsgym.DEFAULT_ACTIONS] == [
        (a["name"], a["held"], a["tapped"]) for a in contract.DEFAULT_ACTIONS]


KEYS_GAME = """
let log = [];
function setup() { createCanvas(10, 10); }
function resetGame(seed) { log = []; }
function draw() { background(0); }
function keyPressed(e) { log.push(['down', keyCode, key, e.key, e.keyCode]); }
function keyTyped(e) { log.push(['typed', key, e.keyCode]); }
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_key_events_are_the_contract(backend, game_factory):
    """Each key code, tapped: keyCode, key and the keypress of both backends are the
    contract's key table (a code outside it: 'Unidentified', no keypress)."""
    codes = sorted(contract.KEY_EVENTS) + [1, 200]
    table = [{"name": f"k{c}", "tapped": [c]} for c in codes]
    envs = jsgym.make_vec(game_factory(KEYS_GAME, "keys"), 1, actions=table, backend=backend,
                          autoreset_mode="disabled")
    try:
        envs.reset(seed=0)
        got = {}
        for i, code in enumerate(codes):
            envs.step(np.array([i]))
            got[code] = envs.call_js("log.splice(0)")
    finally:
        envs.close()
    for code in codes:
        e = contract.key_event(code)
        expected = [["down", code, e.key, e.key, code]]
        if e.typed:
            expected.append(["typed", e.key, e.typed])
        assert got[code] == expected, code


CLOCK_GAME = """
let t = [];
function setup() { createCanvas(10, 10); }
function resetGame(seed) { t = [Math.random()]; }
function draw() { background(0); t.push([frameCount, millis(), deltaTime, Date.now()]); }
function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }
"""


def mulberry32(state: int) -> float:
    state = (state + 0x6D2B79F5) & 0xFFFFFFFF  # mulberry32's own constant, not the contract's
    t = ((state ^ (state >> 15)) * (1 | state)) & 0xFFFFFFFF
    t = ((t + (((t ^ (t >> 7)) * (61 | t)) & 0xFFFFFFFF)) ^ t) & 0xFFFFFFFF
    return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296


@pytest.mark.parametrize("backend", BACKENDS)
def test_seeds_and_clock_are_the_contract(backend, game_factory):
    envs = jsgym.make_vec(game_factory(CLOCK_GAME, "clock"), 1, backend=backend)
    try:
        envs.reset(seed=12345)
        envs.step(np.array([0]))
        t = envs.call_js("t")
    finally:
        envs.close()
    assert t[0] == mulberry32(12345 ^ contract.RANDOM_MIX)
    for frame, millis, delta, now in t[1:]:
        assert millis == frame * contract.FRAME_MS and delta == contract.FRAME_MS
        assert now == contract.EPOCH_MS + int(millis)


def test_level_seed_stream_is_the_contracts_splitmix64(probe_game):
    # Vigna's splitmix64.c seeded with 0
    state, out = contract.splitmix64(0)
    assert out == 0xE220A8397B1DCDAF
    assert contract.splitmix64(state)[1] == 0x6E789E6AA1B965F4
    envs = jsgym.make_vec(probe_game, 1, max_episode_steps=1)
    try:
        envs.reset(seed=77)
        state, _ = contract.splitmix64(77)  # reset(seed=s) starts the stream at s
        for _ in range(3):
            envs.step(np.array([0]))  # the episode ends (truncated)
            _, _, _, _, infos = envs.step(np.array([0]))  # NEXT_STEP: a new episode
            state, out = contract.splitmix64(state)
            assert infos["level_seed"][0] == out & 0xFFFFFFFF
    finally:
        envs.close()


# Values of the contract, as they would be written if someone wrote them again; the
# files below may not contain any.
_NUMBERS = [rf"0x{contract.RAW['seeds'][k][2:]}\b" for k in ("random_mix", "noise_mix")] + \
    [rf"0x{v[2:]}" for v in contract.RAW["seeds"]["splitmix64"].values()] + \
    [str(contract.EPOCH_MS)]
# (phrases only: "draw()" is everywhere, "the top level of the game file" is the contract's)
_TEXTS = [t for t in [p.text for p in contract.PHASES] + list(contract.MESSAGES.values())
          if t.count(" ") >= 2]
# Files that may: the contract itself, what generate.py writes, the key table's own
# test, and test-input generators with a splitmix64 of their own (not the level stream).
_ALLOWED = {"contract/contract.json", "runtime/include/jsgym_contract.h",
            "runtime/include/jsgym.h", "tests/test_contract.py",
            "tests/tools/gen_v8_math_table.py", "runtime/tests/v8math_test.c"}


def test_contract_values_are_written_nowhere_else():
    files = subprocess.run(["git", "ls-files", "runtime", "p5shim", "jsgym", "tests",
                            "bench", "scripts"], cwd=REPO, capture_output=True,
                           text=True, check=True).stdout.split()
    hits = []
    for name in files:
        if name in _ALLOWED or not name.endswith((".c", ".h", ".py", ".js", ".html", ".sh")):
            continue
        if name.startswith(("tests/corpus/", "bench/idiomatic/", "jsgym/games/")):
            continue  # game files: games know nothing of jsgym
        text = (REPO / name).read_text(encoding="utf-8", errors="replace")
        for pattern in _NUMBERS:
            if re.search(pattern, text, re.IGNORECASE):
                hits.append(f"{name}: {pattern}")
        for words in _TEXTS:
            if words in text:
                hits.append(f"{name}: {words!r}")
    assert not hits, "contract values written outside contract/contract.json:\n" + "\n".join(hits)


def test_browser_pages_get_the_contract():
    """contract.js carries the values the pages read, from this contract."""
    script = contract.page_script()
    assert contract.DIGEST in script and "__jsgymContract" in script
    for name in ("prelude.js", "driver.js", "play.js"):
        text = (REPO / "jsgym" / "web" / name).read_text()
        assert "__jsgymContract" in text, name
    for page in ("env.html", "play.html"):
        html = (REPO / "jsgym" / "web" / page).read_text()
        assert html.index("contract.js") < html.index("prelude.js") < html.index("p5.min.js")
