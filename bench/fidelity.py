"""Frame fidelity against real p5.js: median and worst PSNR per game at
``supersample`` 1 and 2, over seeded random-action episodes that must also agree
step for step on score, lives, state, reward and termination (the validator's L3).

    python bench/fidelity.py                       # bundled games + bench/idiomatic/
    python bench/fidelity.py pong bench/idiomatic/plain/snake.js --steps 300

Writes ``bench/results/fidelity.md`` (and ``.csv``) unless ``--no-write``. The
thresholds the validator gates on (jsgym/validate.py) are printed beside the table.
PSNR does not depend on the machine's load, so this can run beside other work.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

from common import RESULTS, ROOT, log, machine_lines, md_table, write_csv  # noqa: E402


def corpus() -> list[str]:
    from jsgym.games import bundled_games

    games = sorted(bundled_games())
    idiomatic = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "bench" / "idiomatic").rglob("*.js"))
    return games + idiomatic


def measure(game: str, supersample: int, episodes: int, steps: int) -> dict:
    from jsgym.validate import CheckFailed, check_l3_rollouts

    path = str(ROOT / game) if game.endswith(".js") else game
    try:
        d = check_l3_rollouts(path, episodes=episodes, max_steps=steps, psnr_median_min=0,
                              psnr_worst_min=0, supersample=supersample)
        state = "identical"
    except CheckFailed as exc:
        d = getattr(exc, "details", {})
        state = str(exc)
    region = d.get("region") or {}
    return {"game": game, "supersample": supersample, "l3": state,
            "steps": d.get("steps", 0), "median": d.get("psnr_median", float("nan")),
            "worst": d.get("psnr_worst", float("nan")),
            "region": region.get("canvas"), "calls": (region.get("calls") or [""])[0]}


def main(argv=None) -> int:
    from jsgym.validate import PSNR_MEDIAN_MIN, PSNR_MEDIAN_WARN, PSNR_WORST_MIN

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", help="bundled names or .js paths (default: all)")
    ap.add_argument("--episodes", type=int, default=2)
    ap.add_argument("--steps", type=int, default=200, help="steps per episode at most")
    ap.add_argument("--supersample", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    games = args.games or corpus()
    rows = []
    for g in games:
        for ss in args.supersample:
            r = measure(g, ss, args.episodes, args.steps)
            log(f"{g} ss={ss}: median {r['median']:.1f} dB, worst {r['worst']:.1f} dB, L3 {r['l3']}")
            rows.append(r)
    header = ["game", "L3"] + [f"median ss={s}" for s in args.supersample] + \
             [f"worst ss={s}" for s in args.supersample] + ["differs most (ss=1): region, topmost call"]
    table = []
    for g in games:
        rs = {r["supersample"]: r for r in rows if r["game"] == g}
        first = rs[args.supersample[0]]
        where = ""
        if first["region"]:
            x0, y0, x1, y1 = first["region"]
            where = f"canvas {x0:.0f}-{x1:.0f} x {y0:.0f}-{y1:.0f}: `{first['calls']}`"
        table.append([g, "identical" if all(r["l3"] == "identical" for r in rs.values()) else "DIFFERS"]
                     + [f"{rs[s]['median']:.1f}" for s in args.supersample]
                     + [f"{rs[s]['worst']:.1f}" for s in args.supersample] + [where])
    lines = ["# Frame fidelity against real p5.js (PSNR, dB)", "",
             f"`python bench/fidelity.py --episodes {args.episodes} --steps {args.steps}`: "
             f"{args.episodes} seeded random-action episodes per game (at most {args.steps} "
             "steps), every step's frame compared; L3 = score, lives, state, reward and "
             "termination identical at every step.", "",
             f"Validator thresholds: fail below a median of {PSNR_MEDIAN_MIN:g} dB or a worst "
             f"frame of {PSNR_WORST_MIN:g} dB, warn below a median of {PSNR_MEDIAN_WARN:g} dB.", ""]
    lines += md_table(header, table) + [""] + machine_lines()
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        (RESULTS / "fidelity.md").write_text(text, encoding="utf-8")
        write_csv(RESULTS / "fidelity.csv", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
