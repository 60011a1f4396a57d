"""Shared helpers of the benchmark scripts: the game suites and their originals, timed
windows with the load seen during each, CPU affinity, machine and build facts, the
command-line options several scripts share, and result files.

Imported by the scripts of bench/, which run as scripts (``python bench/compare.py``),
so this module is found beside them (a script's folder is the first of ``sys.path``).
"""

from __future__ import annotations

import argparse
import csv
import importlib
import math
import os
import pathlib
import platform
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"

# Atari clones and their ALE originals (ale-py ships the ROMs; EnvPool's Atari task
# is "<Name>-v5").
ATARI = {
    "pong": "Pong", "breakout": "Breakout", "space_invaders": "SpaceInvaders",
    "freeway": "Freeway", "asteroids": "Asteroids", "qbert": "Qbert",
    "frostbite": "Frostbite", "seaquest": "Seaquest",
}
# ProcGen clones; EnvPool's task is "<Name>Easy-v0" / "<Name>Hard-v0".
PROCGEN = (
    "bigfish", "bossfight", "caveflyer", "chaser", "climber", "coinrun", "dodgeball",
    "fruitbot", "heist", "jumper", "leaper", "maze", "miner", "ninja", "plunder",
    "starpilot",
)
BASELINE_INSTALL = "pip install -e .[bench]"
# Other load (cores busy with other processes) above which a window is not "idle":
# background daemons and the kernel stay well under it on an otherwise idle machine.
IDLE_CORES = 0.1


def suite_of(game: str) -> str | None:
    """``"atari"``, ``"procgen"`` or None for a game without an original."""
    if game in ATARI:
        return "atari"
    if game in PROCGEN:
        return "procgen"
    return None


def jsgym_options(game: str, mode: str) -> dict | None:
    """``game_options`` for a clone (a bundled name, or a ``.js`` file named after
    one, such as an earlier version of it): the ProcGen ``distribution_mode``, else
    none."""
    name = pathlib.Path(game).stem if game.endswith(".js") else game
    return {"distribution_mode": mode} if name in PROCGEN else None


def envpool_task(game: str, mode: str) -> str:
    """EnvPool's task id for a clone's original."""
    if game in ATARI:
        return f"{ATARI[game]}-v5"
    return f"{game.capitalize()}{mode.capitalize()}-v0"


# EnvPool Atari in the ALE protocol of compare.py: one emulated frame per step, no
# sticky actions, native 210x160 RGB, no frame stack, no wrappers that change episodes.
ENVPOOL_ATARI_FRAME = dict(frame_skip=1, repeat_action_probability=0.0, img_height=210,
                           img_width=160, gray_scale=False, stack_num=1, noop_max=1,
                           episodic_life=False, reward_clip=False, use_fire_reset=False)


def reason(e: BaseException) -> str:
    """``Type: first line of the message``, for a table note."""
    text = str(e).strip()
    return f"{type(e).__name__}: {text.splitlines()[0]}" if text else type(e).__name__


def optional(module: str):
    """Imports an optional baseline; returns ``(module, None)`` or ``(None, reason)``."""
    try:
        return importlib.import_module(module), None
    except Exception as e:  # ImportError, or a missing system library (Qt for procgen)
        return None, reason(e)


# -- load and CPU ----------------------------------------------------------------------

from jsgym.machine import cpu_busy_fraction, proc_stat  # noqa: E402,F401  (shared with the package)


def proc_stat_cpus() -> dict[int, list[int]]:
    """The per-CPU lines of /proc/stat: {cpu: [user, nice, system, idle, ...]}."""
    out = {}
    with open("/proc/stat") as f:
        for line in f:
            if line.startswith("cpu") and line[3].isdigit():
                name, *vals = line.split()
                out[int(name[3:])] = [int(x) for x in vals]
    return out


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def self_cpu_ticks() -> int:
    """User + system clock ticks of this process, all its threads (/proc/self/stat)."""
    with open("/proc/self/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)


def online_cpus() -> int:
    return os.cpu_count() or 1


class LoadMeter:
    """CPU use between ``start()`` and ``stop()``: cores kept busy by this process
    (all its threads), by everything else on the machine (/proc/stat minus this
    process), and by everything else on the CPUs this thread may run on (its
    affinity at ``start()``: the pinned cores). Resolution: one clock tick (10 ms)."""

    def start(self):
        self._cores = os.sched_getaffinity(0)
        self._cpus = proc_stat_cpus()
        self._self = self_cpu_ticks()
        return self

    def stop(self) -> tuple[float, float, float]:
        """Returns ``(self_cores, other_cores, other_cores_on_ours)``, averaged over
        the interval."""
        cpus, before = proc_stat_cpus(), self._cpus
        mine = self_cpu_ticks() - self._self

        def totals(which):
            total = busy = 0
            for c in which:
                a, b = before.get(c), cpus.get(c)
                if a is None or b is None:
                    continue
                t = sum(b[:8]) - sum(a[:8])  # guest time is already in user/nice
                total += t
                busy += t - ((b[3] + b[4]) - (a[3] + a[4]))
            return total, busy

        total, busy = totals(cpus)
        ours_total, ours_busy = totals(self._cores)
        if total <= 0:
            return 0.0, 0.0, 0.0
        per_cpu = total / len(cpus)  # elapsed ticks of one CPU
        # this process runs only on its cores, so its ticks are all among theirs
        return (mine / per_cpu, max(0.0, busy - mine) / per_cpu,
                max(0.0, ours_busy - mine) / per_cpu)


# -- timed windows ---------------------------------------------------------------------

@dataclass
class Measurement:
    """Timed windows of one configuration: env steps/s per window, and the CPU use
    (cores) of this process and of the rest of the machine during each."""

    rates: list[float] = field(default_factory=list)
    self_cores: list[float] = field(default_factory=list)
    other_cores: list[float] = field(default_factory=list)
    near_cores: list[float] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    elapsed: list[float] = field(default_factory=list)
    rss_growth: int = 0

    @property
    def mean_rate(self) -> float:
        """Env steps over all windows / their total time."""
        return sum(self.steps) / sum(self.elapsed) if self.elapsed else math.nan

    @property
    def median(self) -> float:
        return statistics.median(self.rates) if self.rates else math.nan

    @property
    def low(self) -> float:
        return min(self.rates) if self.rates else math.nan

    @property
    def high(self) -> float:
        return max(self.rates) if self.rates else math.nan

    @property
    def spread(self) -> float:
        """(max - min) / median of the windows."""
        return (self.high - self.low) / self.median if self.rates and self.median else math.nan

    @property
    def other_mean(self) -> float:
        return statistics.fmean(self.other_cores) if self.other_cores else math.nan

    @property
    def other_max(self) -> float:
        return max(self.other_cores) if self.other_cores else math.nan

    @property
    def near_max(self) -> float:
        return max(self.near_cores) if self.near_cores else math.nan

    def load_cell(self) -> str:
        """Max other load over the windows: on this benchmark's cores / machine-wide."""
        return f"{self.near_max:.2f} / {self.other_max:.2f}" if self.other_cores else "n/a"

    @property
    def self_mean(self) -> float:
        return statistics.fmean(self.self_cores) if self.self_cores else math.nan

    def cell(self) -> str:
        """``median [min-max]`` in steps/s."""
        if not self.rates:
            return "n/a"
        return f"{fmt_rate(self.median)} [{fmt_rate(self.low)}-{fmt_rate(self.high)}]"


def timed_windows(step, *, env_steps_per_call: int, seconds: float, windows: int,
                  warmup: float) -> Measurement:
    """Calls ``step(i)`` (``i`` counts calls) for a warm-up of ``warmup`` seconds, then
    for ``windows`` windows of ``seconds`` each, and returns the env steps/s of each
    window. Each window ends at the first call that finishes after its deadline."""
    m = Measurement()
    calls = 0

    def window(duration):
        nonlocal calls
        n = 0
        start = time.perf_counter()
        deadline = start + duration
        while True:
            step(calls)
            calls += 1
            n += 1
            now = time.perf_counter()
            if now >= deadline:
                return n * env_steps_per_call, now - start

    if warmup > 0:
        window(warmup)
    for _ in range(windows):
        meter = LoadMeter().start()
        steps, elapsed = window(seconds)
        m.steps.append(steps)
        m.elapsed.append(elapsed)
        m.rates.append(steps / elapsed)
        mine, other, near = meter.stop()
        m.self_cores.append(mine)
        m.other_cores.append(other)
        m.near_cores.append(near)
    return m


class pinned:
    """Context manager: restricts this thread (and the threads it creates from now
    on: create envs inside the block) to ``cores``, and restores the mask after."""

    def __init__(self, cores):
        self.cores = set(cores)

    def __enter__(self):
        self.saved = os.sched_getaffinity(0)
        os.sched_setaffinity(0, self.cores)
        return self

    def __exit__(self, *exc):
        os.sched_setaffinity(0, self.saved)
        return False


def usable_cores() -> list[int]:
    return sorted(os.sched_getaffinity(0))


# -- command-line options shared by the scripts ------------------------------------------

def parser_from_doc(doc: str) -> argparse.ArgumentParser:
    """A script's parser: its docstring's first paragraph as the description, the rest
    (usage lines, what it writes) as the epilog."""
    first, _, rest = doc.partition("\n\n")
    return argparse.ArgumentParser(description=first, epilog=rest,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)


def add_core_and_out_dir(parser: argparse.ArgumentParser) -> None:
    """``--core`` (the CPU a single-core measurement is pinned to) and ``--out-dir``."""
    parser.add_argument("--core", type=int, default=None,
                        help="CPU to pin to (default: the first usable one)")
    parser.add_argument("--out-dir", type=pathlib.Path, default=RESULTS,
                        help="where the results go (bench/results)")


def pinned_core(parser: argparse.ArgumentParser, core: int | None) -> int:
    """``--core``, or the first usable CPU; a CPU outside this process's affinity is a
    usage error."""
    cores = usable_cores()
    if core is None:
        return cores[0]
    if core not in cores:
        parser.error(f"--core {core} is not usable here ({cores})")
    return core


def add_profile_options(parser: argparse.ArgumentParser) -> None:
    """The options of bench/profile.py's per-game protocol (a timed pass, a recorded
    rollout replayed against its empty twin), which bench/idiomatic.py runs too."""
    parser.add_argument("--envs", type=int, default=16, help="envs of the timed pass (16)")
    parser.add_argument("--mode", choices=("hard", "easy"), default="hard",
                        help="distribution_mode of the ProcGen clones (hard)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of a window (1.0)")
    parser.add_argument("--windows", type=int, default=3, help="timed windows (3)")
    parser.add_argument("--warmup", type=float, default=0.5, help="warm-up seconds (0.5)")
    parser.add_argument("--record-steps", type=int, default=300,
                        help="steps of the recorded rollout (300)")
    parser.add_argument("--samples", type=int, default=30,
                        help="frames of it recorded for the replay (30)")
    parser.add_argument("--replay-seconds", type=float, default=0.5,
                        help="seconds of alternating replay, empty twin and game (0.5)")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: 2 windows of 0.3 s, 100 recorded steps, 0.2 s replays")
    add_core_and_out_dir(parser)


def finish_profile_options(parser: argparse.ArgumentParser, args) -> None:
    """Applies ``--quick``, picks the core and checks the sampling options."""
    if args.quick:
        args.seconds, args.windows, args.warmup = 0.3, 2, 0.1
        args.record_steps, args.samples, args.replay_seconds = 100, 10, 0.2
    args.core = pinned_core(parser, args.core)
    if args.samples < 1 or args.record_steps < args.samples:
        parser.error("need 1 <= --samples <= --record-steps")


# -- machine and build facts -----------------------------------------------------------

def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def build_flags() -> str:
    """The native build's optimisation flags as the build files state them."""
    c_flags = "?"
    try:
        src = (ROOT / "rasterizer" / "build.rs").read_text()
        found = re.findall(r'"(-O[0-3s]|-ffp-contract=\w+|-fno-semantic-interposition|-march=[\w-]+|-flto\S*)"', src)
        c_flags = " ".join(dict.fromkeys(found)) or "?"
    except OSError:
        pass
    rust = "?"
    try:
        import tomllib
        cargo = tomllib.loads((ROOT / "rasterizer" / "Cargo.toml").read_text())
        rel = cargo.get("profile", {}).get("release", {})
        rust = " ".join(f"{k}={v}" for k, v in rel.items()) or "defaults"
    except (OSError, ImportError, ValueError):
        pass
    extra = os.environ.get("JSGYM_CFLAGS")
    extra_s = f"; JSGYM_CFLAGS={extra} in this shell" if extra else ""
    return (f"C {c_flags} (rasterizer/build.rs); Rust release {rust} "
            f"(rasterizer/Cargo.toml){extra_s}")


def version(module: str) -> str:
    try:
        from importlib.metadata import version as v
        return v(module)
    except Exception:
        return "not installed"


def machine_lines() -> list[str]:
    """Markdown bullets: hardware, software versions and build flags."""
    from jsgym._core import engine_name
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
        mem = f", {kib / 2**20:.1f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return [
        f"- machine: {cpu_model()}, {online_cpus()} CPUs online, {len(usable_cores())} usable"
        f"{mem}; Linux {platform.release()}",
        f"- software: Python {platform.python_version()}, numpy {version('numpy')}, "
        f"gymnasium {version('gymnasium')}, jsgym {version('jsgym')} ({engine_name()}), "
        f"ale-py {version('ale-py')}, envpool {version('envpool')}",
        f"- jsgym build: {build_flags()}",
        f"- command: `{' '.join([pathlib.Path(sys.argv[0]).name] + sys.argv[1:])}`",
    ]


def load_line(measurements) -> str:
    """One bullet summarising the other load over a list of Measurements."""
    others = [o for m in measurements for o in m.other_cores]
    near = [o for m in measurements for o in m.near_cores]
    if not others:
        return "- other load: not measured"
    mean, peak = statistics.fmean(others), max(others)
    verdict = ("idle enough" if peak <= IDLE_CORES else
               "**the machine was not idle: do not publish these figures**")
    return (f"- other load (CPU cores kept busy by other processes during the timed windows, "
            f"of {online_cpus()}): machine-wide mean {mean:.2f}, max {peak:.2f}; on the "
            f"benchmark's own cores max {max(near):.2f}: {verdict} (trustworthy where the "
            f"machine-wide figure stays below {IDLE_CORES} cores)")


# -- formatting and files --------------------------------------------------------------

def fmt_rate(x: float) -> str:
    if x is None or not math.isfinite(x):
        return "n/a"
    if x >= 100_000:
        return f"{x / 1000:,.0f}k"
    if x >= 1_000:
        return f"{x / 1000:,.1f}k"
    return f"{x:,.0f}"


def fmt_ratio(x: float | None) -> str:
    return f"{x:.2f}x" if x is not None and math.isfinite(x) else "n/a"


def geomean(values) -> float:
    vals = [v for v in values if v is not None and math.isfinite(v) and v > 0]
    return math.exp(statistics.fmean(math.log(v) for v in vals)) if vals else math.nan


def md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def write_csv(path: pathlib.Path, rows: list[dict]):
    path.parent.mkdir(parents=True, exist_ok=True)
    fields = list(dict.fromkeys(k for r in rows for k in r))
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def measurement_fields(m: Measurement) -> dict:
    """CSV columns of one Measurement."""
    return {
        "steps_per_s_median": round(m.median, 1), "steps_per_s_min": round(m.low, 1),
        "steps_per_s_max": round(m.high, 1), "windows": len(m.rates),
        "self_cores": round(m.self_mean, 2), "other_load_cores_mean": round(m.other_mean, 2),
        "other_load_cores_max": round(m.other_max, 2),
        "other_load_own_cores_max": round(m.near_max, 2),
        "rss_growth_mib": round(m.rss_growth / 2**20, 1),
        "steps_per_s_windows": " ".join(f"{r:.0f}" for r in m.rates),
        "other_load_cores_windows": " ".join(f"{o:.2f}" for o in m.other_cores),
        "other_load_own_cores_windows": " ".join(f"{o:.2f}" for o in m.near_cores),
    }


def log(msg: str):
    print(msg, file=sys.stderr, flush=True)


def one_thread_rate(lib: pathlib.Path, game: str, *, envs: int, seconds: float,
                    windows: int, mem_envs: int = 2) -> float:
    """bench/throughput.py's one-thread steps/s for ``game``, in a child process that
    loads the native library ``lib`` instead of the installed one (JSGYM_NATIVE_LIB):
    how bench/engines.py and bench/ab.py compare builds. ``lib`` may instead be a whole
    checkout of another commit with its native module built in (bench/ab.py
    --before-tree): its own bench/throughput.py then runs there, on its own package."""
    if lib.is_dir():
        env = dict(os.environ, PYTHONPATH=str(lib))
        env.pop("JSGYM_NATIVE_LIB", None)
        cwd, script = lib, lib / "bench" / "throughput.py"
    else:
        env = dict(os.environ, JSGYM_NATIVE_LIB=str(lib))
        cwd, script = None, ROOT / "bench" / "throughput.py"
    out = subprocess.run(
        [sys.executable, str(script), game, "--envs", str(envs),
         "--seconds", str(seconds), "--windows", str(windows), "--mem-envs", str(mem_envs),
         "--out", os.devnull],
        cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout
    # the one game's row (its name as that checkout prints it)
    row = next(line for line in out.splitlines()
               if line.startswith("| ") and not line.startswith("| game") and "---" not in line)
    return float(re.sub(r"[^\d.]", "", row.split("|")[2].split("[")[0]))
