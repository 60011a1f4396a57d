"""Env-only throughput of the QuickJS backend: steps/s per game on one core, scaling
from 1 to 2 threads, memory per env, and env creation time. Prints a markdown table
and writes it to bench/results/throughput.md.

Protocol: random actions drawn before the timed window, autoresets inside it, a
warm-up window excluded, then several timed windows; the median and the spread
(min-max) are reported. The 1-thread figure runs with the process pinned to one core.
Run it on an otherwise idle machine; the load seen during the run is printed.

    python bench/throughput.py                 # every bundled game
    python bench/throughput.py pong breakout --envs 32 --seconds 2
"""

from __future__ import annotations

import argparse
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

import jsgym
from jsgym._core import engine_name

from common import cpu_busy_fraction, proc_stat, rss_bytes  # bench/common.py

RESULTS = pathlib.Path(__file__).resolve().parent / "results"


def steps_per_second(game, *, num_envs, num_threads, seconds, windows, obs_size, frameskip):
    envs = jsgym.make_vec(game, num_envs, num_threads=num_threads, copy=False,
                          obs_size=obs_size, frameskip=frameskip, seed=0)
    envs.reset()
    n_actions = envs.single_action_space.n
    actions = np.random.default_rng(0).integers(0, n_actions, size=(4096, num_envs))
    rates = []

    def window(duration):
        steps = 0
        start = time.perf_counter()
        while True:
            for k in range(64):
                envs.step(actions[(steps + k) % 4096])
            steps += 64
            elapsed = time.perf_counter() - start
            if elapsed >= duration:
                return steps * num_envs / elapsed

    window(min(0.5, seconds))  # warm-up
    for _ in range(windows):
        rates.append(window(seconds))
    envs.close()
    return statistics.median(rates), min(rates), max(rates)


def memory_and_creation(game, *, num_envs, obs_size):
    """RSS growth per env and creation time per env, measured in a fresh interpreter
    (RSS never shrinks after earlier pools are freed, so an in-process delta would
    read 0 for every game after the first)."""
    code = (
        "import sys, time, numpy as np, jsgym\n"
        "sys.path.insert(0, %r)\n"
        "from common import rss_bytes\n"
        "jsgym.make_vec(%r, 1).close()  # imports, caches and the prelude bytecode\n"
        "base = rss_bytes(); t = time.perf_counter()\n"
        "envs = jsgym.make_vec(%r, %d, num_threads=1, obs_size=%d)\n"
        "created = time.perf_counter() - t\n"
        "envs.reset(seed=0)\n"
        "for _ in range(20): envs.step(np.zeros(%d, dtype=np.int64))\n"
        "print((rss_bytes() - base) / %d, created / %d)\n"
    ) % (str(pathlib.Path(__file__).resolve().parent), game, game, num_envs, obs_size,
         num_envs, num_envs, num_envs)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True).stdout.split()
    return float(out[0]), float(out[1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default: every bundled game)")
    parser.add_argument("--envs", type=int, default=16, help="envs per vector env (default 16)")
    parser.add_argument("--seconds", type=float, default=1.5, help="length of a window")
    parser.add_argument("--windows", type=int, default=3, help="timed windows per figure")
    parser.add_argument("--obs-size", type=int, default=64)
    parser.add_argument("--frameskip", type=int, default=1)
    parser.add_argument("--mem-envs", type=int, default=128, help="envs for the memory figure")
    parser.add_argument("--out", type=pathlib.Path, default=RESULTS / "throughput.md")
    args = parser.parse_args(argv)
    games = args.games or jsgym.bundled_games()
    cores = sorted(os.sched_getaffinity(0))

    rows = []
    load_start = proc_stat()
    for game in games:
        os.sched_setaffinity(0, {cores[0]})
        one = steps_per_second(game, num_envs=args.envs, num_threads=1, seconds=args.seconds,
                               windows=args.windows, obs_size=args.obs_size,
                               frameskip=args.frameskip)
        os.sched_setaffinity(0, set(cores[:2]))
        two = None
        if len(cores) >= 2:
            two = steps_per_second(game, num_envs=args.envs, num_threads=2,
                                   seconds=args.seconds, windows=args.windows,
                                   obs_size=args.obs_size, frameskip=args.frameskip)
        os.sched_setaffinity(0, set(cores))
        mem, create = memory_and_creation(game, num_envs=args.mem_envs, obs_size=args.obs_size)
        rows.append((game, one, two, mem, create))
        print(f"{game}: 1 thread {one[0]:,.0f}/s, 2 threads "
              f"{two[0] if two else float('nan'):,.0f}/s, {mem / 1024:.0f} KiB/env, "
              f"{create * 1e3:.2f} ms/env", file=sys.stderr, flush=True)
    busy = cpu_busy_fraction(load_start, proc_stat())

    lines = [
        "# jsgym QuickJS backend throughput",
        "",
        f"- machine: {platform.processor() or platform.machine()}, {len(cores)} cores usable, "
        f"Python {platform.python_version()}, engine {engine_name()}",
        f"- protocol: {args.envs} envs, obs {args.obs_size}x{args.obs_size}, frameskip "
        f"{args.frameskip}, random actions, autoresets included, warm-up excluded, "
        f"median of {args.windows} windows of {args.seconds} s (min-max in brackets); "
        "figures include the Python driver (one `step()` call per vector step)",
        f"- CPU busy during the run (all cores, includes this benchmark): {busy:.0%}",
        "",
        "| game | steps/s, 1 thread (1 core) | steps/s, 2 threads | scaling | memory/env | creation/env |",
        "|---|---|---|---|---|---|",
    ]
    for game, one, two, mem, create in rows:
        two_s = f"{two[0]:,.0f} [{two[1]:,.0f}-{two[2]:,.0f}]" if two else "n/a"
        scale = f"{two[0] / one[0]:.2f}x" if two else "n/a"
        lines.append(f"| {game} | {one[0]:,.0f} [{one[1]:,.0f}-{one[2]:,.0f}] | {two_s} | {scale} "
                     f"| {mem / 1024:.0f} KiB | {create * 1e3:.2f} ms |")
    text = "\n".join(lines) + "\n"
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
