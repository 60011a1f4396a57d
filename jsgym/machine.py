"""What the machine gives this process: the cores it may use and how busy the others
keep them. The env's default worker threads, the trainers' torch threads and the
benchmarks' load reports all read them here."""

from __future__ import annotations

import math
import os
import pathlib
import time


def usable_cores() -> int:
    """The cores this process may run on: its CPU affinity, capped by a cgroup CPU quota
    (cgroup v2 ``cpu.max``, v1 ``cpu.cfs_quota_us``) rounded up; at least 1."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    quota = None
    try:
        limit, period = pathlib.Path("/sys/fs/cgroup/cpu.max").read_text().split()[:2]
        if limit != "max":
            quota = int(limit) / int(period)
    except (OSError, ValueError):
        try:
            q = int(pathlib.Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").read_text())
            period = int(pathlib.Path("/sys/fs/cgroup/cpu/cpu.cfs_period_us").read_text())
            if q > 0 and period > 0:
                quota = q / period
        except (OSError, ValueError):
            pass
    if quota is not None:
        cores = min(cores, math.ceil(quota))
    return max(1, cores)


def native_bf16() -> bool:
    """Whether the CPU computes bfloat16 natively (AVX512-BF16 or AMX-BF16, from
    /proc/cpuinfo): there oneDNN runs convolutions in bf16 about twice as fast as in
    fp32, while elsewhere it emulates them, slower than fp32."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return bool(flags & {"avx512_bf16", "amx_bf16"})
    except OSError:
        pass
    return False


def proc_stat() -> list[int]:
    """The machine-wide CPU line of /proc/stat: [user, nice, system, idle, iowait, ...]."""
    with open("/proc/stat") as f:
        return [int(x) for x in f.readline().split()[1:]]


def cpu_busy_fraction(interval_start, interval_end) -> float:
    """Share of all CPUs busy between two /proc/stat samples."""
    a, b = interval_start, interval_end
    idle = (b[3] + b[4]) - (a[3] + a[4])
    total = sum(b) - sum(a)
    return 1.0 - idle / total if total else 0.0


def busy_cores(seconds: float = 0.25) -> float:
    """How many cores are busy now: the busy share of /proc/stat's CPU time over
    ``seconds``, times the cores (0 where /proc/stat is missing). Called while this
    process is idle, it is the load of the other processes."""
    try:
        start = proc_stat()
        time.sleep(seconds)
        end = proc_stat()
    except (OSError, ValueError, IndexError):
        return 0.0
    return cpu_busy_fraction(start, end) * (os.cpu_count() or 1)
