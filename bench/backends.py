"""QuickJS backend vs browser backend (real p5.js in headless Chromium): env steps/s
on the same game files, side by side, in one run. Prints a markdown table and writes
it to bench/results/backends.md.

Protocol: the same random actions for both backends (drawn before the timed
windows), autoresets inside them, one warm-up window excluded, then several timed
windows; the median and the spread (min-max) are reported. QuickJS runs one env on
one thread and ``--envs`` envs on all threads; the browser runs one page and
``--envs`` pages (stepped concurrently). Observations 64x64, frameskip 1. The load
seen during the run is printed: run it on an otherwise idle machine.

    python bench/backends.py                       # a few bundled games
    python bench/backends.py pong breakout --envs 2 --seconds 3
"""

from __future__ import annotations

import argparse
import os
import pathlib
import platform
import statistics
import time

import numpy as np

import jsgym

RESULTS = pathlib.Path(__file__).resolve().parent / "results"
DEFAULT_GAMES = ("pong", "breakout", "space_invaders", "asteroids", "coinrun")


def proc_stat():
    with open("/proc/stat") as f:
        return [int(x) for x in f.readline().split()[1:]]


def busy(a, b) -> float:
    idle = (b[3] + b[4]) - (a[3] + a[4])
    total = sum(b) - sum(a)
    return 1.0 - idle / total if total else 0.0


def rate(game, backend, num_envs, seconds, windows) -> list[float]:
    kw = {"num_threads": num_envs} if backend == "quickjs" else {}
    envs = jsgym.make_vec(game, num_envs, backend=backend, seed=0, copy=False, **kw)
    try:
        envs.reset()
        actions = np.random.default_rng(0).integers(
            0, envs.single_action_space.n, size=(8192, num_envs))
        t = 0
        out = []
        for w in range(windows + 1):  # window 0 is the warm-up
            steps = 0
            start = time.perf_counter()
            while time.perf_counter() - start < seconds:
                envs.step(actions[t % len(actions)])
                t += 1
                steps += num_envs
            if w:
                out.append(steps / (time.perf_counter() - start))
        return out
    finally:
        envs.close()


def fmt(rates: list[float]) -> str:
    return f"{statistics.median(rates):,.0f} ({min(rates):,.0f}-{max(rates):,.0f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=list(DEFAULT_GAMES))
    parser.add_argument("--envs", type=int, default=2, help="envs / pages of the second column")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of a timed window")
    parser.add_argument("--windows", type=int, default=3, help="timed windows per figure")
    parser.add_argument("--out", default=str(RESULTS / "backends.md"))
    args = parser.parse_args()

    from jsgym._core import engine_name
    from jsgym.browser import chromium_path

    rows = []
    s0 = proc_stat()
    for game in args.games:
        q1 = rate(game, "quickjs", 1, args.seconds, args.windows)
        qn = rate(game, "quickjs", args.envs, args.seconds, args.windows)
        b1 = rate(game, "browser", 1, args.seconds, args.windows)
        bn = rate(game, "browser", args.envs, args.seconds, args.windows)
        ratio = statistics.median(q1) / statistics.median(b1)
        row = (f"| {game} | {fmt(q1)} | {fmt(qn)} | {fmt(b1)} | {fmt(bn)} | {ratio:,.0f}x |")
        print(row, flush=True)
        rows.append(row)
    load = busy(s0, proc_stat())
    header = [
        "# Backends: QuickJS vs browser (env steps/s)", "",
        f"- machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; "
        f"CPU busy during the run: {100 * load:.0f}% (other processes included)",
        f"- QuickJS backend: {engine_name()}; browser backend: {chromium_path() or 'Playwright Chromium'}"
        ", p5.js 1.11.13, headless, --disable-gpu",
        f"- {args.windows} windows of {args.seconds:g} s after a warm-up window; median "
        "(min-max); 64x64 observations, frameskip 1, random actions, autoreset", "",
        f"| game | QuickJS 1 env | QuickJS {args.envs} envs | browser 1 page | "
        f"browser {args.envs} pages | QuickJS / browser (1 env) |",
        "|---|---|---|---|---|---|",
    ]
    text = "\n".join(header + rows) + "\n"
    pathlib.Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    pathlib.Path(args.out).write_text(text)
    print("\n" + text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
