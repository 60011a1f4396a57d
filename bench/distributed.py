"""IMPALA's Ray actor fleet against its threaded actors on this machine: env steps/s
reaching the learner with 1, 2 and 4 actors, the learner's updates/s, and where the
time goes. Writes bench/results/distributed.md and distributed.csv.

1. Delivery. A sink learner takes unrolls as fast as they come (no gradient step) and
   publishes the weights after every batch of --batch-size unrolls, as the trainer does
   after an update. Threaded: impala.ThreadFleet, N actor threads of this process, their
   inference in it. Ray: jsgym/trainers/ray_fleet.RayFleet on a local Ray instance, N actor
   processes (each reserving cores/N CPUs), their inference on their own CPU. Each actor
   has --envs envs of --game stepped by one native env thread, in two halves; the same
   unroll length and queue sizes on both sides; both pinned to the same cores.
   Figure: env steps/s of the unrolls the sink received, median of timed windows
   [min-max] after a warm-up; and the CPU the whole process tree used (for Ray: the
   actor processes and Ray's own daemons, GCS and raylet), from /proc.
2. Training. jsgym/trainers/impala.py itself, threaded and --ray local, with N actors, for
   --train-seconds each: agent steps/s and learner updates/s over the run after its first
   third (the actors' start-up excluded), read from the run's scalars.csv; and the
   learner alone (the same update on a fixed batch, no actors): its ceiling in updates/s.
3. Where the time goes. Per unroll: serialising it (pickle protocol 5, buffers out of
   band, as Ray does), ray.put into the object store and ray.get back on the same node,
   and a fetch from an actor on another node of a two-node ray.cluster_utils.Cluster
   (both on this machine, through loopback); the actors' loop split into env wait,
   inference, waiting on a full queue (back-pressure) and the rest, from phase 1; and a
   weight broadcast (ray.put of the state dict, one actor loading it).

The load of other processes is recorded per window (machine busy minus this process
tree); figures are worth publishing only where it stays near 0.

Time at defaults (2 rounds of 6 delivery configurations, threaded and Ray alternating,
each start-up + 2 s warm-up + 3 windows of 3 s; 2 training runs of 30 s; the costs):
about 6 minutes; --quick (1 round of 2 windows of 1 s, 10 s training runs) about 2.

    python bench/distributed.py                     # full run
    python bench/distributed.py --quick             # smoke run
    python bench/distributed.py --actors 1 2 --game coinrun
"""

from __future__ import annotations

import argparse
import collections
import sys

# bench/profile.py (this script's folder is sys.path[0]) shadows the standard library's
# profile module, which torch.optim imports through cProfile: import the real one first
_here = sys.path.pop(0)
import cProfile  # noqa: E402,F401

sys.path.insert(0, _here)

import csv  # noqa: E402
import os  # noqa: E402
import pathlib  # noqa: E402
import pickle  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

# the local Ray instance and test cluster stay on the loopback interface (read by `import ray`)
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402

import common  # noqa: E402
from common import Measurement, fmt_rate, log  # noqa: E402

from jsgym.trainers import impala  # noqa: E402
from jsgym.trainers.common import Agent  # noqa: E402

MODES = ("threaded", "ray")


# -- CPU of this process tree ----------------------------------------------------------

def tree_pid_ticks(root: int) -> dict[int, int]:
    """utime + stime (clock ticks, /proc) of ``root`` and each of its descendants."""
    parent, ticks = {}, {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(d)] = int(fields[1])
        ticks[int(d)] = int(fields[11]) + int(fields[12])
    children: dict[int, list[int]] = {}
    for pid, pp in parent.items():
        children.setdefault(pp, []).append(pid)
    out, stack = {}, [root]
    while stack:
        pid = stack.pop()
        out[pid] = ticks.get(pid, 0)
        stack.extend(children.get(pid, []))
    return out


def tree_cpu_since(before: dict[int, int], root: int) -> int:
    """Clock ticks the tree of ``root`` used since ``before`` (a ``tree_pid_ticks``):
    per process, so one that exits in between (a closed fleet's actor) takes its past
    CPU with it instead of making the sum fall; one that started counts from 0."""
    return sum(t - before.get(pid, 0) for pid, t in tree_pid_ticks(root).items())


def wait_for_tree(pids: set[int], timeout: float = 15.0) -> None:
    """Waits until this process tree is back to ``pids`` (a closed Ray fleet's actor
    processes take a moment to exit), so they do not run into the next measurement."""
    deadline = time.monotonic() + timeout
    while set(tree_pid_ticks(os.getpid())) - pids and time.monotonic() < deadline:
        time.sleep(0.2)


class TreeLoadMeter:
    """common.LoadMeter for a process tree: cores kept busy by this process and its
    descendants (Ray's daemons and actor processes), and by everything else."""

    def start(self):
        self._cpus = common.proc_stat_cpus()
        self._mine = tree_pid_ticks(os.getpid())
        return self

    def stop(self) -> tuple[float, float]:
        cpus, before = common.proc_stat_cpus(), self._cpus
        mine = tree_cpu_since(self._mine, os.getpid())
        total = busy = 0
        for c, b in cpus.items():
            a = before.get(c)
            if a is None:
                continue
            t = sum(b[:8]) - sum(a[:8])
            total += t
            busy += t - ((b[3] + b[4]) - (a[3] + a[4]))
        if total <= 0:
            return 0.0, 0.0
        per_cpu = total / len(cpus)
        return mine / per_cpu, max(0.0, busy - mine) / per_cpu


def windows(step, *, seconds: float, n: int, warmup: float) -> Measurement:
    """Like common.timed_windows, for ``step() -> env steps delivered`` and the tree's CPU
    (``near_cores`` is left equal to the machine-wide other load: all cores are ours)."""
    m = Measurement()

    def window(duration):
        steps, start = 0, time.perf_counter()
        while True:
            steps += step()
            now = time.perf_counter()
            if now >= start + duration:
                return steps, now - start

    if warmup > 0:
        window(warmup)
    for _ in range(n):
        meter = TreeLoadMeter().start()
        steps, elapsed = window(seconds)
        mine, other = meter.stop()
        m.steps.append(steps)
        m.elapsed.append(elapsed)
        m.rates.append(steps / elapsed)
        m.self_cores.append(mine)
        m.other_cores.append(other)
        m.near_cores.append(other)
    return m


# -- 1. delivery ------------------------------------------------------------------------

def fleet_args(a, n: int, mode: str) -> impala.Args:
    cores = len(common.usable_cores())
    return impala.Args(game=a.game, num_actors=n, envs_per_actor=a.envs, env_threads=1,
                       unroll_length=a.unroll_length, batch_size=a.batch_size,
                       queue_size=a.queue_size, ray="local" if mode == "ray" else None,
                       ray_actor_cpus=cores / n, frameskip=4)


def delivery(mode: str, n: int, a, agent: Agent) -> tuple[Measurement, dict, dict]:
    args = fleet_args(a, n, mode)
    pids = set(tree_pid_ticks(os.getpid()))  # Ray's daemons, no actor process
    if mode == "ray":
        from jsgym.trainers.ray_fleet import RayFleet
        fleet = RayFleet(args, [a.game], agent, seed=1)
    else:
        fleet = impala.ThreadFleet(args, [a.game], agent, seed=1, device=torch.device("cpu"))
    per_unroll = args.envs_per_actor // 2 * args.unroll_length
    taken = [0]

    def step() -> int:
        fleet.next_unroll()
        taken[0] += 1
        if taken[0] % args.batch_size == 0:  # the trainer publishes after each update
            fleet.publish(agent, taken[0] // args.batch_size)
        return per_unroll

    try:
        fleet.publish(agent, 0)
        m = windows(step, seconds=a.seconds, n=a.windows, warmup=a.warmup)
        stats, summary = fleet.stats(), fleet.summary()
    finally:
        fleet.close()
        wait_for_tree(pids)
    return m, stats, summary


# -- 2. training ------------------------------------------------------------------------

def training(mode: str, n: int, a) -> dict:
    """jsgym/trainers/impala.py for a.train_seconds; rates over its last two thirds."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "jsgym.trainers.impala", "--game", a.game,
               "--num-actors", str(n), "--envs-per-actor", str(a.envs), "--env-threads", "1",
               "--unroll-length", str(a.unroll_length), "--batch-size", str(a.batch_size),
               "--queue-size", str(a.queue_size), "--total-timesteps", "100000000",
               "--time-budget", str(a.train_seconds), "--eval-episodes", "0",
               "--checkpoint-every", "0", "--no-progress", "--out-dir", out]
        if mode == "ray":
            cores = len(common.usable_cores())
            cmd += ["--ray", "local", "--ray-actor-cpus", f"{cores / n:g}"]
        t0, cpus0 = time.time(), common.proc_stat()
        seen: dict[int, int] = {}  # every process of the run's tree, its last CPU ticks
        with open(os.path.join(out, "stdout"), "w+") as so, \
                open(os.path.join(out, "stderr"), "w+") as se:
            proc = subprocess.Popen(cmd, stdout=so, stderr=se, text=True, env=os.environ)
            while proc.poll() is None:
                seen.update(tree_pid_ticks(proc.pid))
                time.sleep(0.25)
            so.seek(0), se.seek(0)
            stdout, stderr = so.read(), se.read()
        wall = time.time() - t0
        mine = sum(seen.values()) / os.sysconf("SC_CLK_TCK") / wall
        other = max(0.0, common.cpu_busy_fraction(cpus0, common.proc_stat())
                    * common.online_cpus() - mine)
        if proc.returncode:
            return {"error": stderr.strip().splitlines()[-1] if stderr.strip() else "failed"}
        run = next(p for p in pathlib.Path(out).iterdir() if p.is_dir())
        with open(run / "scalars.csv", newline="") as f:
            rows = [(int(r["step"]), float(r["wall_time"])) for r in csv.DictReader(f)
                    if r["tag"] == "charts/SPS"]
    line = [l for l in stdout.splitlines() if l.startswith("summary ")][-1]
    s = dict(kv.split("=", 1) for kv in line.split()[1:])
    t0 = rows[0][1]
    tail = [r for r in rows if r[1] - t0 >= (rows[-1][1] - t0) / 3]
    (s0, w0), (s1, w1) = (tail if len(tail) > 1 else rows)[0], rows[-1]
    per_update = a.batch_size * a.envs // 2 * a.unroll_length
    sps = (s1 - s0) / max(w1 - w0, 1e-9)
    return {"sps": sps, "updates_per_s": sps / per_update, "cpu": mine, "other": other,
            "env_wait": float(s["actor_env_wait_fraction"]),
            "infer": float(s["actor_infer_fraction"]),
            "queue_wait": float(s["actor_queue_wait_fraction"]),
            "learner_wait": float(s["learner_queue_wait_fraction"]),
            "lag": float(s["policy_lag"])}


def learner_alone(a, agent: Agent, seconds: float) -> float:
    """Updates/s of the IMPALA update itself (forward, V-trace, backward, RMSprop) on one
    fixed batch: the learner's ceiling on this CPU with one torch thread."""
    torch.set_num_threads(1)
    T, N = a.unroll_length, a.batch_size * a.envs // 2
    rng = np.random.default_rng(0)
    obs = torch.from_numpy(rng.integers(0, 256, (T + 1, N, 64, 64, 3), dtype=np.uint8))
    actions = torch.from_numpy(rng.integers(0, 8, (T, N)))
    opt = torch.optim.RMSprop(agent.parameters(), lr=1e-4, alpha=0.99, eps=0.01)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        logits, values = agent(obs.reshape(-1, 64, 64, 3))
        logits, values = logits.reshape(T + 1, N, -1)[:-1], values.reshape(T + 1, N)
        logp = torch.log_softmax(logits, -1).gather(-1, actions.unsqueeze(-1)).squeeze(-1)
        vs, adv = impala.vtrace(logp.detach(), logp.detach(), torch.zeros(T, N),
                                values[:-1].detach(), values[-1].detach(),
                                torch.full((T, N), 0.99))
        loss = -(logp * adv).sum() + 0.5 * ((vs - values[:-1]) ** 2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        count += 1
    return count / (time.perf_counter() - start)


# -- 3. costs ---------------------------------------------------------------------------

def sample_unroll(a) -> dict:
    T, n = a.unroll_length, a.envs // 2
    rng = np.random.default_rng(0)
    return {"obs": rng.integers(0, 256, (T + 1, n, 64, 64, 3), dtype=np.uint8),
            "actions": np.zeros((T, n), np.int64), "logits": np.zeros((T, n, 8), np.float32),
            "rewards": np.zeros((T, n), np.float32), "terminated": np.zeros((T, n), bool),
            "truncated": np.zeros((T, n), bool), "valid": np.ones((T, n), bool)}


def median_time(fn, reps: int) -> float:
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def costs(a, agent: Agent) -> list[tuple[str, float, str]]:
    """(what, seconds, note) per operation."""
    import ray
    from ray.cluster_utils import Cluster

    u = sample_unroll(a)
    mb = sum(v.nbytes for v in u.values()) / 2**20
    out = []

    def ser():
        bufs = []
        pickle.dumps(u, protocol=5, buffer_callback=bufs.append)
        for b in bufs:
            bytes(b.raw())  # what reaching the store costs: one copy of every buffer

    out.append(("serialise an unroll (pickle 5 + one copy of its buffers)",
                median_time(ser, a.reps), f"{mb:.2f} MiB"))
    weights = {k: v.detach().numpy() for k, v in agent.state_dict().items()}
    wmb = sum(v.nbytes for v in weights.values()) / 2**20

    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "include_dashboard": False, "object_store_memory": 200 << 20})
    far = cluster.add_node(num_cpus=1, resources={"far": 1}, object_store_memory=200 << 20)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, logging_level="warning")
    try:
        out.append(("ray.put an unroll (same node)", median_time(lambda: ray.put(u), a.reps),
                    "serialise + write to the object store"))
        ref = ray.put(u)
        out.append(("ray.get an unroll (same node)", median_time(lambda: ray.get(ref), a.reps),
                    "zero-copy: the arrays stay in shared memory"))

        @ray.remote(num_cpus=0, resources={"far": 0.01})
        def make(seed):
            return sample_unroll(a) | {"seed": seed}

        def far_fetch():
            r = make.remote(time.time())
            ray.wait([r], fetch_local=False)  # made on the far node, not yet moved
            t0 = time.perf_counter()
            ray.get(r)
            return time.perf_counter() - t0

        far_fetch()
        fetches = [far_fetch() for _ in range(a.reps)]
        out.append(("ray.get an unroll made on the other node", statistics.median(fetches),
                    "object manager transfer between the nodes' stores (loopback here)"))
        out.append((f"ray.put the weights ({wmb:.1f} MiB)",
                    median_time(lambda: ray.put(weights), a.reps), "once per broadcast"))
        wref = ray.put(weights)

        def load():
            state = {k: torch.from_numpy(np.array(v)) for k, v in ray.get(wref).items()}
            agent.load_state_dict(state)

        out.append(("load broadcast weights into a policy copy", median_time(load, a.reps),
                    "per actor and broadcast"))
        assert far  # the far node is alive until here
    finally:
        ray.shutdown()
        cluster.shutdown()
    return out


# -- report -----------------------------------------------------------------------------

def write_report(a, deliv, stats, train, alone, cost, out_dir: pathlib.Path) -> str:
    lines = ["# IMPALA: Ray actor fleet vs threaded actors", "", *common.machine_lines(),
             f"- ray {common.version('ray')}, torch {common.version('torch')} (1 thread per "
             "process)",
             f"- setup: {a.game}, {a.envs} envs per actor (two halves), 1 native env thread per "
             f"actor, unrolls of {a.envs // 2} envs x {a.unroll_length} steps, "
             f"{a.batch_size} unrolls per update, queue {a.queue_size} (Ray: split over the "
             f"actors), frameskip 4, Nature-CNN; all on the {len(common.usable_cores())} usable "
             "cores",
             f"- delivery: median of {a.rounds} x {a.windows} windows of {a.seconds} s [min-max], "
             f"each configuration after {a.warmup} s warm-up, threaded and Ray alternating; CPU = "
             "cores used by this process tree (Ray: with its actor processes and daemons); per "
             "core = steps/s per core so used (the cost of a delivered step, less sensitive to "
             "other load than steps/s)",
             common.load_line(list(deliv.values())), ""]
    lines += ["## 1. Env steps/s reaching the learner (sink learner, weights published per "
              "batch)", ""]
    rows = []
    for n in a.actors:
        t, r = deliv.get(("threaded", n)), deliv.get(("ray", n))
        ratio = r.median / t.median if t and r and t.median else float("nan")
        per_core = [m.median / m.self_mean if m and m.self_mean else float("nan")
                    for m in (t, r)]
        rows.append([str(n), t.cell() if t else "n/a", f"{t.self_mean:.2f}" if t else "n/a",
                     fmt_rate(per_core[0]), r.cell() if r else "n/a",
                     f"{r.self_mean:.2f}" if r else "n/a", fmt_rate(per_core[1]),
                     f"{ratio:.2f}x", f"{per_core[1] / per_core[0]:.2f}x",
                     f"{max(t.other_max, r.other_max):.2f}" if t and r else "n/a"])
    lines += common.md_table(["actors", "threaded: steps/s", "CPU (cores)", "per core",
                              "Ray fleet: steps/s", "CPU (cores)", "per core", "Ray / threaded",
                              "per core: Ray / threaded", "other load, max (cores)"], rows)
    best_t = max((m.median for (mode, _), m in deliv.items() if mode == "threaded"), default=0)
    best_r = max((m.median for (mode, _), m in deliv.items() if mode == "ray"), default=0)
    if best_t:
        lines += ["", f"Best of each: threaded {fmt_rate(best_t)}, Ray {fmt_rate(best_r)} "
                  f"steps/s: the fleet delivers {best_r / best_t:.0%} of the threaded actors' "
                  f"throughput on the same cores (target: >= 80%)."]
    cost_rows = []  # the overhead of distribution: CPU per delivered step, Ray over threaded
    for n in a.actors:
        t, r = deliv.get(("threaded", n)), deliv.get(("ray", n))
        if t and r and t.median and r.median and t.self_mean and r.self_mean:
            extra = (r.self_mean / r.median) / (t.self_mean / t.median) - 1
            cost_rows.append(f"{extra:+.0%} with {n}")
    if cost_rows:
        lines += ["", "CPU per delivered step, the Ray fleet against the threaded actors (the "
                  "overhead of distribution; steps/s per core used, so less sensitive to the "
                  "other load than steps/s): " + ", ".join(cost_rows) + " actors."]
    lines += ["", "## 2. Training (jsgym/trainers/impala.py, the learner attached)", ""]
    rows = []
    for (mode, n), s in sorted(train.items()):
        if "error" in s:
            rows.append([mode, str(n), "failed: " + s["error"]] + [""] * 7)
            continue
        rows.append([mode, str(n), fmt_rate(s["sps"]), f"{s['updates_per_s']:.1f}",
                     f"{s['learner_wait']:.0%}", f"{s['env_wait']:.0%}", f"{s['infer']:.0%}",
                     f"{s['queue_wait']:.0%}", f"{s['lag']:.1f}", f"{s['cpu']:.2f} / "
                     f"{s['other']:.2f}"])
    lines += common.md_table(["fleet", "N", "agent steps/s", "updates/s", "learner waiting",
                              "actor: env wait", "inference", "queue full", "policy lag "
                              "(updates)", "CPU / other load (cores)"], rows)
    lines += ["", f"The learner alone (the same update on a fixed batch of "
              f"{a.batch_size * a.envs // 2} envs x {a.unroll_length} steps, one torch "
              f"thread): {alone:.1f} updates/s = "
              f"{fmt_rate(alone * a.batch_size * a.envs // 2 * a.unroll_length)} agent steps/s.",
              ""]
    lines += ["## 3. Where the time goes", "", "Per operation (median of "
              f"{a.reps}):", ""]
    lines += common.md_table(["operation", "time", "note"],
                             [[w, f"{t * 1e3:.2f} ms", note] for w, t, note in cost])
    per_unroll = a.envs // 2 * a.unroll_length
    lines += ["", f"An unroll is {per_unroll} agent steps: at 10k steps/s an actor fleet "
              f"sends {10_000 / per_unroll:.0f} unrolls/s.", ""]
    # the extra CPU of the Ray fleet, against what its object-store traffic should cost at
    # the rate it delivered: every unroll put by its actor and fetched by the learner,
    # every batch a weight broadcast (one put, one load per actor)
    t_of = {w.split(" (")[0]: t for w, t, _ in cost}
    t_put, t_wput = t_of.get("ray.put an unroll"), t_of.get("ray.put the weights")
    t_load = t_of.get("load broadcast weights into a policy copy")
    rows = []
    for n in a.actors:
        t, r, st = deliv.get(("threaded", n)), deliv.get(("ray", n)), stats.get(("ray", n), {})
        if not (t and r and t.median and r.median and t_put and t_wput and t_load):
            continue
        extra = r.self_mean - r.median * t.self_mean / t.median  # cores beyond threaded's cost
        unrolls = r.median / per_unroll
        fetch = st.get("fetch_s", 0.0) / max(st.get("delivered", 0), 1)
        puts, bcast = unrolls * t_put, unrolls / a.batch_size * (t_wput + n * t_load)
        rows.append([str(n), f"{unrolls:.0f}", f"{extra:.2f}", f"{puts:.2f}",
                     f"{fetch * 1e3:.2f} ms = {unrolls * fetch:.2f}", f"{bcast:.2f}",
                     f"{extra - puts - unrolls * fetch - bcast:.2f}"])
    if rows:
        lines += ["The Ray fleet's extra CPU (cores, beyond the threaded actors' CPU per step "
                  "at the fleet's delivery) against the object-store work at that rate, from "
                  "the costs above and the learner's measured fetch time per unroll:", ""]
        lines += common.md_table(["Ray actors", "unrolls/s", "extra CPU", "unroll puts",
                                  "fetches (per unroll = total)", "weight broadcasts",
                                  "rest (Ray's daemons, RPCs, more processes)"], rows)
        lines.append("")
    lines += ["Actors' loop time in phase 1 (summed over the actors):", ""]
    rows = []
    for (mode, n), st in sorted(stats.items()):
        busy = max(st.get("busy", 0.0), 1e-9)
        parts = {k: st.get(k, 0.0) / busy for k in ("env_wait", "infer", "emit_wait")}
        rows.append([mode, str(n), f"{parts['env_wait']:.0%}", f"{parts['infer']:.0%}",
                     f"{parts['emit_wait']:.0%}",
                     f"{max(0.0, 1 - sum(parts.values())):.0%}"])
    lines += common.md_table(["fleet", "N", "env wait (recv)", "inference", "queue full "
                              "(back-pressure)", "rest (bookkeeping, copies, GIL)"], rows)
    lines.append("")
    text = "\n".join(lines)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "distributed.md").write_text(text)
    csv_rows = []
    for (mode, n), m in deliv.items():
        csv_rows.append({"phase": "delivery", "mode": mode, "actors": n,
                         **common.measurement_fields(m)})
    for (mode, n), s in train.items():
        csv_rows.append({"phase": "training", "mode": mode, "actors": n, **s})
    common.write_csv(out_dir / "distributed.csv", csv_rows)
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="pong", help="game the actors run (pong)")
    parser.add_argument("--actors", type=int, nargs="+", default=[1, 2, 4],
                        help="actor counts (1 2 4)")
    parser.add_argument("--envs", type=int, default=16, help="envs per actor (16)")
    parser.add_argument("--unroll-length", type=int, default=20, help="steps per unroll (20)")
    parser.add_argument("--batch-size", type=int, default=2, help="unrolls per update (2)")
    parser.add_argument("--queue-size", type=int, default=4, help="queued unrolls (4)")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of a window (3)")
    parser.add_argument("--windows", type=int, default=3, help="timed windows (3)")
    parser.add_argument("--warmup", type=float, default=2.0, help="warm-up seconds (2)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="delivery rounds, threaded and Ray alternating (2)")
    parser.add_argument("--train-seconds", type=float, default=30.0,
                        help="length of each training run (30); 0 skips phase 2")
    parser.add_argument("--train-actors", type=int, nargs="+", default=[2],
                        help="actor counts of the training runs (2)")
    parser.add_argument("--reps", type=int, default=20, help="repetitions per cost (20)")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: 2 windows of 1 s, 1 s warm-up, 10 s training runs")
    parser.add_argument("--out-dir", type=pathlib.Path, default=common.RESULTS,
                        help="where the results go (bench/results)")
    a = parser.parse_args(argv)
    if a.quick:
        a.seconds, a.windows, a.warmup, a.reps, a.rounds = 1.0, 2, 1.0, 5, 1
        a.train_seconds = min(a.train_seconds, 10.0)
    if a.envs < 2 or a.envs % 2:
        parser.error("--envs must be even")
    import ray

    torch.set_num_threads(1)
    agent = Agent((64, 64, 3), 8).eval()
    from jsgym.trainers.ray_fleet import connect
    connect("local", max(a.actors))  # one Ray instance for every fleet (idle: ~0.04 cores)
    deliv, stats = {}, {}
    for r in range(a.rounds):  # threaded and Ray alternate, so a change of load hits both
        for n in a.actors:
            for mode in (MODES if r % 2 == 0 else MODES[::-1]):
                m, st, summ = delivery(mode, n, a, agent)
                prev = deliv.setdefault((mode, n), Measurement())
                for f in ("rates", "self_cores", "other_cores", "near_cores", "steps", "elapsed"):
                    getattr(prev, f).extend(getattr(m, f))
                stats.setdefault((mode, n), collections.Counter()).update(
                    {k: v for k, v in st.items() if k != "queued"})
                if summ:  # the learner's seconds in ray.get of ready unrolls
                    stats[(mode, n)].update(
                        fetch_s=summ["fetch_s_per_unroll"] * summ["unrolls_delivered"],
                        delivered=summ["unrolls_delivered"])
                busy = max(st["busy"], 1e-9)
                log(f"delivery {mode:8s} {n} actors: {m.cell():28s} CPU {m.self_mean:.2f}, "
                    f"other load {m.other_max:.2f} cores; actors: env wait "
                    f"{st['env_wait'] / busy:.0%}, inference {st['infer'] / busy:.0%}, queue "
                    f"full {st['emit_wait'] / busy:.0%}"
                    + (f"; fetch {summ['fetch_s_per_unroll'] * 1e3:.2f} ms/unroll" if summ else ""))
    ray.shutdown()
    train = {}
    if a.train_seconds > 0:
        for i, n in enumerate(a.train_actors):
            for mode in (MODES if i % 2 == 0 else MODES[::-1]):
                train[(mode, n)] = s = training(mode, n, a)
                log(f"training {mode:8s} {n} actors: {s}")
    alone = learner_alone(a, Agent((64, 64, 3), 8), 5.0 if not a.quick else 2.0)
    log(f"learner alone: {alone:.1f} updates/s")
    cost = costs(a, agent)
    for w, t, note in cost:
        log(f"{w}: {t * 1e3:.2f} ms ({note})")
    print(write_report(a, deliv, stats, train, alone, cost, a.out_dir))
    log(f"wrote {a.out_dir / 'distributed.md'}, distributed.csv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
