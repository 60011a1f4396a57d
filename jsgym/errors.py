"""Exceptions raised for broken or misbehaving game files (all subclass GameError), built
from the fields of the runtime's error records (never from parsing a message)."""

from __future__ import annotations

from jsgym import contract


class GameError(Exception):
    """A game file failed: it could not be loaded, broke the contract, threw, hung or
    exhausted its memory. ``game``, ``env_index``, ``step`` and ``phase`` (a contract
    phase name: ``"draw"``, ``"setup"``, ...) say where (``None`` when not known);
    ``js_stack`` holds the JavaScript stack when there is one."""

    def __init__(self, message: str, *, game: str | None = None, env_index: int | None = None,
                 step: int | None = None, js_stack: str | None = None, phase: str | None = None):
        super().__init__(message)
        self.game = game
        self.env_index = env_index
        self.step = step
        self.js_stack = js_stack
        self.phase = phase


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


_CLASSES = {cls.__name__: cls for cls in (GameLoadError, GameContractError, GameRuntimeError,
                                          GameTimeoutError, GameMemoryError)}
_CLASSES.update(ValueError=ValueError, RuntimeError=RuntimeError, OSError=OSError)


def error_message(fields: dict, game: str) -> str:
    """The message of an error record (the fields of contract.json "errors.fields"):
    ``game 'pong' env 1 step 40: draw() threw TypeError: ...`` and the JS stack on the
    following lines; a syntax error names its file, line and column."""
    message = fields["message"]
    if fields["kind"] == contract.ERR["LOAD"]:
        if fields["file"]:
            return (f"game '{game}' has a syntax error at {fields['file']}:{fields['line']}:"
                    f"{fields['column']}: {message}")
        return f"game '{game}' failed to load: {message}"
    if fields["env"] >= 0:
        message = f"game '{game}' env {fields['env']} step {fields['step']}: {message}"
    elif not message.startswith(f"game '{game}'"):
        message = f"game '{game}': {message}"
    if fields["stack"]:
        message += "\n" + fields["stack"]
    return message


def from_error(fields: dict, game: str) -> Exception:
    """The exception for an error record: its kind's class (contract.json "errors"),
    with the record's place as attributes."""
    kind = fields["kind"]
    name = contract.ERROR_CLASSES[kind] if 0 <= kind < len(contract.ERROR_CLASSES) else None
    cls = _CLASSES.get(name, OSError)
    message = error_message(fields, game)
    if not issubclass(cls, GameError):
        return cls(message)
    in_env = fields["env"] >= 0
    phase = contract.PHASES[fields["phase"]].name if 0 <= fields["phase"] < len(contract.PHASES) else None
    kwargs = dict(game=game, env_index=fields["env"] if in_env else None,
                  step=fields["step"] if in_env else None, js_stack=fields["stack"] or None,
                  phase=None if phase == "none" else phase)
    if cls is GameLoadError:
        located = bool(fields["file"])
        return GameLoadError(message, file=fields["file"] or None,
                             line=fields["line"] if located else None,
                             column=fields["column"] if located else None,
                             js_message=fields["message"], **kwargs)
    return cls(message, **kwargs)
