"""Wall-clock time until a trainer's evaluation return passes a threshold, on this
machine: what a researcher waits for. Writes bench/results/time_to_learn.md and .csv.

Each run is a separate process, one after another (never two at once):

  target    `python -m jsgym.trainers.ppo --game GAME --seed S --eval-every K
            --target-return THRESHOLD --time-budget BUDGET` plus --trainer-args: the
            trainer evaluates the live policy every K iterations as its final
            evaluation does (sampling, --eval-episodes episodes on
            the held-out seeds S + 10000) and stops at the first evaluation whose mean
            return reaches the threshold. Reported: seconds from the process launch to
            the end of that evaluation (interpreter start, imports, env creation and
            every evaluation included), the trainer's own training seconds up to it (its
            evaluations left out), and the agent steps.
  as-is     with --as-is "CMD": the command exactly as the README gives it (for example
            `jsgym train catch --algo ppo`), timed from launch to exit, with the final
            evaluation return it prints; it runs with its own defaults and no
            evaluations in between.

The load of other processes during each run is recorded (CPU time of the machine
minus this script's and its children's): the figures are worth publishing only where
it stays near 0.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import pathlib
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

from common import (RESULTS, LoadMeter, log, machine_lines, md_table,  # noqa: E402
                    online_cpus, version, write_csv)  # (bench/ is sys.path[0] for a script)


def child_cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def summary_of(output: str) -> dict:
    """The ``summary k=v ...`` line every trainer prints last, as a dict."""
    for line in reversed(output.splitlines()):
        if line.startswith("summary "):
            out = {}
            for item in line[len("summary "):].split():
                key, _, value = item.partition("=")
                try:
                    out[key] = float(value)
                except ValueError:
                    out[key] = value
            return out
    return {}


def evaluations(run_dir: pathlib.Path) -> list[tuple[int, float, float, float]]:
    """``(step, wall clock, mean return, training seconds)`` of each evaluation made
    during training, from the run's scalars.csv."""
    rows: dict[int, dict] = {}
    with open(run_dir / "scalars.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["tag"] in ("eval/mean_return", "eval/train_seconds"):
                entry = rows.setdefault(int(row["step"]), {"wall": float(row["wall_time"])})
                entry[row["tag"]] = float(row["value"])
    return [(step, e["wall"], e["eval/mean_return"], e["eval/train_seconds"])
            for step, e in sorted(rows.items())
            if "eval/mean_return" in e and "eval/train_seconds" in e]


def run(cmd: list[str], log_path: pathlib.Path) -> tuple[float, float, str, int]:
    """Runs ``cmd``; returns (launch wall clock, seconds to exit, output, exit code)."""
    log("  $ " + shlex.join(cmd))
    launch = time.time()
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds = time.perf_counter() - start
    log_path.write_text(proc.stdout)
    return launch, seconds, proc.stdout, proc.returncode


def other_load(meter: LoadMeter, child_before: float, seconds: float) -> float:
    """Cores kept busy by processes other than this script and its children."""
    _, other, _ = meter.stop()
    children = (child_cpu_seconds() - child_before) / max(seconds, 1e-9)
    return max(0.0, other - children)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="catch", help="game to train (catch)")
    parser.add_argument("--algo", default="ppo", choices=["ppo"],
                        help="trainer (ppo: the trainer with --eval-every and "
                             "--target-return)")
    parser.add_argument("--threshold", type=float, default=9.0,
                        help="evaluation mean return to reach (9.0, catch's maximum is 10)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3],
                        help="one target run per seed (1 2 3)")
    parser.add_argument("--eval-every", type=int, default=4,
                        help="the trainer's --eval-every: iterations between "
                             "evaluations (4)")
    parser.add_argument("--eval-episodes", type=int, default=10,
                        help="episodes per evaluation (10)")
    parser.add_argument("--budget", type=float, default=600.0,
                        help="the trainers' --time-budget: a run that has not reached the "
                             "threshold by then counts as not reached (600 s)")
    parser.add_argument("--trainer-args", default="",
                        help="more trainer arguments for the target runs, one string")
    parser.add_argument("--as-is", action="append", default=[], metavar="CMD",
                        help="also time this command as given, once per seed (repeatable; "
                             "`{seed}` is replaced by the seed, else --seed is appended)")
    parser.add_argument("--out", default=str(RESULTS / "time_to_learn.md"),
                        help="the markdown result; the CSV goes beside it "
                             "(bench/results/time_to_learn.md)")
    args = parser.parse_args(argv)

    out = pathlib.Path(args.out)
    work = pathlib.Path(tempfile.mkdtemp(prefix="jsgym-ttl-"))
    rows: list[dict] = []
    for seed in args.seeds:
        log(f"{args.algo} on {args.game}, seed {seed}: until evaluation >= {args.threshold}")
        cmd = [sys.executable, "-m", f"jsgym.trainers.{args.algo}", "--game", args.game,
               "--seed", str(seed), "--eval-every", str(args.eval_every),
               "--eval-episodes", str(args.eval_episodes),
               "--target-return", str(args.threshold), "--time-budget", str(args.budget),
               "--out-dir", str(work / f"target{seed}"), "--no-progress",
               *shlex.split(args.trainer_args)]
        meter, child_before = LoadMeter().start(), child_cpu_seconds()
        launch, seconds, output, code = run(cmd, work / f"target{seed}.log")
        load = other_load(meter, child_before, seconds)
        summary = summary_of(output)
        row = {"kind": "target", "seed": seed, "command": shlex.join(cmd[1:]),
               "exit_code": code, "process_seconds": round(seconds, 1),
               "other_load_cores": round(load, 2)}
        reached = None
        if code == 0 and summary.get("run_dir"):
            evals = evaluations(pathlib.Path(summary["run_dir"]))
            reached = next(((step, wall - launch, train_s, mean)
                            for step, wall, mean, train_s in evals if mean >= args.threshold), None)
            row["evaluations"] = " ".join(f"{int(s)}:{m:g}" for s, _, m, _ in evals)
        if reached:
            row.update(reached_step=reached[0], seconds_to_threshold=round(reached[1], 1),
                       training_seconds_to_threshold=round(reached[2], 1),
                       return_at_threshold=reached[3])
            log(f"  reached {reached[3]:g} at step {reached[0]}: {reached[1]:.1f} s from "
                f"launch ({reached[2]:.1f} s of training)")
        else:
            log(f"  not reached (exit {code}; see {work / f'target{seed}.log'})")
        row["sps"] = summary.get("sps", math.nan)
        rows.append(row)

        for template in args.as_is:
            cmd = shlex.split(template.replace("{seed}", str(seed)))
            if "{seed}" not in template:
                cmd += ["--seed", str(seed)]
            cmd += ["--out-dir", str(work / f"asis{seed}"), "--no-progress"]
            meter, child_before = LoadMeter().start(), child_cpu_seconds()
            _, seconds, output, code = run(cmd, work / f"asis{seed}.log")
            load = other_load(meter, child_before, seconds)
            summary = summary_of(output)
            rows.append({"kind": "as-is", "seed": seed, "command": template,
                         "exit_code": code, "process_seconds": round(seconds, 1),
                         "other_load_cores": round(load, 2),
                         "final_eval": summary.get("eval_mean", math.nan),
                         "reached_step": int(summary["global_step"])
                         if "global_step" in summary else math.nan,
                         "sps": summary.get("sps", math.nan)})
            log(f"  as-is: {seconds:.1f} s, final evaluation {summary.get('eval_mean')}")

    write(out, args, rows)
    return 0


def write(out: pathlib.Path, args, rows: list[dict]) -> None:
    targets = [r for r in rows if r["kind"] == "target"]
    as_is = [r for r in rows if r["kind"] == "as-is"]
    loads = [r["other_load_cores"] for r in rows]
    lines = [f"# Time to learn: {args.algo.upper()} on {args.game} to an evaluation "
             f"return >= {args.threshold:g}", ""]
    lines += machine_lines()
    lines += [f"- training software: torch {version('torch')}",
              f"- target runs: every {args.eval_every} iterations an evaluation of "
              f"{args.eval_episodes} episodes (sampling policy, held-out seeds); the run "
              f"stops at the first one >= {args.threshold:g}; budget {args.budget:g} s"
              + (f"; trainer arguments `{args.trainer_args}`" if args.trainer_args else ""),
              f"- other load (cores of {online_cpus()} kept busy by processes other than "
              f"the runs): max {max(loads):.2f}" if loads else "- other load: n/a", ""]
    reached = [r["seconds_to_threshold"] for r in targets if "seconds_to_threshold" in r]
    header = ["seed", "seconds from launch to the passing evaluation",
              "training seconds to it", "agent steps", "its return",
              "evaluations (step:return)", "agent steps/s", "other load"]
    body = [[r["seed"], r.get("seconds_to_threshold", "not reached"),
             r.get("training_seconds_to_threshold", "-"), r.get("reached_step", "-"),
             r.get("return_at_threshold", "-"), r.get("evaluations", "-"),
             f"{r['sps']:.0f}" if isinstance(r["sps"], float) and math.isfinite(r["sps"]) else "-",
             r["other_load_cores"]] for r in targets]
    lines += ["## Until the threshold", ""] + md_table(header, body) + [""]
    if reached:
        lines.append(f"Reached in {len(reached)} of {len(targets)} runs; seconds from launch: "
                     f"median {statistics.median(reached):.1f}, max {max(reached):.1f}.")
    else:
        lines.append(f"Not reached in any of {len(targets)} runs.")
    if as_is:
        lines += ["", "## Commands as given", ""]
        lines += md_table(["command", "seed", "seconds, launch to exit", "final evaluation",
                           "agent steps", "other load"],
                          [[f"`{r['command']}`", r["seed"], r["process_seconds"],
                            r["final_eval"], r["reached_step"], r["other_load_cores"]]
                           for r in as_is])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    write_csv(out.with_suffix(".csv"), rows)
    log(f"wrote {out}, {out.with_suffix('.csv')}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
