"""``jsgym play GAME`` (a person plays the game in a browser tab) and
``jsgym replay FILE`` (a recording replayed in the QuickJS backend)."""

from __future__ import annotations

import json
import sys
import time


def _cmd_play(args) -> int:
    from jsgym.play import PlayServer

    options = json.loads(args.options) if args.options else None
    server = PlayServer(args.game, host=args.host, port=args.port, seed=args.seed,
                        record_path=args.record, game_options=options)
    print(f"jsgym play: {server.game} (seed {args.seed}) at {server.url}", flush=True)
    if args.record:
        print(f"recording to {args.record} (saved every 2 s, at game over and on restart)",
              flush=True)
    print("Ctrl-C stops the server.", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0


def _cmd_replay(args) -> int:
    from jsgym.play import replay

    result = replay(args.file, game=args.game)
    for episode, frame, recorded, replayed in result.mismatches:
        print(f"episode {episode} frame {frame}: recorded {recorded}, QuickJS {replayed}")
    verdict = "exact" if result.exact else "MISMATCH"
    print(f"replay {verdict}: {result.episodes} episode(s), {result.frames} frames compared")
    return 0 if result.exact else 1


def register(subparsers) -> None:
    p = subparsers.add_parser("play", help="play a game in your browser (served on 127.0.0.1)")
    p.add_argument("game", help="bundled game name or path to a .js file")
    p.add_argument("--seed", type=int, default=0, help="episode seed (default 0)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 = any free)")
    p.add_argument("--host", default="127.0.0.1",
                   help="interface to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--record", metavar="FILE", default=None,
                   help="save the seed, every frame's held/pressed keys and states as JSON")
    p.add_argument("--options", default=None, help="GAME_OPTIONS as a JSON object")
    p.set_defaults(func=_cmd_play)

    p = subparsers.add_parser("replay", help="replay a `jsgym play --record` file in QuickJS; "
                                             "exit 1 unless every frame matches")
    p.add_argument("file", help="the recording (JSON)")
    p.add_argument("--game", default=None, help="game to replay in (default: the recorded one)")
    p.set_defaults(func=_cmd_replay)


if __name__ == "__main__":  # pragma: no cover
    from jsgym.cli import main

    sys.exit(main(sys.argv[1:]))
