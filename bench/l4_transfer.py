"""L4 policy transfer for trained checkpoints: scores one trained policy on the QuickJS
and the browser backend over the same seeded episodes, with the env settings it was
trained with (`policy.env_kwargs`: frameskip, time limit, level split), and runs the paired
TOST of bench/policy_transfer.py on the returns.

    python bench/l4_transfer.py runs/catch__ppo__1__*/checkpoints/final.pt \
        --episodes 20 --margin 1.0 --out bench/results/learning/l4_transfer.md

Episode k uses env seed `seed + k` and draws the policy's action samples from
`numpy.random.default_rng(seed + k)` (one uniform per step), identically on both
backends, so a difference in returns comes from the backends alone.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

import numpy as np

import jsgym
from jsgym.trainers.common import load_policy
from policy_transfer import tost_paired  # bench/ is sys.path[0] for a script: one TOST


def episode_returns(policy, game: str, backend: str, seeds: list[int], env_kwargs: dict,
                    num_envs: int) -> np.ndarray:
    """One episode per seed, ``num_envs`` at a time (autoreset disabled)."""
    returns = np.zeros(len(seeds))
    for start in range(0, len(seeds), num_envs):
        batch = seeds[start:start + num_envs]
        envs = jsgym.make_vec(game, len(batch), backend=backend, autoreset_mode="disabled",
                              **env_kwargs)
        try:
            rngs = [np.random.default_rng(s) for s in batch]
            obs, _ = envs.reset(seed=list(batch))
            active = np.arange(len(batch))
            total = np.zeros(len(batch))
            while len(active):
                acts = np.array([int(policy(obs[k:k + 1], rngs[i])[0]) for k, i in enumerate(active)])
                envs.send(acts, active)
                obs, rew, term, trunc, infos = envs.recv()
                ids = infos["env_id"]
                total[ids] += rew
                done = term | trunc
                active, obs = ids[~done], obs[~done]
            returns[start:start + len(batch)] = total
        finally:
            envs.close()
    return returns


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoint")
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=20_000)
    parser.add_argument("--num-envs", type=int, default=4)
    parser.add_argument("--margin", type=float, default=1.0, help="equivalence margin (return units)")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--out", default=None, help="append a markdown row to this file")
    args = parser.parse_args(argv)

    policy = load_policy(args.checkpoint)
    seeds = [args.seed + k for k in range(args.episodes)]
    results, times = {}, {}
    for backend in ("quickjs", "browser"):
        t0 = time.perf_counter()
        results[backend] = episode_returns(policy, policy.game, backend, seeds,
                                           policy.env_kwargs, args.num_envs)
        times[backend] = time.perf_counter() - t0
    q, b = results["quickjs"], results["browser"]
    tost = tost_paired(q, b, args.margin)
    equivalent = tost["p"] < args.alpha
    row = (f"| {policy.game} | {policy.algo} ({policy.global_step:,} steps, trained on quickjs) "
           f"| {len(seeds)} | {q.mean():.2f} +- {q.std(ddof=1):.2f} | {b.mean():.2f} +- {b.std(ddof=1):.2f} "
           f"| {tost['mean_diff']:.3f} | {int((q == b).sum())}/{len(seeds)} | {args.margin} "
           f"| {tost['p']:.2g} | {'yes' if equivalent else 'no'} |")
    print(f"quickjs {q.tolist()} ({times['quickjs']:.1f} s)\nbrowser {b.tolist()} ({times['browser']:.1f} s)")
    print(row)
    if args.out:
        out = pathlib.Path(args.out)
        if not out.exists():
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(
                "# L4 policy transfer: trained policies on the QuickJS and browser backends\n\n"
                "Same episode seeds and the same per-episode action randomness on both backends;"
                " paired TOST (bench/policy_transfer.py's `tost_paired`) of the return"
                " difference within +-margin, alpha 0.05. Produced by"
                " `python bench/l4_transfer.py CHECKPOINT`.\n\n"
                "| game | policy | episodes | quickjs return | browser return | mean diff |"
                " identical episodes | margin | TOST p | equivalent |\n"
                "|---|---|---|---|---|---|---|---|---|---|\n")
        with open(out, "a") as f:
            f.write(row + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
