"""What a reset costs per game: level generation plus the first frame, against a step.

For each game, one env on one thread: the median wall time of ``reset(seed=k)`` over
``--resets`` level seeds (each a different level for the ProcGen clones) and the median
wall time of a random-action step, both timed from Python (so both include the same
call overhead), and their ratio in step-equivalents. This is `jsgym validate`'s
per-step-cost check (``jsgym.validate.check_cost``) run over the suite.
Writes bench/results/reset_cost.md.

    python bench/reset_cost.py                 # every bundled game
    python bench/reset_cost.py heist coinrun   # some
"""

from __future__ import annotations

import argparse
import os
import sys

from common import PROCGEN, RESULTS, log, machine_lines, md_table

import jsgym
from jsgym.validate import check_cost


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help="games (default: every bundled game)")
    ap.add_argument("--resets", type=int, default=100, help="level seeds timed per game")
    ap.add_argument("--steps", type=int, default=600, help="random steps timed per game")
    ap.add_argument("--mode", default="easy", choices=("easy", "hard"),
                    help="ProcGen distribution_mode")
    ap.add_argument("--out", default=str(RESULTS / "reset_cost.md"))
    args = ap.parse_args(argv)
    games = args.games or jsgym.bundled_games()
    rows = []
    for g in games:
        opts = {"distribution_mode": args.mode} if g in PROCGEN else None
        log(f"{g} ...")
        c = check_cost(g, steps=args.steps, resets=args.resets, game_options=opts)
        rows.append([g, f"{c['step_us']:.0f}", f"{c['reset_us']:.0f}",
                     f"{c['reset_worst_us']:.0f}", f"{c['reset_steps']:.1f}"])
    lines = ["# Reset cost per game", ""]
    lines += machine_lines()
    lines += [f"- load average at the end (1/5/15 min, other processes included): "
              + " / ".join(f"{x:.1f}" for x in os.getloadavg())
              + "; the worst-case column picks up preemptions under load"]
    lines += [f"- one env, one thread, frameskip 1; ProcGen clones in {args.mode} mode; "
              f"median over {args.resets} level seeds and {args.steps} random steps; "
              "times from Python (both include the same call overhead)", ""]
    lines += md_table(["game", "step (us)", "reset median (us)", "reset worst (us)",
                       "reset / step"], rows)
    text = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
