"""Instructions per env step of the native hot path, counted by callgrind: the measure
of a runtime, shim or rasterizer change that the load of a shared machine cannot move.

    python bench/instructions.py catch pong bigfish            # this checkout's build
    python bench/instructions.py catch --python /other/venv/bin/python   # another build
    python bench/instructions.py --functions 30 bench/idiomatic/*/*.js   # where they go
    python bench/instructions.py --cache bigfish plunder                 # and cache misses

Each game runs in one env on one thread, so that the whole step (scheduler, episode
rules, the game's JS, p5 calls, rasterizing, copying) happens on the calling thread
inside the C calls Python makes (send, recv); callgrind counts instructions inside
those only (--toggle-collect on libffi's call, which cffi makes every C call through):
Python's own per-step work is left out.
Two runs of different lengths are subtracted, which leaves setup, the reset and the
warm-up out: the figure is (Ir(long) - Ir(short)) / (long - short) steps. Random
actions come from a fixed seed, so both sides of a comparison run the same steps.
Needs valgrind; ~10-60 s per game.

--functions N adds where the instructions go (callgrind_annotate's self cost per
function, the same two runs subtracted): each game's split by layer (the game's
JavaScript in the interpreter, the p5 shim, the runtime, the rasterizer, libc) and the
N functions with the largest mean share over the games. Shares are of instructions,
not time: a `rep movsb` copy (glibc's memcpy of a few KB and up) counts one
instruction per byte, so memcpy weighs several times more here than on the clock.

--cache adds what instructions miss: callgrind's cache model of one core (64 KiB L1
instructions, 32 KiB L1 data, 1 MiB L2 as the last level: the caches of the 2-core
machine the project is measured on) run with --envs envs (default 16, as the
throughput benchmarks run) and each figure per env step. One env's state stays in
the caches from one step to the next; sixteen envs' do not, and a step then pays for
every line of canvas, records and heap it touches (an L2 miss served by L3 costs
tens of cycles; a step of a small game is ~100k cycles). Like instructions, the
model's counts are not moved by the load of the machine.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

SHORT, LONG = 200, 1200


# The cache model of --cache: callgrind's --I1, --D1 and --LL (size, ways, line).
CACHE_MODEL = ["--I1=65536,8,64", "--D1=32768,8,64", "--LL=1048576,16,64"]
# Its events as reported, per env step.
CACHE_EVENTS = [("I1mr", "L1i misses"), ("D1mr", "L1d read misses"), ("D1mw", "L1d write misses"),
                ("DLmr", "L2 data read misses"), ("DLmw", "L2 data write misses")]


def inner(game: str, steps: int, n_envs: int = 1) -> None:
    import numpy as np

    import jsgym

    # valgrind runs 20-100x slower: no call may time out
    envs = jsgym.make_vec(game, n_envs, num_threads=1, seed=0, step_timeout=3600.0)
    envs.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, envs.single_action_space.n, size=(steps, n_envs))
    for a in actions:
        envs.step(a)
    envs.close()


def count(python: str, game: str, steps: int, functions: bool = False, n_envs: int = 0) -> tuple[Counter, Counter]:
    """Events counted (`Ir`, and with `n_envs` the cache model's misses of that many
    envs), and with `functions` each function's self cost in instructions."""
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "callgrind.out"
        cache = ["--cache-sim=yes", *CACHE_MODEL] if n_envs else []
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cache,
               "--toggle-collect=ffi_call_int", "--collect-atstart=no", python, __file__,
               "--inner", game, str(steps), str(n_envs or 1)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"{game}: {proc.stderr[-2000:]}")
        text = out.read_text()
        per_function = self_costs(out) if functions else Counter()
    return events_of(text), per_function


def events_of(text: str) -> Counter:
    """The totals of a callgrind output by event name."""
    names = re.search(r"^events:\s*(.+)$", text, re.M)[1].split()
    m = re.search(r"^summary:\s*(.+)$", text, re.M) or re.search(r"^totals:\s*(.+)$", text, re.M)
    return Counter(dict(zip(names, map(int, m[1].split()))))


def self_costs(out: pathlib.Path) -> Counter:
    """Instructions per function of a callgrind output (self cost, code inlined into it
    included, whatever file it came from), keyed `(function, file)` by the file that
    holds most of it."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", str(out)],
                          capture_output=True, text=True, check=True).stdout
    return parse_self_costs(text)


def parse_self_costs(text: str) -> Counter:
    """`self_costs` of callgrind_annotate's text."""
    by_file: Counter = Counter()
    # (the function table comes before any annotated source)
    for line in text.split("-- Auto-annotated source")[0].splitlines():
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+([^:]*):(.+?)(?: \[.*\])?$", line)
        if m and "PROGRAM TOTALS" not in line:
            # (a recursive call's copy, `f'2`, is the same function)
            by_file[(re.sub(r"'\d+$", "", m[3]), m[2])] += int(m[1].replace(",", ""))
    costs: Counter = Counter()
    home: dict[str, tuple[int, str]] = {}
    for (function, file), c in by_file.items():
        costs[function] += c
        # (callgrind leaves some of a function's code without a file, `???`: the file
        # is the one of its code that has one)
        if file != "???" and c > home.get(function, (-1, ""))[0]:
            home[function] = (c, file)
    return Counter({(f, home.get(f, (0, "???"))[1]): c for f, c in costs.items()})


# Where a function's file puts it; the first pattern that matches.
LAYERS = [
    ("JS interpreter", re.compile(r"quickjs|libregexp|libunicode|dtoa|cutils")),
    ("p5 shim", re.compile(r"p5shim/")),
    ("runtime", re.compile(r"runtime/")),
    ("rasterizer", re.compile(r"rasterizer/src|^/rustc/")),
    ("libc", re.compile(r"sysdeps|^\./|libc|libm")),
]


def layer_of(key: tuple[str, str]) -> str:
    function, file = key
    if function.startswith("jsgym_native::") or "<jsgym_native::" in function:
        return "rasterizer"
    return next((name for name, pattern in LAYERS if pattern.search(file)), "other")


def short_name(key: tuple[str, str]) -> str:
    """A function as a reader looks it up: its name without the crate's paths, and the
    last two parts of its file."""
    function, file = key
    function = re.sub(r"<impl jsgym_native::[\w:]*::(\w+)>", r"\1", function)
    function = re.sub(r"\bjsgym_native::(?:\w+::)*?(?=\w+::\w+$|\w+$)", "", function)
    return f"{function} ({'/'.join(pathlib.PurePosixPath(file).parts[-2:])})"


def report_functions(splits: dict[str, tuple[float, Counter]], top: int) -> None:
    """Each game's split by layer and the functions with the largest mean share."""
    # a function's file as any game's profile has it
    home = {f: file for _, costs in splits.values() for f, file in costs if file != "???"}
    splits = {game: (per_step, Counter({(f, home.get(f, file)): c for (f, file), c in costs.items()}))
              for game, (per_step, costs) in splits.items()}
    names = [name for name, _ in LAYERS] + ["other"]
    print("\n## Split by layer (share of each game's instructions per step)\n")
    print("| game | instructions per step | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    shares: dict[str, list[float]] = {}
    for game, (per_step, costs) in splits.items():
        total = sum(costs.values()) or 1
        by_layer = Counter()
        for function, c in costs.items():
            by_layer[layer_of(function)] += c
            shares.setdefault(function, []).append(c / total)
        print(f"| {game} | {per_step:,.0f} | " + " | ".join(f"{100 * by_layer[n] / total:.0f}%" for n in names) + " |")
    n = len(splits)
    ranked = sorted(shares.items(), key=lambda kv: -sum(kv[1]) / n)[:top]
    print(f"\n## The {top} functions with the largest mean share over the {n} games (self cost)\n")
    print("| function | layer | mean share | largest share | games where >= 1% |")
    print("|---|---|---|---|---|")
    for function, s in ranked:
        print(f"| `{short_name(function)}` | {layer_of(function)} | {100 * sum(s) / n:.2f}% | "
              f"{100 * max(s):.1f}% | {sum(v >= 0.01 for v in s)} |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter whose jsgym build is measured")
    parser.add_argument("--functions", type=int, metavar="N", default=0,
                        help="also split each game's instructions by layer and list the N "
                             "functions with the largest mean share (self cost)")
    parser.add_argument("--jobs", type=int, default=1, help="games measured at once (default 1)")
    parser.add_argument("--cache", action="store_true",
                        help="also count the misses of a one-core cache model, per env step of "
                             "--envs envs")
    parser.add_argument("--envs", type=int, default=16, help="envs of a --cache run (default 16)")
    parser.add_argument("--inner", nargs=3, metavar=("GAME", "STEPS", "ENVS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inner:
        inner(args.inner[0], int(args.inner[1]), int(args.inner[2]))
        return 0
    if args.envs < 1:
        parser.error("--envs must be at least 1")
    if args.functions and not shutil.which("callgrind_annotate"):
        parser.error("--functions needs callgrind_annotate (valgrind's)")
    n_envs = args.envs if args.cache else 0
    # (a step of 16 envs is 16 env steps: fewer steps give as many)
    short_steps, long_steps = (SHORT, LONG) if not n_envs else (max(20, SHORT // n_envs), max(60, LONG // n_envs))
    columns = [("Ir", "instructions per step")] + (CACHE_EVENTS if n_envs else [])
    events, names = [e for e, _ in columns], [name for _, name in columns]
    if n_envs:
        print(f"{n_envs} envs on one thread; per env step\n")
    print("| game | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    splits = {}

    def measure(game: str):
        return [count(args.python, game, n, args.functions > 0, n_envs) for n in (short_steps, long_steps)]

    # (instruction counts do not depend on what else runs: games may run side by side)
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for game, ((short, short_f), (long, long_f)) in zip(args.games, pool.map(measure, args.games)):
            env_steps = (long_steps - short_steps) * max(1, n_envs)
            per = [(long[e] - short[e]) / env_steps for e in events]
            per_step = per[0]
            print(f"| {game} | " + " | ".join(f"{v:,.0f}" for v in per) + " |", flush=True)
            if args.functions:
                # (Counter subtraction keeps positive counts only: setup-only functions drop out)
                splits[game] = (per_step, long_f - short_f)
    if splits:
        report_functions(splits, args.functions)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
