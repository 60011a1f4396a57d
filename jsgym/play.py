"""Human play and replay: ``jsgym play`` serves a game's page (jsgym/web/play.html: the
real p5.js, the determinism prelude, the same driver as the browser backend) on
127.0.0.1, and ``jsgym replay`` replays a recording in the QuickJS backend.

A recording is JSON::

    {"game": "pong", "source_sha256": "...", "game_options": null,
     "episodes": [{"seed": 3, "start": {"score": 0, "lives": 3, "gameState": "playing"},
                   "frames": [{"held": [37], "pressed": [], "score": 0, "lives": 3,
                               "gameState": "playing"}, ...],
                   "final_score": 12}]}

Each frame is one QuickJS step with frameskip 1 whose action holds ``held`` and taps
``pressed`` (the play page turns real key events into exactly that), so the replay
is exact: every frame's score, lives and gameState must match. A frame with mouse
input also has ``"pointer": {"at": [x, y] or null, "held": mask, "tapped": mask}``
(canvas pixels; the button masks of contract.json "pointer"), replayed as a pointer
action moving there (``at``) and holding and tapping those buttons.
"""

from __future__ import annotations

import dataclasses
import hashlib
import http.server
import json
import os
import pathlib
import threading

import numpy as np

from jsgym.games import (KEY_CODES, Action, action_effects, header, is_no_effect, parse_actions,
                         resolve)

#: Interface ``jsgym play`` binds to unless ``--host`` says otherwise.
DEFAULT_HOST = "127.0.0.1"
#: Largest recording ``POST /record`` accepts (bytes of its body): an hour of play at
#: 60 frames/s is about 20 MiB of JSON.
MAX_RECORD_BYTES = 64 * 1024 * 1024
#: Seconds a connection may stay silent (headers or body) before the server drops it.
READ_TIMEOUT = 30.0


def _key_names() -> dict[int, str]:
    names: dict[int, str] = {}
    for name, code in KEY_CODES.items():
        names.setdefault(code, name)
    return names


def play_files(game, *, seed: int = 0, record: bool = False, game_options: dict | None = None,
               actions=None) -> tuple[str, dict[str, tuple[bytes, str]]]:
    """The play page's files for ``game``: ``(name, {url path: (body, content type)})``."""
    from jsgym import action_table
    from jsgym._core import PoolConfig, read_source
    from jsgym.browser import page_files

    name, path = resolve(game)
    source = read_source(name, path)
    # the game's own table, read as make_vec reads it (its pointer grid is for agents:
    # a person clicks where they like)
    config = PoolConfig(game_name=name, source=source, num_envs=1, num_threads=1,
                        game_options=game_options)
    table, _ = action_table(config, parse_actions(actions) if actions is not None else None,
                            None)
    table = tuple(a for a in table if a.pointer == "none")
    # what each action does in this game, from its header ("" where it does not say)
    effects = action_effects(header(path)[1])
    files = page_files(source, game_options)
    config = {
        "game": name, "seed": int(seed), "record": bool(record),
        "sourceSha256": hashlib.sha256(source.encode("utf-8")).hexdigest(),
        "gameOptions": game_options,
        "actions": [{"name": a.name, "held": list(a.held), "tapped": list(a.tapped),
                     "effect": effects.get(i, "")}
                    for i, a in enumerate(table) if not is_no_effect(effects.get(i, ""))],
        "keyNames": {str(k): v for k, v in _key_names().items()},
    }
    files["config.js"] = (("window.__jsgymPlayConfig = " + json.dumps(config) + ";\n")
                          .encode("utf-8"), "text/javascript; charset=utf-8")
    files[""] = files["play.html"]
    return name, files


class PlayServer:
    """A small HTTP server for one game's play page (a thread; ``close()`` stops it).
    ``POST /record`` writes the page's recording to ``record_path``."""

    def __init__(self, game, *, host: str = DEFAULT_HOST, port: int = 0, seed: int = 0,
                 record_path: str | os.PathLike | None = None,
                 game_options: dict | None = None, actions=None):
        self.record_path = pathlib.Path(record_path) if record_path else None
        self.game, self.files = play_files(game, seed=seed, record=self.record_path is not None,
                                           game_options=game_options, actions=actions)
        self.recordings = 0
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            timeout = READ_TIMEOUT  # the socket's: a silent client cannot hold a thread

            def do_GET(self):
                path = self.path.split("?", 1)[0].lstrip("/")
                if path == "play.html":
                    path = ""
                entry = server.files.get(path)
                if entry is None:
                    self.send_error(404)
                    return
                body, ctype = entry
                self.send_response(200)
                self.send_header("content-type", ctype)
                self.send_header("content-length", str(len(body)))
                self.send_header("cache-control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                if self.path.split("?", 1)[0] != "/record" or server.record_path is None:
                    self.send_error(404)
                    return
                refused = server.refuse_post(self.headers)
                if refused:
                    self.send_error(*refused)
                    return
                length = int(self.headers["content-length"])
                try:
                    body = self.rfile.read(length)
                except OSError:  # the read timeout: a client that stopped sending
                    self.close_connection = True
                    return
                if len(body) != length:
                    self.send_error(400, "body shorter than its content-length")
                    return
                try:
                    data = json.loads(body)
                except ValueError:
                    self.send_error(400, "not JSON")
                    return
                if not isinstance(data, dict):
                    self.send_error(400, "a recording is a JSON object")
                    return
                server.save(data)
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer((host, port), Handler)
        self.host, self.port = self.httpd.server_address[:2]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True,
                                       name="jsgym-play")
        self.thread.start()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def origins(self) -> set[str]:
        """The origins the play page can have: the server's own address, and
        ``localhost`` for a loopback server."""
        origins = {self.url.rstrip("/")}
        if self.host in ("127.0.0.1", "::1"):
            origins.add(f"http://localhost:{self.port}")
        return origins

    def refuse_post(self, headers) -> tuple[int, str] | None:
        """Why a ``POST /record`` is refused, as ``(status, reason)``, or None. Only the
        play page may write the recording: a page of another origin gets no say (its
        ``Origin`` names it; a browser cannot omit it on a cross-origin POST), and a
        JSON content type cannot be sent cross-origin without a preflight, which this
        server never grants. The body must announce its size, at most
        :data:`MAX_RECORD_BYTES`."""
        origin = headers.get("origin")
        if origin is not None and origin not in self.origins():
            return 403, f"cross-origin POST from {origin!r} refused"
        if headers.get("sec-fetch-site") not in (None, "same-origin", "none"):
            return 403, "cross-site POST refused"
        ctype = (headers.get("content-type") or "").split(";", 1)[0].strip().lower()
        if ctype != "application/json":
            return 415, f"content-type must be application/json, got {ctype or 'none'!r}"
        length = headers.get("content-length")
        if length is None:
            return 411, "content-length required"
        if not length.strip().isdigit():
            return 400, f"bad content-length {length!r}"
        if int(length) > MAX_RECORD_BYTES:
            return 413, f"a recording may have at most {MAX_RECORD_BYTES} bytes, got {int(length)}"
        return None

    def save(self, data: dict):
        """Writes a recording atomically (a half-written file never replaces a good one)."""
        tmp = self.record_path.with_name(self.record_path.name + ".tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, self.record_path)
        self.recordings += 1

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@dataclasses.dataclass
class ReplayResult:
    """Outcome of :func:`replay`: ``mismatches`` lists ``(episode, frame, recorded,
    replayed)`` for the first differing frame of each episode."""

    episodes: int
    frames: int
    mismatches: list

    @property
    def exact(self) -> bool:
        return not self.mismatches


def replay(recording: dict | str | os.PathLike, game=None) -> ReplayResult:
    """Replays a ``jsgym play --record`` file in the QuickJS backend and compares
    every frame's score, lives and gameState with the recorded ones.

    Args:
        recording: the parsed JSON or a path to it.
        game: the game to replay in (default: the recording's ``game``).
    """
    import jsgym

    if not isinstance(recording, dict):
        recording = json.loads(pathlib.Path(recording).read_text(encoding="utf-8"))
    game = game or recording["game"]
    episodes = recording.get("episodes", [])
    combos: dict[tuple, int] = {}
    for ep in episodes:
        for f in ep["frames"]:
            combos.setdefault(_combo(f), len(combos))
    table = [_combo_action(c) for c in combos] or [Action("NOOP")]
    envs = jsgym.make_vec(game, 1, actions=table, autoreset_mode="disabled",
                          max_episode_steps=None, frameskip=1,
                          game_options=recording.get("game_options"))
    states = ("playing", "gameover", "won")
    mismatches = []
    frames = 0
    try:
        for e, ep in enumerate(episodes):
            _, infos = envs.reset(seed=[int(ep["seed"])])
            got = _state(infos, states)
            if "start" in ep and got != _recorded(ep["start"]):
                mismatches.append((e, 0, _recorded(ep["start"]), got))
                continue
            for k, f in enumerate(ep["frames"]):
                action = combos[_combo(f)]
                _, _, _, _, infos = envs.step(np.array([action]))
                frames += 1
                got = _state(infos, states)
                if got != _recorded(f):
                    mismatches.append((e, k + 1, _recorded(f), got))
                    break
    finally:
        envs.close()
    return ReplayResult(len(episodes), frames, mismatches)


def _combo(f: dict) -> tuple:
    """A recorded frame's input: (held keys, tapped keys, pointer position or None,
    held buttons, tapped buttons)."""
    p = f.get("pointer") or {}
    at = p.get("at")
    return (tuple(f["held"]), tuple(f["pressed"]), tuple(at) if at else None,
            int(p.get("held", 0)), int(p.get("tapped", 0)))


def _combo_action(c: tuple) -> Action:
    held, tapped, at, buttons_held, buttons_tapped = c
    name = "+".join(map(str, held + tapped)) or "NOOP"
    if at is None and not buttons_held and not buttons_tapped:
        return Action(name, held, tapped)
    return Action(f"{name}@{at}", held, tapped, pointer="at" if at else "none",
                  x=float(at[0]) if at else 0.0, y=float(at[1]) if at else 0.0,
                  buttons_held=buttons_held, buttons_tapped=buttons_tapped)


def _state(infos, states) -> dict:
    return {"score": float(infos["score"][0]), "lives": float(infos["lives"][0]),
            "gameState": states[int(infos["game_state"][0])]}


def _recorded(f: dict) -> dict:
    g = str(f["gameState"]).lower()
    return {"score": float(f["score"]), "lives": float(f["lives"]),
            "gameState": "won" if g == "win" else g}
