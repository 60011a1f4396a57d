"""Finding game files (bundled names or paths) and reading their action tables."""

from __future__ import annotations

import os
import pathlib
import re
from dataclasses import dataclass

from jsgym import contract

#: p5.js 1.x key codes the default action table and action specs may name.
KEY_CODES = contract.KEY_CODES


@dataclass(frozen=True)
class Action:
    """One discrete action: keys held while the action repeats, keys tapped (down for
    the step's first frame only, firing keyPressed every time)."""

    name: str
    held: tuple[int, ...] = ()
    tapped: tuple[int, ...] = ()


#: The default Discrete(8) table, identical to the published PlayTrain template.
DEFAULT_ACTIONS = tuple(Action(**a) for a in contract.DEFAULT_ACTIONS)

MAX_KEYS_PER_ACTION = contract.MAX_KEYS_PER_ACTION


def games_dir() -> pathlib.Path:
    """Folder of the bundled games (``JSGYM_GAMES_DIR`` overrides it)."""
    override = os.environ.get("JSGYM_GAMES_DIR")
    if override:
        return pathlib.Path(override)
    return pathlib.Path(__file__).resolve().parent


def bundled_games() -> list[str]:
    """Names of the bundled games, e.g. ``['breakout', 'breakout.multiball', ...]``."""
    folder = games_dir()
    return sorted(p.name[:-3] for p in folder.glob("*.js")) if folder.is_dir() else []


def resolve(game: str | os.PathLike) -> tuple[str, pathlib.Path]:
    """Maps a bundled name (``"pong"``) or a path to ``(name, path)``.

    Raises:
        FileNotFoundError: neither a bundled game nor an existing file; the message
            lists the bundled games.
    """
    text = os.fspath(game)
    path = pathlib.Path(text)
    if path.suffix == ".js" and path.is_file():
        return path.name[:-3], path
    candidate = games_dir() / f"{text}.js"
    if candidate.is_file():
        return text, candidate
    raise FileNotFoundError(
        f"no game {text!r}: not a .js file and not a bundled game "
        f"(bundled: {', '.join(bundled_games()) or 'none found in ' + str(games_dir())})")


def _key_code(key: int | str, where: str) -> int:
    if isinstance(key, bool) or not isinstance(key, (int, str)):
        raise TypeError(f"{where}: a key is a key code (int) or a name like 'LEFT', got {key!r}")
    if isinstance(key, str):
        code = KEY_CODES.get(key.upper())
        if code is None:
            raise ValueError(f"{where}: unknown key name {key!r}; known: {', '.join(KEY_CODES)}")
        return code
    if not 0 < key < 256:
        raise ValueError(f"{where}: key code must be within 1..255, got {key}")
    return key


def parse_actions(spec) -> tuple[Action, ...]:
    """Normalises an action table given as Actions, dicts ``{"name", "held", "tapped"}``
    (``"press"`` is accepted for ``"tapped"``, as in PlayTrain's table) or strings
    like ``"LEFT+SPACE"`` (keys joined with ``+``: SPACE is tapped, others held)."""
    if spec is None:
        return DEFAULT_ACTIONS
    actions = []
    for i, item in enumerate(spec):
        where = f"action {i}"
        if isinstance(item, Action):
            action = item
        elif isinstance(item, str):
            keys = [k for k in item.split("+") if k and k.upper() != "NOOP"]
            held = tuple(_key_code(k, where) for k in keys if k.upper() != "SPACE")
            tapped = tuple(_key_code(k, where) for k in keys if k.upper() == "SPACE")
            action = Action(item, held, tapped)
        elif isinstance(item, dict):
            tapped = item.get("tapped", item.get("press", ()))
            held = item.get("held", ())
            if tapped is None:
                tapped = ()
            if isinstance(tapped, (int, str)):
                tapped = (tapped,)
            if isinstance(held, (int, str)):
                held = (held,)
            action = Action(str(item.get("name", f"action{i}")),
                            tuple(_key_code(k, where) for k in held),
                            tuple(_key_code(k, where) for k in tapped))
        else:
            raise TypeError(f"{where}: expected an Action, a dict or a string, got {item!r}")
        if len(action.held) > MAX_KEYS_PER_ACTION or len(action.tapped) > MAX_KEYS_PER_ACTION:
            raise ValueError(f"{where}: at most {MAX_KEYS_PER_ACTION} held and "
                             f"{MAX_KEYS_PER_ACTION} tapped keys")
        actions.append(action)
    if not actions:
        raise ValueError("the action table is empty")
    return tuple(actions)


_DECLARED = re.compile(r"\bJSGYM_ACTIONS\b")


def declares_actions(source: str) -> bool:
    """Whether a game file declares its own table as a global ``JSGYM_ACTIONS``."""
    return bool(_DECLARED.search(source))


def gym_id(name: str) -> str:
    """``"space_invaders"`` -> ``"jsgym/SpaceInvaders-v0"``; variants keep their suffix:
    ``"breakout.multiball"`` -> ``"jsgym/Breakout-Multiball-v0"``."""
    parts = ["".join(w.capitalize() for w in part.split("_")) for part in name.split(".")]
    return f"jsgym/{'-'.join(parts)}-v0"
