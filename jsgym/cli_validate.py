"""``jsgym validate GAME... [--browser] [--episodes N] [--report DIR]``: runs the
checks of :mod:`jsgym.validate`; exits non-zero when any check fails (for CI)."""

from __future__ import annotations

import sys

from jsgym.validate import PSNR_MEDIAN_MIN, PSNR_MEDIAN_WARN, PSNR_WORST_MIN


def _cmd_validate(args) -> int:
    from jsgym.validate import validate
    from jsgym.validate_report import summary_row, write_report

    rows = []
    for game in args.games:
        print(f"== {game}", flush=True)
        report = validate(game, browser=args.browser, episodes=args.episodes,
                          max_steps=args.max_steps, l2_frames=args.l2_frames,
                          supersample=args.supersample, psnr_median_min=args.psnr_min,
                          psnr_median_warn=args.psnr_warn,
                          progress=(lambda name: print(f"   {name} ...", flush=True))
                          if args.verbose else None)
        print(report.table())
        if args.report:
            path = write_report(report, args.report)
            print(f"report: {path}")
        warned = [r for r in report.results if r.warning]
        for r in warned:
            print(f"warning: {r.name}: {r.warning}")
        verdict = ("PASS with warnings" if warned else "PASS") if report.passed else "FAIL"
        print(f"{report.game}: {verdict}", flush=True)
        rows.append(summary_row(report))
    if len(rows) > 1 or args.report:
        table = summary_table(rows)
        print("\n" + table)
        if args.report:
            print(f"summary: {write_summary(args.report, rows)}")
    return 0 if all(r["passed"] for r in rows) else 1


def summary_table(rows: list[dict]) -> str:
    """Markdown table of several games' results."""
    lines = ["| game | result | L2 calls | L3 states | steps | PSNR median | PSNR worst | failed checks |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        med = f"{r['psnr_median']:.1f}" if "psnr_median" in r else "-"
        worst = f"{r['psnr_worst']:.1f}" if "psnr_worst" in r else "-"
        l2 = r.get("l2", "-")
        l2 = l2 if l2 == "identical" or l2 == "-" else "differs"
        result = ("warn" if r.get("warning") else "pass") if r["passed"] else "FAIL"
        lines.append(f"| {r['game']} | {result} | {l2} | "
                     f"{r.get('l3', '-')} | {r.get('steps', '-')} | {med} | {worst} | "
                     f"{', '.join(r['failed']) or '-'} |")
    return "\n".join(lines)


def write_summary(directory, rows: list[dict]):
    """Writes ``DIR/summary.md``: the rows of the games in ``rows`` replace their rows in
    the table already there (other games' rows are kept, in their order) or are added
    at the end. Returns the path."""
    import pathlib

    path = pathlib.Path(directory) / "summary.md"
    new = summary_table(rows).split("\n")
    header, body = new[:2], new[2:]
    width = header[0].count("|")
    kept: dict[str, str] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").split("\n"):
            cells = line.split("|")
            if line.startswith("|") and line.count("|") == width and line not in header:
                kept[cells[1].strip()] = line
    for line in body:
        kept[line.split("|")[1].strip()] = line  # replaces in place, or adds at the end
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# jsgym validate summary\n\n" + "\n".join(header + list(kept.values())) +
                    "\n", encoding="utf-8")
    return path


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "validate", help="check a game file: contract, determinism, visuals, reward, "
                         "and (--browser) identity with real p5.js")
    p.add_argument("games", nargs="+", metavar="GAME",
                   help="bundled game name or path to a .js file (several allowed)")
    p.add_argument("--browser", action="store_true",
                   help="also compare with the browser backend (L2 call streams, L3 rollouts, "
                        "frame PSNR)")
    p.add_argument("--episodes", type=int, default=3,
                   help="seeded random-action episodes compared in L3 (default 3)")
    p.add_argument("--max-steps", type=int, default=1000,
                   help="steps per L3 episode at most (default 1000)")
    p.add_argument("--l2-frames", type=int, default=60,
                   help="frames whose p5 call streams L2 compares (default 60)")
    p.add_argument("--supersample", type=int, default=1, choices=range(1, 5), metavar="S",
                   help="QuickJS renders S x S subpixels per observation pixel (1-4, default 1)")
    p.add_argument("--psnr-min", type=float, default=PSNR_MEDIAN_MIN, metavar="DB",
                   help=f"fail when the median frame PSNR against the browser is below DB "
                        f"(default {PSNR_MEDIAN_MIN:g}; the worst frame must reach "
                        f"{PSNR_WORST_MIN:g})")
    p.add_argument("--psnr-warn", type=float, default=PSNR_MEDIAN_WARN, metavar="DB",
                   help=f"warn, naming the region that differs most, when the median is below "
                        f"DB (default {PSNR_MEDIAN_WARN:g})")
    p.add_argument("--report", metavar="DIR", default=None,
                   help="write <game>.md, <game>_montage.png, <game>_heat.png and summary.md into DIR")
    p.add_argument("-v", "--verbose", action="store_true", help="print each check as it starts")
    p.set_defaults(func=_cmd_validate)


if __name__ == "__main__":  # pragma: no cover
    from jsgym.cli import main

    sys.exit(main(["validate", *sys.argv[1:]]))
