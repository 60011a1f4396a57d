"""Agent steps/s with the trainer attached: jsgym's PPO (jsgym/trainers/ppo.py) and IMPALA
(jsgym/trainers/impala.py) against Stable-Baselines3's PPO with the same network, the
same envs and the same rollout and minibatch sizes, on this machine, and where the
time of a jsgym iteration goes. Writes bench/results/train_sps.md and train_sps.csv.

The trainers:
  jsgym-ppo     jsgym/trainers/ppo.py as `python -m jsgym.trainers.ppo` runs it (TensorBoard
                on, no checkpoints in between, no final evaluation): --num-envs envs x
                --num-steps steps per update, --update-epochs epochs of --num-minibatches
                minibatches
  jsgym-impala  jsgym/trainers/impala.py at its defaults (one actor thread, unrolls of 20,
                batches of 2) with --num-envs envs per actor
  sb3-ppo       stable_baselines3.PPO on jsgym.sb3.SB3VecEnv: the same envs (frameskip,
                episode limit), n_envs, n_steps, batch_size (the minibatch), n_epochs and
                PPO settings (clipping of both losses, GAE, entropy and value
                coefficients, gradient norm, Adam's learning rate) as jsgym-ppo, and
                jsgym's network: the --encoder of jsgym.trainers.common as SB3's
                features extractor, with the policy and value heads straight on its
                features (net_arch=[]), so both train the same parameters (their counts
                are printed and written beside the results)
All three get the same torch threads: the trainers' --torch-threads 0 rule
(jsgym.trainers.common.torch_threads_for, applied once at the start: the usable cores,
1 if the machine is busy; IMPALA's learner leaves a core to its actor thread), and the
env's default native threads.

Protocol: each run in its own process, one after another (never two at once), pinned
to --cores, the order of the trainers reversed on every other repeat so drift shows.
Each run trains for --seconds (the trainers' --time-budget; SB3: a callback that stops
at the first update boundary after that long) or --updates timed updates (IMPALA's are
smaller and logged every 10th: it runs 10 times as many). The timing
starts at the end of the first update, which pays for the first calls' set-up (IMPALA:
at its first log row, update 10, once the actor and the queue run steadily), and ends
at the end of the last: agent steps/s = env steps consumed by training in that window /
its wall seconds. The machine's load over the window is recorded in the run's process
(bench/common.py's LoadMeter): the figures are worth publishing only where the other
load stays near 0.

Where the time goes (share of the timed window's wall time):
  jsgym-ppo     env (envs.step), inference (the rollout's forward passes and sampling),
                learn (GAE and the gradient steps), copy (observations and step results
                into the rollout storage, the flattened batch, each minibatch), other
                (logging): the trainer's own time/* scalars
  jsgym-impala  the learner: wait for unrolls, copy (unrolls into the batch, weights into
                the actors' policy copy), learn (forward, V-trace, backward, optimizer
                step), other; the actor thread: env wait (blocked in recv, the env time
                inference does not hide), env send (handing actions to the env threads),
                inference, copy (into the unroll buffers), queue wait (a full queue),
                other (bookkeeping); both run at once
  sb3-ppo       env (the same native step as jsgym's), inference (policy.forward in
                the rollouts), learn (train() and GAE, its copies left out), copy
                (rollout_buffer.add, the buffer's flattening and the minibatch gathers),
                other (everything else, e.g. the SB3 adapter's info dicts, callbacks)

Time at defaults (3 trainers x 2 repeats, 30 s of training each plus about 8 s of
start-up and warm-up): about 4 minutes; --quick (a smoke run: see the option) about
25 s.

    python bench/train_sps.py                               # catch, all three trainers
    python bench/train_sps.py --quick --out /tmp/train_sps.md
    python bench/train_sps.py --trainers jsgym-ppo sb3-ppo --encoder impala --repeats 3
"""

from __future__ import annotations

import sys

# bench/profile.py (this script's folder is sys.path[0]) shadows the standard library's
# profile module, which torch.optim imports through cProfile: import the real one first
_here = sys.path.pop(0)
import cProfile  # noqa: E402,F401

sys.path.insert(0, _here)

import importlib.util  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import pathlib  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import torch  # noqa: E402

import common  # noqa: E402
from common import Measurement, fmt_rate, fmt_ratio, log  # noqa: E402

from jsgym.trainers import impala, ppo  # noqa: E402
from jsgym.trainers.common import (ENCODERS, Agent, RunLogger, env_kwargs_from,  # noqa: E402
                                   torch_threads_for)

TRAINERS = ("jsgym-ppo", "jsgym-impala", "sb3-ppo")
BASELINE = "sb3-ppo"
RESULT_PREFIX = "train_sps result: "
#: IMPALA logs (and so times) every 10th update: its window starts at the first such row
IMPALA_LOG_EVERY = 10
SB3_PHASES = ("env", "inference", "learn", "copy", "other")
TITLES = {"wait": "wait for unrolls", "env_wait": "env wait", "env_send": "env send",
          "infer": "inference", "emit_wait": "queue wait"}
#: the phases of each trainer's split, in table order: (group, phase, column title)
SPLITS = {
    "jsgym-ppo": [("iteration", p, p) for p in ppo.PHASES],
    "jsgym-impala": [("learner", p, f"learner: {TITLES.get(p, p)}") for p in impala.LEARNER_PHASES]
    + [("actor", p, f"actor: {TITLES.get(p, p)}") for p in impala.ACTOR_PHASES],
    "sb3-ppo": [("iteration", p, p) for p in SB3_PHASES],
}
QUICK = dict(num_envs=8, num_steps=32, num_minibatches=2, update_epochs=1, updates=1,
             repeats=1, impala_unroll_length=8)


# -- the same network on both sides ---------------------------------------------------

def sb3_policy_kwargs(encoder: str) -> dict:
    """SB3 ``policy_kwargs`` that make its ``CnnPolicy`` jsgym's ``Agent``: the encoder of
    jsgym.trainers.common as features extractor (shared by policy and value), and the
    two heads straight on its features, as ``Agent``'s actor and critic."""
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    class JsgymEncoder(BaseFeaturesExtractor):
        """jsgym's pixel encoder on SB3's channels-first observations, which SB3 has
        already scaled to [0, 1] (Agent does both itself)."""

        def __init__(self, observation_space, encoder: str = "nature"):
            c, h, w = observation_space.shape
            net = ENCODERS[encoder]((h, w, c))
            super().__init__(observation_space, features_dim=net.out_dim)
            self.net = net

        def forward(self, x):
            return self.net(x)

    return {"features_extractor_class": JsgymEncoder,
            "features_extractor_kwargs": {"encoder": encoder}, "net_arch": []}


def parameter_count(module) -> int:
    return sum(p.numel() for p in module.parameters())


def jsgym_parameter_count(obs_shape: tuple, n_actions: int, encoder: str) -> int:
    """Parameters of the network both jsgym trainers build."""
    return parameter_count(Agent(obs_shape, n_actions, encoder))


def sb3_parameter_count(obs_shape: tuple, n_actions: int, encoder: str) -> int:
    """Parameters of SB3's policy with ``sb3_policy_kwargs``, built as PPO builds it
    (on the channels-first observations of its VecTransposeImage)."""
    import gymnasium as gym
    import numpy as np
    from stable_baselines3.common.policies import ActorCriticCnnPolicy

    h, w, c = obs_shape
    space = gym.spaces.Box(0, 255, (c, h, w), np.uint8)
    policy = ActorCriticCnnPolicy(space, gym.spaces.Discrete(n_actions), lambda _: 1e-3,
                                  **sb3_policy_kwargs(encoder))
    return parameter_count(policy)


def game_spaces(game: str) -> tuple[tuple, int]:
    """The observation shape and action count of ``game`` with the trainers' env settings."""
    import jsgym

    probe = jsgym.make_vec(game, 1, **env_kwargs_from(ppo.Args(game=game)))
    try:
        return tuple(probe.single_observation_space.shape), int(probe.single_action_space.n)
    finally:
        probe.close()


# -- one run, in its own process --------------------------------------------------------

class UpdateRows:
    """The ``time/*`` scalars a jsgym trainer logs once per logged update, as they
    arrive: per row (the scalars sharing a step) the step, when its first scalar came,
    its seconds per phase (spent since the previous row), and the load since the first
    row."""

    def __init__(self):
        self.rows: list[dict] = []
        self.meter: common.LoadMeter | None = None

    def note(self, tag: str, value: float, step: int) -> None:
        if not self.rows or self.rows[-1]["step"] != step:
            now = time.perf_counter()
            load = None
            if self.meter is None:
                self.meter = common.LoadMeter().start()
            else:
                load = self.meter.stop()
            self.rows.append({"step": int(step), "time": now, "seconds": {}, "load": load})
        self.rows[-1]["seconds"][tag] = float(value)

    def window(self) -> dict:
        """Steps, seconds, seconds per ``time/`` tag and load from the first row to the last."""
        if len(self.rows) < 2:
            raise RuntimeError(f"{len(self.rows)} timing row(s): the run was too short to "
                               "time anything after its warm-up; raise --seconds or --updates")
        first, last = self.rows[0], self.rows[-1]
        seconds: dict[str, float] = {}
        for row in self.rows[1:]:
            for tag, s in row["seconds"].items():
                seconds[tag] = seconds.get(tag, 0.0) + s
        return {"steps": last["step"] - first["step"], "seconds": last["time"] - first["time"],
                "phases": seconds, "load": last["load"], "rows": len(self.rows) - 1}


def recording_logger(rows: UpdateRows):
    """The trainers' RunLogger, which also hands the ``time/`` scalars to ``rows``."""

    class RecordingLogger(RunLogger):
        def scalar(self, tag: str, value: float, step: int) -> None:
            super().scalar(tag, value, step)
            if tag.startswith("time/"):
                rows.note(tag[len("time/"):], value, step)

    return RecordingLogger


def budget_args(opts, per_update: int, updates_per_row: int) -> list[str]:
    """A jsgym trainer's --total-timesteps (and --time-budget) for the run's budget: a
    warm-up of one log row's updates, then --updates rows."""
    if opts.updates:
        return ["--total-timesteps", str((1 + opts.updates) * updates_per_row * per_update)]
    # far more than fits: the time budget ends the run
    return ["--total-timesteps", str(per_update * 10**6), "--time-budget", str(opts.seconds)]


def run_jsgym(trainer: str, opts) -> dict:
    module = ppo if trainer == "jsgym-ppo" else impala
    rows = UpdateRows()
    module.RunLogger = recording_logger(rows)  # this process runs only this trainer
    common_args = ["--game", opts.game, "--encoder", opts.encoder, "--torch-threads",
                   str(opts.torch_threads), "--checkpoint-every", "0", "--eval-episodes", "0",
                   "--no-progress", "--no-track" if opts.quick else "--track"]
    if trainer == "jsgym-ppo":
        per_update = opts.num_envs * opts.num_steps
        argv = common_args + ["--num-envs", str(opts.num_envs), "--num-steps", str(opts.num_steps),
                              "--num-minibatches", str(opts.num_minibatches),
                              "--update-epochs", str(opts.update_epochs)]
        argv += budget_args(opts, per_update, 1)
    else:
        per_update = impala.Args().batch_size * (opts.num_envs // 2) * opts.impala_unroll_length
        argv = common_args + ["--envs-per-actor", str(opts.num_envs),
                              "--unroll-length", str(opts.impala_unroll_length)]
        argv += budget_args(opts, per_update, IMPALA_LOG_EVERY)
    with tempfile.TemporaryDirectory() as out:
        module.main(argv + ["--out-dir", out])
    w = rows.window()
    phases = w["phases"]
    if trainer == "jsgym-ppo":
        split = {"iteration": {p: phases.get(p, 0.0) for p in ppo.PHASES}}
    else:
        actors = impala.Args().num_actors  # their seconds are summed: per actor here
        split = {"learner": {p: phases.get(f"learner_{p}", 0.0) for p in impala.LEARNER_PHASES},
                 "actor": {p: phases.get(f"actor_{p}", 0.0) / actors for p in impala.ACTOR_PHASES}}
    obs_shape, n_actions = game_spaces(opts.game)
    return {"steps": w["steps"], "seconds": w["seconds"], "updates": w["steps"] // per_update,
            "split": split, "load": w["load"],
            "parameters": jsgym_parameter_count(obs_shape, n_actions, opts.encoder)}


class TimedStep:
    """A jsgym vector env whose ``step()`` calls are timed; everything else passes through."""

    def __init__(self, env, totals: dict):
        self._env, self._totals = env, totals

    def step(self, actions):
        t0 = time.perf_counter()
        out = self._env.step(actions)
        self._totals["env"] += time.perf_counter() - t0
        return out

    def __getattr__(self, name):
        return getattr(self._env, name)


def timed(fn, totals: dict, key: str):
    """``fn``, adding the seconds of each call to ``totals[key]``."""

    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            totals[key] += time.perf_counter() - t0

    return wrapper


def run_sb3(opts) -> dict:
    from stable_baselines3 import PPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.logger import Logger

    from jsgym.sb3 import SB3VecEnv

    # jsgym-ppo's settings, so the two differ only in the trainer
    a = ppo.Args(game=opts.game, num_envs=opts.num_envs, num_steps=opts.num_steps,
                 num_minibatches=opts.num_minibatches, update_epochs=opts.update_epochs,
                 encoder=opts.encoder)
    torch.set_num_threads(opts.torch_threads)
    venv = SB3VecEnv(opts.game, a.num_envs, seed=a.seed, num_threads=a.env_threads,
                     backend=a.backend, **env_kwargs_from(a))
    totals = dict.fromkeys(("env", "inference", "train", "gae", "add", "flatten", "gather"), 0.0)
    venv.venv = TimedStep(venv.venv, totals)
    lr = a.learning_rate
    model = PPO("CnnPolicy", venv, learning_rate=(lambda left: left * lr) if a.anneal_lr else lr,
                n_steps=a.num_steps, batch_size=a.num_envs * a.num_steps // a.num_minibatches,
                n_epochs=a.update_epochs, gamma=a.gamma, gae_lambda=a.gae_lambda,
                clip_range=a.clip_coef, clip_range_vf=a.clip_coef if a.clip_vloss else None,
                normalize_advantage=a.norm_adv, ent_coef=a.ent_coef, vf_coef=a.vf_coef,
                max_grad_norm=a.max_grad_norm, target_kl=a.target_kl,
                policy_kwargs=sb3_policy_kwargs(a.encoder), seed=a.seed, device=a.device,
                verbose=0)
    # SB3's default logger makes an empty directory in the temp dir each run; this one
    # records in memory only (the window is timed below, not read from its logs)
    model.set_logger(Logger(folder=None, output_formats=[]))
    buffer = model.rollout_buffer
    for name in ("add", "compute_returns_and_advantage", "swap_and_flatten", "_get_samples"):
        if not callable(getattr(buffer, name, None)):
            raise RuntimeError(f"SB3's RolloutBuffer has no {name}(): its copies cannot be timed")
    model.policy.forward = timed(model.policy.forward, totals, "inference")
    model.train = timed(model.train, totals, "train")
    buffer.compute_returns_and_advantage = timed(buffer.compute_returns_and_advantage, totals,
                                                 "gae")
    buffer.add = timed(buffer.add, totals, "add")
    buffer.swap_and_flatten = timed(buffer.swap_and_flatten, totals, "flatten")
    buffer._get_samples = timed(buffer._get_samples, totals, "gather")
    per_update = a.num_envs * a.num_steps

    class Window(BaseCallback):
        """Times from the second rollout's start (the first update done) to the end of
        the last update; with a time budget, stops at the first rollout that starts
        after it."""

        def _on_training_start(self):
            self.started, self.rollouts, self.stopping = time.perf_counter(), 0, False
            self.begin = self.end = None

        def _mark(self) -> dict:
            return {"time": time.perf_counter(), "steps": self.model.num_timesteps,
                    "totals": dict(totals)}

        def _on_rollout_start(self):
            self.rollouts += 1
            if self.rollouts == 2:
                self.begin = self._mark()
                self.meter = common.LoadMeter().start()
            if (not opts.updates and self.begin is not None
                    and time.perf_counter() - self.started >= opts.seconds):
                self.end, self.load, self.stopping = self._mark(), self.meter.stop(), True

        def _on_step(self) -> bool:
            return not self.stopping

        def _on_training_end(self):
            if self.end is None and self.begin is not None:
                self.end, self.load = self._mark(), self.meter.stop()

    window = Window()
    total = (1 + opts.updates) * per_update if opts.updates else per_update * 10**6
    model.learn(total, callback=window)
    venv.close()
    if window.begin is None or window.end["steps"] == window.begin["steps"]:
        raise RuntimeError("the SB3 run was too short to time anything after its warm-up; "
                           "raise --seconds or --updates")
    b, e = window.begin, window.end
    spent = {k: e["totals"][k] - b["totals"][k] for k in totals}
    seconds = e["time"] - b["time"]
    copies = spent["add"] + spent["flatten"] + spent["gather"]
    learn = spent["train"] - spent["flatten"] - spent["gather"] + spent["gae"]
    split = {"env": spent["env"], "inference": spent["inference"], "learn": learn,
             "copy": copies}
    split["other"] = seconds - sum(split.values())
    steps = e["steps"] - b["steps"]
    return {"steps": steps, "seconds": seconds, "updates": steps // per_update,
            "split": {"iteration": split}, "load": window.load,
            "parameters": parameter_count(model.policy)}


def run_one(opts) -> int:
    """The body of a run's process: trains, then prints one JSON line for the parent."""
    result = run_sb3(opts) if opts.run == BASELINE else run_jsgym(opts.run, opts)
    result["rate"] = result["steps"] / result["seconds"]
    print(RESULT_PREFIX + json.dumps(result), flush=True)
    return 0


def parse_result(stdout: str) -> dict:
    """The result line a run's process printed (the last one, should there be several)."""
    lines = [line for line in stdout.splitlines() if line.startswith(RESULT_PREFIX)]
    if not lines:
        raise ValueError("no result line in the run's output")
    return json.loads(lines[-1][len(RESULT_PREFIX):])


# -- the invocation: runs one after another -----------------------------------------------

def run_order(trainers: list[str], repeats: int) -> list[tuple[int, str]]:
    """``(repeat, trainer)`` in the order they run: the trainers in the given order,
    reversed on every other repeat, so that a drift of the machine shows as a trend
    instead of favouring one trainer."""
    order = []
    for r in range(repeats):
        order += [(r + 1, t) for t in (trainers if r % 2 == 0 else trainers[::-1])]
    return order


def worker_command(trainer: str, opts, threads: int) -> list[str]:
    cmd = [sys.executable, str(pathlib.Path(__file__).resolve()), "--run", trainer,
           "--game", opts.game, "--encoder", opts.encoder, "--num-envs", str(opts.num_envs),
           "--num-steps", str(opts.num_steps), "--num-minibatches", str(opts.num_minibatches),
           "--update-epochs", str(opts.update_epochs), "--torch-threads", str(threads)]
    if opts.quick:  # the same sizes, and the quick run's shortcuts
        return cmd + ["--quick"]
    return cmd + (["--updates", str(opts.updates)] if opts.updates
                  else ["--seconds", str(opts.seconds)])


def run_in_process(trainer: str, opts, threads: int) -> dict:
    timeout = 300 + (opts.seconds or 0) * 5 + (opts.updates or 0) * 60
    proc = subprocess.run(worker_command(trainer, opts, threads), cwd=common.ROOT,
                          capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, PYTHONUNBUFFERED="1"))
    if proc.returncode != 0:
        raise RuntimeError(f"{trainer} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
    return parse_result(proc.stdout)


def split_percentages(result: dict, trainer: str) -> dict[tuple[str, str], float]:
    """Each phase's share of the timed window's wall time, in percent."""
    return {(g, p): 100.0 * result["split"][g][p] / result["seconds"]
            for g, p, _ in SPLITS[trainer]}


def measurement_of(result: dict) -> Measurement:
    m = Measurement(rates=[result["rate"]], steps=[result["steps"]],
                    elapsed=[result["seconds"]])
    if result.get("load"):
        mine, other, near = result["load"]
        m.self_cores, m.other_cores, m.near_cores = [mine], [other], [near]
    return m


def main(argv=None) -> int:
    parser = common.parser_from_doc(__doc__)
    defaults = ppo.Args()
    parser.add_argument("--game", default="catch", help="game to train on (catch)")
    parser.add_argument("--trainers", nargs="+", choices=TRAINERS, default=list(TRAINERS),
                        metavar="TRAINER", help=f"which to run, in this order: any of "
                        f"{', '.join(TRAINERS)} (all)")
    parser.add_argument("--encoder", choices=sorted(ENCODERS), default=defaults.encoder,
                        help=f"the network of all three (the trainers' --encoder; "
                        f"{defaults.encoder})")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=None,
                        help="training seconds per run (30), the first update included")
    budget.add_argument("--updates", type=int, default=None,
                        help="timed updates per run after the warm-up, instead of --seconds "
                        f"(IMPALA, which logs every {IMPALA_LOG_EVERY}th update: that many "
                        f"times {IMPALA_LOG_EVERY})")
    parser.add_argument("--repeats", type=int, default=None,
                        help="runs of each trainer, alternating the order (2; --quick: 1)")
    parser.add_argument("--num-envs", type=int, default=defaults.num_envs,
                        help=f"envs of every trainer (IMPALA: per actor) ({defaults.num_envs})")
    parser.add_argument("--num-steps", type=int, default=defaults.num_steps,
                        help=f"steps per env per PPO update ({defaults.num_steps})")
    parser.add_argument("--num-minibatches", type=int, default=defaults.num_minibatches,
                        help=f"minibatches per PPO epoch ({defaults.num_minibatches})")
    parser.add_argument("--update-epochs", type=int, default=defaults.update_epochs,
                        help=f"epochs per PPO update ({defaults.update_epochs})")
    parser.add_argument("--torch-threads", type=int, default=0,
                        help="torch CPU threads of every run (0: the trainers' rule, applied "
                        "once at the start)")
    parser.add_argument("--cores", type=int, nargs="+", default=None,
                        help="CPUs the runs are pinned to (all usable ones)")
    parser.add_argument("--out", type=pathlib.Path, default=common.RESULTS / "train_sps.md",
                        help="the markdown result; the CSV goes beside it "
                        "(bench/results/train_sps.md)")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: 1 timed update per trainer (IMPALA: 10, unrolls of 8) "
                        "at 8 envs x 32 steps, 1 epoch of 2 minibatches, one repeat, jsgym's "
                        "trainers without TensorBoard files")
    parser.add_argument("--run", choices=TRAINERS, default=None,
                        help="train one trainer in this process and print its result as one "
                        "JSON line (what each run's process does)")
    args = parser.parse_args(argv)
    args.impala_unroll_length = impala.Args().unroll_length
    if args.quick:
        for k, v in QUICK.items():
            if k != "repeats" or args.repeats is None:
                setattr(args, k, v)
        args.seconds = None
    if args.updates is None and args.seconds is None:
        args.seconds = 30.0
    if args.repeats is None:
        args.repeats = 2
    if args.num_envs < 2 or args.num_envs % 2:
        parser.error("--num-envs must be even (IMPALA steps its envs in two halves)")
    if (args.num_envs * args.num_steps) % args.num_minibatches:
        parser.error("--num-envs x --num-steps must split into --num-minibatches")
    if args.run:
        return run_one(args)

    cores = args.cores or common.usable_cores()
    if not set(cores) <= set(common.usable_cores()):
        parser.error(f"--cores {cores}: usable here are {common.usable_cores()}")
    trainers = list(dict.fromkeys(args.trainers))
    notes = []
    if BASELINE in trainers and importlib.util.find_spec("stable_baselines3") is None:
        trainers.remove(BASELINE)
        notes.append(f"- {BASELINE} not run: stable-baselines3 is not installed "
                     "(pip install -e .[train])")
        log(notes[-1][2:])
    if not trainers:
        parser.error("no trainer to run")
    with common.pinned(cores):
        # the trainers' own rule, decided once so that every run gets the same threads
        ppo_threads = torch_threads_for(args.torch_threads)
        impala_threads = torch_threads_for(args.torch_threads, beside=impala.Args().num_actors)
    threads = {"jsgym-ppo": ppo_threads, "sb3-ppo": ppo_threads, "jsgym-impala": impala_threads}
    # this process only builds the networks to count their parameters: one thread, which
    # a busy machine does not slow down as it does two (docs/training.md, CPU notes)
    torch.set_num_threads(1)
    obs_shape, n_actions = game_spaces(args.game)
    params = {"jsgym": jsgym_parameter_count(obs_shape, n_actions, args.encoder)}
    if importlib.util.find_spec("stable_baselines3") is not None:
        params["sb3"] = sb3_parameter_count(obs_shape, n_actions, args.encoder)
    log(f"parameters ({args.encoder} encoder): jsgym Agent {params['jsgym']:,}"
        + (f", SB3 policy {params['sb3']:,}" if "sb3" in params else ""))
    for t in trainers:
        log(f"torch threads of {t}: {threads[t][0]} ({threads[t][1]})")

    results: dict[str, list[dict]] = {t: [] for t in trainers}
    for seq, (repeat, trainer) in enumerate(run_order(trainers, args.repeats), 1):
        log(f"run {seq}: {trainer} (repeat {repeat})")
        with common.pinned(cores):
            r = run_in_process(trainer, args, threads[trainer][0])
        r.update(repeat=repeat, sequence=seq)
        results[trainer].append(r)
        log(f"  {fmt_rate(r['rate'])} agent steps/s over {r['seconds']:.1f} s "
            f"({r['steps']} steps, {r['updates']} updates)")
    text = write_report(results, args, cores, threads, params, notes)
    print(text)
    log(f"wrote {args.out}, {args.out.with_suffix('.csv')}")
    return 0


# -- the report ----------------------------------------------------------------------------

def mean_rate(runs: list[dict]) -> float:
    return statistics.fmean(r["rate"] for r in runs) if runs else math.nan


def ratios_to_baseline(results: dict, trainer: str) -> tuple[list[float], float]:
    """Per repeat (the runs of one repeat ran side by side) and of the means."""
    base = {r["repeat"]: r["rate"] for r in results.get(BASELINE, [])}
    paired = [r["rate"] / base[r["repeat"]] for r in results[trainer] if r["repeat"] in base]
    of_means = mean_rate(results[trainer]) / mean_rate(results[BASELINE]) \
        if results.get(BASELINE) else math.nan
    return paired, of_means


def budget_text(args) -> str:
    if args.updates:
        return (f"{args.updates} timed update(s) per run after the warm-up (IMPALA: "
                f"{args.updates} x {IMPALA_LOG_EVERY})")
    return f"{args.seconds:g} s of training per run"


def write_report(results: dict, args, cores, threads, params, notes) -> str:
    trainers = list(results)
    runs = [r for t in trainers for r in results[t]]
    impala_defaults = impala.Args()
    per_impala = impala_defaults.batch_size * (args.num_envs // 2) * args.impala_unroll_length
    minibatch = args.num_envs * args.num_steps // args.num_minibatches
    trained = {r["parameters"] for r in runs}
    same = len(set(params.values()) | trained) == 1
    lines = [
        f"# Agent steps/s with the trainer attached: jsgym vs Stable-Baselines3 ({args.game})",
        "",
        *common.machine_lines(),
        f"- training software: torch {common.version('torch')}, stable-baselines3 "
        f"{common.version('stable-baselines3')}",
        f"- setup: {args.game}, frameskip {ppo.Args().frameskip}, {args.encoder} encoder; "
        f"PPO (both): {args.num_envs} envs x {args.num_steps} steps = "
        f"{args.num_envs * args.num_steps} agent steps per update, {args.update_epochs} "
        f"epoch(s) of {args.num_minibatches} minibatches of {minibatch}; IMPALA: "
        f"{impala_defaults.num_actors} actor thread x {args.num_envs} envs in two halves, "
        f"unrolls of {args.impala_unroll_length}, batches of {impala_defaults.batch_size} "
        f"= {per_impala} agent steps per update; env threads: the env's default; pinned to "
        f"CPUs {','.join(map(str, cores))}",
        "- torch threads: " + "; ".join(f"{t} {threads[t][0]} ({threads[t][1]})"
                                        for t in trainers),
        f"- parameters ({args.encoder} encoder): jsgym Agent {params['jsgym']:,}"
        + (f", SB3 policy {params['sb3']:,}" if "sb3" in params else "")
        + (f"; trained: {', '.join(f'{n:,}' for n in sorted(trained))}" if runs else "")
        + (": the same" if same else ": **they differ**"),
        f"- protocol: each run in its own process, one after another, the order reversed "
        f"on every other repeat; {budget_text(args)}; timed from the end of the first update "
        f"(IMPALA: its first log row, update {IMPALA_LOG_EVERY}) to the end of the last; "
        "agent steps/s = env steps consumed by training / wall seconds of that window",
        common.load_line([measurement_of(r) for r in runs]),
        *notes,
        "",
        "## Summary",
        "",
    ]
    header = ["trainer", "agent steps/s (mean)", "each run", f"/ {BASELINE}, per repeat",
              f"/ {BASELINE}, of the means"]
    table = []
    for t in trainers:
        paired, of_means = ratios_to_baseline(results, t) if t != BASELINE else ([], math.nan)
        table.append([t, fmt_rate(mean_rate(results[t])),
                      " ".join(fmt_rate(r["rate"]) for r in results[t]),
                      " ".join(fmt_ratio(x) for x in paired) or "-",
                      fmt_ratio(of_means) if t != BASELINE and BASELINE in results else "-"])
    lines += common.md_table(header, table) + [""]
    if "jsgym-ppo" in results and BASELINE in results:
        paired, of_means = ratios_to_baseline(results, "jsgym-ppo")
        lines += [f"jsgym-ppo / {BASELINE}: **{fmt_ratio(of_means)}** (per repeat: "
                  f"{', '.join(fmt_ratio(x) for x in paired)})", ""]

    csv_rows = []
    # every row has every trainer's split columns (empty where not its own), so the
    # columns come in one order: the run, the splits, the load
    split_columns = [f"{g}_{p}_{unit}" for t in trainers for g, p, _ in SPLITS[t]
                     for unit in ("pct", "s")]
    for t in trainers:
        split_titles = [title for _, _, title in SPLITS[t]]
        lines += [f"## {t}", ""]
        header = ["run", "repeat", "agent steps/s", "timed s", "agent steps", "updates",
                  *split_titles, "CPU used (cores)", "other load (own cores / machine)"]
        table = []
        for r in results[t]:
            pct = split_percentages(r, t)
            m = measurement_of(r)
            table.append([r["sequence"], r["repeat"], fmt_rate(r["rate"]), f"{r['seconds']:.1f}",
                          r["steps"], r["updates"], *(f"{pct[g, p]:.1f}%" for g, p, _ in SPLITS[t]),
                          f"{m.self_mean:.2f}" if m.self_cores else "n/a", m.load_cell()])
            row = {"trainer": t, "sequence": r["sequence"], "repeat": r["repeat"],
                   "agent_steps_per_s": round(r["rate"], 1),
                   "timed_seconds": round(r["seconds"], 3),
                   "agent_steps": r["steps"], "updates": r["updates"],
                   "torch_threads": threads[t][0], "parameters": r["parameters"],
                   "game": args.game, "encoder": args.encoder, "num_envs": args.num_envs}
            row.update(dict.fromkeys(split_columns, ""))
            for g, p, _ in SPLITS[t]:
                row[f"{g}_{p}_pct"] = round(pct[g, p], 2)
                row[f"{g}_{p}_s"] = round(r["split"][g][p], 4)
            row.update(common.measurement_fields(m))
            csv_rows.append(row)
        shares = [split_percentages(r, t) for r in results[t]]
        table.append(["mean", "", f"**{fmt_rate(mean_rate(results[t]))}**", "", "", "",
                      *(f"{statistics.fmean(s[g, p] for s in shares):.1f}%"
                        for g, p, _ in SPLITS[t]), "", ""])
        lines += common.md_table(header, table) + [""]
    lines += [
        "Shares of each run's timed wall time (mean: of the runs' steps/s and shares); a",
        "group's shares add up to about 100% (the IMPALA learner's and actor's run at the",
        "same time, each on its own thread). What each phase holds: `python",
        "bench/train_sps.py --help`.",
        "",
    ]
    text = "\n".join(lines)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    common.write_csv(args.out.with_suffix(".csv"), csv_rows)
    return text


if __name__ == "__main__":
    sys.exit(main())
