"""Before/after throughput of two builds of the native library, side by side in one run.

The way to check that a change to the runtime, the shim or the rasterizer is faster (or
costs nothing): builds the library at a git ref (``--before``, into .cache/ab/<commit>/,
from a temporary worktree) or takes a built one (``--before-lib``), builds the working
tree the same way (or takes ``--after-lib``), then runs
bench/throughput.py against each library in turn, ``--reps`` times per game with the
order alternating, and prints the median one-thread steps/s of each and their ratio.
Alternating in one run keeps the machine's load the same for both sides; run it with
nothing else on the machine all the same.

Both libraries must be built from this checkout's contract: jsgym refuses, at import, a
native library of another ABI version or contract digest (jsgym/_core.py). Across such
a change, ``--before-tree REF`` checks the commit out whole (.cache/ab/tree-<commit>/),
builds its wheel with maturin and unpacks the native module into that checkout, and
runs the commit's own bench/throughput.py there, with its own Python package: the
engine then is all that differs when the games are given as paths to the same files
(a bundled game's name resolves to each checkout's own file). Its wheel is a maturin
build, so give ``--after-lib`` the installed library (maturin's too) to compare like
with like.

    python bench/ab.py pong bigfish --before HEAD~1        # working tree vs the commit before
    python bench/ab.py pong --before-lib old.so --after-lib new.so
    python bench/ab.py GAME.js --before-tree b110cbd --after-lib jsgym/_native/lib_native.so
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import zipfile

from common import one_thread_rate  # noqa: E402  (bench/ is sys.path[0] for a script)

ROOT = pathlib.Path(__file__).resolve().parent.parent


def build_ref(ref: str) -> pathlib.Path:
    """Builds the native library of commit ``ref`` (cached by commit)."""
    sha = subprocess.run(["git", "rev-parse", "--short=12", ref], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    target = ROOT / ".cache" / "ab" / sha
    lib = target / "release" / "libjsgym_native.so"
    if lib.exists():
        return lib
    print(f"building the native library at {ref} ({sha}) ...", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        tree = pathlib.Path(tmp) / "src"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), sha], cwd=ROOT,
                       check=True)
        try:
            env = dict(os.environ, CARGO_TARGET_DIR=str(target))
            subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=tree / "rasterizer",
                           env=env, check=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                           check=False)
    return lib


def build_tree(ref: str) -> pathlib.Path:
    """A whole checkout of commit ``ref`` with its own native module built in (cached
    by commit), for a commit whose ABI or contract differ from this checkout's."""
    sha = subprocess.run(["git", "rev-parse", "--short=12", ref], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    tree = ROOT / ".cache" / "ab" / f"tree-{sha}"
    native = tree / "jsgym" / "_native"
    if (native / "lib_native.so").exists():
        return tree
    if importlib.util.find_spec("maturin") is None:
        raise SystemExit("--before-tree builds the commit's wheel with maturin: pip install maturin")
    print(f"checking out and building {ref} ({sha}) whole ...", file=sys.stderr)
    if not tree.exists():
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), sha], cwd=ROOT,
                       check=True)
    with tempfile.TemporaryDirectory() as wheels:
        env = dict(os.environ, CARGO_TARGET_DIR=str(tree.parent / f"target-{sha}"))
        subprocess.run([sys.executable, "-m", "maturin", "build", "--release", "--quiet", "-o", wheels],
                       cwd=tree, env=env, check=True)
        (wheel,) = pathlib.Path(wheels).glob("*.whl")
        with zipfile.ZipFile(wheel) as z:
            for name in z.namelist():
                if name.startswith("jsgym/_native/"):
                    z.extract(name, tree)
    if not (tree / "bench" / "throughput.py").exists():
        raise SystemExit(f"{ref} has no bench/throughput.py to time it with")
    return tree


def build_worktree() -> pathlib.Path:
    """Builds the working tree's native library the way build_ref builds a commit's:
    the installed library comes from maturin with other settings, and was measured
    here to run 1.06x faster than a cargo build of the same source."""
    target = ROOT / ".cache" / "ab" / "worktree"
    print("building the native library of the working tree ...", file=sys.stderr)
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT / "rasterizer",
                   env=dict(os.environ, CARGO_TARGET_DIR=str(target)), check=True)
    return target / "release" / "libjsgym_native.so"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="+", help="bundled games or .js paths")
    side = parser.add_mutually_exclusive_group(required=True)
    side.add_argument("--before", metavar="REF", help="git ref to build the 'before' library from")
    side.add_argument("--before-lib", metavar="PATH", help="an already built 'before' library")
    side.add_argument("--before-tree", metavar="REF",
                      help="time commit REF whole, with its own package and bench/throughput.py "
                           "(across a change of ABI or contract; give games as .js paths)")
    parser.add_argument("--after-lib", metavar="PATH",
                        help="the 'after' library (default: the working tree, built like "
                             "--before; give the installed one only against a library "
                             "built the same way)")
    parser.add_argument("--reps", type=int, default=3, help="runs per game and side")
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=1.0, help="length of a timed window")
    parser.add_argument("--windows", type=int, default=3, help="timed windows per run")
    args = parser.parse_args(argv)

    if args.before_tree:
        before = build_tree(args.before_tree)
    else:
        before = pathlib.Path(args.before_lib) if args.before_lib else build_ref(args.before)
    after = pathlib.Path(args.after_lib) if args.after_lib else build_worktree()
    for name, lib in (("before", before), ("after", after)):
        if not lib.exists():
            parser.error(f"the {name} library {lib} does not exist")

    def rate(lib: pathlib.Path, game: str) -> float:
        # (a checkout runs in its own directory: a game path must not depend on ours)
        if lib.is_dir() and game.endswith(".js"):
            game = str(pathlib.Path(game).resolve())
        return one_thread_rate(lib, game, envs=args.envs, seconds=args.seconds, windows=args.windows)
    print(f"before: {before}\nafter:  {after}\n"
          f"{args.envs} envs, one thread, {args.reps} alternating runs per side "
          f"(median), {args.windows} windows of {args.seconds:g} s each\n")
    print("| game | before steps/s | after steps/s | after / before | runs (before; after) |")
    print("|---|---|---|---|---|")
    for game in args.games:
        rates = {"before": [], "after": []}
        for rep in range(args.reps):
            order = (("before", before), ("after", after))
            for name, lib in (order if rep % 2 == 0 else order[::-1]):
                rates[name].append(rate(lib, game))
        b, a = statistics.median(rates["before"]), statistics.median(rates["after"])
        runs = "; ".join(", ".join(f"{x:,.0f}" for x in rates[k]) for k in ("before", "after"))
        print(f"| {game} | {b:,.0f} | {a:,.0f} | {a / b:.3f} | {runs} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
