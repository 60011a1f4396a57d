"""Writes docs/games.md: one row per bundled game with a 64x64 frame strip, the
action meanings (from the game file's header), and the random-policy baseline
measured in the QuickJS backend. ProcGen clones also get a strip of first frames
of several levels.

    python scripts/make_games_doc.py                  # every bundled game
    python scripts/make_games_doc.py pong coinrun --episodes 4
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

import numpy as np
from PIL import Image

import jsgym

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
STRIP_STEPS = (0, 10, 30, 60, 120, 240)
LEVEL_SEEDS = (0, 1, 2, 3, 4, 5)
PROCGEN = {"bigfish", "bossfight", "caveflyer", "chaser", "climber", "coinrun", "dodgeball",
           "fruitbot", "heist", "jumper", "leaper", "maze", "miner", "ninja", "plunder",
           "starpilot"}


def strip(frames: list[np.ndarray], scale: int = 2) -> Image.Image:
    row = np.concatenate([np.pad(f, ((0, 0), (0, 2), (0, 0)), constant_values=255)
                          for f in frames], axis=1)
    img = Image.fromarray(row)
    return img.resize((img.width * scale, img.height * scale), Image.NEAREST)


def random_baseline(game: str, episodes: int, max_steps: int, seed: int):
    envs = jsgym.make_vec(game, episodes, seed=seed, max_episode_steps=max_steps,
                          episode_statistics=True)
    envs.reset()
    rng = np.random.default_rng(seed)
    returns = np.full(episodes, np.nan)
    lengths = np.zeros(episodes, dtype=np.int64)
    done = np.zeros(episodes, dtype=bool)
    for _ in range(max_steps):
        _, _, _, _, infos = envs.step(rng.integers(0, envs.single_action_space.n, episodes))
        if "_episode" in infos:
            new = infos["_episode"] & ~done
            returns[new] = infos["episode"]["r"][new]
            lengths[new] = infos["episode"]["l"][new]
            done |= new
        if done.all():
            break
    envs.close()
    return float(np.nanmean(returns)), float(lengths[done].mean()) if done.any() else float("nan"), int(done.sum())


def frames_at(game: str, steps, seed: int = 0):
    env = jsgym.make(game)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    frames, t = [], 0
    for target in steps:
        while t < target:
            obs, *_ = env.step(int(rng.integers(0, env.action_space.n)))
            t += 1
        frames.append(obs)
    env.close()
    return frames


def first_frames(game: str, seeds):
    envs = jsgym.make_vec(game, len(seeds))
    obs, _ = envs.reset(seed=list(seeds))
    envs.close()
    return list(obs)


#: The hand-written section after the table (this script writes the whole file).
COMPATIBILITY = """## Game files written for PlayTrain's template

Game files written for PlayTrain (another p5-based RL project, whose action table
jsgym's default is) run unchanged. What jsgym honours of that template:

- **States**: `getGameState().gameState` may be `'PLAYING'`, `'GAMEOVER'` or `'WIN'`
  (any case); `'WIN'` is jsgym's `'won'`.
- **Default actions**: the template's Discrete(8) table is jsgym's default (0 NOOP; 1
  LEFT, 2 RIGHT, 3 UP, 4 DOWN held; 5 SPACE tapped; 6 LEFT+SPACE; 7 RIGHT+SPACE). A
  file's own `JSGYM_ACTIONS` table may say `press` where jsgym says `tapped`.
- **Pointer games**: the template's pointer action spaces are jsgym's
  `make_vec(pointer=(rows, cols))` (a grid of click targets after the keys) and
  `pointer="continuous"` (`Dict(action, pointer, button)`: a position in canvas
  pixels and the left button up, held or clicked); a file may declare its own as
  `JSGYM_POINTER` (`{grid: [rows, cols]}` or `'continuous'`). `mouseX`, `mouseY`,
  `pmouseX`, `movedX`, `mouseIsPressed`, `mouseButton` and the mouse callbacks behave
  as in p5 in both backends.
- **Matter.js**: the template's optional global `Matter` is loaded (matter-js 0.20.0,
  from npm) for files that name it, in both backends, with its random source seeded
  from the episode seed; `Matter.Runner` and `Matter.Render` need a page loop and a
  DOM and are not supported: step the engine in `draw()` with
  `Matter.Engine.update(engine, 1000 / 60)`.
- **Episode step limits**: the template ends an episode after a fixed number of
  steps; jsgym's default limit is 10,000 steps, so pass the template's, e.g.
  `jsgym.make_vec("their_game.js", 16, max_episode_steps=2000)` (and
  `jsgym validate their_game.js --browser` to check a file before training on it).
- **Not supported**: `createCanvas(w, h, WEBGL)` (3D) fails with a
  `GameContractError` saying so, in both backends; loading assets, the DOM and
  storage (see the coverage table below).
"""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--episodes", type=int, default=8)
    parser.add_argument("--max-steps", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    games = args.games or jsgym.bundled_games()
    (DOCS / "games").mkdir(parents=True, exist_ok=True)
    rows = []
    for game in games:
        t0 = time.perf_counter()
        title, actions = jsgym.games.header(jsgym.games.resolve(game)[1])
        strip(frames_at(game, STRIP_STEPS, args.seed)).save(DOCS / "games" / f"{game}.png")
        levels = ""
        if game in PROCGEN:
            strip(first_frames(game, LEVEL_SEEDS)).save(DOCS / "games" / f"{game}.levels.png")
            levels = f"<br>levels {LEVEL_SEEDS[0]}-{LEVEL_SEEDS[-1]}:<br>![{game} levels](games/{game}.levels.png)"
        mean, length, n = random_baseline(game, args.episodes, args.max_steps, args.seed)
        rows.append((game, title, actions, mean, length, n, levels))
        print(f"{game}: random return {mean:.2f}, length {length:.0f} ({n} episodes, "
              f"{time.perf_counter() - t0:.1f} s)", file=sys.stderr, flush=True)

    out = [
        "# Bundled games",
        "",
        "Generated by `python scripts/make_games_doc.py`. Each strip shows the 64x64 "
        f"observation at steps {', '.join(map(str, STRIP_STEPS))} of a random-policy episode "
        f"(seed {args.seed}); ProcGen clones also show the first frame of several levels. "
        f"The random-policy baseline is the mean return and length over {args.episodes} "
        f"episodes (QuickJS backend, uniform random actions, episodes capped at "
        f"{args.max_steps} steps).",
        "",
        "Play any of them yourself: `jsgym play <name>` (then open the printed URL).",
        "",
        "| game | frames | actions | random return | random length |",
        "|---|---|---|---|---|",
    ]
    for game, title, actions, mean, length, n, levels in rows:
        done = "" if n == args.episodes else f" ({n}/{args.episodes} ended)"
        out.append(f"| **{game}**<br>{title} | ![{game}](games/{game}.png){levels} | {actions} "
                   f"| {mean:.2f} | {length:.0f}{done} |")
    from jsgym.p5_coverage import markdown as coverage_section
    out += ["", COMPATIBILITY, coverage_section()]
    (DOCS / "games.md").write_text("\n".join(out) + "\n")
    print(f"wrote {DOCS / 'games.md'}", file=sys.stderr)


if __name__ == "__main__":
    main()
