"""Thread scaling: env steps/s with 1, 2, ... worker threads (up to the usable cores)
for jsgym and for EnvPool on the same games, with the speed-up and the scaling
efficiency (speed-up / threads; 100% is linear). Writes bench/results/scaling.md and
scaling.csv.

Per game and thread count t, the process is pinned to t cores (os.sched_setaffinity
before the env, hence its threads, is created) and steps one vector of --envs envs
(16) with t threads, synchronously (every step() steps all envs):
  jsgym    make_vec(game, envs, num_threads=t); ProcGen clones get the same
           distribution_mode as EnvPool (--mode, hard by default)
  EnvPool  make_gymnasium(task, num_envs=envs, batch_size=envs, num_threads=t):
           ProcGen "<Name>Hard-v0"; Atari "<Name>-v5" in the ALE protocol of
           compare.py (one emulated frame per step, RGB 210x160, no sticky actions,
           no frame stack), or with EnvPool's own defaults (frameskip 4, 84x84 grey,
           4-frame stack) with --envpool-atari default
With --async both also run asynchronously: half of the envs per step, double
buffered (jsgym send/recv with env_ids; EnvPool batch_size = envs / 2).

Protocol: random actions, resets inside the timed windows, a warm-up excluded, the
median of several windows and their min-max, the load of other processes recorded
per window (/proc/stat). Figures are driven from Python (one step() call per batch).
The paper times 12 s windows: --seconds 12 --windows 1.

Time at defaults (24 games, 2 implementations, threads 1 and 2 on a 2-core machine,
3 windows of 1 s): about 6 minutes; each further thread count adds about 3 minutes,
--async doubles it; --quick (2 windows of 0.3 s) about 2 minutes.

    python bench/scaling.py                                  # full table
    python bench/scaling.py --quick pong bigfish             # smoke run
    python bench/scaling.py --envs 64 --async --threads 1 2
"""

from __future__ import annotations

import argparse
import gc
import pathlib
import sys

import numpy as np

import jsgym

import common
from common import ATARI, PROCGEN, Measurement, geomean, log, pinned

ACTION_ROWS = 4096
IMPLS = ("jsgym", "envpool")


def make_jsgym(game, n, threads, mode, asynchronous, seed=0):
    envs = jsgym.make_vec(game, n, num_threads=threads, seed=seed,
                          game_options=common.jsgym_options(game, mode))
    envs.reset()
    acts = np.random.default_rng(seed).integers(0, envs.single_action_space.n,
                                                size=(ACTION_ROWS, n))
    if not asynchronous:
        def step(i):
            envs.step(acts[i % ACTION_ROWS])
        return step, n, envs.close
    half = n // 2
    envs.send(acts[0, :half], np.arange(half))
    envs.send(acts[0, half:2 * half], np.arange(half, 2 * half))

    def step_async(i):
        *_, infos = envs.recv()
        envs.send(acts[i % ACTION_ROWS, :half], infos["env_id"])

    def close():
        for _ in range(2):  # the sends still in flight
            envs.recv()
        envs.close()
    return step_async, half, close


def make_envpool(game, n, threads, mode, asynchronous, atari_config, seed=0):
    import envpool
    kw = dict(common.ENVPOOL_ATARI_FRAME) if game in ATARI and atari_config == "frame" else {}
    batch = n // 2 if asynchronous else n
    env = envpool.make_gymnasium(common.envpool_task(game, mode), num_envs=n,
                                 batch_size=batch, num_threads=threads, seed=seed, **kw)
    acts = np.random.default_rng(seed).integers(0, env.action_space.n,
                                                size=(ACTION_ROWS, n)).astype(np.int32)
    if not asynchronous:
        env.reset()

        def step(i):
            env.step(acts[i % ACTION_ROWS])
        return step, n, env.close
    env.async_reset()

    def step_async(i):
        *_, info = env.recv()
        env.send(acts[i % ACTION_ROWS, :batch], info["env_id"])
    return step_async, batch, env.close


def measure(impl, game, threads, asynchronous, args) -> Measurement | str:
    gc.collect()
    cores = common.usable_cores()[:threads]
    with pinned(cores):
        try:
            if impl == "jsgym":
                step, per_call, close = make_jsgym(game, args.envs, threads, args.mode,
                                                   asynchronous)
            else:
                step, per_call, close = make_envpool(game, args.envs, threads, args.mode,
                                                     asynchronous, args.envpool_atari)
        except Exception as e:  # a missing baseline or system library: reported, n/a
            return common.reason(e)
        try:
            return common.timed_windows(step, env_steps_per_call=per_call,
                                        seconds=args.seconds, windows=args.windows,
                                        warmup=args.warmup)
        finally:
            close()


def default_threads() -> list[int]:
    n = len(common.usable_cores())
    out, t = [], 1
    while t < n:
        out.append(t)
        t *= 2
    return out + [n]


def write_report(results, games, args, modes, envpool_reason, out_dir: pathlib.Path):
    ts = args.threads
    top = ts[-1]
    lines = [
        "# Thread scaling: jsgym vs EnvPool, env steps/s",
        "",
        *common.machine_lines(),
        f"- protocol: {args.envs} envs, pinned to as many cores as threads, random actions, "
        f"resets inside the windows, {args.warmup} s warm-up excluded, median of "
        f"{args.windows} windows of {args.seconds} s [min-max]; driven from Python; "
        f"ProcGen distribution_mode '{args.mode}' on both sides; EnvPool Atari: "
        + ("one emulated frame per step, RGB 210x160 (the ALE protocol of compare.py)"
           if args.envpool_atari == "frame" else "EnvPool's defaults (frameskip 4, 84x84 grey, "
           "4-frame stack): not the same work per step as jsgym"),
        f"- sync: every step() steps all {args.envs} envs; async: half of them per call, "
        "double buffered",
        f"- scaling efficiency = steps/s at t threads / (t x steps/s at 1 thread); speed-up "
        f"and efficiency below are at {top} threads",
    ]
    if envpool_reason:
        lines.append(f"- **envpool missing** ({envpool_reason}): its rows are n/a; install "
                     f"with `{common.BASELINE_INSTALL}`")
    fails = sorted({f"{impl} {g}: {v}" for (g, impl, _, _), v in results.items()
                    if isinstance(v, str)})
    lines += [f"- failed: {f}" for f in fails]
    lines.append(common.load_line([v for v in results.values() if isinstance(v, Measurement)]))
    lines.append("")

    header = ["game", "impl", "mode"] + [f"{t} thread{'s' if t > 1 else ''}" for t in ts] + \
        [f"speed-up {top}/1", "efficiency", "CPU used (cores)",
         "other load, max (cores: own cores / machine)"]
    rows, speedups = [], {}
    for g in games:
        for impl in IMPLS:
            for mode in modes:
                ms = [results.get((g, impl, mode, t)) for t in ts]
                if all(m is None for m in ms):
                    continue
                cells = [g, impl, mode] + [m.cell() if isinstance(m, Measurement) else "n/a"
                                           for m in ms]
                one, last = ms[0], ms[-1]
                if isinstance(one, Measurement) and isinstance(last, Measurement) and one.median:
                    s = last.median / one.median
                    speedups.setdefault((impl, mode), []).append(s)
                    cells += [f"{s:.2f}x", f"{s / top:.0%}", f"{last.self_mean:.2f}"]
                else:
                    cells += ["n/a", "n/a", "n/a"]
                done = [m for m in ms if isinstance(m, Measurement)]
                cells.append(f"{max(m.near_max for m in done):.2f} / "
                             f"{max(m.other_max for m in done):.2f}" if done else "n/a")
                rows.append(cells)
    lines += common.md_table(header, rows) + ["", "## Summary", ""]
    summary = []
    for (impl, mode), ss in speedups.items():
        summary.append([impl, mode, f"{geomean(ss):.2f}x", f"{min(ss):.2f}x-{max(ss):.2f}x",
                        f"{geomean(ss) / top:.0%}",
                        f"{sum(s >= 0.9 * top for s in ss)} of {len(ss)}"])
    lines += common.md_table(["impl", "mode", f"speed-up {top}/1, geometric mean", "range",
                              "efficiency", f"games >= {0.9 * top:g}x"], summary)
    lines += ["", f"Target (issue 8): jsgym at 2 threads >= 1.8x one thread, EnvPool's "
              "figure beside it.", ""]
    text = "\n".join(lines)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "scaling.md").write_text(text)
    csv_rows = []
    for (g, impl, mode, t), v in results.items():
        row = {"game": g, "impl": impl, "mode": mode, "threads": t, "envs": args.envs,
               "steps_per_call": args.envs // 2 if mode == "async" else args.envs,
               "procgen_mode": args.mode if g in PROCGEN else ""}
        if isinstance(v, Measurement):
            row.update(common.measurement_fields(v))
            one = results.get((g, impl, mode, ts[0]))
            if isinstance(one, Measurement) and one.median:
                row["speedup"] = round(v.median / one.median, 3)
                row["efficiency"] = round(v.median / one.median / t, 3)
        else:
            row["error"] = v
        csv_rows.append(row)
    common.write_csv(out_dir / "scaling.csv", csv_rows)
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*",
                        help="clones (default: the 8 Atari and 16 ProcGen clones)")
    parser.add_argument("--threads", type=int, nargs="+", default=None,
                        help=f"thread counts, first is the reference (default here: "
                             f"{' '.join(map(str, default_threads()))})")
    parser.add_argument("--envs", type=int, default=16, help="envs per vector env (16)")
    parser.add_argument("--async", dest="asynchronous", action="store_true",
                        help="also run both asynchronously (half the envs per call)")
    parser.add_argument("--mode", choices=("hard", "easy"), default="hard",
                        help="ProcGen distribution_mode for both sides (hard)")
    parser.add_argument("--envpool-atari", choices=("frame", "default"), default="frame",
                        help="EnvPool Atari config: one emulated frame per step, RGB "
                             "(frame, default) or EnvPool's defaults")
    parser.add_argument("--impl", choices=("both", *IMPLS), default="both")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of a window (1.0)")
    parser.add_argument("--windows", type=int, default=3, help="timed windows per figure (3)")
    parser.add_argument("--warmup", type=float, default=0.5, help="warm-up seconds (0.5)")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: 2 windows of 0.3 s, 0.1 s warm-up")
    parser.add_argument("--out-dir", type=pathlib.Path, default=common.RESULTS,
                        help="where the results go (bench/results)")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.windows, args.warmup = 0.3, 2, 0.1
    args.threads = args.threads or default_threads()
    n_cores = len(common.usable_cores())
    if max(args.threads) > n_cores or min(args.threads) < 1:
        parser.error(f"--threads must be within 1..{n_cores} (usable cores)")
    if args.asynchronous and args.envs < 2:
        parser.error("--async needs --envs >= 2")
    games = args.games or [*ATARI, *PROCGEN]
    unknown = [g for g in games if common.suite_of(g) is None]
    if unknown:
        parser.error(f"not a clone with an original: {unknown}")

    impls = IMPLS if args.impl == "both" else (args.impl,)
    envpool_reason = None
    if "envpool" in impls:
        _, envpool_reason = common.optional("envpool")
        if envpool_reason:
            log(f"envpool missing ({envpool_reason}): its rows will be n/a; install the "
                f"baselines with `{common.BASELINE_INSTALL}`")
            impls = tuple(i for i in impls if i != "envpool")
    modes = ("sync", "async") if args.asynchronous else ("sync",)

    results = {}
    for g in games:
        for impl in impls:
            for mode in modes:
                for t in args.threads:
                    m = measure(impl, g, t, mode == "async", args)
                    results[(g, impl, mode, t)] = m
                    desc = (f"{m.cell():28s} CPU {m.self_mean:.2f}, other load "
                            f"{m.load_cell()} cores (own / machine)" if isinstance(m, Measurement)
                            else f"failed: {m}")
                    log(f"{g:15s} {impl:8s} {mode:5s} {t} thr  {desc}")
    print(write_report(results, games, args, modes, envpool_reason, args.out_dir))
    log(f"wrote {args.out_dir / 'scaling.md'}, scaling.csv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
