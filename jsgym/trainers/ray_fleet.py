"""IMPALA's actors as Ray actor processes (``jsgym/trainers/impala.py --ray ADDRESS|local``).

Each ``RolloutActor`` is a process on some node of a Ray cluster. It owns a CPU copy of
the policy and runs ``impala.Actor`` (the same stepping loop as the threaded actors, with
its VectorEnvs' own native threads) on a thread of its own, which puts every finished
unroll into a bounded local queue. The learner stays a plain PyTorch process (the Ray
driver; one per rank under torchrun) and pulls:

    learner (RayFleet)                               RolloutActor k (CPU only)
      next_unroll.remote() x ray_inflight   --->     pops its queue (waits while empty)
      ray.wait / ray.get  <---  unroll + meta  ---   via the object store (node to node)
      every k updates: ray.put(weights) once,
      set_weights.remote(version, ref)      --->     loads them between two inferences

Back-pressure: an actor steps only while its queue (``queue_size`` unrolls) has room, and
the learner asks each actor for at most ``ray_inflight`` unrolls at a time, so a fleet
faster than the learner waits instead of filling memory (the wait is the actors'
``emit_wait``). Faults: Ray restarts an actor whose process or node died
(``max_restarts``) on any node with a free CPU; the learner sees its open calls fail
(or a new pid deliver, for calls Ray had not yet sent), counts the death once, sends the
new incarnation the latest weights and asks again. A game error inside an actor
is no fault of the cluster: it fails the run, as with threads.

Ray actors are given no GPU, and ``CUDA_VISIBLE_DEVICES`` is emptied for them (Ray leaves
it alone for actors that reserve no GPU), so a learner's GPU stays the learner's.
"""

from __future__ import annotations

import collections
import dataclasses
import math
import os
import queue
import threading
import time
import warnings

import ray
import torch

NAMESPACE = "jsgym"
# the job's runtime env: nothing to ship, the trainers are part of the jsgym package, which
# (a native module) must be installed on every node
RUNTIME_ENV: dict = {}


def connect(address: str, num_cpus: float) -> bool:
    """Joins the Ray cluster at ``address`` (``"local"``: starts one on this machine with
    at least ``num_cpus`` logical CPUs). Returns whether this call started Ray (and so
    should shut it down). A process already connected (a test, a notebook) stays so, and
    must have passed ``runtime_env=RUNTIME_ENV`` to its own ``ray.init``."""
    if ray.is_initialized():
        return False
    if address == "local":
        ray.init(address="local", num_cpus=max(os.cpu_count() or 1, math.ceil(num_cpus)),
                 include_dashboard=False, logging_level="warning", namespace=NAMESPACE,
                 runtime_env=RUNTIME_ENV)
    else:
        ray.init(address=address, logging_level="warning", namespace=NAMESPACE,
                 runtime_env=RUNTIME_ENV)
    return True


@ray.remote(num_gpus=0)
class RolloutActor:
    """One actor of the fleet: ``impala.Actor`` on a thread, unrolls into a bounded queue.

    It is created with ``max_concurrency`` above the learner's open ``next_unroll`` calls,
    so ``set_weights``, ``stats`` and ``close`` run while those wait for the queue. The
    loop starts once the first weights arrive."""

    def __init__(self, slot: int, args: dict, games: list[str], model_config: dict, seed: int):
        from jsgym.trainers import impala  # noqa: PLC0415 (imported in the actor process)
        from jsgym.trainers.common import Agent  # noqa: PLC0415

        torch.set_num_threads(1)  # the CPU is the env threads'; inference is one batch
        ctx = ray.get_runtime_context()
        self.node_id, self.pid = ctx.get_node_id(), os.getpid()
        with warnings.catch_warnings():  # Ray's property reads a deprecated field of its own
            warnings.simplefilter("ignore", DeprecationWarning)
            restarted = ctx.was_current_actor_reconstructed
        if restarted:  # a restarted actor plays new episodes, not a replay of its first ones
            seed = seed + 7919 * (self.pid % 100_003)
        fields = {f.name for f in dataclasses.fields(impala.Args) if f.init}
        self.args = impala.Args(**{k: v for k, v in args.items() if k in fields})
        self.args.env_threads = self.args.env_threads or max(1, int(self.args.ray_actor_cpus))
        model = Agent(tuple(model_config["obs_shape"]), model_config["n_actions"],
                      model_config["encoder"]).eval()
        self.policy = impala.PolicyCopy(model, version=-1)
        # the fleet holds about as many unrolls as the threaded actors' one queue
        size = max(1, math.ceil(self.args.queue_size / self.args.num_actors))
        self.unrolls: queue.Queue = queue.Queue(maxsize=size)
        self.stop, self.ready = threading.Event(), threading.Event()
        self.actor = impala.Actor(slot, self.args, games, self.policy, self._emit, self.stop,
                                  seed, torch.device("cpu"))
        self.thread = threading.Thread(target=self._run, name=f"rollout-{slot}", daemon=True)
        self.thread.start()

    def _run(self):
        while not self.ready.wait(0.1):
            if self.stop.is_set():
                return
        self.actor.run()

    def _emit(self, unroll: dict, meta: dict) -> None:
        while not self.stop.is_set():
            try:
                self.unrolls.put((unroll, meta), timeout=0.1)
                return
            except queue.Full:
                continue

    def set_weights(self, version: int, weights: dict) -> int:
        """Loads a newer version of the weights (an older one, overtaken on the way, is
        dropped) and returns the version in use."""
        if version > self.policy.version:
            with warnings.catch_warnings():  # object-store arrays are read-only; load copies
                warnings.simplefilter("ignore", UserWarning)
                state = {k: torch.from_numpy(v) for k, v in weights.items()}
            self.policy.load(state, version)
            self.ready.set()
        return self.policy.version

    def next_unroll(self) -> tuple[dict, dict]:
        """The oldest queued unroll and its meta, with this actor's node, pid, finished
        episodes and cumulative timings."""
        while True:
            if self.actor.error is not None:
                raise RuntimeError(f"rollout actor {self.actor.actor_id} failed") from self.actor.error
            try:
                unroll, meta = self.unrolls.get(timeout=0.5)
                break
            except queue.Empty:
                continue
        episodes = []
        while self.actor.episodes:
            episodes.append(self.actor.episodes.popleft())
        meta.update(node=self.node_id, pid=self.pid, episodes=episodes, stats=self.stats(),
                    queued=self.unrolls.qsize())
        return unroll, meta

    def stats(self) -> dict:
        return self.actor.stats()

    def info(self) -> dict:
        return {"node": self.node_id, "pid": self.pid, "version": self.policy.version}

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=30)


class RayFleet:
    """The learner's side of the fleet: the same ``next_unroll`` / ``publish`` /
    ``episodes`` / ``stats`` / ``close`` as ``impala.ThreadFleet``."""

    def __init__(self, args, games: list[str], agent, seed: int):
        self.args = args
        self.started_ray = connect(args.ray, args.num_actors * args.ray_actor_cpus)
        rank = int(os.environ.get("RANK", "0"))
        options = dict(
            num_cpus=args.ray_actor_cpus, max_restarts=args.actor_max_restarts,
            # every open next_unroll call may wait in a thread of its own; set_weights,
            # stats/info and close need theirs beside them
            max_concurrency=args.ray_inflight + 3,
            max_task_retries=0,  # a call to a dead actor fails; the learner asks again
            scheduling_strategy="SPREAD",
            # no GPU is visible to the actors (Ray sets nothing for those that reserve none)
            runtime_env={"env_vars": {"CUDA_VISIBLE_DEVICES": "", "OMP_NUM_THREADS": "1"}})
        job = ray.get_runtime_context().get_job_id()
        plain = dataclasses.asdict(args)
        self.names = [f"impala-{job}-r{rank}-a{i}" for i in range(args.num_actors)]
        self.actors = [RolloutActor.options(name=name, **options).remote(
                           i, plain, games, agent.config, seed + 100 * i)
                       for i, name in enumerate(self.names)]
        self.pending: dict = {}                    # open next_unroll call -> (slot, incarnation)
        self.retries: list[tuple[float, int]] = [] # (when, slot): a failed call asked again
        # a death is counted once: the failed calls of an incarnation can surface after its
        # successor delivered (an unroll stored on a removed node fails only when fetched)
        self.incarnation = [0] * args.num_actors
        self.weights = None                        # (version, ref) of the latest weights
        self.weight_calls: dict[int, object] = {}  # slot -> its last set_weights call
        self.sent: dict[int, int] = {}             # slot -> the version of that call
        self.healthy = [True] * args.num_actors    # False from a failure to the next delivery
        self.failing_since: dict[int, float] = {}
        self.restarts = 0
        self.stats_live: dict[int, dict] = {}      # slot -> cumulative stats of its incarnation
        self.stats_done = collections.Counter()    # the same, of incarnations that died
        self.pids: dict[int, int] = {}             # slot -> pid of its latest incarnation
        self.slot_pids: dict[int, set] = {}        # slot -> pids of all its incarnations
        self.dead_pids: set[int] = set()           # incarnations whose death was counted
        self.all_pids: set[int] = set()            # every incarnation that delivered
        self.nodes: collections.Counter = collections.Counter()  # node id -> unrolls delivered
        self.queued: dict[int, int] = {}
        self.versions = (-1, -1)                   # weights versions of the first, last unroll
        self.fetch = 0.0                           # seconds in ray.get of ready unrolls
        self.delivered = 0
        self._episodes: list = []
        for slot in range(args.num_actors):
            for _ in range(args.ray_inflight):
                self._ask(slot)

    def _ask(self, slot: int) -> None:
        self.pending[self.actors[slot].next_unroll.remote()] = (slot, self.incarnation[slot])

    def _send_weights(self, slot: int) -> None:
        prev = self.weight_calls.get(slot)
        if prev is not None:
            done, _ = ray.wait([prev], timeout=0)
            if not done:  # still loading an older version: it gets this one next time
                return
            try:
                ray.get(prev)
            except ray.exceptions.RayError:
                pass  # that incarnation died; the failed unroll call reports it
        version, ref = self.weights
        self.weight_calls[slot] = self.actors[slot].set_weights.remote(version, ref)
        self.sent[slot] = version

    def publish(self, agent, version: int) -> None:
        """Puts the weights in the object store once (each node fetches them once) and
        tells every actor; an actor still loading the previous version skips this one."""
        state = {k: v.detach().cpu().numpy() for k, v in agent.state_dict().items()}
        self.weights = (version, ray.put(state))
        for slot in range(len(self.actors)):
            self._send_weights(slot)

    def _lost(self, slot: int, why: str) -> None:
        """Counts the death of the slot's current incarnation (the process that delivered
        as ``self.pids[slot]``), once."""
        self.restarts += 1
        self.incarnation[slot] += 1
        if slot in self.pids:
            self.dead_pids.add(self.pids[slot])
        self.stats_done.update(self.stats_live.pop(slot, {}))
        print(f"ray fleet: actor {slot} (pid {self.pids.get(slot)}) lost: {why}", flush=True)
        self.weight_calls.pop(slot, None)  # the new incarnation needs the weights
        self.sent.pop(slot, None)

    def _failed(self, slot: int, incarnation: int, exc: BaseException) -> None:
        now = time.monotonic()
        self.retries.append((now + 0.5, slot))  # keeps ray_inflight calls open per actor
        if incarnation < self.incarnation[slot]:
            return  # a call of an incarnation whose death was already counted
        if self.healthy[slot]:  # the first failed call of this death
            self.healthy[slot] = False
            self.failing_since[slot] = now
            self._lost(slot, f"{type(exc).__name__}; Ray restarts it")
        if now - self.failing_since[slot] > self.args.actor_timeout:
            raise RuntimeError(f"ray actor {slot} has failed for "
                               f"{self.args.actor_timeout:g} s (restarts exhausted or no "
                               f"node can host it)") from exc

    def _delivered_by(self, slot: int, pid: int) -> bool:
        """A call of the slot delivered from process ``pid``; False when that process's
        death was already counted (a result it finished before dying). A pid new to the
        slot is its next incarnation: when none of the last one's calls has failed yet
        (calls Ray had not sent go to the successor, and a finished call's result may
        still be fetched), that death is counted here, and its calls that fail later
        count nothing."""
        if pid in self.dead_pids:
            return False
        known = self.slot_pids.setdefault(slot, set())
        if pid not in known:
            if known and self.pids[slot] not in self.dead_pids:
                self._lost(slot, f"restarted by Ray as pid {pid}")
            known.add(pid)
            self.pids[slot] = pid
            self.all_pids.add(pid)
        self.healthy[slot] = True
        self.failing_since.pop(slot, None)
        return True

    def next_unroll(self) -> tuple[dict, dict]:
        while True:
            now = time.monotonic()
            due = [slot for at, slot in self.retries if now >= at]
            self.retries = [(at, slot) for at, slot in self.retries if now < at]
            for slot in due:
                if self.weights is not None and slot not in self.weight_calls:
                    self._send_weights(slot)
                self._ask(slot)
            if not self.pending:
                time.sleep(0.1)
                continue
            ready, _ = ray.wait(list(self.pending), num_returns=1, timeout=0.5)
            if not ready:
                continue
            slot, incarnation = self.pending.pop(ready[0])
            t0 = time.perf_counter()
            try:
                unroll, meta = ray.get(ready[0])
            except (ray.exceptions.RayActorError, ray.exceptions.ObjectLostError) as exc:
                self._failed(slot, incarnation, exc)
                continue
            self.fetch += time.perf_counter() - t0
            self._ask(slot)
            if self._delivered_by(slot, meta["pid"]):
                self.stats_live[slot] = meta["stats"]
                self.queued[slot] = meta["queued"]
            self.nodes[meta["node"]] += 1
            self.versions = (meta["version"] if self.delivered == 0 else self.versions[0],
                             meta["version"])
            if self.weights is not None and self.sent.get(slot, -1) < self.weights[0]:
                # it skipped a broadcast (or is a new incarnation): catch up
                self._send_weights(slot)
            self._episodes.extend(meta["episodes"])
            self.delivered += 1
            return unroll, meta

    def episodes(self) -> list[tuple[str, float, int]]:
        out, self._episodes = self._episodes, []
        return out

    def stats(self) -> dict:
        """Actor time over all actors and incarnations (seconds, as of their last
        delivered unroll), and the unrolls their queues held then."""
        total = collections.Counter(self.stats_done)
        for s in self.stats_live.values():
            total.update(s)
        return {"env_wait": 0.0, "infer": 0.0, "emit_wait": 0.0, "busy": 0.0, **total,
                "queued": sum(self.queued.values())}

    def summary(self) -> dict:
        return {"ray_actors": len(self.actors), "actor_restarts": self.restarts,
                "actor_pids": len(self.all_pids),
                "unroll_nodes": len(self.nodes), "unrolls_delivered": self.delivered,
                "fetch_s_per_unroll": self.fetch / max(self.delivered, 1),
                "weights_version_first": self.versions[0],
                "weights_version_last": self.versions[1]}

    def close(self) -> None:
        calls = [a.close.remote() for a in self.actors]
        try:
            ray.wait(calls, num_returns=len(calls), timeout=30)
        finally:
            for a in self.actors:
                ray.kill(a, no_restart=True)
            self.pending.clear()
            self.weight_calls.clear()
            if self.started_ray:
                ray.shutdown()
