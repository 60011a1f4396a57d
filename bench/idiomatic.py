"""Speed on game code as people write it: steps/s and the split of a step for every
game of the frozen corpus in bench/idiomatic/, the idiomatic/tuned ratio where a
bundled game is the tuned version of the same game, and the engine share of a step.
Writes bench/results/idiomatic.md and idiomatic.csv.

The corpus (bench/idiomatic/README.md) is never optimised: pre_rewrite/ holds the
bundled clones as they were before their hot loops were rewritten for the
interpreter (taken from git history), plain/ games written in plain, idiomatic
p5.js. Every game is profiled exactly as bench/profile.py profiles a bundled game
(one pinned core, 16 envs on one thread, random actions, resets included; the p5
calls, p5.Vector and p5.Color methods included, recorded and replayed to split the
JavaScript time into the game's own logic and the shim), and a pre-rewrite game is
followed at once by its tuned version from jsgym/games/, so the two are measured side by
side.

- engine = everything but the game's own logic: the shim's p5 calls, rasterizing,
  copying, and the rest (the Python driver spread over the envs, the pool round
  trip); engine share = engine / wall time of a step. The target: at most 35% on
  every game, and never more engine time per step than the tuned version spends.
- idiomatic/tuned = steps/s of the pre-rewrite file over that of the tuned one.

Time at defaults (34 games, 22 tuned twins, 3 windows of 1 s each): about 8
minutes; --quick about 3 minutes.

    python bench/idiomatic.py                       # the whole corpus
    python bench/idiomatic.py --quick snake coinrun # names or parts of names
"""

from __future__ import annotations

import math
import pathlib
import sys

import common
import profile as p5profile
from common import fmt_rate, log

CORPUS = common.ROOT / "bench" / "idiomatic"
ENGINE_SHARE_TARGET = 0.35


def corpus_games(only: list[str]) -> list[tuple[str, pathlib.Path]]:
    """(kind, path) of every corpus file, pre-rewrite clones first."""
    out = []
    for kind in ("pre_rewrite", "plain"):
        for path in sorted((CORPUS / kind).glob("*.js")):
            if not only or any(w in path.stem for w in only):
                out.append((kind, path))
    return out


def engine_us(row: dict) -> float:
    return row["wall_us"] - row["logic_us"]


def main(argv=None):
    parser = common.parser_from_doc(__doc__)
    parser.add_argument("games", nargs="*", help="restrict to corpus files whose name "
                                                 "contains one of these")
    common.add_profile_options(parser)
    args = parser.parse_args(argv)
    common.finish_profile_options(parser, args)
    args.top, args.no_attribution = 4, False
    names = p5profile.p5_names()
    rows = []
    for kind, path in corpus_games(args.games):
        row = p5profile.profile_game(str(path), names, args)
        row.update(game=path.stem, kind=kind, source=f"{kind}/{path.name}")
        tuned_path = common.ROOT / "jsgym" / "games" / path.name
        if kind == "pre_rewrite" and tuned_path.exists():
            row["tuned"] = p5profile.profile_game(str(tuned_path), names, args)
        rows.append(row)
        log(f"{kind}/{path.stem:18s} {fmt_rate(row['steps_per_s']):>7s} steps/s, engine "
            f"{engine_us(row) / row['wall_us']:.0%}"
            + (f", x{row['steps_per_s'] / row['tuned']['steps_per_s']:.2f} of tuned"
               if "tuned" in row else ""))
    text = write_report(rows, args)
    print(text)
    log(f"wrote {args.out_dir / 'idiomatic.md'}, idiomatic.csv")
    return 0


def write_report(rows, args) -> str:
    measurements = [r["measurement"] for r in rows] + \
        [r["tuned"]["measurement"] for r in rows if "tuned" in r]
    ratios = [r["steps_per_s"] / r["tuned"]["steps_per_s"] for r in rows if "tuned" in r]
    shares = [engine_us(r) / r["wall_us"] for r in rows]
    over = [r["game"] for r, sh in zip(rows, shares) if sh > ENGINE_SHARE_TARGET]
    more_engine = [r["game"] for r in rows if "tuned" in r and engine_us(r) > engine_us(r["tuned"])]
    lines = [
        "# Speed on game code as people write it (bench/idiomatic/)",
        "",
        *common.machine_lines(),
        f"- protocol: bench/profile.py's, per game: one pinned core (CPU {args.core}), "
        f"{args.envs} envs on one thread, random actions, resets included, {args.warmup} s "
        f"warm-up, {args.windows} windows of {args.seconds} s; the p5 calls (p5.Vector and "
        "p5.Color methods included) recorded on sampled frames and replayed to split the "
        "JavaScript time into logic and shim; a pre-rewrite game is followed by its tuned "
        "version (jsgym/games/) in the same run",
        "- engine = shim + raster + copy + other (everything but the game's own logic); "
        f"target: engine share <= {ENGINE_SHARE_TARGET:.0%} on every game, and no more "
        "engine time per step than the tuned version",
        common.load_line(measurements),
        "",
        "## Summary",
        "",
        f"- idiomatic/tuned steps/s, geometric mean over {len(ratios)} pre-rewrite clones: "
        f"**{common.geomean(ratios):.2f}x**" if ratios else "- no pre-rewrite clones in this run",
        f"- engine share: median {sorted(shares)[len(shares) // 2]:.0%}, max {max(shares):.0%} "
        f"({rows[shares.index(max(shares))]['game']}); above {ENGINE_SHARE_TARGET:.0%}: "
        f"{', '.join(over) or 'none'}",
        "- games whose engine time per step exceeds the tuned version's: "
        f"{', '.join(more_engine) or 'none'}" if ratios else "",
        "",
        "## Per game (us per env step, share of the step)",
        "",
    ]
    header = ["game", "source", "steps/s", "us/step", "logic", "shim", "raster", "copy", "other",
              "engine share", "tuned steps/s", "idiomatic/tuned", "engine us: idiomatic / tuned",
              "top p5 calls per step"]
    table, csv_rows = [], []
    for r, share in zip(rows, shares):
        t = r.get("tuned")
        table.append([
            r["game"], r["source"], fmt_rate(r["steps_per_s"]), f"{r['wall_us']:.1f}",
            *(p5profile.pct(r, p) for p in p5profile.PARTS),
            f"**{share:.0%}**" if share > ENGINE_SHARE_TARGET else f"{share:.0%}",
            fmt_rate(t["steps_per_s"]) if t else "-",
            f"{r['steps_per_s'] / t['steps_per_s']:.2f}x" if t else "-",
            f"{engine_us(r):.1f} / {engine_us(t):.1f}" if t else f"{engine_us(r):.1f} / -",
            r["top"]])
        row = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items()
               if k not in ("measurement", "tuned")}
        row["engine_us"] = round(engine_us(r), 3)
        row["engine_share"] = round(share, 4)
        if t:
            row.update(tuned_steps_per_s=round(t["steps_per_s"], 1),
                       tuned_engine_us=round(engine_us(t), 3),
                       idiomatic_over_tuned=round(r["steps_per_s"] / t["steps_per_s"], 4))
        row.update({f"timed_{k}": v for k, v in common.measurement_fields(r["measurement"]).items()})
        csv_rows.append(row)
    lines += common.md_table(header, table) + [""]
    text = "\n".join(line for line in lines if line is not None)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / "idiomatic.md").write_text(text)
    common.write_csv(args.out_dir / "idiomatic.csv", csv_rows)
    return text


if __name__ == "__main__":
    sys.exit(main())
