"""Do two builds of the native library draw the same frames? Hashes every frame of
seeded random rollouts of each game (the bundled games and the idiomatic corpus by
default) with one build, then with the other, and lists the games whose frames,
rewards or terminations differ, with the first differing step and the largest pixel
difference. The check for a rasterizer or shim change that must not change a pixel.

    python bench/frame_identity.py --before-lib old.so            # vs this checkout's build
    python bench/frame_identity.py --before-lib a.so --after-lib b.so pong bigfish

Each side runs in its own process (jsgym loads one native library per process);
about 1 s per game and side at the defaults.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def default_games() -> list[str]:
    import jsgym

    games = list(jsgym.bundled_games())
    for sub in ("pre_rewrite", "plain"):
        games += sorted(str(p) for p in (ROOT / "bench" / "idiomatic" / sub).glob("*.js"))
    return games


def rollout(game: str, steps: int, envs: int, seed: int) -> dict:
    """Per step: a digest of the frames, rewards and terminations of all envs; and the
    frames themselves at the steps asked for."""
    import numpy as np

    import jsgym

    vec = jsgym.make_vec(game, envs, num_threads=1, seed=seed)
    obs, _ = vec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    digests = [hashlib.sha256(obs.tobytes()).hexdigest()[:16]]
    frames = [obs.copy()]
    for _ in range(steps):
        obs, rew, term, trunc, _ = vec.step(rng.integers(0, vec.single_action_space.n, size=envs))
        h = hashlib.sha256(obs.tobytes())
        h.update(np.asarray(rew, np.float64).tobytes() + term.tobytes() + trunc.tobytes())
        digests.append(h.hexdigest()[:16])
        frames.append(obs.copy())
    vec.close()
    return {"digests": digests, "frames": np.stack(frames)}


def side(lib: str | None, games: list[str], args, out: pathlib.Path) -> None:
    env = dict(os.environ)
    if lib:
        env["JSGYM_NATIVE_LIB"] = str(pathlib.Path(lib).resolve())
    subprocess.run([sys.executable, __file__, "--inner", str(out), "--steps", str(args.steps),
                    "--envs", str(args.envs), "--seed", str(args.seed), *games],
                   env=env, check=True)


def inner(args) -> None:
    import numpy as np

    out = pathlib.Path(args.inner)
    out.mkdir(parents=True, exist_ok=True)
    for k, game in enumerate(args.games):
        r = rollout(game, args.steps, args.envs, args.seed)
        np.save(out / f"{k}.npy", r["frames"])
        (out / f"{k}.json").write_text(json.dumps(r["digests"]))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="default: every bundled game and the idiomatic corpus")
    parser.add_argument("--before-lib", help="the native library to compare with (default: this checkout's build)")
    parser.add_argument("--after-lib", help="default: this checkout's build")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--inner", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inner:
        inner(args)
        return 0
    if not (args.before_lib or args.after_lib):
        parser.error("give --before-lib and/or --after-lib")
    import tempfile

    import numpy as np

    games = args.games or default_games()
    with tempfile.TemporaryDirectory() as tmp:
        a, b = pathlib.Path(tmp) / "before", pathlib.Path(tmp) / "after"
        side(args.before_lib, games, args, a)
        side(args.after_lib, games, args, b)
        differ = 0
        for k, game in enumerate(games):
            da = json.loads((a / f"{k}.json").read_text())
            db = json.loads((b / f"{k}.json").read_text())
            if da == db:
                continue
            differ += 1
            step = next(i for i, (x, y) in enumerate(zip(da, db)) if x != y)
            fa, fb = np.load(a / f"{k}.npy"), np.load(b / f"{k}.npy")
            diff = np.abs(fa.astype(np.int16) - fb.astype(np.int16))
            print(f"{game}: differs from step {step}; {int((diff > 0).sum())} channel values differ, "
                  f"at most by {int(diff.max())}")
        print(f"{len(games) - differ} of {len(games)} games identical "
              f"({args.steps} steps x {args.envs} envs, seed {args.seed})")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
