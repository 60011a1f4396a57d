"""Human play: the server binds 127.0.0.1 only, a session played with real
(Playwright) keyboard events is recorded, and the recording replays exactly in the
QuickJS backend; a tampered recording is reported (exit status 1)."""

from __future__ import annotations

import json
import socket
import time
import urllib.request

import pytest

from jsgym.cli import main
from jsgym.play import DEFAULT_HOST, PlayServer, replay


def _need_browser():
    pytest.importorskip("playwright")
    from jsgym.browser import p5_path

    try:
        p5_path()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))


def test_server_binds_loopback_and_serves_the_page(tmp_path):
    _need_browser()
    server = PlayServer("catch", port=0, seed=5, record_path=tmp_path / "r.json")
    try:
        assert DEFAULT_HOST == "127.0.0.1" and server.host == "127.0.0.1"
        html = urllib.request.urlopen(server.url, timeout=10).read().decode()
        assert '<meta charset="utf-8">' in html and "prelude.js" in html
        assert html.index("prelude.js") < html.index("p5.min.js") < html.index("game.js")
        config = urllib.request.urlopen(server.url + "config.js", timeout=10).read().decode()
        assert '"seed": 5' in config and '"record": true' in config
        req = urllib.request.Request(server.url + "record", data=b'{"episodes": []}',
                                     method="POST",
                                     headers={"content-type": "application/json"})
        assert urllib.request.urlopen(req, timeout=10).status == 204
        assert json.loads((tmp_path / "r.json").read_text()) == {"episodes": []}
    finally:
        server.close()


def _post(server, body: bytes, headers: dict) -> int:
    """Status of a raw ``POST /record`` (http.client adds no headers of its own
    beyond Host and, with a body, Content-Length)."""
    import http.client

    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    try:
        conn.putrequest("POST", "/record", skip_accept_encoding=True)
        for k, v in headers.items():
            conn.putheader(k, v)
        conn.endheaders()
        conn.send(body)
        return conn.getresponse().status
    finally:
        conn.close()


def test_record_post_is_same_origin_json_and_bounded(tmp_path, monkeypatch):
    """Only the play page writes the recording: a cross-origin or non-JSON POST, a
    body without or beyond its announced size (or above MAX_RECORD_BYTES) is refused
    and the recording stays as it was."""
    _need_browser()
    import jsgym.play as play

    monkeypatch.setattr(play, "MAX_RECORD_BYTES", 1000)
    path = tmp_path / "r.json"
    server = PlayServer("catch", port=0, record_path=path)
    good = b'{"episodes": []}'
    own = server.url.rstrip("/")
    try:
        json_ct = {"content-type": "application/json"}
        assert _post(server, good, {**json_ct, "content-length": str(len(good)),
                                    "origin": own}) == 204
        assert json.loads(path.read_text()) == {"episodes": []}
        evil = b'{"episodes": [1]}'
        n = str(len(evil))
        for headers, status in [
            # a page of another origin, as a browser sends it (text/plain needs no preflight)
            ({"content-type": "text/plain", "content-length": n,
              "origin": "http://evil.example"}, 403),
            ({**json_ct, "content-length": n, "origin": "http://evil.example"}, 403),
            ({**json_ct, "content-length": n, "sec-fetch-site": "cross-site"}, 403),
            ({"content-type": "text/plain", "content-length": n}, 415),
            ({"content-length": n}, 415),
            ({**json_ct}, 411),
            ({**json_ct, "content-length": "-1"}, 400),
            ({**json_ct, "content-length": "1e3"}, 400),
            ({**json_ct, "content-length": "1001"}, 413),
        ]:
            assert _post(server, evil, headers) == status, headers
        assert json.loads(path.read_text()) == {"episodes": []}, "a refused POST wrote"
        assert server.recordings == 1
    finally:
        server.close()


def test_record_post_silent_client_is_dropped(tmp_path, monkeypatch):
    """A client that announces a body and never sends it is dropped after
    READ_TIMEOUT, and the server keeps serving."""
    _need_browser()
    import jsgym.play as play

    monkeypatch.setattr(play, "READ_TIMEOUT", 0.5)
    server = PlayServer("catch", port=0, record_path=tmp_path / "r.json")
    try:
        s = socket.create_connection((server.host, server.port), timeout=10)
        s.sendall(b"POST /record HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                  b"content-length: 100\r\n\r\n{")
        t0 = time.monotonic()
        assert s.recv(1000) == b""  # closed by the server, no answer
        assert time.monotonic() - t0 < 5
        s.close()
        assert urllib.request.urlopen(server.url, timeout=10).status == 200
        assert not (tmp_path / "r.json").exists()
    finally:
        server.close()


def test_cli_play_defaults_to_loopback():
    from jsgym.cli import build_parser

    args = build_parser().parse_args(["play", "pong"])
    assert args.host == "127.0.0.1" and args.seed == 0


# Frames the page has recorded so far (every episode).
_RECORDED = "() => __jsgymPlay.recording().episodes.reduce((n, e) => n + e.frames.length, 0)"
# Recorded frames with a tapped key.
_TAPS = ("() => __jsgymPlay.recording().episodes.reduce("
         "(n, e) => n + e.frames.filter(f => f.pressed.length).length, 0)")


def _play_session(url: str, keys: list[tuple[str, int]]):
    """Plays ``keys`` (key, frames to hold it) with real keyboard events and returns
    how many frames the page had recorded when it was asked to save. Every wait
    counts the page's frames, not milliseconds, so that a loaded machine, which draws
    fewer frames per second, records the same kinds of input."""
    from playwright.sync_api import sync_playwright

    from jsgym.browser import CHROMIUM_ARGS, chromium_env, chromium_path

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), headless=True, env=chromium_env(),
                                    args=list(CHROMIUM_ARGS))
        try:
            page = browser.new_page(device_scale_factor=1)

            def wait_frames(k: int):
                page.wait_for_function(f"n => ({_RECORDED})() >= n",
                                       arg=page.evaluate(_RECORDED) + k, timeout=60000)

            def tap(key: str):
                # Down and up between two frames is a tap; a frame may fall between
                # them (then the key is held for a frame): tap until one was recorded.
                for _ in range(20):
                    before = page.evaluate(_TAPS)
                    page.keyboard.press(key)
                    wait_frames(2)
                    if page.evaluate(_TAPS) > before:
                        return

            page.goto(url)
            page.wait_for_function("window.__jsgymPlay && __jsgym.hasEpisode", timeout=30000)
            page.click("#stage canvas")
            for key, hold_frames in keys:
                page.keyboard.down(key)
                wait_frames(hold_frames)
                page.keyboard.up(key)
                wait_frames(2)
            tap("Space")
            page.keyboard.down("ArrowRight")
            tap("Space")  # while another key is held
            page.keyboard.up("ArrowRight")
            wait_frames(2)  # every key event above has reached a recorded frame
            # The page keeps playing (and saving every 2 s and when it closes), so the
            # file ends up holding at least the frames recorded before this upload.
            frames = page.evaluate("__jsgymPlay.recording().episodes[0].frames.length")
            assert page.evaluate("__jsgymPlay.upload()")
        finally:
            browser.close()
    return frames


def test_recorded_session_replays_exactly(tmp_path):
    _need_browser()
    path = tmp_path / "session.json"
    server = PlayServer("breakout", port=0, seed=7, record_path=path)
    try:
        frames = _play_session(server.url, [("ArrowLeft", 18), ("Space", 4),
                                            ("ArrowRight", 24), ("Space", 1)])
    finally:
        server.close()
    rec = json.loads(path.read_text())
    assert rec["game"] == "breakout" and rec["episodes"][0]["seed"] == 7
    ep = rec["episodes"][0]
    assert frames >= 30 and len(ep["frames"]) >= frames
    assert any(f["held"] for f in ep["frames"]) and any(f["pressed"] for f in ep["frames"])
    assert "final_score" in ep
    result = replay(path)
    assert result.exact, result.mismatches
    assert result.frames == len(ep["frames"])
    assert main(["replay", str(path)]) == 0

    # A recording that does not match the game is reported, with exit status 1.
    ep["frames"][10]["score"] += 5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec))
    result = replay(bad)
    assert not result.exact and result.mismatches[0][:2] == (0, 11)
    assert main(["replay", str(bad)]) == 1
