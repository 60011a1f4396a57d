"""``jsgym train`` and ``jsgym eval``: the command-line face of ``jsgym/trainers/``.

    jsgym train catch --algo ppo                        # CPU defaults; --help lists all flags
    jsgym train pong --algo impala --nproc 2            # two DDP learners under torchrun
    jsgym train pong --algo impala --ray local          # actors as Ray processes (or --ray ADDRESS)
    jsgym eval runs/catch__ppo__1__*/checkpoints/final.pt --episodes 20
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys

ALGOS = ("ppo", "impala")


def _trainer(algo: str):
    """Imports ``jsgym.trainers.<algo>``, or says which extra it needs."""
    from jsgym.trainers import require_train_extra

    require_train_extra(f"jsgym {'eval' if algo == 'common' else 'train'}")
    return importlib.import_module(f"jsgym.trainers.{algo}")


def _cmd_train(args) -> int:
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--algo", choices=ALGOS, default="ppo")
    pre.add_argument("--nproc", type=int, default=1)
    known, rest = pre.parse_known_args(args.rest)
    if known.nproc < 1:
        raise ValueError(f"--nproc must be >= 1, got {known.nproc}")
    from jsgym.games import resolve

    for game in args.game.split(","):  # before torch is imported or anything is written
        resolve(game.strip())
    trainer_args = ["--game", args.game, *rest]
    if known.nproc > 1:
        if known.algo != "impala":
            raise ValueError("--nproc > 1 (several DDP learners) is for --algo impala")
        module = _trainer(known.algo)
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone",
               f"--nproc_per_node={known.nproc}", module.__file__, *trainer_args]
        return subprocess.call(cmd)
    module = _trainer(known.algo)
    module.main(trainer_args, prog=f"jsgym train {args.game} --algo {known.algo}")
    return 0


def _cmd_eval(args) -> int:
    common = _trainer("common")
    policy = common.load_policy(args.checkpoint, greedy=args.greedy, seed=args.seed)
    game = args.game or policy.game
    result = common.evaluate(policy, game, episodes=args.episodes, num_envs=args.num_envs,
                             seed=args.seed, backend=args.backend, env_kwargs=policy.env_kwargs,
                             gif_path=args.gif)
    print(f"{game} ({policy.algo}, {policy.global_step} steps, backend {args.backend}): "
          f"mean return {result['mean']:.3f} +- {result['std']:.3f} over "
          f"{len(result['returns'])} episodes")
    if args.json:
        print(json.dumps({"game": game, "backend": args.backend, **result}))
    if args.gif:
        print(f"wrote {args.gif}")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "train", help="train PPO or IMPALA on a game (jsgym/trainers/ppo.py, jsgym/trainers/impala.py)",
        description="Train an agent. Flags after GAME go to the trainer: --algo ppo|impala "
                    "(default ppo), --nproc N (IMPALA: N DDP learner processes under "
                    "torchrun), --ray ADDRESS|local (IMPALA: actors as Ray actor processes, "
                    "docs/distributed.md), and every flag of the trainer's own --help "
                    "(e.g. `jsgym train catch --algo ppo --help`).")
    p.add_argument("game", help="bundled game name or path to a .js file")
    p.add_argument("rest", nargs=argparse.REMAINDER,
                   help="--algo, --nproc and the trainer's flags")
    p.set_defaults(func=_cmd_train)

    p = subparsers.add_parser("eval", help="evaluate a trained checkpoint")
    p.add_argument("checkpoint", help="a .pt file written by jsgym train")
    p.add_argument("--episodes", type=int, default=10, help="episodes (default 10)")
    p.add_argument("--backend", default="quickjs", help="quickjs (default) or browser")
    p.add_argument("--game", default=None, help="another game file (default: the trained one)")
    p.add_argument("--num-envs", type=int, default=None, help="parallel envs (default min(episodes, 8))")
    p.add_argument("--seed", type=int, default=10_000, help="env and sampling seed (default 10000)")
    p.add_argument("--greedy", action="store_true", help="take the most likely action, not a sample")
    p.add_argument("--gif", default=None, help="write env 0's first episode as a GIF")
    p.add_argument("--json", action="store_true", help="also print the result as one JSON line")
    p.set_defaults(func=_cmd_eval)
