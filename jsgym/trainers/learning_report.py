"""Collects finished training runs into learning curves and a markdown table.

    python -m jsgym.trainers.learning_report RUNS_DIR [RUNS_DIR ...] --out bench/results/learning \
        --note "2 cores shared with other jobs (load average ~10)"

For every game it draws one PNG (episodic return against agent steps: a running mean per
algorithm, the random-policy baseline dashed) and writes `learning.md` with one row per
run: steps, wall time, final mean return (evaluation on held-out seeds, and the first and last 10% of
training episodes), the random baseline, agent-steps/s with the trainer attached and the
share of time in the env.
"""

from __future__ import annotations

import argparse
import csv
import pathlib
import platform
import sys

import numpy as np

from jsgym.trainers.common import (evaluate, load_checkpoint, load_policy, random_baseline,
                                   read_scalars, smooth)


def last(csv_path, tag):
    steps, values = read_scalars(csv_path, tag)
    return float(values[-1]) if len(values) else float("nan")


def collect(run_dir: pathlib.Path, reevaluate: int = 0,
            random_cache: dict | None = None) -> dict | None:
    csv_path = run_dir / "scalars.csv"
    final = run_dir / "checkpoints" / "final.pt"
    if not csv_path.exists() or not final.exists():
        return None
    ckpt = load_checkpoint(final)
    steps, returns = read_scalars(csv_path, "charts/episodic_return")
    tenth = max(20, len(returns) // 10)  # first and last 10% of the episodes, at least 20
    with open(csv_path, newline="") as f:
        times = [float(r["wall_time"]) for r in csv.DictReader(f)]
    args = ckpt["args"]
    if ckpt["algo"] == "ppo":
        env_share = last(csv_path, "charts/env_time_fraction")
    else:
        env_share = last(csv_path, "charts/actor_env_wait_fraction")
    row = {
        "run": run_dir.name, "game": ckpt["game"], "algo": ckpt["algo"],
        "encoder": args["encoder"], "frame_stack": args.get("frame_stack", 1),
        "steps": ckpt["global_step"],
        "wall": times[-1] - times[0] if times else float("nan"),
        "eval": last(csv_path, "eval/mean_return"),
        "train_last20": float(np.mean(returns[-tenth:])) if len(returns) else float("nan"),
        "train_first20": float(np.mean(returns[:tenth])) if len(returns) else float("nan"),
        "random": last(csv_path, "eval/random_mean_return"),
        "sps": last(csv_path, "charts/SPS"), "env_share": env_share,
        "curve": (steps, returns), "eval_episodes": None,
    }
    if reevaluate:
        policy = load_policy(final)
        res = evaluate(policy, policy.game, episodes=reevaluate, env_kwargs=policy.env_kwargs)
        key = (policy.game, tuple(sorted(policy.env_kwargs.items())))
        if random_cache is not None and key not in random_cache:
            random_cache[key] = random_baseline(policy.game, episodes=reevaluate,
                                                env_kwargs=policy.env_kwargs)
        row.update(eval=res["mean"], eval_std=res["std"], eval_episodes=reevaluate,
                   random=random_cache[key]["mean"] if random_cache is not None else row["random"])
    return row


def plot_game(game: str, runs: list[dict], png: pathlib.Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for r in runs:
        steps, returns = r["curve"]
        if len(steps):
            window = max(20, len(returns) // 25)  # about 25 independent points per curve
            ax.plot(steps, smooth(returns, window), lw=2,
                    label=f"{r['algo'].upper()} ({r['encoder']} CNN), mean of {window} episodes")
    randoms = [r["random"] for r in runs if np.isfinite(r["random"])]
    if randoms:
        ax.axhline(float(np.mean(randoms)), color="k", ls="--", lw=1,
                   label=f"random policy ({np.mean(randoms):.2f})")
    ax.set_xlabel("agent steps")
    ax.set_ylabel("episodic return (running mean)")
    ax.set_title(game)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", help="folders holding run folders")
    parser.add_argument("--out", default="bench/results/learning", help="output folder")
    parser.add_argument("--note", default="", help="budget and machine load, printed in the table")
    parser.add_argument("--reevaluate", type=int, default=0, metavar="N",
                        help="evaluate every final checkpoint (and the random policy) again "
                             "over N episodes instead of reading the run's own evaluation")
    args = parser.parse_args(argv)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    random_cache: dict = {}
    for folder in args.runs:
        for run_dir in sorted(pathlib.Path(folder).iterdir()):
            if run_dir.is_dir() and (r := collect(run_dir, args.reevaluate, random_cache)):
                rows.append(r)
    rows.sort(key=lambda r: (r["game"], r["algo"]))
    games = sorted({r["game"] for r in rows})
    for game in games:
        plot_game(game, [r for r in rows if r["game"] == game], out / f"{game}.png")
    lines = [
        "# Learning curves: PPO and IMPALA on jsgym games (CPU)", "",
        f"- machine: {platform.machine()}, 2 cores, no GPU, Python {platform.python_version()}",
        f"- budget and load: {args.note}" if args.note else "",
        f"- final return: `eval` is the mean over {args.reevaluate or 10} evaluation episodes on"
        " held-out seeds (sampling policy; each of 8 envs runs a fixed share of them);"
        " `train` the mean training return over the first and the last 10% of the training episodes (at least 20); `random` the uniform-random"
        " policy on the same evaluation seeds",
        "- SPS: agent steps per second with the trainer attached (env + inference + learning);"
        " env share: PPO, fraction of iteration time inside `envs.step`; IMPALA, fraction of"
        " actor time blocked in `recv` (env time that double buffering did not hide)", "",
        "| game | algo | encoder | frames stacked | agent steps | wall time | eval return | train return (first 10% -> last 10% of episodes) | random | SPS | env share | curve |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['game']} | {r['algo']} | {r['encoder']} | {r['frame_stack']} | {r['steps']:,} "
            f"| {r['wall'] / 60:.1f} min "
            f"| {r['eval']:.2f} | {r['train_first20']:.2f} -> {r['train_last20']:.2f} | {r['random']:.2f} "
            f"| {r['sps']:.0f} | {r['env_share']:.0%} | [{r['game']}.png]({r['game']}.png) |")
    (out / "learning.md").write_text("\n".join(l for l in lines if l is not None) + "\n")
    with open(out / "learning.csv", "w", newline="") as f:
        w = csv.writer(f)
        keys = ["game", "algo", "encoder", "frame_stack", "steps", "wall", "eval", "train_first20",
                "train_last20", "random", "sps", "env_share", "run"]
        w.writerow(keys)
        for r in rows:
            w.writerow([r[k] for k in keys])
    print((out / "learning.md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
