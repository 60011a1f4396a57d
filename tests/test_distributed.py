"""IMPALA's Ray actor fleet (jsgym/trainers/ray_fleet.py) on a two-node Ray cluster on this
machine (ray.cluster_utils.Cluster: a head and a worker node, each its own raylet and
object store, one CPU each, so Ray must place one actor on each): unrolls arrive from
both nodes, the weights' versions advance, an actor killed mid-run (SIGKILL) is restarted
and the run reaches its step budget, a worker node removed mid-run takes its actor to a
spare node, back-pressure holds a fleet that outruns its learner, a run resumes from its
checkpoint, actors run several games at once, two DDP learners each drive a fleet, and
(slow, not in CI) the fleet learns catch."""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("torch")
# the whole cluster is on this machine: Ray on the loopback interface only (as Ray runs on
# macOS), not on the machine's network address; read when ray is imported
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
ray = pytest.importorskip("ray", reason="the Ray fleet needs ray: pip install -e '.[ray]'")
from ray.cluster_utils import Cluster  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parent.parent
IMPALA = REPO / "jsgym" / "trainers" / "impala.py"
ENV = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
# 2 actors x 4 envs, unrolls of 2 envs x 8 steps, 2 unrolls (32 agent steps) per update
FLEET = ["--game", "catch", "--num-actors", "2", "--envs-per-actor", "4", "--unroll-length", "8",
         "--batch-size", "2", "--queue-size", "2", "--no-progress"]


def summary(output: str) -> dict:
    line = [l for l in output.splitlines() if l.startswith("summary ")][-1]
    return dict(kv.split("=", 1) for kv in line.split()[1:])


@pytest.fixture(scope="module")
def cluster():
    c = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "include_dashboard": False, "object_store_memory": 100 << 20,
        # the GCS declares a node dead after 5 failed health checks: one a second here
        # (Ray's default: every 3 s), so the node-loss test waits ~5 s, not ~15; each
        # check still has 3 s to answer, so a loaded machine does not lose a live node
        "_system_config": {"health_check_period_ms": 1000, "health_check_timeout_ms": 3000,
                           "health_check_failure_threshold": 5}})
    c.add_node(num_cpus=1, object_store_memory=100 << 20)
    c.wait_for_nodes()
    from jsgym.trainers.ray_fleet import RUNTIME_ENV
    ray.init(address=c.address, namespace="jsgym", logging_level="warning",
             runtime_env=RUNTIME_ENV)
    yield c
    ray.shutdown()
    c.shutdown()


def train(cluster, *flags: str, timeout: float = 400, during=None) -> tuple[dict, str]:
    """Runs jsgym/trainers/impala.py as a user does, as another Ray driver of the cluster;
    ``during(proc)`` runs in a thread while it trains."""
    cmd = [sys.executable, str(IMPALA), *FLEET, "--ray", cluster.address, *flags]
    proc = subprocess.Popen(cmd, cwd=REPO, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    side = threading.Thread(target=during, args=(proc,), daemon=True) if during else None
    if side:
        side.start()
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        pytest.fail(f"{cmd} timed out:\n{out[-4000:]}")
    if side:
        side.join(timeout=60)
    assert proc.returncode == 0, f"{cmd} failed:\n{out[-4000:]}"
    return summary(out), out


def fleet_actors(timeout: float = 120) -> list:
    """Handles to the running trainer's rollout actors (named impala-<job>-r<rank>-a<i>),
    once both have started stepping."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        names = sorted(n for n in ray.util.list_named_actors() if n.startswith("impala-"))
        if len(names) == 2:
            handles = [ray.get_actor(n) for n in names]
            try:
                if all(s["unrolls"] > 0 for s in ray.get([h.stats.remote() for h in handles],
                                                          timeout=10)):
                    return handles
            except (ray.exceptions.RayError, TimeoutError):
                pass
        time.sleep(0.5)
    raise AssertionError("the trainer's two rollout actors never delivered")


def restarted_node(handle, old_pid: int, timeout: float = 120) -> str:
    """The node of the actor's next incarnation, once Ray has restarted it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            info = ray.get(handle.info.remote(), timeout=10)
            if info["pid"] != old_pid:
                return info["node"]
        except (ray.exceptions.RayError, TimeoutError):
            pass
        time.sleep(0.5)
    raise AssertionError(f"the actor of pid {old_pid} was not restarted in {timeout:g} s")


def test_fleet_spans_both_nodes_and_survives_a_killed_actor(cluster, tmp_path):
    """The multi-node run: 2 actors (one per node), one of them SIGKILLed early in the
    run. Ray restarts it, the learner resends it the weights, and the run reaches its
    step budget with unrolls from both nodes and from all three incarnations.

    Whether the return rises is the slow test's question, not this one's: with budgets
    a CI run can afford, catch's return takes off in most runs but not all. Of 13
    trial runs of 60k agent steps on the fleet (learning rate 2e-3, 2 unrolls of 10 or
    20 steps per update; 2 loaded cores, about a minute each), 10 took off after 20-35k
    steps (last fifth of the episodes at about +3 to +10 where recorded, from -5) and 3
    stayed at -4 to -6 to the end (the policy drifted back to uniform, or collapsed
    early onto a wrong action); at 1e-3 or with 4 unrolls per update, none of 6 runs
    passed +1.3. So no return assertion on a CI-sized run holds every time; the
    threaded trainer's own learning test takes 250k steps for the same reason."""
    killed = {}

    def kill_one(proc):
        try:
            handles = fleet_actors()
            info = ray.get(handles[1].info.remote(), timeout=10)
            time.sleep(1.0)  # into the run: both actors stream unrolls
            os.kill(info["pid"], signal.SIGKILL)
            killed.update(info)
        except Exception as exc:  # reported by the assertions below
            killed["error"] = repr(exc)

    s, out = train(cluster, "--envs-per-actor", "8", "--unroll-length", "20",
                   "--total-timesteps", "19200", "--eval-episodes", "0",
                   "--out-dir", str(tmp_path), during=kill_one)
    assert "pid" in killed, killed
    assert f"(pid {killed['pid']}) lost" in out, out[-3000:]
    # the budget was reached: 19200 // 160 = 120 updates of 2 unrolls x 4 envs x 20 steps
    assert int(s["global_step"]) == 19200, s
    assert int(s["unroll_nodes"]) == 2, s          # unrolls came from actors on both nodes
    assert int(s["actor_restarts"]) == 1, s
    assert int(s["actor_pids"]) == 3, s            # 2 first incarnations + the restarted one
    # the weights went out after every update and came back in the unrolls' versions
    assert int(s["weights_version_first"]) == 0, s
    assert int(s["weights_version_last"]) > 100, s
    assert pathlib.Path(s["checkpoint"]).exists()


def test_back_pressure_holds_a_fleet_ahead_of_its_learner(cluster):
    """A learner that takes unrolls slowly: the actors wait, so the fleet never gets more
    than its queues and open calls ahead of what the learner took. Four open calls per
    actor, each waiting in an actor thread of its own: the weights must still get in."""
    from jsgym.trainers.impala import Args
    from jsgym.trainers.ray_fleet import RayFleet

    from jsgym.trainers.common import Agent

    args = Args(game="catch", num_actors=2, envs_per_actor=4, unroll_length=8, queue_size=2,
                ray=cluster.address, ray_inflight=4)
    agent = Agent((64, 64, 3), 8)
    fleet = RayFleet(args, ["catch"], agent, seed=3)
    try:
        fleet.publish(agent, 0)
        taken = 0
        for _ in range(6):
            fleet.next_unroll()
            taken += 1
            time.sleep(0.5)
        live = ray.get([a.stats.remote() for a in fleet.actors])
        made = sum(s["unrolls"] for s in live)
        # per actor: 1 queued (queue_size 2 over 2 actors) + 4 open calls, plus 1 being
        # handed over by a waiting emit() when the count is read
        assert made <= taken + 2 * (1 + 4 + 1), (made, taken)
        assert sum(s["emit_wait"] for s in live) > 0.5  # the actors did wait on the learner
        # Which actor's unroll arrives first is up to the scheduler: six in a row from one
        # node happen on a busy machine, so take more (bounded) until both nodes delivered.
        for _ in range(40):
            if fleet.summary()["unroll_nodes"] == 2:
                break
            fleet.next_unroll()
        assert fleet.summary()["unroll_nodes"] == 2
    finally:
        fleet.close()


def test_cli_run_and_resume_on_the_fleet(cluster, tmp_path):
    """`jsgym train GAME --algo impala --ray ADDRESS`, then the script resumes its
    checkpoint on a new fleet."""
    cmd = [sys.executable, "-m", "jsgym", "train", "catch", "--algo", "impala", *FLEET[2:],
           "--ray", cluster.address, "--total-timesteps", "320", "--checkpoint-every", "5",
           "--eval-episodes", "0", "--out-dir", str(tmp_path)]
    proc = subprocess.run(cmd, cwd=REPO, env=ENV, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    s = summary(proc.stdout)
    assert int(s["global_step"]) == 320 and int(s["ray_actors"]) == 2, s
    latest = pathlib.Path(s["run_dir"]) / "checkpoints" / "latest.pt"
    s2, out = train(cluster, "--total-timesteps", "640", "--eval-episodes", "0",
                    "--out-dir", str(tmp_path), "--resume", str(latest))
    assert f"resumed {pathlib.Path(s['run_dir']).name} at step 320" in out
    assert int(s2["global_step"]) == 640 and s2["run_dir"] == s["run_dir"]


def test_multi_task_fleet(cluster, tmp_path):
    """--game catch,coinrun: every actor runs both games; returns and the evaluation are
    reported per game."""
    import csv

    s, _ = train(cluster, "--game", "catch,coinrun", "--total-timesteps", "1920",
                 "--eval-episodes", "2", "--out-dir", str(tmp_path))
    assert pathlib.Path(s["run_dir"]).name.startswith("catch+coinrun__impala__")
    assert int(s["global_step"]) == 1920 and int(s["unroll_nodes"]) == 2, s
    with open(pathlib.Path(s["run_dir"]) / "scalars.csv", newline="") as f:
        tags = {r["tag"] for r in csv.DictReader(f)}
    assert {"charts/episodic_return/catch", "charts/episodic_return/coinrun",
            "eval/catch/mean_return", "eval/coinrun/mean_return"} <= tags, tags
    assert {"eval_mean_catch", "eval_mean_coinrun", "eval_mean"} <= set(s), s


def test_two_ddp_learners_each_with_a_fleet(cluster, tmp_path):
    """torchrun with 2 learners: each is a driver of the cluster with one actor of its own
    (one per node); DDP keeps the learners identical."""
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2",
           str(IMPALA), *FLEET, "--num-actors", "1", "--ray", cluster.address,
           "--total-timesteps", "640", "--eval-episodes", "0", "--out-dir", str(tmp_path)]
    proc = subprocess.run(cmd, cwd=REPO, env=ENV, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    s = summary(proc.stdout)
    assert int(s["global_step"]) == 640 and s["ddp_weights_in_sync"] == "True", s
    assert int(s["unrolls_delivered"]) >= 10, s


def bookkeeping_of_one_delivered_actor(pid: int):
    """A RayFleet's bookkeeping only (no cluster, no actors) after slot 0 delivered from
    process ``pid``."""
    import collections
    import types

    from jsgym.trainers.ray_fleet import RayFleet

    fleet = object.__new__(RayFleet)
    fleet.args = types.SimpleNamespace(actor_timeout=60.0)
    fleet.healthy, fleet.incarnation, fleet.restarts = [True], [0], 0
    fleet.failing_since, fleet.retries, fleet.weight_calls, fleet.sent = {}, [], {}, {}
    fleet.stats_done, fleet.stats_live = collections.Counter(), {}
    fleet.pids, fleet.slot_pids, fleet.dead_pids, fleet.all_pids = {}, {}, set(), set()
    assert fleet._delivered_by(0, pid)
    fleet.stats_live[0] = {"busy": 1.0}
    return fleet


def test_a_lost_actor_counts_one_restart_however_late_its_calls_fail(capsys):
    """A death is counted once: a call of the dead incarnation that fails after its
    successor delivered (an unroll stored on a removed node fails only when fetched) is
    asked again but counts no second restart; the successor's own death counts."""
    fleet = bookkeeping_of_one_delivered_actor(1234)
    lost = RuntimeError("actor died")
    fleet._failed(0, 0, lost)  # the first failed call of incarnation 0
    assert (fleet.restarts, fleet.incarnation, fleet.healthy) == (1, [1], [False])
    assert "actor 0 (pid 1234) lost: RuntimeError" in capsys.readouterr().out
    assert not fleet._delivered_by(0, 1234)  # a result incarnation 0 finished before dying
    assert fleet.healthy == [False]
    assert fleet._delivered_by(0, 5678)  # incarnation 1 delivers
    fleet._failed(0, 0, lost)  # a late failure of incarnation 0's other call
    assert (fleet.restarts, fleet.healthy) == (1, [True])
    assert [slot for _, slot in fleet.retries] == [0, 0]  # each failed call is asked again
    fleet._failed(0, 1, lost)  # incarnation 1 dies
    assert (fleet.restarts, fleet.incarnation) == (2, [2])
    assert "actor 0 (pid 5678) lost" in capsys.readouterr().out
    assert fleet.stats_done["busy"] == 1.0


def test_a_successor_that_delivers_before_any_failed_call_counts_the_death(capsys):
    """Ray sends calls it had not yet sent to a dead actor to its successor, so the new
    process can deliver before any call of the dead one fails: the new pid counts the
    death (naming the dead process), and the dead one's calls that fail later do not."""
    fleet = bookkeeping_of_one_delivered_actor(1234)
    assert fleet._delivered_by(0, 5678)
    assert (fleet.restarts, fleet.incarnation, fleet.healthy) == (1, [1], [True])
    assert "actor 0 (pid 1234) lost: restarted by Ray as pid 5678" in capsys.readouterr().out
    assert fleet.stats_done["busy"] == 1.0 and 0 not in fleet.stats_live
    fleet._failed(0, 0, RuntimeError("actor died"))  # incarnation 0's call fails late
    assert not fleet._delivered_by(0, 1234)  # or delivers late
    assert (fleet.restarts, fleet.healthy, fleet.all_pids) == (1, [True], {1234, 5678})
    assert fleet._delivered_by(0, 5678) and fleet.restarts == 1


def test_fleet_survives_losing_a_node(cluster, tmp_path):
    """A third node joins; once the actors stream, the worker node hosting one of them is
    removed (its raylet, object store and workers killed). Ray restarts that actor on the
    node left free, and the run reaches its budget with unrolls from three nodes. The
    learner is stopped (SIGSTOP) from the node's removal to the restart, so the race
    between the surviving actor and the restart is not the test's. Runs last: the
    cluster ends as it began, a head and one worker."""
    cluster.add_node(num_cpus=1, object_store_memory=100 << 20)
    cluster.wait_for_nodes()
    removed = {}

    def remove_a_node(proc):
        try:
            handles = fleet_actors()
            infos = ray.get([h.info.remote() for h in handles], timeout=10)
            workers = {n.node_id: n for n in cluster.worker_nodes}
            slot = next(i for i, info in enumerate(infos) if info["node"] in workers)
            victim = infos[slot]
            time.sleep(1.0)
            # the learner is held while Ray restarts the actor: the surviving actor alone
            # could otherwise use up the budget first on a loaded machine (node death is
            # declared after ~5 s, and the new incarnation then imports torch)
            os.kill(proc.pid, signal.SIGSTOP)
            try:
                cluster.remove_node(workers[victim["node"]], allow_graceful=False)
                removed.update(victim, hosts={info["node"] for info in infos})
                removed["restarted_on"] = restarted_node(handles[slot], victim["pid"])
            finally:
                os.kill(proc.pid, signal.SIGCONT)
        except Exception as exc:  # reported by the assertions below
            removed["error"] = repr(exc)

    s, out = train(cluster, "--total-timesteps", "9600", "--eval-episodes", "0",
                   "--out-dir", str(tmp_path), during=remove_a_node)
    assert "pid" in removed, removed
    assert f"(pid {removed['pid']}) lost" in out, out[-3000:]
    assert int(s["global_step"]) == 9600, s
    assert int(s["actor_restarts"]) == 1 and int(s["actor_pids"]) == 3, s
    assert removed["restarted_on"] not in removed["hosts"], removed  # on the free node
    assert int(s["unroll_nodes"]) == 3, s  # the restarted actor ran on the spare node
    assert len(cluster.worker_nodes) == 1  # a head and one worker, for the tests after


@pytest.mark.slow
def test_fleet_learns_catch(cluster, tmp_path):
    """Catch learned to near its optimum (the greedy policy scores >= 7 of 10) on the
    fleet, with the threaded learning test's settings (tests/test_trainers.py: 250k agent
    steps of 2 unrolls x 8 envs x 20 steps per update at the default learning rate,
    where four trial runs all reached 10), the actors on two nodes: about 4 minutes on 2
    loaded cores, too long for CI (see the kill test's docstring for why a shorter run
    cannot assert the return)."""
    import json

    s, _ = train(cluster, "--envs-per-actor", "16", "--unroll-length", "20",
                 "--total-timesteps", "250000", "--eval-episodes", "16",
                 "--out-dir", str(tmp_path), timeout=1500)
    assert float(s["random_mean"]) <= 0.0, s
    out = subprocess.run([sys.executable, "-m", "jsgym", "eval", s["checkpoint"], "--episodes",
                          "16", "--greedy", "--json"], cwd=REPO, env=ENV, capture_output=True,
                         text=True, timeout=300, check=True).stdout
    greedy = json.loads([l for l in out.splitlines() if l.startswith("{")][-1])
    assert greedy["mean"] >= 7.0, greedy
