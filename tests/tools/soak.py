"""Soak test: many envs, many steps, autoresets, failing and allocating games; the
process's resident memory (RSS), sampled over time, must be flat after warm-up.

    python tests/tools/soak.py                       # 10^6 env-steps (the issue's figure)
    python tests/tools/soak.py --steps 200000 --out bench/results/soak.md
    python tests/tools/soak.py --seconds 3600        # a stated duration instead

Mix (one vector env each, stepped round-robin with random actions): three bundled
games with short episodes (autoresets every 200 steps at most); a game that allocates
arrays, strings, objects and typed arrays every frame and drops them; a game that
throws, runs out of memory or loops past its deadline now and then under
on_error="reset" (so failing envs are destroyed and rebuilt); and every few thousand
steps a whole vector env is created, stepped and closed. The slope is a least-squares
fit of RSS against env-steps over the samples after warm-up (the first --warmup
fraction), reported in KiB per 10^5 env-steps; tests/test_soak.py runs a short
version in CI.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import platform
import sys
import tempfile
import time

import numpy as np

ALLOCATOR = """
// Allocates and drops ~200 KiB of assorted garbage every frame; ends episodes at random.
let rng, score, state, keep;
function setup() { createCanvas(64, 64); }
function resetGame(seed) { rng = mulberry32(seed); score = 0; state = 'playing'; keep = []; }
function draw() {
  background(10);
  const junk = [];
  for (let i = 0; i < 200; i++) junk.push({x: rng(), y: rng(), tag: 'e' + i});
  const text = 'frame ' + frameCount + ' '.repeat(1000) + junk.length;
  const buf = new Float64Array(8192);
  const m = new Map(); for (let i = 0; i < 100; i++) m.set('k' + i, [i, i * 2]);
  keep.push(new Uint8Array(4096)); if (keep.length > 32) keep.shift();
  score += buf.length > 0 && text.length > 0 && m.size ? 1 : 0;
  fill(200, 100, 50); rect(rng() * 56, rng() * 56, 8, 8);
  if (rng() < 0.005) state = 'gameover';
}
function getGameState() { return {score: score, lives: 1, gameState: state}; }
function mulberry32(a) { return function () { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }
"""

FAILER = """
// Now and then throws, exhausts its memory limit, or loops past its deadline.
let rng, score;
function setup() { createCanvas(64, 64); }
function resetGame(seed) { rng = mulberry32(seed); score = 0; }
function draw() {
  background(40);
  score += 1;
  rect(frameCount % 60, 30, 4, 4);
  const r = rng();
  if (r < 0.002) throw new Error('random failure at frame ' + frameCount);
  if (r > 0.9995) { const hog = []; for (;;) hog.push(new Array(4096).fill(r)); }
  if (r > 0.4999 && r < 0.50005) for (;;) {}
}
function getGameState() { return {score: score, lives: 1, gameState: 'playing'}; }
function mulberry32(a) { return function () { a |= 0; a = a + 0x6D2B79F5 | 0; let t = Math.imul(a ^ a >>> 15, 1 | a); t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t; return ((t ^ t >>> 14) >>> 0) / 4294967296; }; }
"""


def rss_bytes() -> int:
    """Resident set size of this process, from /proc (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def slope_per_1e5(xs, ys) -> float:
    """Least-squares slope of ys (bytes) against xs (env-steps), in KiB per 10^5 steps."""
    if len(xs) < 3:
        return float("nan")
    x = np.asarray(xs, dtype=np.float64)
    y = np.asarray(ys, dtype=np.float64)
    return float(np.polyfit(x, y, 1)[0] * 1e5 / 1024)


def soak(*, steps: int = 1_000_000, seconds: float | None = None, envs: int = 64,
         threads: int | None = None, samples: int = 60, warmup: float = 0.2,
         churn_every: int = 20, seed: int = 0, log=print) -> dict:
    """Runs the soak and returns its figures (see the module docstring)."""
    import jsgym

    tmp = tempfile.TemporaryDirectory(prefix="jsgym-soak-")
    d = pathlib.Path(tmp.name)
    (d / "allocator.js").write_text(ALLOCATOR)
    (d / "failer.js").write_text(FAILER)
    per = max(1, envs // 6)
    common = dict(num_threads=threads, max_episode_steps=200, on_error="reset", seed=seed,
                  episode_statistics=True)
    vecs = [
        jsgym.make_vec("catch", per, **common),
        jsgym.make_vec("pong", per, **common),
        jsgym.make_vec("breakout", per, **common),
        jsgym.make_vec(d / "allocator.js", per * 2, memory_limit=16 << 20, **common),
        jsgym.make_vec(d / "failer.js", per, memory_limit=8 << 20, step_timeout=0.05,
                       **common),
    ]
    n_envs = sum(v.num_envs for v in vecs)
    rng = np.random.default_rng(seed)
    for v in vecs:
        v.reset()
    stats = {"episodes": 0, "errors": 0, "churned_vector_envs": 0}
    xs, ys, ts = [], [], []
    done_steps = 0
    rounds = 0
    t0 = time.perf_counter()
    budget = steps if seconds is None else None
    sample_every = max(1, (steps // n_envs) // samples) if seconds is None else None
    next_sample_t = t0
    while True:
        if budget is not None and done_steps >= budget:
            break
        if seconds is not None and time.perf_counter() - t0 >= seconds:
            break
        for v in vecs:
            _, _, _, _, infos = v.step(rng.integers(0, v.single_action_space.n, v.num_envs))
            done_steps += v.num_envs
            if "_episode" in infos:
                stats["episodes"] += int(infos["_episode"].sum())
            if "_error" in infos:
                stats["errors"] += int(infos["_error"].sum())
        rounds += 1
        if churn_every and rounds % churn_every == 0:  # create, use and close a vector env
            extra = jsgym.make_vec("catch", 4, num_threads=threads)
            extra.reset(seed=rounds)
            for _ in range(5):
                extra.step(rng.integers(0, 8, 4))
            extra.close()
            stats["churned_vector_envs"] += 1
        now = time.perf_counter()
        due = rounds % sample_every == 0 if sample_every else now >= next_sample_t
        if due:
            xs.append(done_steps)
            ys.append(rss_bytes())
            ts.append(now - t0)
            if seconds is not None:
                next_sample_t = now + seconds / samples
    elapsed = time.perf_counter() - t0
    if not xs or xs[-1] != done_steps:
        xs.append(done_steps)
        ys.append(rss_bytes())
        ts.append(elapsed)
    for v in vecs:
        v.close()
    tmp.cleanup()
    k = max(1, int(len(xs) * warmup))
    result = {
        "env_steps": done_steps, "envs": n_envs, "seconds": elapsed,
        "steps_per_second": done_steps / elapsed, "samples": len(xs),
        "rss_start_mib": ys[0] / 2**20, "rss_after_warmup_mib": ys[k] / 2**20,
        "rss_end_mib": ys[-1] / 2**20, "rss_max_mib": max(ys) / 2**20,
        "slope_kib_per_1e5_steps": slope_per_1e5(xs[k:], ys[k:]),
        "growth_after_warmup_mib": (ys[-1] - ys[k]) / 2**20,
        "trace": list(zip(xs, ts, ys)), **stats,
    }
    return result


def report(r: dict) -> str:
    lines = [
        "# jsgym soak test",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"engine {__import__('jsgym._core', fromlist=['engine_name']).engine_name()}.",
        "",
        "| env-steps | envs | duration (s) | steps/s | episodes | env errors (restarted) | vector envs created+closed | RSS start (MiB) | RSS after warm-up (MiB) | RSS end (MiB) | RSS max (MiB) | slope after warm-up (KiB / 10^5 steps) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        f"| {r['env_steps']:,} | {r['envs']} | {r['seconds']:.1f} | {r['steps_per_second']:,.0f} | "
        f"{r['episodes']:,} | {r['errors']:,} | {r['churned_vector_envs']:,} | {r['rss_start_mib']:.1f} | "
        f"{r['rss_after_warmup_mib']:.1f} | {r['rss_end_mib']:.1f} | {r['rss_max_mib']:.1f} | "
        f"{r['slope_kib_per_1e5_steps']:+.1f} |",
        "",
        "RSS over time (env-steps, seconds, MiB):",
        "",
        "```",
        *(f"{x:>10,} {t:8.1f} {y / 2**20:8.1f}" for x, t, y in r["trace"]),
        "```",
    ]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=1_000_000, help="env-steps in total")
    p.add_argument("--seconds", type=float, default=None, help="run for a duration instead")
    p.add_argument("--envs", type=int, default=64, help="envs over all vector envs (about)")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--samples", type=int, default=60)
    p.add_argument("--warmup", type=float, default=0.2, help="fraction of samples ignored")
    p.add_argument("--max-slope", type=float, default=None,
                   help="exit 1 if the slope (KiB / 10^5 steps) is above this")
    p.add_argument("--out", default=None, help="write the markdown report here")
    args = p.parse_args(argv)
    r = soak(steps=args.steps, seconds=args.seconds, envs=args.envs, threads=args.threads,
             samples=args.samples, warmup=args.warmup)
    text = report(r)
    print(text)
    if args.out:
        pathlib.Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        pathlib.Path(args.out).write_text(text)
    if args.max_slope is not None and r["slope_kib_per_1e5_steps"] > args.max_slope:
        print(f"RSS slope {r['slope_kib_per_1e5_steps']:.1f} KiB / 10^5 steps is above "
              f"{args.max_slope}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
