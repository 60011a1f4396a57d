"""Clones vs originals: env-only steps/s on one pinned core, each jsgym clone next to
the game it clones (ALE for Atari, EnvPool's ProcGen for ProcGen), with per-game
ratios, the geometric mean per suite and how many clones beat their original.
Writes bench/results/compare.md, compare.csv and compare.png (a bar chart of the
ratios).

What is measured, per game, all on one core (os.sched_setaffinity), one thread:
  jsgym 1 env       make_vec(game, 1, num_threads=1), one step() call per env step
  jsgym B envs      make_vec(game, B, num_threads=1), B env steps per step() call
  Atari originals   ALE 1 env: gymnasium.make("ALE/<Name>-v5", frameskip=1,
                    repeat_action_probability=0, obs_type="rgb"), one emulated frame
                    per step (the paper's per-emulated-frame protocol), RGB 210x160;
                    ALE B envs: ale_py's AtariVectorEnv(B envs, 1 thread) in the same
                    protocol (no resize, no frame stack, no sticky actions);
                    ALE v5 default (frameskip 4, sticky actions 0.25), 1 env, agent
                    steps/s, for context only (one step = 4 emulated frames).
  ProcGen originals EnvPool "<Name>Hard-v0" (or Easy, --mode), 64x64 RGB, 1 env and
                    B envs batched, 1 thread; jsgym's clone gets the same
                    distribution_mode through game_options.
Every figure is stepped from Python, so each includes the Python driver: about
10 us per step() call for jsgym and 25 us for EnvPool, which dominates the 1-env
figures; the B-env figures spread it over B env steps. Ratios: "1:1" = 1 env vs
1 env, "B:B" = batched vs batched (the fair env-only comparison), "paper" =
jsgym batched vs the original's 1 env (the paper steps its envs from C and the
originals from Python).

Protocol: random actions drawn before the timed windows, resets inside them (EnvPool,
AtariVectorEnv and jsgym reset themselves on the next step; the ALE 1-env loop calls
reset()), a warm-up excluded, then several timed windows: median and min-max. The
CPU kept busy by other processes is recorded during each window (/proc/stat): other
load moved earlier figures on this kind of machine by up to 60%, so run on an idle
machine and read the "other load" column.

Time at defaults (24 games, 5 windows of 1 s, 0.5 s warm-up): about 10 minutes with
both baselines installed; --quick (0.3 s windows, 2 of them) about 3 minutes.
Baselines are optional: pip install -e .[bench]; EnvPool's procgen also needs the
system Qt5 GUI library (Debian: libqt5gui5). Missing ones are reported and left n/a.

    python bench/compare.py                          # full table, ~10 min
    python bench/compare.py --quick pong bigfish     # smoke run
    python bench/compare.py --suite procgen --mode easy --windows 3
"""

from __future__ import annotations

import argparse
import gc
import math
import pathlib
import sys
import tempfile

import numpy as np

import jsgym

import common
from common import (ATARI, PROCGEN, Measurement, fmt_rate, fmt_ratio, geomean, log,
                    pinned, rss_bytes)

ACTION_ROWS = 4096  # pre-drawn random actions, cycled

# The configurations: key -> column label ({b}: the batch size).
CONFIGS = {
    "jsgym_1": "jsgym 1 env",
    "jsgym_b": "jsgym {b} envs",
    "ale_1": "ALE 1 env, frameskip 1",
    "ale_b": "ALE {b} envs, frameskip 1",
    "ale_v5": "ALE v5 default, frameskip 4 (agent steps/s)",
    "envpool_1": "EnvPool 1 env",
    "envpool_b": "EnvPool {b} envs",
}
SUITE_CONFIGS = {
    "atari": ("jsgym_1", "jsgym_b", "ale_1", "ale_b", "ale_v5"),
    "procgen": ("jsgym_1", "jsgym_b", "envpool_1", "envpool_b"),
}
# ratio name -> (numerator, denominator) per suite
RATIOS = {
    "atari": {"1:1": ("jsgym_1", "ale_1"), "B:B": ("jsgym_b", "ale_b"),
              "paper": ("jsgym_b", "ale_1")},
    "procgen": {"1:1": ("jsgym_1", "envpool_1"), "B:B": ("jsgym_b", "envpool_b"),
                "paper": ("jsgym_b", "envpool_1")},
}
TARGETS = {"atari": 15.0, "procgen": 3.0}


# -- env factories: each returns (step(i), env steps per call, close()) ------------------

def make_jsgym(game, n, mode, seed=0):
    envs = jsgym.make_vec(game, n, num_threads=1, seed=seed,
                          game_options=common.jsgym_options(game, mode))
    envs.reset()
    acts = np.random.default_rng(seed).integers(0, envs.single_action_space.n,
                                                size=(ACTION_ROWS, n))

    def step(i):
        envs.step(acts[i % ACTION_ROWS])
    return step, n, envs.close


def make_ale(game, frameskip, seed=0):
    import ale_py
    import gymnasium as gym
    gym.register_envs(ale_py)
    kw = {"frameskip": 1, "repeat_action_probability": 0.0} if frameskip == 1 else {}
    env = gym.make(f"ALE/{ATARI[game]}-v5", obs_type="rgb", disable_env_checker=True, **kw)
    env.reset(seed=seed)
    acts = np.random.default_rng(seed).integers(0, env.action_space.n, ACTION_ROWS).tolist()

    def step(i):
        _, _, term, trunc, _ = env.step(acts[i % ACTION_ROWS])
        if term or trunc:
            env.reset()
    return step, 1, env.close


def make_ale_vec(game, n, seed=0):
    from ale_py.vector_env import AtariVectorEnv
    # One emulated frame per step, native RGB, none of the Atari preprocessing; ALE's
    # ROM ids are the clones' names.
    env = AtariVectorEnv(game, n, num_threads=1, frameskip=1,
                         repeat_action_probability=0.0, img_height=210, img_width=160,
                         grayscale=False, stack_num=1, maxpool=False, noop_max=0,
                         episodic_life=False, reward_clipping=False, use_fire_reset=False)
    env.reset(seed=seed)
    acts = np.random.default_rng(seed).integers(0, env.single_action_space.n,
                                                size=(ACTION_ROWS, n))

    def step(i):
        env.step(acts[i % ACTION_ROWS])
    return step, n, env.close


def make_envpool(game, n, mode, seed=0):
    import envpool
    env = envpool.make_gymnasium(common.envpool_task(game, mode), num_envs=n, batch_size=n,
                                 num_threads=1, seed=seed)
    env.reset()
    acts = np.random.default_rng(seed).integers(0, env.action_space.n,
                                                size=(ACTION_ROWS, n)).astype(np.int32)

    def step(i):
        env.step(acts[i % ACTION_ROWS])
    return step, n, env.close


def factory(key, game, args):
    b, mode = args.batch, args.mode
    return {
        "jsgym_1": lambda: make_jsgym(game, 1, mode),
        "jsgym_b": lambda: make_jsgym(game, b, mode),
        "ale_1": lambda: make_ale(game, 1),
        "ale_b": lambda: make_ale_vec(game, b),
        "ale_v5": lambda: make_ale(game, 4),
        "envpool_1": lambda: make_envpool(game, 1, mode),
        "envpool_b": lambda: make_envpool(game, b, mode),
    }[key]


def measure(make, args) -> Measurement | str:
    """Builds an env on the pinned core and times it; a failure returns its reason."""
    gc.collect()
    with pinned([args.core]):
        base = rss_bytes()
        try:
            step, per_call, close = make()
        except Exception as e:  # a missing baseline or system library: reported, n/a
            return common.reason(e)
        try:
            m = common.timed_windows(step, env_steps_per_call=per_call, seconds=args.seconds,
                                     windows=args.windows, warmup=args.warmup)
            m.rss_growth = rss_bytes() - base
        finally:
            close()
    return m


def jsgym_call_floor(args) -> Measurement:
    """Steps/s of a game whose draw() only paints the background: the cost of one
    1-env step() call from Python (driver, pool round trip, one tiny frame)."""
    src = ("function setup() { createCanvas(64, 64); }\n"
           "function resetGame(seed) {}\n"
           "function draw() { background(0); }\n"
           "function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }\n"
           "function mulberry32(a) { return function () { return 0; }; }\n")
    with tempfile.TemporaryDirectory() as d:
        path = pathlib.Path(d) / "empty.js"
        path.write_text(src)
        return measure(lambda: make_jsgym(str(path), 1, "hard"), args)


# -- report ----------------------------------------------------------------------------

def ratio(results, game, num, den):
    a, b = results.get((game, num)), results.get((game, den))
    if isinstance(a, Measurement) and isinstance(b, Measurement) and b.median > 0:
        return a.median / b.median
    return None


def write_report(results, games, args, availability, floor, out_dir: pathlib.Path):
    b = args.batch
    label = {k: v.format(b=b) for k, v in CONFIGS.items()}
    lines = [
        "# jsgym clones vs their originals: env steps/s on one core",
        "",
        *common.machine_lines(),
        f"- protocol: one pinned core (CPU {args.core}), one thread, random actions, resets "
        f"inside the timed windows, {args.warmup} s warm-up excluded, median of "
        f"{args.windows} windows of {args.seconds} s, [min-max]; jsgym obs 64x64 RGB "
        f"(copied, the default), frameskip 1; ProcGen distribution_mode '{args.mode}' on "
        "both sides; ALE observations RGB 210x160",
        "- every figure is driven from Python and includes its driver (about 10 us per "
        "jsgym step() call, 25 us per EnvPool step()): it dominates the 1-env columns; "
        f"the {b}-env columns spread it over {b} env steps",
    ]
    if isinstance(floor, Measurement):
        lines.append(f"- jsgym 1-env step() floor (a game that only paints its background): "
                     f"{fmt_rate(floor.median)} steps/s = {1e6 / floor.median:.1f} us per call")
    for name, reason in availability.items():
        if reason:
            lines.append(f"- **{name} missing** ({reason}): its columns are n/a; "
                         f"install with `{common.BASELINE_INSTALL}`")
    failures = sorted({(k, v) for (g, k), v in results.items() if isinstance(v, str)})
    for key, reason in failures:
        lines.append(f"- {label[key]} failed: {reason}")
    lines.append(common.load_line([v for v in results.values() if isinstance(v, Measurement)]))
    lines.append("")

    summary = []
    for suite in ("atari", "procgen"):
        sgames = [g for g in games if common.suite_of(g) == suite]
        if not sgames:
            continue
        keys = SUITE_CONFIGS[suite]
        title = ("Atari (per emulated frame: ALE frameskip 1)" if suite == "atari"
                 else f"ProcGen ({args.mode} mode, EnvPool)")
        lines += [f"## {title}", ""]
        header = (["game"] + [label[k] for k in keys] + [f"ratio {r}" for r in RATIOS[suite]]
                  + ["other load, max (cores: own core / machine)"])
        rows = []
        for g in sgames:
            cells = [g]
            for k in keys:
                v = results.get((g, k))
                cells.append(v.cell() if isinstance(v, Measurement) else "n/a")
            for num, den in RATIOS[suite].values():
                cells.append(fmt_ratio(ratio(results, g, num, den)))
            ms = [results[(g, k)] for k in keys if isinstance(results.get((g, k)), Measurement)]
            cells.append(f"{max(m.near_max for m in ms):.2f} / {max(m.other_max for m in ms):.2f}"
                         if ms else "n/a")
            rows.append(cells)
        lines += common.md_table(header, rows) + [""]
        for rname, (num, den) in RATIOS[suite].items():
            rs = [ratio(results, g, num, den) for g in sgames]
            have = [r for r in rs if r is not None]
            summary.append([suite, f"{rname} ({label[num]} / {label[den]})",
                            fmt_ratio(geomean(have)),
                            f"{sum(r > 1 for r in have)} of {len(have)}" if have else "n/a",
                            f">= {TARGETS[suite]:g}x" if rname == "B:B" else ""])
    lines += ["## Summary: geometric mean of the per-game ratios", ""]
    lines += common.md_table(["suite", "ratio", "geometric mean", "clones faster", "target"],
                             summary)
    lines += ["", "The paper reports per core 12.62x ALE (per emulated frame) and 2.185x "
              "ProcGen (14 of 16 clones faster), jsgym-like envs stepped from C against the "
              "originals stepped from Python: the 'paper' rows are the closest figure here. "
              "The B:B rows compare batched with batched, driver amortised on both sides.", ""]
    text = "\n".join(lines)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "compare.md").write_text(text)

    csv_rows = []
    for (g, k), v in results.items():
        row = {"game": g, "suite": common.suite_of(g), "config": k, "label": label[k],
               "envs": b if k.endswith("_b") else 1,
               "mode": args.mode if g in PROCGEN else "", "core": args.core}
        if isinstance(v, Measurement):
            row.update(common.measurement_fields(v))
        else:
            row["error"] = v
        csv_rows.append(row)
    common.write_csv(out_dir / "compare.csv", csv_rows)
    plotted = plot(results, games, out_dir / "compare.png", b)
    return text, plotted


def plot(results, games, path: pathlib.Path, b) -> str | None:
    """Bar chart of the per-game ratios (log scale); returns why it was skipped."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError as e:
        return f"matplotlib missing ({e}); no chart"
    suites = [s for s in ("atari", "procgen") if any(common.suite_of(g) == s for g in games)]
    fig, axes = plt.subplots(1, len(suites), figsize=(6 + 5 * len(suites), 4.5), squeeze=False)
    for ax, suite in zip(axes[0], suites):
        sgames = [g for g in games if common.suite_of(g) == suite]
        x = np.arange(len(sgames))
        width = 0.8 / len(RATIOS[suite])
        for j, (rname, (num, den)) in enumerate(RATIOS[suite].items()):
            vals = [ratio(results, g, num, den) or math.nan for g in sgames]
            ax.bar(x + (j - (len(RATIOS[suite]) - 1) / 2) * width, vals, width,
                   label=rname.replace("B", str(b)))
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.axhline(TARGETS[suite], color="red", linewidth=0.8, linestyle="--",
                   label=f"target {TARGETS[suite]:g}x")
        ax.set_yscale("log")
        ratio_fmt = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}x")
        ax.yaxis.set_major_formatter(ratio_fmt)
        ax.yaxis.set_minor_formatter(ratio_fmt)
        ax.tick_params(axis="y", which="minor", labelsize=7)
        ax.set_xticks(x, sgames, rotation=60, ha="right", fontsize=8)
        ax.set_ylabel("jsgym / original, steps/s")
        ax.set_title("Atari vs ALE (per emulated frame)" if suite == "atari"
                     else "ProcGen vs EnvPool")
        ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*",
                        help="clones to measure (default: the 8 Atari and 16 ProcGen clones)")
    parser.add_argument("--suite", choices=("all", "atari", "procgen"), default="all",
                        help="only this suite (all)")
    parser.add_argument("--mode", choices=("hard", "easy"), default="hard",
                        help="ProcGen distribution_mode for both sides (default hard)")
    parser.add_argument("--batch", type=int, default=16, help="envs of the batched figures (16)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of a window (1.0)")
    parser.add_argument("--windows", type=int, default=5, help="timed windows per figure (5)")
    parser.add_argument("--warmup", type=float, default=0.5, help="warm-up seconds (0.5)")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: 2 windows of 0.3 s, 0.1 s warm-up")
    parser.add_argument("--core", type=int, default=None,
                        help="CPU to pin to (default: the first usable one)")
    parser.add_argument("--no-baselines", action="store_true", help="jsgym columns only")
    parser.add_argument("--out-dir", type=pathlib.Path, default=common.RESULTS,
                        help="where the results go (bench/results)")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.windows, args.warmup = 0.3, 2, 0.1
    args.core = common.usable_cores()[0] if args.core is None else args.core
    if args.core not in common.usable_cores():
        parser.error(f"--core {args.core} is not usable here ({common.usable_cores()})")
    games = args.games or [*ATARI, *PROCGEN]
    unknown = [g for g in games if common.suite_of(g) is None]
    if unknown:
        parser.error(f"not a clone with an original: {unknown} (clones: {[*ATARI, *PROCGEN]})")
    if args.suite != "all":
        games = [g for g in games if common.suite_of(g) == args.suite]

    availability = {}
    skipped = set()
    if args.no_baselines:
        skipped = {"ale_1", "ale_b", "ale_v5", "envpool_1", "envpool_b"}
    else:
        for name, keys in (("ale-py", {"ale_1", "ale_b", "ale_v5"}),
                           ("envpool", {"envpool_1", "envpool_b"})):
            _, reason = common.optional(name.replace("-", "_"))
            availability[name] = reason
            if reason:
                skipped |= keys
                log(f"{name} missing ({reason}): its columns will be n/a; install the "
                    f"baselines with `{common.BASELINE_INSTALL}`")

    results = {}
    floor = jsgym_call_floor(args)
    for g in games:
        for key in SUITE_CONFIGS[common.suite_of(g)]:
            if key in skipped:
                continue
            m = measure(factory(key, g, args), args)
            results[(g, key)] = m
            label = CONFIGS[key].format(b=args.batch)
            if isinstance(m, Measurement):
                log(f"{g:15s} {label:45s} {m.cell():28s} other load {m.load_cell()} cores "
                    "(own core / machine)")
            else:
                log(f"{g:15s} {label:45s} failed: {m}")
    text, plot_note = write_report(results, games, args, availability, floor, args.out_dir)
    print(text)
    if plot_note:
        log(plot_note)
    log(f"wrote {args.out_dir / 'compare.md'}, compare.csv"
        + ("" if plot_note else ", compare.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
