"""Bellard's QuickJS vs quickjs-ng on the bundled games: builds the native library
once per engine (cargo, into .cache/engines/<engine>/), then runs
bench/throughput.py against each build in turn, one game at a time alternating
engines, and prints the per-game ratio. The faster engine is the build default.

    python bench/engines.py                    # every bundled game
    python bench/engines.py pong breakout --seconds 2
"""

from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys

from common import one_thread_rate  # noqa: E402  (bench/ is sys.path[0] for a script)

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENGINES = ("bellard", "ng")


def build(engine: str) -> pathlib.Path:
    target = ROOT / ".cache" / "engines" / engine
    env = dict(os.environ, JSGYM_QUICKJS=engine, CARGO_TARGET_DIR=str(target))
    print(f"building the native library with QuickJS engine '{engine}' ...", file=sys.stderr)
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT / "rasterizer", env=env,
                   check=True)
    return target / "release" / "libjsgym_native.so"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--windows", type=int, default=3)
    args = parser.parse_args(argv)
    import jsgym

    games = args.games or jsgym.bundled_games()
    libs = {e: build(e) for e in ENGINES}
    print("| game | bellard steps/s | ng steps/s | bellard / ng |")
    print("|---|---|---|---|")
    ratios = []
    for game in games:
        rates = {e: one_thread_rate(libs[e], game, envs=args.envs, seconds=args.seconds,
                                     windows=args.windows, mem_envs=8) for e in ENGINES}
        ratio = rates["bellard"] / rates["ng"]
        ratios.append(ratio)
        print(f"| {game} | {rates['bellard']:,.0f} | {rates['ng']:,.0f} | {ratio:.2f} |", flush=True)
    geo = 1.0
    for r in ratios:
        geo *= r
    print(f"\ngeometric mean bellard / ng: {geo ** (1 / len(ratios)):.2f}")


if __name__ == "__main__":
    main()
