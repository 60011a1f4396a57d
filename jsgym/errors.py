"""Exceptions raised for broken or misbehaving game files (all subclass GameError)."""

from __future__ import annotations

import re


class GameError(Exception):
    """A game file failed: it could not be loaded, broke the contract, threw, hung or
    exhausted its memory. ``game``, ``env_index`` and ``step`` say where (``None`` when
    not known); ``js_stack`` holds the JavaScript stack when there is one."""

    def __init__(self, message: str, *, game: str | None = None, env_index: int | None = None,
                 step: int | None = None, js_stack: str | None = None):
        super().__init__(message)
        self.game = game
        self.env_index = env_index
        self.step = step
        self.js_stack = js_stack


class GameLoadError(GameError):
    """The file is not valid JavaScript. ``file``, ``line`` and ``column`` locate the
    syntax error; ``js_message`` is the parser's message."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 column: int | None = None, js_message: str | None = None, **kwargs):
        super().__init__(message, **kwargs)
        self.file = file
        self.line = line
        self.column = column
        self.js_message = js_message


class GameContractError(GameError):
    """The file runs but does not provide the game contract (a missing function, or a
    malformed ``getGameState()`` result). The message names each problem."""


class GameRuntimeError(GameError):
    """The game threw a JavaScript exception."""


class GameTimeoutError(GameError):
    """A call into the game ran past the per-step deadline (an infinite loop?)."""


class GameMemoryError(GameError):
    """The game exceeded its memory limit."""


_LOCATION = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+):?\s*(?P<msg>.*)$", re.S)
_WHERE = re.compile(r"env (?P<env>\d+) step (?P<step>-?\d+)")


def load_error(message: str, game: str) -> GameLoadError:
    """Builds a GameLoadError from the runtime's ``file:line:col: message`` text."""
    m = _LOCATION.match(message)
    if not m:
        return GameLoadError(f"game '{game}' failed to load: {message}", game=game,
                             js_message=message)
    return GameLoadError(
        f"game '{game}' has a syntax error at {m['file']}:{m['line']}:{m['col']}: {m['msg']}",
        game=game, file=m["file"], line=int(m["line"]), column=int(m["col"]),
        js_message=m["msg"])


def from_status(status: int, message: str, game: str) -> Exception:
    """Maps a runtime status code (``JG_ERR_*``) and message to the exception to raise."""
    from jsgym import _codes as c

    where = _WHERE.search(message)
    env_index = int(where["env"]) if where else None
    step = int(where["step"]) if where else None
    stack = message.split("\n", 1)[1] if "\n" in message else None
    kwargs = dict(game=game, env_index=env_index, step=step, js_stack=stack)
    if status == c.ERR_LOAD:
        return load_error(message, game)
    cls = {
        c.ERR_CONTRACT: GameContractError,
        c.ERR_RUNTIME: GameRuntimeError,
        c.ERR_TIMEOUT: GameTimeoutError,
        c.ERR_MEMORY: GameMemoryError,
    }.get(status)
    if cls is not None:
        return cls(message, **kwargs)
    if status == c.ERR_ARGUMENT:
        return ValueError(message)
    if status == c.ERR_STATE:
        return RuntimeError(message)
    return OSError(message)
