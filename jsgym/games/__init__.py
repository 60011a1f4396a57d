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
    the step's first frame only, firing keyPressed every time), and the pointer:
    ``pointer`` ``"none"`` leaves it where it is, ``"at"`` moves it to ``(x, y)``
    (canvas pixels), ``"input"`` to the position a continuous action gives at each
    step; mouse buttons (``contract.BUTTONS`` masks) are held and tapped as keys are.
    A held button stays down only while consecutive steps hold it."""

    name: str
    held: tuple[int, ...] = ()
    tapped: tuple[int, ...] = ()
    pointer: str = "none"
    x: float = 0.0
    y: float = 0.0
    buttons_held: int = 0
    buttons_tapped: int = 0


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
    """Maps a bundled name (``"pong"``), its Gymnasium id (``"jsgym/Pong-v0"``, also as
    ``"jsgym:jsgym/Pong-v0"``) or a path to ``(name, path)``.

    Raises:
        FileNotFoundError: neither a bundled game nor an existing file; the message
            names the closest bundled names and lists them all.
    """
    text = os.fspath(game)
    path = pathlib.Path(text)
    if path.suffix == ".js" and path.is_file():
        return path.name[:-3], path
    names = bundled_games()
    by_id = {gym_id(n): n for n in names}
    name = by_id.get(text.removeprefix("jsgym:"), text)
    candidate = games_dir() / f"{name}.js"
    if "/" not in name and candidate.is_file():
        return name, candidate
    if path.suffix == ".js":
        raise FileNotFoundError(f"no game file {text!r} (no such file)")
    import difflib

    close = difflib.get_close_matches(text.lower(), names, n=3, cutoff=0.6) + \
        [by_id[i] for i in difflib.get_close_matches(text, list(by_id), n=2, cutoff=0.8)]
    hint = f" Did you mean {' or '.join(repr(c) for c in dict.fromkeys(close))}?" if close else ""
    raise FileNotFoundError(
        f"no game {text!r}: not a .js file and not a bundled game.{hint} "
        f"(bundled: {', '.join(names) or 'none found in ' + str(games_dir())})")


class ActionSpecError(ValueError):
    """A malformed action table; ``where`` says which entry and field."""


#: Entries an action table may have (a table is one Discrete space; more is a mistake).
MAX_ACTIONS = 4096


def _key_code(key, where: str) -> int:
    if isinstance(key, bool) or not isinstance(key, (int, str)):
        raise ActionSpecError(f"{where}: a key is a key code (int) or a name like 'LEFT', "
                              f"got {_short(key)}")
    if isinstance(key, str):
        code = KEY_CODES.get(key.upper())
        if code is None:
            raise ActionSpecError(f"{where}: unknown key name {_short(key)}; known: "
                                  f"{', '.join(KEY_CODES)}")
        return code
    if not 0 < key < 256:
        raise ActionSpecError(f"{where}: key code must be within 1..255, got {key}")
    return key


def _short(v) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _keys(v, where: str) -> tuple[int, ...]:
    if v is None:
        return ()
    if isinstance(v, (int, str)) and not isinstance(v, bool):
        v = (v,)
    if not isinstance(v, (list, tuple)):
        raise ActionSpecError(f"{where}: expected a key or a list of keys, got {_short(v)}")
    if len(v) > MAX_KEYS_PER_ACTION:
        raise ActionSpecError(f"{where}: at most {MAX_KEYS_PER_ACTION} keys, got {len(v)}")
    return tuple(_key_code(k, where) for k in v)


def _buttons(v, where: str) -> int:
    """A button name ('LEFT', 'RIGHT', 'CENTER'), a list of names, or True (LEFT)."""
    if v is None or v is False:
        return 0
    if v is True:
        return contract.BUTTONS["LEFT"]
    if isinstance(v, str):
        v = (v,)
    if not isinstance(v, (list, tuple)):
        raise ActionSpecError(f"{where}: expected a button name ({', '.join(contract.BUTTONS)}) "
                              f"or a list of them, got {_short(v)}")
    mask = 0
    for b in v:
        if not isinstance(b, str) or b.upper() not in contract.BUTTONS:
            raise ActionSpecError(f"{where}: unknown button {_short(b)}; known: "
                                  f"{', '.join(contract.BUTTONS)}")
        mask |= contract.BUTTONS[b.upper()]
    return mask


def _finite(v, where: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or abs(v) > 1e9:
        raise ActionSpecError(f"{where}: expected a finite number, got {_short(v)}")
    return float(v)


_FIELDS = ("name", "held", "tapped", "press", "pointer", "button", "click")


def parse_action(item, i: int) -> Action:
    """One entry of an action table (see :func:`parse_actions`)."""
    where = f"action {i}"
    if isinstance(item, Action):
        return item
    if isinstance(item, str):
        keys = [k for k in item.split("+") if k and k.upper() != "NOOP"]
        held = tuple(_key_code(k, where) for k in keys if k.upper() != "SPACE")
        tapped = tuple(_key_code(k, where) for k in keys if k.upper() == "SPACE")
        action = Action(item, held, tapped)
    elif isinstance(item, dict):
        unknown = sorted(str(k) for k in item if k not in _FIELDS)
        if unknown:
            raise ActionSpecError(f"{where}: unknown field(s) {', '.join(unknown)}; an action "
                                  f"has {', '.join(_FIELDS)}")
        name = item.get("name", f"action{i}")
        if not isinstance(name, str) or len(name) > 100:
            raise ActionSpecError(f"{where}.name: expected a string (at most 100 characters), "
                                  f"got {_short(name)}")
        tapped = item.get("tapped", item.get("press"))
        pointer, x, y = "none", 0.0, 0.0
        at = item.get("pointer")
        if at == "input":
            pointer = "input"
        elif at is not None:
            if not isinstance(at, (list, tuple)) or len(at) != 2:
                raise ActionSpecError(f"{where}.pointer: expected [x, y] (canvas pixels) or "
                                      f"'input', got {_short(at)}")
            pointer = "at"
            x, y = _finite(at[0], f"{where}.pointer[0]"), _finite(at[1], f"{where}.pointer[1]")
        action = Action(name, _keys(item.get("held"), f"{where}.held"),
                        _keys(tapped, f"{where}.tapped"), pointer, x, y,
                        _buttons(item.get("button"), f"{where}.button"),
                        _buttons(item.get("click"), f"{where}.click"))
    else:
        raise ActionSpecError(f"{where}: expected an Action, a dict or a string, got "
                              f"{type(item).__name__} {_short(item)}")
    if len(action.held) > MAX_KEYS_PER_ACTION or len(action.tapped) > MAX_KEYS_PER_ACTION:
        raise ActionSpecError(f"{where}: at most {MAX_KEYS_PER_ACTION} held and "
                              f"{MAX_KEYS_PER_ACTION} tapped keys")
    return action


def parse_actions(spec) -> tuple[Action, ...]:
    """Normalises an action table: a list of Actions, dicts ``{"name", "held",
    "tapped"}`` (``"press"`` is accepted for ``"tapped"``, as in PlayTrain's table;
    ``"pointer": [x, y]`` moves the mouse there, ``"button"`` holds and ``"click"`` taps
    buttons ``'LEFT'``, ``'RIGHT'``, ``'CENTER'``) or strings like ``"LEFT+SPACE"``
    (keys joined with ``+``: SPACE is tapped, others held).

    Raises:
        ActionSpecError (a ValueError): the table or an entry is malformed; the
            message names the entry and the field.
    """
    if spec is None:
        return DEFAULT_ACTIONS
    if isinstance(spec, (str, bytes, dict)) or not isinstance(spec, (list, tuple)):
        raise ActionSpecError(f"an action table is a list of actions, got "
                              f"{type(spec).__name__} {_short(spec)}")
    if len(spec) > MAX_ACTIONS:
        raise ActionSpecError(f"an action table has at most {MAX_ACTIONS} actions, got {len(spec)}")
    actions = tuple(parse_action(item, i) for i, item in enumerate(spec))
    if not actions:
        raise ActionSpecError("the action table is empty")
    return actions


def pointer_grid(keys: tuple[Action, ...], rows: int, cols: int, width: float,
                 height: float) -> tuple[Action, ...]:
    """``keys`` followed by a ``rows x cols`` grid of left clicks at the cells'
    centres of a ``width x height`` canvas (row-major: action ``len(keys) + r * cols +
    c`` clicks row ``r``, column ``c``)."""
    for v, what in ((rows, "rows"), (cols, "cols")):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 64:
            raise ValueError(f"pointer grid {what} must be an int within 1..64, got {v!r}")
    out = list(keys)
    for r in range(rows):
        for c in range(cols):
            out.append(Action(f"CLICK_{r}_{c}", pointer="at", x=(c + 0.5) * width / cols,
                              y=(r + 0.5) * height / rows,
                              buttons_tapped=contract.BUTTONS["LEFT"]))
    if len(out) > MAX_ACTIONS:
        raise ValueError(f"an action table has at most {MAX_ACTIONS} actions, got {len(out)}")
    return tuple(out)


def continuous_pointer(keys: tuple[Action, ...]) -> tuple[Action, ...]:
    """``keys``, each also moving the pointer to the continuous action's position and
    pressing its buttons (``pointer="input"``)."""
    return tuple(Action(a.name, a.held, a.tapped, "input") for a in keys)


_DECLARED = re.compile(r"\bJSGYM_(ACTIONS|POINTER)\b")


def declares_actions(source: str) -> bool:
    """Whether a game file may declare its own table (``JSGYM_ACTIONS``) or pointer
    space (``JSGYM_POINTER``): a cheap gate before the game is run to find out (a
    comment that mentions the name only costs that run)."""
    return bool(_DECLARED.search(source))


def header(path: pathlib.Path) -> tuple[str, str]:
    """A game file's one-line title and its 'Actions' paragraph, from the ``//`` comment
    it opens with (``"see the file header"`` when it has none)."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("//"):
            break
        lines.append(line[2:].strip())
    title = lines[0] if lines else path.stem
    actions, inside = [], False
    for line in lines[1:]:
        if line.startswith("Actions"):
            inside = True
            rest = line.split(":", 1)[1].strip() if ":" in line else ""
            if rest:
                actions.append(rest)
            continue
        if inside:
            if not line or re.match(r"^[A-Z][A-Za-z_ ()/-]*:", line):
                break
            actions.append(line)
    return title, " ".join(actions) or "see the file header"


#: An action's effect that is no effect, in a header's words.
_NO_EFFECT = re.compile(r"^(no effect|nothing|noop|stay|same as noop)\b", re.IGNORECASE)


def action_effects(paragraph: str) -> dict[int, str]:
    """What each action index does, from a header's 'Actions' paragraph written as
    ``"0 NOOP; 1 LEFT held / 2 RIGHT held: move the paddle; 3 UP, 4 DOWN: no effect"``
    (``{1: "move the paddle", 2: ..., 3: "no effect", 4: ...}``). Items without an
    index are left out; an index without a description maps to its own words."""
    effects: dict[int, str] = {}
    for item in paragraph.split(";"):
        item = item.strip().rstrip(".")
        m = re.search(r":|\s=\s", item)
        lhs, sep, effect = (item[:m.start()], m.group(), item[m.end():]) if m else (item, "", "")
        indices = [int(d) for d in re.findall(r"(?:^|[\s,/(]|and )(\d)\b", lhs)]
        for i in indices:
            effects.setdefault(i, (("= " if sep.strip() == "=" else "") + effect.strip())
                               if sep else item)
    return effects


def is_no_effect(effect: str) -> bool:
    """Whether a header says an action does nothing (``"no effect (same as NOOP)"``)."""
    text = effect.strip()
    return bool(_NO_EFFECT.match(text)) or text.upper() in ("NOOP", "0 NOOP")


def gym_id(name: str) -> str:
    """``"space_invaders"`` -> ``"jsgym/SpaceInvaders-v0"``; variants keep their suffix:
    ``"breakout.multiball"`` -> ``"jsgym/Breakout-Multiball-v0"``."""
    parts = ["".join(w.capitalize() for w in part.split("_")) for part in name.split(".")]
    return f"jsgym/{'-'.join(parts)}-v0"
