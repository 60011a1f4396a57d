"""Instructions per env step of the native hot path, counted by callgrind: the measure
of a runtime, shim or rasterizer change that the load of a shared machine cannot move.

    python bench/instructions.py catch pong bigfish            # this checkout's build
    python bench/instructions.py catch --python /other/venv/bin/python   # another build

Each game runs in one env on one thread, so that the whole step (scheduler, episode
rules, the game's JS, p5 calls, rasterizing, copying) happens on the calling thread
inside the C calls Python makes (send, recv); callgrind counts instructions inside
those only (--toggle-collect on libffi's call, which cffi makes every C call through):
Python's own per-step work is left out.
Two runs of different lengths are subtracted, which leaves setup, the reset and the
warm-up out: the figure is (Ir(long) - Ir(short)) / (long - short) steps. Random
actions come from a fixed seed, so both sides of a comparison run the same steps.
Needs valgrind; ~10-60 s per game.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

SHORT, LONG = 200, 1200


def inner(game: str, steps: int) -> None:
    import numpy as np

    import jsgym

    # valgrind runs 20-100x slower: no call may time out
    envs = jsgym.make_vec(game, 1, num_threads=1, seed=0, step_timeout=3600.0)
    envs.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, envs.single_action_space.n, size=(steps, 1))
    for a in actions:
        envs.step(a)
    envs.close()


def count(python: str, game: str, steps: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "callgrind.out"
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
               "--toggle-collect=ffi_call_int", "--collect-atstart=no", python, __file__,
               "--inner", game, str(steps)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"{game}: {proc.stderr[-2000:]}")
        text = out.read_text()
    m = re.search(r"^summary:\s+(\d+)", text, re.M) or re.search(r"^totals:\s+(\d+)", text, re.M)
    return int(m[1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter whose jsgym build is measured")
    parser.add_argument("--inner", nargs=2, metavar=("GAME", "STEPS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inner:
        inner(args.inner[0], int(args.inner[1]))
        return 0
    print("| game | instructions per step |\n|---|---|")
    for game in args.games:
        short, long = count(args.python, game, SHORT), count(args.python, game, LONG)
        print(f"| {game} | {(long - short) / (LONG - SHORT):,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
