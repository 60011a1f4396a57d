"""IMPALA with V-trace on jsgym (Espeholt et al. 2018; layout after CleanRL, actors after
PlayTrain's double-buffered workers).

    python -m jsgym.trainers.impala --game catch                                 # one process
    torchrun --standalone --nproc_per_node 2 -m jsgym.trainers.impala --game pong   # 2 learners (DDP)
    python -m jsgym.trainers.impala --game catch --ray local --num-actors 2      # Ray actor processes
    python -m jsgym.trainers.impala --game catch,pong --ray auto --num-actors 64   # a Ray cluster, 2 games

How data flows (one process; under torchrun every process runs all of it and DDP
averages the learners' gradients):

    actor k (a thread of this process, or with --ray a Ray actor process: jsgym/trainers/ray_fleet.py)
        one VectorEnv of E envs per game, each stepped as halves A and B:
        recv A -> infer A (batched, policy copy) -> send A   } A steps in native threads
        recv B -> infer B                        -> send B   } while B is inferred
        every T steps of a half: unroll (T+1 obs, T actions/logits/rewards/ends) -> learner
    learner (main thread):
        bounded queue (actors block when it is full) -> batch of B unrolls -> V-trace
        -> RMSprop step -> every k updates, the weights to the actors' policy copies

V-trace uses rho-bar = c-bar = 1, rewards are clipped to [-1, 1], gamma = 0.99. Unrolls
made with weights up to a few updates old are what V-trace's importance weights correct.
Writes runs/{game}__{exp_name}__{seed}__{time}/ like jsgym/trainers/ppo.py.
"""

from __future__ import annotations

import collections
import copy
import gc
import os
import pathlib
import queue
import threading
import time
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

import jsgym
from jsgym.trainers.common import (Agent, PhaseClock, RunLogger, check_games, env_kwargs_from,
                                   evaluate, gradient_trial, learner_dtype, load_checkpoint,
                                   load_policy, make_run_name,
                                   parse_args, plot_learning_curve, progress_bar,
                                   random_baseline, save_checkpoint, seed_everything,
                                   torch_threads_for, updates_for)

#: the phases of the learner's wall time (``time/learner_<phase>`` scalars): waiting for
#: unrolls; copying them into the batch's tensors and the weights into the actors' policy
#: copy; the update (forward pass, V-trace, backward pass, optimizer step); the rest
#: (logging, checkpoints)
LEARNER_PHASES = ("wait", "copy", "learn", "other")
#: the phases of an actor's loop (``time/actor_<phase>`` scalars, summed over the actors),
#: from ``Actor.stats()``: blocked in recv; handing actions to the env in send; inference;
#: copies into the unroll buffers; in emit (a full queue, transport); the rest
#: (bookkeeping)
ACTOR_PHASES = ("env_wait", "env_send", "infer", "copy", "emit_wait", "other")


@dataclass
class Args:
    """IMPALA (V-trace) on a jsgym game; runs as one process or under torchrun (DDP)."""

    exp_name: str = "impala"
    """the name of this experiment (the algo part of the run name)"""
    game: str = "catch"
    """a bundled game name (`jsgym list`) or a path to a .js game file; several separated
    by commas train one policy on all of them (multi-task: every actor runs every game)"""
    seed: int = 1
    """seed of the RNGs and of the envs (learner process r adds 1000 * r)"""
    torch_deterministic: bool = True
    """sets torch.backends.cudnn.deterministic"""
    torch_threads: int = 0
    """torch CPU threads per learner process (0: its share of the usable cores less its
    actor threads, at least 1; 1 when the machine is busy with other jobs at start)"""
    device: str = "cpu"
    """torch device of the learner; threaded actors' batched inference runs there too (Ray
    actors always infer on their CPU)"""
    backend: str = "quickjs"
    """env backend passed to jsgym.make_vec: quickjs or browser"""
    env_threads: int | None = None
    """native worker threads of each actor's env (default: one per core; Ray actors:
    --ray-actor-cpus, at least 1)"""
    dist_backend: str = "gloo"
    """torch.distributed backend under torchrun (gloo on CPU, nccl on GPUs)"""

    # environment
    frameskip: int = 4
    """draw() calls per agent step (the agent sees the last frame)"""
    frame_stack: int = 1
    """observations stacked per agent step (4 is the usual Atari setting: a single
    frame of pong or breakout does not show which way the ball moves)"""
    max_episode_steps: int = 10_000
    """episode truncation limit in agent steps"""
    num_levels: int = 0
    """with > 0: episodes draw their level seed from [start_level, start_level + num_levels)"""
    start_level: int = 0
    """first level of the training split"""

    # actors
    num_actors: int = 1
    """actors per learner process (threads, or Ray actor processes with --ray), each with
    its own VectorEnv per game"""
    envs_per_actor: int = 16
    """envs per actor and game, stepped as two halves (double buffering); must be even"""
    unroll_length: int = 20
    """steps per unroll (T)"""
    batch_size: int = 2
    """unrolls per learner step (each holds envs_per_actor / 2 envs x T steps)"""
    queue_size: int = 4
    """unrolls the queue holds before actors wait (with --ray: split over the actors' own
    queues, at least 1 each)"""
    weights_every: int = 1
    """learner updates between two weight broadcasts to the actors (V-trace corrects the
    lag of the unrolls made in between)"""

    # distributed actors (jsgym/trainers/ray_fleet.py)
    ray: str | None = None
    """run the actors as Ray actor processes: 'local' starts a Ray instance on this machine,
    anything else is the address of a running cluster for ray.init ('auto', 'HOST:6379')"""
    ray_actor_cpus: float = 1.0
    """CPUs that Ray reserves per actor (its env's native threads default to this, at least 1)"""
    ray_inflight: int = 2
    """requests for unrolls kept open per Ray actor (> 1 overlaps transfer with learning)"""
    actor_max_restarts: int = 10
    """times Ray restarts a dead Ray actor (its node may be gone: it restarts where a CPU is
    free) before the run fails"""
    actor_timeout: float = 120.0
    """seconds a Ray actor may go without delivering an unroll while its calls fail before
    the run fails"""

    # algorithm
    total_timesteps: int = 200_000
    """total agent steps (over all envs and processes)"""
    learning_rate: float = 1e-3
    """RMSprop learning rate (annealed linearly to 0; the paper's Atari runs used 6e-4 with
    much larger batches)"""
    rmsprop_alpha: float = 0.99
    """RMSprop smoothing constant"""
    rmsprop_eps: float = 0.01
    """RMSprop epsilon (the IMPALA paper's 0.01; losses are sums over the batch)"""
    gamma: float = 0.99
    """discount factor"""
    rho_bar: float = 1.0
    """V-trace truncation of the importance weights in the value target"""
    c_bar: float = 1.0
    """V-trace truncation of the trace coefficients"""
    reward_clip: float = 1.0
    """rewards are clipped to [-reward_clip, reward_clip] (0: no clipping)"""
    ent_coef: float = 0.01
    """entropy bonus coefficient"""
    vf_coef: float = 0.5
    """baseline (value) loss coefficient"""
    max_grad_norm: float = 40.0
    """gradient clipping norm"""
    encoder: str = "nature"
    """pixel encoder: nature (Nature-CNN) or impala (IMPALA-CNN)"""
    precision: str = "auto"
    """arithmetic of the learner's gradient steps: auto (bf16 autocast on a CPU that
    computes bf16 natively where a gradient step timed at start is faster so, else
    fp32), fp32 or bf16; the actors always run in fp32"""

    # bookkeeping
    out_dir: str = "runs"
    """folder that receives the run folder"""
    time_budget: float = 0.0
    """stop cleanly (final checkpoint, evaluation, curve) after this many seconds of
    training (0: no limit); the learning rate still anneals over total_timesteps"""
    checkpoint_every: int = 100
    """learner steps between checkpoints (0: only the final one)"""
    resume: str | None = None
    """checkpoint to resume from (continues its run folder, step count and optimizer)"""
    capture_video: bool = False
    """write GIFs of evaluation episodes to the run folder's videos/"""
    eval_episodes: int = 10
    """episodes of the final evaluation (0: skip it and the random baseline)"""
    progress: bool = True
    """show a progress bar with steps/s and the recent return"""
    track: bool = True
    """write TensorBoard events, scalars.csv and curve.png"""

    # filled in at run time
    world_size: int = field(default=1, init=False)
    steps_per_update: int = field(default=0, init=False)
    num_updates: int = field(default=0, init=False)


@torch.no_grad()
def vtrace(behavior_logp: torch.Tensor, target_logp: torch.Tensor, rewards: torch.Tensor,
           values: torch.Tensor, bootstrap_value: torch.Tensor, discounts: torch.Tensor,
           rho_bar: float = 1.0, c_bar: float = 1.0):
    """V-trace targets and policy-gradient advantages (IMPALA paper, section 4.1).

    Inputs are time-major ``(T, B)`` (``bootstrap_value`` is ``(B,)``, the value of the
    state after the last step); ``discounts[t]`` is ``gamma`` times 0 where step ``t``
    ended its episode. With ``rho_t = min(rho_bar, pi/mu)``, ``c_t = min(c_bar, pi/mu)``:

        v_s = V(x_s) + sum_{t>=s} (prod_{i=s}^{t-1} gamma_i c_i) rho_t
                        (r_t + gamma_t V(x_{t+1}) - V(x_t))
        A_s = rho_s (r_s + gamma_s v_{s+1} - V(x_s))

    computed backwards as ``v_s - V(x_s) = delta_s + gamma_s c_s (v_{s+1} - V(x_{s+1}))``.
    Returns ``(vs, pg_advantages)``, both ``(T, B)``.
    """
    rhos = torch.exp(target_logp - behavior_logp)
    clipped_rhos = torch.clamp(rhos, max=rho_bar)
    cs = torch.clamp(rhos, max=c_bar)
    values_tp1 = torch.cat([values[1:], bootstrap_value.unsqueeze(0)], dim=0)
    deltas = clipped_rhos * (rewards + discounts * values_tp1 - values)
    acc = torch.zeros_like(bootstrap_value)
    vs_minus_v = torch.zeros_like(values)
    for t in reversed(range(values.shape[0])):
        acc = deltas[t] + discounts[t] * cs[t] * acc
        vs_minus_v[t] = acc
    vs = values + vs_minus_v
    vs_tp1 = torch.cat([vs[1:], bootstrap_value.unsqueeze(0)], dim=0)
    pg_advantages = clipped_rhos * (rewards + discounts * vs_tp1 - values)
    return vs, pg_advantages


class PolicyCopy:
    """The actors' copy of the policy: the model, the learner update its weights come from
    (``version``), and the lock that keeps the learner from replacing weights mid-inference."""

    def __init__(self, model: Agent, version: int = 0):
        self.model, self.version, self.lock = model, version, threading.Lock()

    def load(self, state_dict: dict, version: int) -> None:
        with self.lock:
            self.model.load_state_dict(state_dict)
            self.version = version


class Actor:
    """Steps one VectorEnv per game, each as two halves with send/recv: while one half
    steps in the native threads, the actor infers the other half's actions. Every ``T``
    steps of a half, ``emit(unroll, meta)`` hands its unroll to the learner (it blocks
    while the learner's queue is full). ``run()`` is the body of a thread of the learner
    process (``ThreadFleet``) or of a Ray actor process (jsgym/trainers/ray_fleet.py)."""

    def __init__(self, actor_id: int, args: Args, games: list[str], policy: PolicyCopy,
                 emit, stop: threading.Event, seed: int, device: torch.device):
        self.actor_id, self.args, self.games, self.policy = actor_id, args, games, policy
        self.emit, self.stop, self.seed, self.device = emit, stop, seed, device
        self.error: BaseException | None = None
        self.episodes: collections.deque = collections.deque()  # (game, return, length)
        self.env_wait = 0.0   # seconds blocked in recv() (env time not hidden by inference)
        self.env_send = 0.0   # seconds in send(), handing a half's actions to the env
        self.infer = 0.0      # seconds in the policy's forward pass and sampling
        self.copy = 0.0       # seconds copying steps into the unroll buffers, allocating them
        self.emit_wait = 0.0  # seconds in emit(): a full queue (back-pressure), transport
        self.busy = 0.0       # seconds in the loop
        self.unrolls = 0      # unrolls emitted
        self._published = self._totals()
        self.generator = torch.Generator(device=device)
        self.generator.manual_seed(seed)

    def run(self):
        try:
            self._run()
        except BaseException as exc:  # re-raised by the learner
            self.error = exc

    def _new_unroll(self, n: int, obs_shape, n_actions: int) -> dict:
        T = self.args.unroll_length
        return {"obs": np.zeros((T + 1, n) + obs_shape, np.uint8),
                "actions": np.zeros((T, n), np.int64),
                "logits": np.zeros((T, n, n_actions), np.float32),
                "rewards": np.zeros((T, n), np.float32),
                "terminated": np.zeros((T, n), np.bool_),
                "truncated": np.zeros((T, n), np.bool_),
                "valid": np.zeros((T, n), np.bool_)}

    def _run(self):
        args, T, E = self.args, self.args.unroll_length, self.args.envs_per_actor
        envs = []
        try:
            for game in self.games:
                envs.append(jsgym.make_vec(game, E, num_threads=args.env_threads, seed=self.seed,
                                           backend=args.backend, episode_statistics=True,
                                           **env_kwargs_from(args)))
            self._loop(envs, T, E)
        finally:
            for e in envs:
                e.close()

    def _loop(self, envs: list, T: int, E: int):
        obs_shape = envs[0].single_observation_space.shape
        n_actions = envs[0].single_action_space.n
        half = E // 2
        # group 2j + h is half h (0: envs [0, half), 1: [half, E)) of game j's VectorEnv
        ids = [np.arange(0, half), np.arange(half, E)]
        n_groups = 2 * len(envs)
        unroll = [self._new_unroll(half, obs_shape, n_actions) for _ in range(n_groups)]
        version = [0] * n_groups  # the weights an unroll's first step was inferred with
        t = [0] * n_groups
        valid = [np.ones(half, np.bool_) for _ in range(n_groups)]
        pending: collections.deque = collections.deque()  # VectorEnvs of the sends, oldest first

        def act(g: int, obs: np.ndarray) -> None:
            # batched inference for one half, then send it stepping
            i0 = time.perf_counter()
            with self.policy.lock, torch.no_grad():
                logits, _ = self.policy.model(torch.from_numpy(obs).to(self.device))
                action = torch.multinomial(torch.softmax(logits, -1), 1,
                                           generator=self.generator).squeeze(-1)
                if t[g] == 0:
                    version[g] = self.policy.version
            i1 = time.perf_counter()
            self.infer += i1 - i0
            u, k = unroll[g], t[g]
            u["obs"][k], u["actions"][k] = obs, action.cpu().numpy()
            u["logits"][k], u["valid"][k] = logits.cpu().numpy(), valid[g]
            i2 = time.perf_counter()
            self.copy += i2 - i1
            envs[g // 2].send(u["actions"][k], ids[g % 2])
            self.env_send += time.perf_counter() - i2
            pending.append(g // 2)

        try:
            start = time.perf_counter()
            for j, e in enumerate(envs):
                obs, _ = e.reset(seed=self.seed)
                act(2 * j, obs[ids[0]])
                act(2 * j + 1, obs[ids[1]])
            self.busy += time.perf_counter() - start
            self._published = self._totals()
            while not self.stop.is_set():
                loop_start = time.perf_counter()
                j = pending.popleft()
                obs, reward, term, trunc, infos = envs[j].recv()
                received = time.perf_counter()
                self.env_wait += received - loop_start
                g = 2 * j + (0 if infos["env_id"][0] < half else 1)
                u, k = unroll[g], t[g]
                u["rewards"][k], u["terminated"][k], u["truncated"][k] = reward, term, trunc
                self.copy += time.perf_counter() - received
                # the step after an episode end only resets (NEXT_STEP autoreset)
                valid[g] = ~(term | trunc)
                if "_episode" in infos:
                    for i in np.flatnonzero(infos["_episode"]):
                        self.episodes.append((self.games[j], float(infos["episode"]["r"][i]),
                                              int(infos["episode"]["l"][i])))
                t[g] += 1
                if t[g] == T:
                    c0 = time.perf_counter()
                    u["obs"][T] = obs
                    q0 = time.perf_counter()
                    self.emit(u, {"actor": self.actor_id, "game": self.games[j],
                                  "version": version[g]})
                    q1 = time.perf_counter()
                    self.emit_wait += q1 - q0
                    self.unrolls += 1
                    unroll[g], t[g] = self._new_unroll(half, obs_shape, n_actions), 0
                    self.copy += (q0 - c0) + (time.perf_counter() - q1)
                if self.stop.is_set():
                    break
                act(g, obs)
                self.busy += time.perf_counter() - loop_start
                self._published = self._totals()
        finally:
            while pending:  # collect what is still stepping before the envs close
                envs[pending.popleft()].recv()

    def _totals(self) -> dict:
        return {"env_wait": self.env_wait, "env_send": self.env_send, "infer": self.infer,
                "copy": self.copy, "emit_wait": self.emit_wait, "busy": self.busy,
                "unrolls": self.unrolls}

    def stats(self) -> dict:
        """The totals as of the last completed loop step (another thread may read them in
        the middle of one, when its named phases would already hold time ``busy`` does
        not), so ``busy`` is their sum plus the loop's other time."""
        return dict(self._published)


class ThreadFleet:
    """The default actors: threads of the learner process, one bounded queue of unrolls,
    and one policy copy on the learner's device that all of them infer with."""

    def __init__(self, args: Args, games: list[str], agent: Agent, seed: int,
                 device: torch.device):
        self.policy = PolicyCopy(copy.deepcopy(agent).eval())
        self.unrolls: queue.Queue = queue.Queue(maxsize=args.queue_size)
        self.stop = threading.Event()
        self.actors = [Actor(i, args, games, self.policy, self._emit, self.stop, seed + 100 * i,
                             device) for i in range(args.num_actors)]
        self.threads = [threading.Thread(target=a.run, name=f"actor-{i}", daemon=True)
                        for i, a in enumerate(self.actors)]
        for th in self.threads:
            th.start()

    def _emit(self, unroll: dict, meta: dict) -> None:
        while not self.stop.is_set():
            try:
                self.unrolls.put((unroll, meta), timeout=0.1)
                return
            except queue.Full:
                continue

    def next_unroll(self) -> tuple[dict, dict]:
        """The oldest unroll in the queue and its ``meta`` (actor, game, weights version)."""
        while True:
            for a, th in zip(self.actors, self.threads):
                if a.error is not None:
                    raise RuntimeError(f"{th.name} failed") from a.error
            try:
                return self.unrolls.get(timeout=0.5)
            except queue.Empty:
                continue

    def publish(self, agent: Agent, version: int) -> None:
        self.policy.load(agent.state_dict(), version)

    def episodes(self) -> list[tuple[str, float, int]]:
        out = []
        for a in self.actors:
            while a.episodes:
                out.append(a.episodes.popleft())
        return out

    def stats(self) -> dict:
        """Actor time, summed over the actors (seconds), and the unrolls queued now."""
        total = collections.Counter()
        for a in self.actors:
            total.update(a.stats())
        return {**total, "queued": self.unrolls.qsize()}

    def summary(self) -> dict:
        return {}

    def close(self) -> None:
        self.stop.set()
        for th in self.threads:
            th.join(timeout=30)


def learner_share(clock: PhaseClock, phase: str) -> float:
    """A learner phase's share of its time waiting for unrolls or busy with them (the
    logging and checkpoints left out)."""
    spent = clock.total["wait"] + clock.total["copy"] + clock.total["learn"]
    return clock.total[phase] / max(spent, 1e-9)


def actor_seconds(stats: dict) -> dict[str, float]:
    """The ACTOR_PHASES of actor totals (``Actor.stats()``, summed over actors); ``other``
    is the loop time the named phases leave (the first resets included)."""
    named = {phase: stats.get(phase, 0.0) for phase in ACTOR_PHASES if phase != "other"}
    return {**named, "other": stats.get("busy", 0.0) - sum(named.values())}


def game_list(game: str) -> list[str]:
    """``--game`` as a list: one game, or several separated by commas (multi-task)."""
    games = [g.strip() for g in game.split(",") if g.strip()]
    if not games:
        raise ValueError(f"no game in --game {game!r}")
    return games


def main(argv: list[str] | None = None, prog: str | None = None) -> dict:
    args = parse_args(Args, argv, prog=prog)
    if args.envs_per_actor < 2 or args.envs_per_actor % 2:
        raise ValueError(f"envs_per_actor must be an even number >= 2, got {args.envs_per_actor}")
    if args.weights_every < 1:
        raise ValueError(f"weights_every must be >= 1, got {args.weights_every}")
    if args.ray and args.ray_inflight < 1:
        raise ValueError(f"ray_inflight must be >= 1, got {args.ray_inflight}")
    games = game_list(args.game)
    check_games(games)
    label = "+".join(pathlib.Path(g).stem if g.endswith(".js") else g for g in games)

    # distributed setup (torchrun sets these); every process runs actors and a learner
    distributed = int(os.environ.get("WORLD_SIZE", "1")) > 1
    rank = int(os.environ.get("RANK", "0"))
    if distributed:
        dist.init_process_group(backend=args.dist_backend)
        args.world_size = dist.get_world_size()
    is_main = rank == 0
    args.steps_per_update = args.batch_size * (args.envs_per_actor // 2) * args.unroll_length
    args.num_updates = updates_for(
        args.total_timesteps, args.steps_per_update * args.world_size,
        f"--batch-size {args.batch_size} x --envs-per-actor {args.envs_per_actor} / 2 x "
        f"--unroll-length {args.unroll_length}" + (f" x {args.world_size} learners"
                                                   if args.world_size > 1 else ""))

    ckpt = load_checkpoint(args.resume, args.device) if args.resume else None
    if distributed:  # all processes share rank 0's run name
        names = [ckpt["run_name"] if ckpt else make_run_name(label, args.exp_name, args.seed)]
        dist.broadcast_object_list(names, src=0)
        run_name = names[0]
    else:
        run_name = ckpt["run_name"] if ckpt else make_run_name(label, args.exp_name, args.seed)
    run_dir = pathlib.Path(args.out_dir) / run_name
    logger = RunLogger(run_dir, args, enabled=args.track and is_main)

    # seeding (each learner process gets its own env and sampling seeds)
    seed = args.seed + 1000 * rank
    threads, why = torch_threads_for(args.torch_threads, beside=0 if args.ray else args.num_actors)
    if is_main:
        print(f"torch threads: {threads} ({why})", flush=True)
    seed_everything(seed, args.torch_deterministic, threads)
    device = torch.device(args.device)

    # the learner's network (every game must have the same observations and actions)
    spaces = []
    for game in games:
        probe = jsgym.make_vec(game, 1, backend=args.backend, **env_kwargs_from(args))
        spaces.append((probe.single_observation_space.shape, probe.single_action_space.n))
        probe.close()
    if len(set(spaces)) > 1:
        raise ValueError("multi-task games must share observation shape and action count: "
                         + ", ".join(f"{g} {o} x {a}" for g, (o, a) in zip(games, spaces)))
    obs_shape, n_actions = spaces[0]
    agent = Agent(obs_shape, n_actions, args.encoder).to(device)
    if ckpt:
        agent.load_state_dict(ckpt["model"])
    learner = nn.parallel.DistributedDataParallel(agent) if distributed else agent
    learner_batch = (args.unroll_length + 1) * args.batch_size * (args.envs_per_actor // 2)
    amp_dtype, why = learner_dtype(args.precision, device,
                                   gradient_trial(agent, learner_batch, device))
    if distributed:  # every learner computes as rank 0 found fastest
        choice = [(amp_dtype, why)]
        dist.broadcast_object_list(choice, src=0)
        amp_dtype, why = choice[0]
    print(f"learner gradient steps in {'fp32' if amp_dtype is None else 'bf16 autocast'} ({why})",
          flush=True)
    optimizer = torch.optim.RMSprop(agent.parameters(), lr=args.learning_rate,
                                    alpha=args.rmsprop_alpha, eps=args.rmsprop_eps)
    global_step, start_update = 0, 1
    if ckpt:
        optimizer.load_state_dict(ckpt["optimizer"])
        global_step, start_update = ckpt["global_step"], ckpt["iteration"] + 1
        if is_main:
            print(f"resumed {run_name} at step {global_step}", flush=True)

    # the actors: threads of this process, or Ray actor processes anywhere on a cluster
    if args.ray:
        if args.ray == "local":  # a cluster inside this machine: Ray on the loopback interface
            os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        from jsgym.trainers.ray_fleet import RayFleet
        fleet = RayFleet(args, games, agent, seed)
    else:
        fleet = ThreadFleet(args, games, agent, seed, device)
    fleet.publish(agent, start_update - 1)

    recent = collections.deque(maxlen=20)
    start_time = time.time()
    start_step = global_step
    clock = PhaseClock(*LEARNER_PHASES)
    actor_logged = actor_seconds({})  # actor totals at the previous log row
    lags = collections.deque(maxlen=100)  # learner updates between an unroll's weights and now
    last_update = start_update - 1
    bar = progress_bar(args.num_updates * args.steps_per_update * args.world_size, global_step,
                       args.progress and is_main)

    try:
        def to_device(array: np.ndarray) -> torch.Tensor:
            # on a GPU, from page-locked memory and without waiting for the copy
            if device.type != "cuda":
                return torch.from_numpy(array).to(device)
            return torch.from_numpy(array).pin_memory().to(device, non_blocking=True)

        for update in range(start_update, args.num_updates + 1):
            clock.lap("other")  # the previous update's logging and checkpoint
            batch = [fleet.next_unroll() for _ in range(args.batch_size)]
            clock.lap("wait")
            lags.extend(update - 1 - meta["version"] for _, meta in batch)
            b = {k: to_device(np.concatenate([u[k] for u, _ in batch], axis=1))
                 for k in batch[0][0]}
            clock.lap("copy")
            T, N = b["actions"].shape
            frac = 1.0 - (update - 1.0) / args.num_updates
            optimizer.param_groups[0]["lr"] = frac * args.learning_rate

            with torch.autocast(device.type, dtype=amp_dtype or torch.float32, enabled=amp_dtype is not None):
                logits, values = learner(b["obs"].reshape((-1,) + obs_shape))
            logits, values = logits.float(), values.float()
            logits = logits.reshape(T + 1, N, n_actions)[:-1]
            values = values.reshape(T + 1, N)
            log_probs = F.log_softmax(logits, dim=-1)
            target_logp = log_probs.gather(-1, b["actions"].unsqueeze(-1)).squeeze(-1)
            behavior_logp = F.log_softmax(b["logits"], dim=-1).gather(
                -1, b["actions"].unsqueeze(-1)).squeeze(-1)

            rewards = b["rewards"]
            if args.reward_clip > 0:
                rewards = rewards.clamp(-args.reward_clip, args.reward_clip)
            ended = b["terminated"] | b["truncated"]
            # a truncated episode is cut, not over: bootstrap from its final observation
            # (the next one in the unroll, under NEXT_STEP autoreset)
            rewards = rewards + args.gamma * values[1:].detach() * (
                b["truncated"] & ~b["terminated"]).float()
            discounts = args.gamma * (~ended).float()
            vs, pg_adv = vtrace(behavior_logp, target_logp, rewards, values[:-1].detach(),
                                values[-1].detach(), discounts, args.rho_bar, args.c_bar)

            mask = b["valid"].float()  # drop steps whose action the env ignored
            pg_loss = -(target_logp * pg_adv * mask).sum()
            v_loss = 0.5 * (((vs - values[:-1]) ** 2) * mask).sum()
            entropy = (-(log_probs.exp() * log_probs).sum(-1) * mask).sum()
            loss = pg_loss + args.vf_coef * v_loss - args.ent_coef * entropy

            optimizer.zero_grad()
            loss.backward()
            grad_norm = nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
            optimizer.step()
            clock.lap("learn")
            if update % args.weights_every == 0:
                fleet.publish(agent, update)
            clock.lap("copy")

            global_step += args.steps_per_update * args.world_size
            for game, r, l in fleet.episodes():
                recent.append(r)
                logger.scalar("charts/episodic_return", r, global_step)
                logger.scalar("charts/episodic_length", l, global_step)
                if len(games) > 1:
                    logger.scalar(f"charts/episodic_return/{game}", r, global_step)

            if update % 10 == 0 or update == args.num_updates:
                sps = int((global_step - start_step) / (time.time() - start_time))
                n_valid = mask.sum().clamp(min=1)
                st = fleet.stats()
                env_wait = st["env_wait"] / max(st["busy"], 1e-9)
                clock.lap("other")
                learner_since = clock.take()
                actor_now = actor_seconds(st)
                actor_since = {p: actor_now[p] - actor_logged[p] for p in ACTOR_PHASES}
                actor_logged = actor_now
                logger.scalar("charts/SPS", sps, global_step)
                logger.scalar("charts/learning_rate", optimizer.param_groups[0]["lr"], global_step)
                logger.scalar("charts/actor_env_wait_fraction", env_wait, global_step)
                logger.scalar("charts/learner_queue_wait_fraction",
                              learner_share(clock, "wait"), global_step)
                # seconds since the previous row: the learner's add up to its wall time,
                # the actors' to theirs (summed over the actors)
                for phase, spent in learner_since.items():
                    logger.scalar(f"time/learner_{phase}", spent, global_step)
                for phase, spent in actor_since.items():
                    logger.scalar(f"time/actor_{phase}", spent, global_step)
                logger.scalar("charts/queue_size", st["queued"], global_step)
                logger.scalar("charts/policy_lag", float(np.mean(lags)), global_step)
                logger.scalar("losses/policy_loss", pg_loss.item() / n_valid.item(), global_step)
                logger.scalar("losses/value_loss", v_loss.item() / n_valid.item(), global_step)
                logger.scalar("losses/entropy", entropy.item() / n_valid.item(), global_step)
                logger.scalar("losses/grad_norm", float(grad_norm), global_step)
                bar.set_postfix(sps=sps, ret=f"{np.mean(recent):.2f}" if recent else "n/a",
                                env_wait=f"{env_wait:.0%}")
            bar.update(args.steps_per_update * args.world_size)

            if (args.track and is_main and args.checkpoint_every
                    and update % args.checkpoint_every == 0):
                save_checkpoint(run_dir / "checkpoints" / "latest.pt", algo="impala", args=args,
                                agent=agent, optimizer=optimizer, global_step=global_step,
                                iteration=update, run_name=run_name)
                logger.flush()
            last_update = update
            out_of_time = bool(args.time_budget) and time.time() - start_time > args.time_budget
            if distributed and args.time_budget:  # all learners stop at the same update
                flag = torch.tensor([float(out_of_time)])
                dist.all_reduce(flag, op=dist.ReduceOp.MAX)
                out_of_time = flag.item() > 0
            if out_of_time:
                break
    finally:
        try:
            st, fleet_summary = fleet.stats(), fleet.summary()
        finally:
            fleet.close()
            bar.close()

    wall = time.time() - start_time
    actor_busy = max(st["busy"], 1e-9)
    summary = {"run_dir": str(run_dir), "global_step": global_step, "wall_time": wall,
               "sps": (global_step - start_step) / max(wall, 1e-9),
               "actor_env_wait_fraction": st["env_wait"] / actor_busy,
               "actor_infer_fraction": st["infer"] / actor_busy,
               "actor_env_send_fraction": st.get("env_send", 0.0) / actor_busy,
               "actor_copy_fraction": st.get("copy", 0.0) / actor_busy,
               "actor_queue_wait_fraction": st["emit_wait"] / actor_busy,
               "learner_queue_wait_fraction": learner_share(clock, "wait"),
               "learner_copy_fraction": learner_share(clock, "copy"),
               "learner_learn_fraction": learner_share(clock, "learn"),
               "updates_per_s": (last_update - start_update + 1) / max(wall, 1e-9),
               "policy_lag": float(np.mean(lags)) if lags else float("nan"),
               "recent_return": float(np.mean(recent)) if recent else float("nan"),
               **fleet_summary}
    if args.track and is_main:
        final = run_dir / "checkpoints" / "final.pt"
        save_checkpoint(final, algo="impala", args=args, agent=agent, optimizer=optimizer,
                        global_step=global_step, iteration=last_update, run_name=run_name)
        summary["checkpoint"] = str(final)
        if args.eval_episodes > 0:
            means = []
            for game in games:  # each game on held-out seeds, beside the random policy
                name = f"eval_{global_step}" if len(games) == 1 else f"eval_{game}_{global_step}"
                gif = run_dir / "videos" / f"{name}.gif" if args.capture_video else None
                result = evaluate(load_policy(final, device=args.device), game,
                                  episodes=args.eval_episodes, seed=args.seed + 10_000,
                                  backend=args.backend, env_kwargs=env_kwargs_from(args),
                                  gif_path=gif)
                base = random_baseline(game, episodes=args.eval_episodes, seed=args.seed + 10_000,
                                       env_kwargs=env_kwargs_from(args), backend=args.backend)
                means.append((result["mean"], result["std"], base["mean"]))
                tag = "eval" if len(games) == 1 else f"eval/{game}"
                logger.scalar(f"{tag}/mean_return", result["mean"], global_step)
                logger.scalar(f"{tag}/random_mean_return", base["mean"], global_step)
                if len(games) > 1:
                    summary[f"eval_mean_{game}"] = result["mean"]
                    summary[f"random_mean_{game}"] = base["mean"]
            summary.update(eval_mean=float(np.mean([m[0] for m in means])),
                           eval_std=float(np.mean([m[1] for m in means])),
                           random_mean=float(np.mean([m[2] for m in means])))
        logger.flush()
        plot_learning_curve(run_dir / "scalars.csv", run_dir / "curve.png",
                            title=f"{label}: IMPALA ({args.encoder} CNN)",
                            baseline=summary.get("random_mean"))
    logger.close()
    if distributed:  # DDP keeps the learners' weights identical; check it, cheaply
        flat = torch.cat([p.detach().flatten() for p in agent.parameters()])
        gathered = [torch.zeros_like(flat) for _ in range(args.world_size)]
        dist.all_gather(gathered, flat)
        summary["ddp_weights_in_sync"] = all(torch.equal(gathered[0], g) for g in gathered)
        # DDP's reducer holds the process group and DDP sits in reference cycles: left to
        # the collector, it went at interpreter exit, where destroying gloo's threads
        # aborted a learner now and then ("terminate called without an active
        # exception", once in a CI run). Free it while everything is alive.
        del learner
        gc.collect()
        dist.barrier()
        dist.destroy_process_group()
    if is_main:
        print("summary " + " ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                                    for k, v in summary.items()), flush=True)
    return summary


if __name__ == "__main__":
    main()
