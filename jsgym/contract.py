"""The env contract (``contract/contract.json``) as Python values: status codes, phases,
game states, seeds, the virtual clock, key tables, the default action table, the pool's
modes and limits.

The JSON file is the one place these values are written; C takes them from the headers
``contract/generate.py`` writes, the browser pages from :func:`page_script`. This
module imports nothing of jsgym (the generator loads it by path).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pathlib


def _path() -> pathlib.Path:
    # in a checkout jsgym/contract.json is a link to contract/contract.json (beside the C
    # headers generated from it); a wheel carries the file itself
    return pathlib.Path(__file__).resolve().parent / "contract.json"


PATH = _path()
_BYTES = PATH.read_bytes()
#: sha256 of contract.json's bytes; the native library is built with the same value.
DIGEST = hashlib.sha256(_BYTES).hexdigest()
RAW: dict = json.loads(_BYTES)

#: Version of the C ABI (runtime/include/jsgym.h) this contract goes with.
ABI_VERSION: int = RAW["abi_version"]

# -- errors ------------------------------------------------------------------------

#: Status codes by name: ``ERR["TIMEOUT"] == 5``; ``OK`` is 0.
ERR: dict[str, int] = {k["name"]: i for i, k in enumerate(RAW["errors"]["kinds"])}
OK = ERR["OK"]
#: Name of each status code's exception class (``None`` for OK).
ERROR_CLASSES: tuple[str | None, ...] = tuple(k["python"] for k in RAW["errors"]["kinds"])
#: The fields of an error record, in order (C's ``jg_error``).
ERROR_FIELDS: tuple[str, ...] = tuple(f["name"] for f in RAW["errors"]["fields"])


@dataclasses.dataclass(frozen=True)
class Phase:
    """Where in a game a failure happened: ``name`` (``"draw"``) and the words messages
    use for it (``"draw()"``)."""

    value: int
    name: str
    text: str


PHASES: tuple[Phase, ...] = tuple(Phase(i, p["name"], p["text"])
                                  for i, p in enumerate(RAW["phases"]))
PHASE: dict[str, Phase] = {p.name: p for p in PHASES}

# -- the game ----------------------------------------------------------------------

GAME_FUNCTIONS: tuple[str, ...] = tuple(RAW["game"]["functions"])
#: ``game_state`` values in code order: ``("playing", "gameover", "won")``.
GAME_STATES: tuple[str, ...] = tuple(s["name"] for s in RAW["game"]["states"])
#: Accepted (lower-case) spellings of getGameState().gameState, to its code.
STATE_SPELLINGS: dict[str, int] = {a: i for i, s in enumerate(RAW["game"]["states"])
                                   for a in s["accept"]}
MESSAGES: dict[str, str] = dict(RAW["game"]["messages"])

# -- seeds and clock ---------------------------------------------------------------

_seeds = RAW["seeds"]
RANDOM_MIX = int(_seeds["random_mix"], 16)
NOISE_MIX = int(_seeds["noise_mix"], 16)
SPLITMIX64 = tuple(int(_seeds["splitmix64"][k], 16) for k in ("gamma", "mix1", "mix2"))
FRAME_RATE: int = RAW["clock"]["frame_rate"]
FRAME_MS = 1000 / FRAME_RATE
EPOCH_MS: int = RAW["clock"]["epoch_ms"]

_MASK64 = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """One step of the level-seed stream: returns ``(new_state, output)`` (the C
    runtime's is the one in use; this one is for tests and tools)."""
    gamma, mix1, mix2 = SPLITMIX64
    state = (state + gamma) & _MASK64
    z = ((state ^ (state >> 30)) * mix1) & _MASK64
    z = ((z ^ (z >> 27)) * mix2) & _MASK64
    return state, z ^ (z >> 31)


# -- keys and actions --------------------------------------------------------------

MAX_KEYS_PER_ACTION: int = RAW["keys"]["max_per_action"]
MAX_DOWN_KEYS: int = RAW["keys"]["max_down"]
#: Key names action specs may use, to key codes (``"LEFT": 37``, ``"A": 65``, ``"0": 48``).
KEY_CODES: dict[str, int] = {
    **RAW["keys"]["names"],
    **{chr(c): c for c in range(ord("A"), ord("Z") + 1)},
    **{str(d): 48 + d for d in range(10)},
}


@dataclasses.dataclass(frozen=True)
class KeyEvent:
    """What a browser's KeyboardEvent says for a key code (US layout, no modifiers)."""

    key: str
    typed: int  # the keypress event's char code; 0: no keypress
    code: str


_UNKNOWN_KEY = KeyEvent("Unidentified", 0, "")
KEY_EVENTS: dict[int, KeyEvent] = {c: KeyEvent(k, t, code)
                                   for c, k, t, code in RAW["keys"]["events"]}


def key_event(code: int) -> KeyEvent:
    """The KeyboardEvent fields of key code ``code``."""
    return KEY_EVENTS.get(code, _UNKNOWN_KEY)


#: The default action table as dicts ``{"name", "held", "tapped"}``.
DEFAULT_ACTIONS: tuple[dict, ...] = tuple(
    {"name": a["name"], "held": tuple(a.get("held", ())), "tapped": tuple(a.get("tapped", ()))}
    for a in RAW["actions"]["default"])

# -- pool configuration ------------------------------------------------------------

AUTORESET: dict[str, int] = {n: i for i, n in enumerate(RAW["modes"]["autoreset"])}
ON_ERROR: dict[str, int] = {n: i for i, n in enumerate(RAW["modes"]["on_error"])}
FIT: dict[str, int] = {n: i for i, n in enumerate(RAW["modes"]["fit"])}
# -- pointer --------------------------------------------------------------------------

_P = RAW["pointer"]
#: Pointer modes of an action (``"none"``, ``"at"``, ``"input"``) to their C values.
POINTER_MODES: dict[str, int] = {name: i for i, name in enumerate(_P["modes"])}
#: Mouse button names to their mask bits (``{"LEFT": 1, "RIGHT": 2, "CENTER": 4}``).
BUTTONS: dict[str, int] = dict(_P["buttons"])
#: Per button bit: (MouseEvent.button, p5's mouseButton).
BUTTON_EVENTS: dict[int, tuple[int, str]] = {int(k): (v[0], v[1]) for k, v in _P["events"].items()}
DOUBLE_CLICK_MS: int = _P["double_click_ms"]

RECV: dict[str, int] = {k: v for k, v in RAW["recv_flags"].items() if k != "doc"}
#: ``{name: {"default": ..., "min": ..., "max": ...}}`` (keys present as written).
LIMITS: dict[str, dict] = {k: v for k, v in RAW["limits"].items() if k != "doc"}


def default(limit: str):
    """The default value of a limit (``default("step_timeout") == 1.0``)."""
    return LIMITS[limit]["default"]


MAX_JOBS: int = LIMITS["max_jobs_in_flight"]["value"]

# -- the browser pages -------------------------------------------------------------


def page_values() -> dict:
    """What the browser pages (jsgym/web/prelude.js, driver.js, play.js) read from the
    contract, as JSON-ready values."""
    return {
        "digest": DIGEST,
        "randomMix": RANDOM_MIX,
        "noiseMix": NOISE_MIX,
        "frameRate": FRAME_RATE,
        "epochMs": EPOCH_MS,
        "maxKeysPerAction": MAX_KEYS_PER_ACTION,
        "maxDownKeys": MAX_DOWN_KEYS,
        "buttonEvents": {str(b): list(e) for b, e in BUTTON_EVENTS.items()},
        "doubleClickMs": DOUBLE_CLICK_MS,
        "keyEvents": {str(c): [e.key, e.typed, e.code] for c, e in KEY_EVENTS.items()},
        "unknownKey": [_UNKNOWN_KEY.key, _UNKNOWN_KEY.typed, _UNKNOWN_KEY.code],
        "phases": {p.name: p.text for p in PHASES},
        "gameFunctions": list(GAME_FUNCTIONS),
        "gameStates": list(GAME_STATES),
        "stateSpellings": STATE_SPELLINGS,
        "messages": MESSAGES,
    }


def page_script() -> str:
    """``contract.js``: defines ``window.__jsgymContract`` before any other page script."""
    return ("/* The jsgym env contract (contract/contract.json), written by jsgym/contract.py. */\n"
            "window.__jsgymContract = Object.freeze(" + json.dumps(page_values(), sort_keys=True)
            + ");\n")
