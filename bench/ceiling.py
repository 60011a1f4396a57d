"""How far host-side work can take each clone: the ratio to its original if everything
outside the JavaScript interpreter cost nothing.

Reads the per-step split of bench/results/profile.csv (bench/profile.py: 16 envs on
one thread) and the originals' rates of bench/results/compare.csv (bench/compare.py),
and writes bench/results/ceiling.md. For each clone it gives the measured ratio and
two upper bounds on it:

- "JS only": rasterization, copying and the Python driver take no time, and a step
  costs what the interpreter spends (game logic + p5 calls);
- "logic only": the p5 calls cost nothing either (the shim's native code, argument
  conversion and the interpreter's call overhead included), and a step costs the game
  logic alone.

Both bounds use the same denominator as the measured ratio (the original's rate in
the same row of compare.md), so a bound below a target says no work on the
rasterizer, the shim, the driver or the scheduling can reach the target with these
game files on this interpreter; only cheaper game logic (or a faster engine) can.
Run it after both scripts; it measures nothing itself.

    python bench/ceiling.py
    python bench/ceiling.py --profile other/profile.csv --compare other/compare.csv
"""

from __future__ import annotations

import argparse
import csv
import pathlib
import sys

from common import fmt_ratio, geomean, md_table

RESULTS = pathlib.Path(__file__).resolve().parent / "results"

# (suite, jsgym config, original config, ratio name, target) as compare.md names them.
ROWS = [
    ("atari", "jsgym_b", "ale_b", "B:B (jsgym 16 envs / ALE 16 envs, frameskip 1)", 15.0),
    ("atari", "jsgym_b", "ale_1", "paper (jsgym 16 envs / ALE 1 env, frameskip 1)", None),
    ("procgen", "jsgym_b", "envpool_b", "B:B (jsgym 16 envs / EnvPool 16 envs)", 3.0),
    ("procgen", "jsgym_b", "envpool_1", "paper (jsgym 16 envs / EnvPool 1 env)", None),
]


def read_csv(path: pathlib.Path) -> list[dict]:
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except FileNotFoundError:
        sys.exit(f"ceiling.py: {path} is missing; run bench/{path.stem}.py first")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", type=pathlib.Path, default=RESULTS / "profile.csv",
                    help="bench/profile.py's CSV (default %(default)s)")
    ap.add_argument("--compare", type=pathlib.Path, default=RESULTS / "compare.csv",
                    help="bench/compare.py's CSV (default %(default)s)")
    ap.add_argument("--out", type=pathlib.Path, default=RESULTS / "ceiling.md",
                    help="where to write the table (default %(default)s)")
    args = ap.parse_args(argv)

    profile = {r["game"]: r for r in read_csv(args.profile)}
    rates: dict[tuple[str, str], float] = {}
    suite_of: dict[str, str] = {}
    for r in read_csv(args.compare):
        rates[(r["game"], r["config"])] = float(r["steps_per_s_median"])
        suite_of[r["game"]] = r["suite"]

    lines = ["# The interpreter's ceiling: each clone's ratio if only JavaScript cost time", "",
             f"- inputs: `{args.profile.name}` (bench/profile.py) and `{args.compare.name}` "
             "(bench/compare.py); see their .md files for the machine, build and load",
             "- measured: the ratio in compare.md; JS only: 1 / (logic + shim) per env step, "
             "as if rasterization, copying and the Python driver were free; logic only: "
             "1 / logic, as if the p5 calls were free too; all over the same original rate",
             ""]
    summary = []
    for suite, ours, theirs, name, target in ROWS:
        games = [g for g in profile if suite_of.get(g) == suite
                 and (g, ours) in rates and (g, theirs) in rates]
        if not games:
            continue
        table = []
        measured, js_bound, logic_bound = [], [], []
        for g in games:
            p = profile[g]
            logic, shim = float(p["logic_us"]), float(p["shim_us"])
            orig = rates[(g, theirs)]
            m = rates[(g, ours)] / orig
            j = 1e6 / (logic + shim) / orig
            lo = 1e6 / logic / orig
            measured.append(m), js_bound.append(j), logic_bound.append(lo)
            table.append([g, f"{logic:.1f}", f"{shim:.1f}", f"{float(p['wall_us']):.1f}",
                          fmt_ratio(m), fmt_ratio(j), fmt_ratio(lo)])
        lines += [f"## {suite}: {name}", ""]
        lines += md_table(["game", "logic us/step", "shim us/step", "wall us/step (profile)",
                           "measured", "JS only", "logic only"], table)
        gm = [geomean(v) for v in (measured, js_bound, logic_bound)]
        lines += ["", f"Geometric mean: measured {fmt_ratio(gm[0])}, JS only {fmt_ratio(gm[1])}, "
                  f"logic only {fmt_ratio(gm[2])}"
                  + (f"; target {target:g}x" if target else "") + ".", ""]
        summary.append([suite, name, fmt_ratio(gm[0]), fmt_ratio(gm[1]), fmt_ratio(gm[2]),
                        f">= {target:g}x" if target else "",
                        f"{sum(v > 1 for v in js_bound)} of {len(games)}"])
    lines += ["## Summary", ""]
    lines += md_table(["suite", "ratio", "measured", "JS only (bound)", "logic only (bound)",
                       "target", "clones whose JS-only bound beats the original"], summary)
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"\nwrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
