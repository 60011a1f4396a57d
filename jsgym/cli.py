"""The ``jsgym`` command line. Each subcommand beyond ``list`` and ``rollout`` lives in
its own module (``jsgym.cli_<name>``) exposing ``register(subparsers)``."""

from __future__ import annotations

import argparse
import importlib
import os
import pathlib
import sys
import time

import numpy as np


def positive_int(text: str) -> int:
    """argparse type: an int >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def _cmd_list(args) -> int:
    from jsgym.games import bundled_games, games_dir, gym_id

    games = bundled_games()
    if not games:
        print(f"no games found in {games_dir()}", file=sys.stderr)
        return 1
    width = max(len(g) for g in games)
    for g in games:
        print(f"{g:<{width}}  {gym_id(g)}")
    return 0


def save_gif(frames: list[np.ndarray], path: str | pathlib.Path, *, scale: int = 4,
             fps: int = 30) -> None:
    """Writes RGB frames (h, w, 3) as an animated GIF, upscaled ``scale`` times."""
    from PIL import Image

    images = [Image.fromarray(f).resize((f.shape[1] * scale, f.shape[0] * scale),
                                        Image.NEAREST) for f in frames]
    images[0].save(path, save_all=True, append_images=images[1:], duration=int(1000 / fps),
                   loop=0)


def _cmd_rollout(args) -> int:
    import jsgym

    envs = jsgym.make_vec(args.game, args.num_envs, num_threads=args.threads,
                          frameskip=args.frameskip, seed=args.seed, copy=False,
                          episode_statistics=True)
    rng = np.random.default_rng(args.seed)
    obs, _ = envs.reset()
    frames = [obs[0].copy()]
    returns = []
    n_actions = envs.single_action_space.n
    start = time.perf_counter()
    steps = 0
    report_every = max(1, args.steps // 10)
    while steps < args.steps:
        actions = rng.integers(0, n_actions, size=args.num_envs)
        obs, rewards, term, trunc, infos = envs.step(actions)
        steps += 1
        if args.gif and len(frames) < args.gif_frames:
            frames.append(obs[0].copy())
        if "_episode" in infos:
            returns.extend(infos["episode"]["r"][infos["_episode"]].tolist())
        if steps % report_every == 0:
            elapsed = time.perf_counter() - start
            print(f"  {steps * args.num_envs:>9} env steps  {steps * args.num_envs / elapsed:>10,.0f} "
                  f"steps/s  episodes {len(returns)}", flush=True)
    elapsed = time.perf_counter() - start
    envs.close()
    total = steps * args.num_envs
    mean = f"{np.mean(returns):.2f}" if returns else "n/a (no episode finished)"
    print(f"{args.game}: {total} steps in {elapsed:.2f} s = {total / elapsed:,.0f} steps/s "
          f"({args.num_envs} envs); random-policy mean return {mean} over {len(returns)} episodes")
    if args.gif:
        save_gif(frames, args.gif)
        print(f"wrote {args.gif} ({len(frames)} frames of env 0)")
    return 0


def _cmd_setup_browser(args) -> int:
    from jsgym.browser_setup import setup

    return setup()


def build_parser() -> argparse.ArgumentParser:
    from jsgym import __version__

    parser = argparse.ArgumentParser(
        prog="jsgym", description="Single-file p5.js games as fast Gymnasium environments.")
    parser.add_argument("--version", action="version", version=f"jsgym {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="list the bundled games and their Gymnasium ids")
    p.set_defaults(func=_cmd_list)

    p = sub.add_parser("rollout", help="random-policy rollout: prints steps/s, writes a GIF")
    p.add_argument("game", help="bundled game name or path to a .js file")
    p.add_argument("--steps", type=positive_int, default=2000, help="vector steps (default 2000)")
    p.add_argument("--num-envs", type=positive_int, default=8, help="envs (default 8)")
    p.add_argument("--threads", type=positive_int, default=None,
                   help="worker threads (default: cores)")
    p.add_argument("--frameskip", type=positive_int, default=1,
                   help="draw() calls per step (default 1)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--gif", default=None, help="write env 0's frames to this GIF")
    p.add_argument("--gif-frames", type=positive_int, default=300,
                   help="frames in the GIF (default 300)")
    p.set_defaults(func=_cmd_rollout)

    p = sub.add_parser(
        "setup-browser", help="install the pinned p5.js for the browser backend and play page",
        description="Installs the p5.js version jsgym/web/package.json pins, with `npm ci` "
                    "from jsgym/web/package-lock.json, into the user cache "
                    "($JSGYM_CACHE_DIR, else $XDG_CACHE_HOME/jsgym, else ~/.cache/jsgym), "
                    "and reports on Playwright for Python (the [browser] extra) and "
                    "Chromium. Exit status 1 when a piece is missing.")
    p.set_defaults(func=_cmd_setup_browser)

    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"jsgym.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"jsgym.{name}":
                raise
            continue
        module.register(sub)
    return parser


#: Subcommand modules, in --help order; a missing module is skipped.
COMMAND_MODULES = ("cli_validate", "cli_play", "cli_train")


def main(argv: list[str] | None = None) -> int:
    from jsgym.errors import GameError

    args = build_parser().parse_args(argv)
    try:
        rc = args.func(args)
        sys.stdout.flush()  # here, so that a reader that left is seen below, not at exit
        return rc
    except GameError as exc:  # the game file is at fault: its message names file and place
        print(f"jsgym: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    except (FileNotFoundError, ValueError, ModuleNotFoundError) as exc:
        print(f"jsgym: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `jsgym list | head`: the reader left; say nothing more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the exit's flush does not fail again
        return 1


if __name__ == "__main__":
    sys.exit(main())
