"""L4 policy transfer: does a policy score the same in the QuickJS backend and in the
browser backend (real p5.js)? Evaluates one policy on both backends over the same
seeded episodes and runs a paired TOST equivalence test on the episode returns.

    python bench/policy_transfer.py catch                          # random policy
    python bench/policy_transfer.py pong --policy sticky --episodes 20
    python bench/policy_transfer.py catch --checkpoint runs/.../final.pt   # trained
    python bench/policy_transfer.py catch --train 200000          # train (QuickJS), then test

A policy is any callable ``policy(obs, rng) -> actions`` mapping a batch of
observations ``(n, h, w, 3) uint8`` to actions ``(n,)``. ``--checkpoint`` loads one
with ``jsgym.trainers.common.load_policy`` (the trainers' own format); ``--train N`` runs
``jsgym/trainers/ppo.py`` on the ``--train-backend`` first and uses its final checkpoint.

TOST (two one-sided tests, paired by seed): H0 is |mean(return_quickjs -
return_browser)| >= margin; the backends are declared equivalent when both one-sided
p-values are below alpha. The margin is stated on the command line (``--margin``,
absolute return units; default 5% of the larger mean |return|, at least 1.0).
Each episode's policy randomness comes from ``seed``, identically on both backends,
so any difference comes from the backends themselves.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import subprocess
import sys
import time

import numpy as np

import jsgym

RESULTS = pathlib.Path(__file__).resolve().parent / "results"


# ------------------------------------------------------------------ policies


def random_policy(n_actions: int):
    """Uniform random actions (from the per-episode rng)."""
    def act(obs, rng):
        return rng.integers(0, n_actions, size=len(obs))
    return act


def sticky_policy(n_actions: int, repeat: float = 0.9):
    """A scripted policy: repeats its last action with probability ``repeat`` (longer
    key holds than uniform random play, closer to how an agent or a person plays)."""
    last = {}

    def act(obs, rng):
        out = np.empty(len(obs), dtype=np.int64)
        for i in range(len(obs)):
            if i not in last or rng.random() > repeat:
                last[i] = int(rng.integers(0, n_actions))
            out[i] = last[i]
        return out
    act.reset = last.clear
    return act


def checkpoint_policy(path: str):
    """A trained policy saved by jsgym/trainers/ (``jsgym.trainers.common.load_policy``)."""
    from jsgym.trainers.common import load_policy

    policy = load_policy(path)

    def act(obs, rng):
        return np.asarray(policy(obs, rng))

    # the env settings the policy was trained with (frameskip, obs size, ...)
    act.env_kwargs = dict(getattr(policy, "env_kwargs", {}) or {})
    return act


def train(game: str, backend: str, steps: int, out_dir: pathlib.Path) -> str:
    """Trains with jsgym/trainers/ppo.py and returns the newest final checkpoint."""
    cmd = [sys.executable, "-m", "jsgym.trainers.ppo", "--game", game,
           "--total-timesteps", str(steps), "--out-dir", str(out_dir)]
    if backend != "quickjs":
        cmd += ["--backend", backend]
    print("training:", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)
    found = sorted(out_dir.rglob("final.pt"), key=lambda p: p.stat().st_mtime)
    if not found:
        raise FileNotFoundError(f"jsgym/trainers/ppo.py wrote no final.pt under {out_dir}")
    return str(found[-1])


# ------------------------------------------------------------------ evaluation


def evaluate(policy, game: str, backend: str, seeds: list[int], *, max_steps: int,
             num_envs: int = 2) -> np.ndarray:
    """Episode returns of ``policy`` on ``backend``, one episode per seed (each at
    most ``max_steps`` steps), ``num_envs`` episodes at a time."""
    returns = np.zeros(len(seeds))
    for start in range(0, len(seeds), num_envs):
        batch = seeds[start:start + num_envs]
        n = len(batch)
        env_kwargs = {k: v for k, v in getattr(policy, "env_kwargs", {}).items()
                      if k not in ("backend", "autoreset_mode", "max_episode_steps")}
        envs = jsgym.make_vec(game, n, backend=backend, autoreset_mode="disabled",
                              max_episode_steps=max_steps, **env_kwargs)
        try:
            if hasattr(policy, "reset"):
                policy.reset()
            rngs = [np.random.default_rng(s) for s in batch]
            obs, _ = envs.reset(seed=batch)
            active = np.arange(n)
            total = np.zeros(n)
            while len(active):
                acts = np.array([int(policy(obs[k:k + 1], rngs[i])[0])
                                 for k, i in enumerate(active)])
                envs.send(acts, active)
                obs, rew, term, trunc, infos = envs.recv()
                ids = infos["env_id"]
                total[ids] += rew
                active = ids[~(term | trunc)]
                obs = obs[~(term | trunc)]
            returns[start:start + n] = total
        finally:
            envs.close()
    return returns


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t (scipy when present, else the normal approximation)."""
    try:
        from scipy import stats

        return float(stats.t.sf(t, df))
    except ImportError:
        return 0.5 * math.erfc(t / math.sqrt(2))


def tost_paired(a: np.ndarray, b: np.ndarray, margin: float) -> dict:
    """Paired TOST of mean(a - b) within (-margin, margin): returns both one-sided
    p-values and their max (the TOST p-value)."""
    d = np.asarray(a, float) - np.asarray(b, float)
    n = len(d)
    mean = float(d.mean())
    sd = float(d.std(ddof=1)) if n > 1 else 0.0
    if sd == 0.0:
        # Identical differences: no sampling noise, the mean is exact.
        p_low = 0.0 if mean > -margin else 1.0
        p_high = 0.0 if mean < margin else 1.0
    else:
        se = sd / math.sqrt(n)
        p_low = t_sf((mean + margin) / se, n - 1)     # H0: mean <= -margin
        p_high = t_sf((margin - mean) / se, n - 1)    # H0: mean >= +margin
    return {"n": n, "mean_diff": mean, "sd_diff": sd, "margin": margin, "p_lower": p_low,
            "p_upper": p_high, "p": max(p_low, p_high)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--policy", choices=("random", "sticky"), default="random")
    parser.add_argument("--checkpoint", default=None, help="a jsgym/trainers/ checkpoint to evaluate")
    parser.add_argument("--train", type=int, default=0, metavar="STEPS",
                        help="train with jsgym/trainers/ppo.py for STEPS env steps first")
    parser.add_argument("--train-backend", default="quickjs", choices=("quickjs", "browser"))
    parser.add_argument("--episodes", type=int, default=10)
    parser.add_argument("--max-steps", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1000, help="first episode seed")
    parser.add_argument("--margin", type=float, default=None,
                        help="equivalence margin in return units (default 5%% of the larger "
                             "mean |return|, at least 1.0)")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--out", default=str(RESULTS / "policy_transfer.json"))
    args = parser.parse_args()

    probe = jsgym.make_vec(args.game, 1)
    n_actions = probe.single_action_space.n
    probe.close()
    if args.train:
        args.checkpoint = train(args.game, args.train_backend, args.train,
                                pathlib.Path("runs") / "policy_transfer")
    if args.checkpoint:
        policy, name = checkpoint_policy(args.checkpoint), f"checkpoint {args.checkpoint}"
    elif args.policy == "sticky":
        policy, name = sticky_policy(n_actions), "sticky random (scripted)"
    else:
        policy, name = random_policy(n_actions), "uniform random"
    seeds = list(range(args.seed, args.seed + args.episodes))
    t0 = time.perf_counter()
    rq = evaluate(policy, args.game, "quickjs", seeds, max_steps=args.max_steps)
    rb = evaluate(policy, args.game, "browser", seeds, max_steps=args.max_steps)
    margin = args.margin if args.margin is not None else max(
        1.0, 0.05 * max(abs(rq.mean()), abs(rb.mean())))
    result = tost_paired(rq, rb, margin)
    equivalent = result["p"] < args.alpha
    report = {"game": args.game, "policy": name, "episodes": args.episodes,
              "max_steps": args.max_steps, "seeds": seeds, "returns_quickjs": rq.tolist(),
              "returns_browser": rb.tolist(), "alpha": args.alpha, **result,
              "equivalent": equivalent, "seconds": time.perf_counter() - t0}
    pathlib.Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    pathlib.Path(args.out).write_text(json.dumps(report, indent=2))
    print(f"{args.game}, {name}, {args.episodes} episodes (max {args.max_steps} steps):")
    print(f"  QuickJS mean return {rq.mean():.3f}, browser {rb.mean():.3f}, "
          f"paired difference {result['mean_diff']:.3f} +- {result['sd_diff']:.3f}")
    print(f"  TOST margin +-{margin:.3f}: p = {result['p']:.3g} -> "
          f"{'EQUIVALENT' if equivalent else 'not shown equivalent'} at alpha {args.alpha}")
    return 0 if equivalent else 1


if __name__ == "__main__":
    raise SystemExit(main())
