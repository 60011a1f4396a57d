"""Before/after of a game file: the same trajectories, and how much faster.

The check to run after rewriting a game's JS for speed: takes the game at a git ref
(``--before``, default HEAD) and the working tree's file, then
1. steps both through the same seeded random rollouts (several level seeds, easy and
   hard mode for the ProcGen clones, resets inside) and compares a hash of every
   observation, reward, termination and truncation: the rewrite must keep the game
   bit-identical, frames included;
2. times both, alternating, 16 envs on one thread, and prints the ratio.

    python bench/game_ab.py coinrun caveflyer            # working tree vs HEAD
    python bench/game_ab.py coinrun --before HEAD~3 --reps 3
    python bench/game_ab.py coinrun --before-file old/coinrun.js

Exit status 1 when any game's trajectories differ.
"""

from __future__ import annotations

import argparse
import hashlib
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import jsgym
from common import PROCGEN  # noqa: E402  (bench/ is sys.path[0] for a script)

ROOT = pathlib.Path(__file__).resolve().parent.parent


def game_at(ref: str, game: str, tmp: pathlib.Path) -> pathlib.Path:
    """The game file at git ref ``ref``, written under ``tmp`` with its own name (a
    game's options and metadata are looked up by file name)."""
    # the games moved from games/ to jsgym/games/: a ref from before the move has the old path
    for folder in ("jsgym/games", "games"):
        proc = subprocess.run(["git", "show", f"{ref}:{folder}/{game}.js"], cwd=ROOT,
                              capture_output=True, text=True)
        if proc.returncode == 0:
            break
    else:
        raise FileNotFoundError(f"no {game}.js under jsgym/games/ or games/ at {ref}: {proc.stderr}")
    text = proc.stdout
    path = tmp / ref.replace("/", "_") / f"{game}.js"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def trajectory_hash(path: pathlib.Path, options: dict | None, seeds: int, steps: int) -> str:
    """Hash of every observation, reward, terminated and truncated flag of ``seeds``
    envs stepped ``steps`` times with seeded random actions (autoreset inside)."""
    env = jsgym.make_vec(path, num_envs=seeds, num_threads=1, game_options=options,
                         max_episode_steps=400)
    h = hashlib.sha256()
    obs, _ = env.reset(seed=12345)
    h.update(obs.tobytes())
    rng = np.random.default_rng(7)
    for _ in range(steps):
        obs, rew, term, trunc, _ = env.step(rng.integers(0, env.single_action_space.n, seeds))
        for a in (obs, rew, term, trunc):
            h.update(np.ascontiguousarray(a).tobytes())
    env.close()
    return h.hexdigest()


def rate(path: pathlib.Path, options: dict | None, envs: int, seconds: float) -> float:
    env = jsgym.make_vec(path, num_envs=envs, num_threads=1, game_options=options)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = rng.integers(0, env.single_action_space.n, (4096, envs))
    for k in range(50):
        env.step(actions[k])
    n, k, t0 = 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        env.step(actions[k % 4096])
        n, k = n + envs, k + 1
    r = n / (time.perf_counter() - t0)
    env.close()
    return r


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="+")
    p.add_argument("--before", default="HEAD", help="git ref of the old file (HEAD)")
    p.add_argument("--before-file", type=pathlib.Path,
                   help="the old file itself instead of a git ref (one game only)")
    p.add_argument("--after-file", type=pathlib.Path,
                   help="the new file instead of jsgym/games/<game>.js (one game only)")
    p.add_argument("--seeds", type=int, default=32, help="envs (level seeds) hashed")
    p.add_argument("--steps", type=int, default=600, help="steps hashed per env")
    p.add_argument("--reps", type=int, default=3, help="timed runs per side")
    p.add_argument("--seconds", type=float, default=1.0, help="length of a timed run")
    p.add_argument("--envs", type=int, default=16, help="envs of the timed runs")
    args = p.parse_args(argv)
    if (args.before_file or args.after_file) and len(args.games) != 1:
        p.error("--before-file/--after-file take one game")
    bad = 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            old = args.before_file or game_at(args.before, game, pathlib.Path(tmp))
            new = args.after_file or ROOT / "jsgym" / "games" / f"{game}.js"
            modes = [{"distribution_mode": m} for m in ("easy", "hard")] \
                if game in PROCGEN else [None]
            same = all(trajectory_hash(old, o, args.seeds, args.steps)
                       == trajectory_hash(new, o, args.seeds, args.steps) for o in modes)
            bad += not same
            opt = modes[-1]
            before, after = [], []
            for r in range(args.reps):
                order = [(old, before), (new, after)]
                for path, out in (order if r % 2 == 0 else order[::-1]):
                    out.append(rate(path, opt, args.envs, args.seconds))
            b, a = statistics.median(before), statistics.median(after)
            rows.append((game, "identical" if same else "DIFFERENT", b, a))
            print(f"{game}: trajectories {'identical' if same else 'DIFFERENT'}, "
                  f"{b:,.0f} -> {a:,.0f} steps/s ({a / b:.2f}x)", file=sys.stderr)
    print(f"\n{args.seeds} seeds x {args.steps} steps hashed per mode; {args.envs} envs, one "
          f"thread, {args.reps} alternating runs of {args.seconds:g} s per side (median)\n")
    print("| game | trajectories | before steps/s | after steps/s | after / before |")
    print("|---|---|---|---|---|")
    for game, same, b, a in rows:
        print(f"| {game} | {same} | {b:,.0f} | {a:,.0f} | {a / b:.2f} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
