"""Helpers shared by jsgym/trainers/ppo.py and jsgym/trainers/impala.py: argument parsing, the two
pixel encoders, checkpoints, logging, evaluation, and `load_policy` for other tools.

The algorithms themselves live in their own files, readable top to bottom; this module
holds only what would otherwise be copied between them (and drift).

    from jsgym.trainers.common import load_policy
    policy = load_policy("runs/catch__ppo__1__1700000000/checkpoints/final.pt")
    actions = policy(obs_batch)          # (N, 64, 64, 3) uint8 -> (N,) int64
"""

from __future__ import annotations

import argparse
import ast
import csv
import dataclasses
import inspect
import math
import os
import pathlib
import textwrap
import time
import typing
from collections.abc import Callable

import numpy as np
import torch
import torch.nn as nn

# -- arguments ---------------------------------------------------------------------------


def field_docs(cls) -> dict[str, str]:
    """The docstring written under each field of a dataclass (CleanRL's convention)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0].body
    docs = {}
    for node, nxt in zip(body, body[1:]):
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant)
                and isinstance(nxt.value.value, str)):
            docs[node.target.id] = " ".join(nxt.value.value.split())
    return docs


def parse_args(cls, argv: list[str] | None = None, presets: dict[str, dict] | None = None,
               prog: str | None = None):
    """Builds an ``argparse`` parser from a dataclass (one ``--flag`` per field, its
    docstring as help, ``--x/--no-x`` for booleans) and returns a filled instance.

    ``presets`` maps a name to field overrides selected with ``--preset NAME``; flags
    given explicitly win over the preset.
    """
    hints = typing.get_type_hints(cls)
    docs = field_docs(cls)
    parser = argparse.ArgumentParser(
        prog=prog, description=(cls.__doc__ or "").strip(),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    if presets:
        lines = "; ".join(f"{k}: " + ", ".join(f"{a}={b}" for a, b in v.items())
                          for k, v in presets.items())
        parser.add_argument("--preset", choices=sorted(presets), default=None,
                            help=f"named settings applied before the other flags ({lines})")
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        names = ["--" + f.name.replace("_", "-")]
        typ = hints[f.name]
        optional = typing.get_origin(typ) in (typing.Union, getattr(__import__("types"), "UnionType", ()))
        if optional:
            typ = next(a for a in typing.get_args(typ) if a is not type(None))
        help_ = docs.get(f.name, "")
        if typ is bool:
            parser.add_argument(*names, dest=f.name, action=argparse.BooleanOptionalAction,
                                default=f.default, help=help_)
        else:
            parser.add_argument(*names, dest=f.name, type=typ, default=f.default,
                                metavar=typ.__name__.upper(), help=help_)
    if presets:
        known, _ = parser.parse_known_args(argv)
        if known.preset:
            parser.set_defaults(**presets[known.preset])
    ns = vars(parser.parse_args(argv))
    ns.pop("preset", None)
    return cls(**ns)


def make_run_name(game: str, algo: str, seed: int) -> str:
    """``{game}__{algo}__{seed}__{unix time}`` (CleanRL's run naming); a path's stem
    stands for the game."""
    return f"{pathlib.Path(game).stem if game.endswith('.js') else game}__{algo}__{seed}__{int(time.time())}"


def check_games(games: list[str]) -> None:
    """Each game exists (``jsgym.games.resolve``: a bundled name, a Gymnasium id or a
    ``.js`` path), checked before anything is written: a typo leaves no run folder."""
    from jsgym.games import resolve

    for game in games:
        resolve(game)


def updates_for(total_timesteps: int, per_update: int, what: str) -> int:
    """Updates in a budget of ``total_timesteps`` env steps of ``per_update`` each (one
    PPO batch, one IMPALA learner step). A budget below one update is an error rather
    than a silent full update; one that is not a multiple runs the whole updates that
    fit, and says so."""
    if total_timesteps < per_update:
        raise ValueError(f"--total-timesteps {total_timesteps} is less than one update of "
                         f"{per_update} env steps ({what}): lower those or raise the budget")
    updates = total_timesteps // per_update
    if total_timesteps % per_update:
        print(f"note: --total-timesteps {total_timesteps} is not a multiple of one update "
              f"({per_update} env steps: {what}); running {updates} updates = "
              f"{updates * per_update} env steps", flush=True)
    return updates


#: cores kept busy by other processes above which the machine counts as shared
BUSY_CORES = 0.5


def torch_threads_for(requested: int, beside: int = 0) -> tuple[int, str]:
    """The torch CPU threads of a learner and why: ``requested`` when positive; else the
    cores this process may use (affinity and cgroup quota, shared among the learner
    processes of a ``torchrun``), less ``beside`` threads that run at the same time (an
    IMPALA learner's actor threads), at least 1. On a machine already busy with other
    jobs when training starts (more than BUSY_CORES cores busy: ``jsgym.machine``) it is
    1: OpenMP threads wait on each other whenever another process holds one of their
    cores."""
    if requested > 0:
        return requested, "--torch-threads"
    from jsgym.machine import busy_cores, usable_cores

    procs = max(1, int(os.environ.get("LOCAL_WORLD_SIZE", "1")))
    cores = max(1, usable_cores() // procs)
    if cores > 1:
        busy = busy_cores()
        if busy > BUSY_CORES:
            return 1, f"{busy:.1f} cores busy with other processes: 1 thread"
    n = max(1, cores - beside)
    return n, f"{cores} usable cores" + (f" less {beside} actor threads" if beside else "")


#: the learner's arithmetic: ``--precision`` choices
PRECISIONS = ("auto", "fp32", "bf16")


def learner_dtype(precision: str, device: torch.device,
                  trial: Callable[[torch.dtype | None], None] | None = None,
                  ) -> tuple[torch.dtype | None, str]:
    """The autocast dtype of the learner's forward and backward passes (None: fp32) and
    why. ``auto`` considers bf16 only on a CPU that computes bf16 natively
    (``jsgym.machine``): elsewhere oneDNN emulates it, slower than fp32. Native bf16 is
    not always faster either (the Nature-CNN's gradient steps ran 1.8x faster in bf16 on
    one such CPU and 1.5x slower on another), so with ``trial`` (one gradient step in a
    given dtype, :func:`gradient_trial`) both are timed and the faster one taken; bf16
    only when at least 5% faster. A GPU stays fp32 (bf16 there is ``--precision bf16``).
    PPO's rollouts run in the same dtype as its gradient steps, so that the sampled
    actions' log-probabilities are those of the policy the learner's ratios are taken
    against; IMPALA's actors stay fp32 (V-trace corrects for the difference)."""
    if precision not in PRECISIONS:
        raise ValueError(f"--precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    if precision == "fp32":
        return None, "--precision fp32"
    if precision == "bf16":
        return torch.bfloat16, "--precision bf16"
    from jsgym.machine import native_bf16

    if not (device.type == "cpu" and native_bf16() and torch.backends.mkldnn.is_available()):
        return None, "no native bf16 on this device"
    if trial is None:
        return torch.bfloat16, "the CPU computes bf16 natively"
    fp32_s, bf16_s = time_precisions(trial)
    timing = f"a gradient step took {bf16_s * 1e3:.0f} ms in bf16, {fp32_s * 1e3:.0f} ms in fp32"
    if bf16_s < 0.95 * fp32_s:
        return torch.bfloat16, f"the CPU computes bf16 natively; {timing}"
    return None, f"the CPU computes bf16 natively but not faster here: {timing}"


def time_precisions(trial: Callable[[torch.dtype | None], None],
                    repeats: int = 3) -> tuple[float, float]:
    """The fastest of ``repeats`` runs of ``trial`` in fp32 and in bf16 (seconds),
    alternating, after one unmeasured run of each (oneDNN builds its kernels then)."""
    spent: dict[torch.dtype | None, float] = {None: math.inf, torch.bfloat16: math.inf}
    for measured in (False,) + (True,) * repeats:
        for dtype in spent:
            start = time.perf_counter()
            trial(dtype)
            if measured:
                spent[dtype] = min(spent[dtype], time.perf_counter() - start)
    return spent[None], spent[torch.bfloat16]


def gradient_trial(agent: nn.Module, batch: int,
                   device: torch.device) -> Callable[[torch.dtype | None], None]:
    """One forward and backward pass of ``agent`` over ``batch`` random observations
    under autocast to the given dtype (None: fp32), as :func:`learner_dtype` times them.
    Draws from its own generator, leaving the seeded ones alone, and leaves no
    gradients behind. Batches beyond 512 are timed at 512, enough to tell the two apart."""
    batch = min(batch, 512)
    generator = torch.Generator(device=device).manual_seed(0)
    obs = torch.randint(0, 256, (batch, *agent.config["obs_shape"]), dtype=torch.uint8,
                        generator=generator, device=device)

    def run(dtype: torch.dtype | None) -> None:
        with torch.autocast(device.type, dtype=dtype or torch.float32, enabled=dtype is not None):
            logits, value = agent(obs)
        (logits.float().sum() + value.float().sum()).backward()
        agent.zero_grad(set_to_none=True)

    return run


def sample_actions(logits: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """An action drawn from the softmax of each row of ``logits``, and its log
    probability (float32). What ``torch.distributions.Categorical`` gives, without
    building and validating a distribution object every step (a third of the rollout's
    inference time at 16 envs on CPU)."""
    log_probs = torch.log_softmax(logits.float(), -1)
    action = torch.multinomial(log_probs.exp(), 1)
    return action.squeeze(-1), log_probs.gather(-1, action).squeeze(-1)


def action_log_probs(logits: torch.Tensor, actions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The log probability of ``actions`` under the softmax of ``logits`` and the
    entropy of that distribution, row by row (float32, differentiable)."""
    log_probs = torch.log_softmax(logits.float(), -1)
    entropy = -(log_probs.exp() * log_probs).sum(-1)
    return log_probs.gather(-1, actions[:, None]).squeeze(-1), entropy


class PhaseClock:
    """Where a loop's wall time goes, at one ``perf_counter`` call per boundary:
    ``lap(phase)`` charges the time since the previous lap (or the clock's creation) to
    ``phase``. Every moment goes to exactly one phase, so the phases add up to the
    time elapsed and nothing is counted twice. ``total`` holds the seconds per phase
    since the start; ``take()`` the seconds since the previous ``take()``."""

    def __init__(self, *phases: str):
        self.total = dict.fromkeys(phases, 0.0)
        self._taken = dict(self.total)
        self._last = time.perf_counter()

    def lap(self, phase: str) -> None:
        now = time.perf_counter()
        self.total[phase] += now - self._last
        self._last = now

    def take(self) -> dict[str, float]:
        since = {p: t - self._taken[p] for p, t in self.total.items()}
        self._taken = dict(self.total)
        return since


def seed_everything(seed: int, deterministic: bool, threads: int) -> None:
    """The one seeding block: Python, NumPy and torch RNGs, cuDNN determinism, and the
    number of torch CPU threads."""
    import random

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.backends.cudnn.deterministic = deterministic
    if threads > 0:
        torch.set_num_threads(threads)


def env_kwargs_from(args) -> dict:
    """The ``make_vec`` keyword arguments a trained policy depends on (stored in every
    checkpoint so that evaluation builds the same env)."""
    return {"frameskip": args.frameskip, "max_episode_steps": args.max_episode_steps,
            "num_levels": args.num_levels, "start_level": args.start_level,
            "frame_stack": args.frame_stack}


# -- networks ----------------------------------------------------------------------------


def layer_init(layer: nn.Module, std: float = math.sqrt(2), bias_const: float = 0.0):
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias_const)
    return layer


class PixelConv(nn.Conv2d):
    """The first convolution of an encoder, taking pixels in ``[0, 255]``: it computes
    the convolution of ``x / 255`` as that of ``x`` with the weights divided by 255,
    the same function with the same parameters (a checkpoint's ``weight`` is the
    weight on the scaled input). Scaling the weights costs a few thousand multiplies;
    dividing a batch of 512 observations of 64x64x3 took 2 ms of a 30 ms bf16
    gradient step on CPU."""

    def forward(self, x):
        return self._conv_forward(x, self.weight * (1.0 / 255.0), self.bias)


class NatureCNN(nn.Module):
    """The DQN "Nature" encoder: conv 32x8/4, 64x4/2, 64x3/1, then 512 units."""

    def __init__(self, obs_shape: tuple[int, int, int]):
        super().__init__()
        h, w, c = obs_shape
        self.convs = nn.Sequential(
            layer_init(PixelConv(c, 32, 8, stride=4)), nn.ReLU(),
            layer_init(nn.Conv2d(32, 64, 4, stride=2)), nn.ReLU(),
            layer_init(nn.Conv2d(64, 64, 3, stride=1)), nn.ReLU(), nn.Flatten())
        with torch.no_grad():
            n = self.convs(torch.zeros(1, c, h, w)).shape[1]
        self.fc = nn.Sequential(layer_init(nn.Linear(n, 512)), nn.ReLU())
        self.out_dim = 512

    def forward(self, x):
        return self.fc(self.convs(x))


class ResidualBlock(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.conv0 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x):
        return x + self.conv1(torch.relu(self.conv0(torch.relu(x))))


class ConvSequence(nn.Module):
    """One IMPALA stage: conv 3x3, max-pool 3 stride 2, two residual blocks."""

    def __init__(self, in_channels: int, out_channels: int, first: bool = False):
        super().__init__()
        self.conv = (PixelConv if first else nn.Conv2d)(in_channels, out_channels, 3, padding=1)
        self.pool = nn.MaxPool2d(3, stride=2, padding=1)
        self.res0 = ResidualBlock(out_channels)
        self.res1 = ResidualBlock(out_channels)

    def forward(self, x):
        return self.res1(self.res0(self.pool(self.conv(x))))


class ImpalaCNN(nn.Module):
    """The IMPALA encoder (Espeholt et al. 2018): stages of 16/32/32 channels, then a
    256-unit layer."""

    def __init__(self, obs_shape: tuple[int, int, int], channels=(16, 32, 32)):
        super().__init__()
        h, w, c = obs_shape
        stages = []
        for out in channels:
            stages.append(ConvSequence(c, out, first=not stages))
            c = out
        self.convs = nn.Sequential(*stages, nn.Flatten(), nn.ReLU())
        with torch.no_grad():
            n = self.convs(torch.zeros(1, obs_shape[2], h, w)).shape[1]
        self.fc = nn.Sequential(layer_init(nn.Linear(n, 256)), nn.ReLU())
        self.out_dim = 256

    def forward(self, x):
        return self.fc(self.convs(x))


ENCODERS = {"nature": NatureCNN, "impala": ImpalaCNN}


class Agent(nn.Module):
    """Encoder + policy head + value head. Takes ``uint8`` observations ``(N, H, W, 3)``
    and returns ``(logits (N, A), value (N,))``."""

    def __init__(self, obs_shape: tuple[int, int, int], n_actions: int, encoder: str = "nature"):
        super().__init__()
        if encoder not in ENCODERS:
            raise ValueError(f"encoder must be one of {sorted(ENCODERS)}, got {encoder!r}")
        self.config = {"obs_shape": [int(x) for x in obs_shape], "n_actions": int(n_actions),
                       "encoder": encoder}
        self.encoder = ENCODERS[encoder](obs_shape)
        self.actor = layer_init(nn.Linear(self.encoder.out_dim, n_actions), std=0.01)
        self.critic = layer_init(nn.Linear(self.encoder.out_dim, 1), std=1.0)

    def forward(self, obs: torch.Tensor):
        # The encoder's first layer scales pixels to [0, 1] (PixelConv). Under CPU
        # autocast the convolutions take bf16: uint8 converts to it exactly, sparing a
        # float32 copy that autocast would convert again. The permute leaves the
        # pixels channels-last in memory, which oneDNN takes as they are.
        dtype = torch.float32
        if obs.device.type == "cpu" and torch.is_autocast_enabled("cpu"):
            dtype = torch.get_autocast_dtype("cpu")
        hidden = self.encoder(obs.to(dtype).permute(0, 3, 1, 2))
        if hidden.dtype == torch.float32:
            return self.actor(hidden), self.critic(hidden).squeeze(-1)
        # (the heads are a few thousand multiplies: in float32 the logits and values
        # keep their precision, a bf16 value of 5 being off by up to 0.02)
        with torch.autocast(obs.device.type, enabled=False):
            hidden = hidden.float()
            return self.actor(hidden), self.critic(hidden).squeeze(-1)


# -- checkpoints -------------------------------------------------------------------------


def save_checkpoint(path: str | os.PathLike, *, algo: str, args, agent: Agent,
                    optimizer: torch.optim.Optimizer, global_step: int, iteration: int,
                    run_name: str) -> None:
    """Writes everything needed to resume training or to evaluate the policy. The file
    is replaced atomically, so a run killed while saving keeps its previous checkpoint."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    state = {
        "format": 1, "algo": algo, "game": args.game, "run_name": run_name,
        "args": dataclasses.asdict(args), "env_kwargs": env_kwargs_from(args),
        "model_config": agent.config, "model": agent.state_dict(),
        "optimizer": optimizer.state_dict(), "global_step": int(global_step),
        "iteration": int(iteration),
    }
    tmp = path.with_suffix(".tmp")
    torch.save(state, tmp)
    os.replace(tmp, path)


def load_checkpoint(path: str | os.PathLike, device: str = "cpu") -> dict:
    """Reads a checkpoint written by :func:`save_checkpoint`."""
    return torch.load(path, map_location=device, weights_only=True)


class Policy:
    """A trained policy as a plain function of a batch of observations.

    ``policy(obs)`` takes ``uint8`` observations ``(N, H, W, 3)`` (NumPy or torch) and
    returns ``(N,)`` ``int64`` actions. Attributes: ``game``, ``algo``, ``env_kwargs``
    (the ``make_vec`` keyword arguments it was trained with: frameskip, max episode
    steps, level split), ``global_step``, ``model``.
    """

    def __init__(self, model: Agent, *, game: str, algo: str, env_kwargs: dict,
                 global_step: int, greedy: bool, device: str, seed: int | None):
        self.model, self.game, self.algo = model, game, algo
        self.env_kwargs, self.global_step = env_kwargs, global_step
        self.greedy, self.device = greedy, device
        self.generator = torch.Generator(device=device)
        self.generator.manual_seed(0 if seed is None else seed)

    @torch.no_grad()
    def __call__(self, obs, rng: np.random.Generator | None = None) -> np.ndarray:
        """Actions for a batch. With ``rng`` (a NumPy Generator) the sample is drawn from
        it (one uniform per observation, inverse CDF), so an evaluation that seeds one
        rng per episode gets the same randomness on every backend."""
        x = torch.as_tensor(np.asarray(obs), device=self.device)
        logits, _ = self.model(x)
        if self.greedy:
            return logits.argmax(-1).cpu().numpy().astype(np.int64)
        probs = torch.softmax(logits.double(), -1)
        if rng is not None:
            cdf = torch.cumsum(probs, -1).cpu().numpy()
            u = rng.random(len(cdf))[:, None]
            return np.minimum((cdf < u).sum(-1), cdf.shape[1] - 1).astype(np.int64)
        return torch.multinomial(probs, 1, generator=self.generator).squeeze(-1).cpu().numpy()


def load_policy(path: str | os.PathLike, *, device: str = "cpu", greedy: bool = False,
                seed: int | None = 0) -> Policy:
    """Loads a PPO or IMPALA checkpoint for evaluation: ``load_policy(path)(obs)``
    returns actions. ``greedy=True`` takes the most likely action instead of sampling
    (the agents were trained, and are evaluated by default, with sampling); ``seed``
    seeds the sampling."""
    ckpt = load_checkpoint(path, device)
    cfg = ckpt["model_config"]
    model = Agent(tuple(cfg["obs_shape"]), cfg["n_actions"], cfg["encoder"]).to(device)
    model.load_state_dict(ckpt["model"])
    model.eval()
    return Policy(model, game=ckpt["game"], algo=ckpt["algo"], env_kwargs=ckpt["env_kwargs"],
                  global_step=ckpt["global_step"], greedy=greedy, device=device, seed=seed)


# -- evaluation, videos, curves ------------------------------------------------------------


def evaluate(policy, game: str, *, episodes: int = 10, num_envs: int | None = None,
             seed: int = 10_000, backend: str = "quickjs", env_kwargs: dict | None = None,
             gif_path: str | os.PathLike | None = None, gif_frames: int = 600,
             max_steps: int = 200_000) -> dict:
    """Runs ``episodes`` complete episodes of ``policy`` and returns
    ``{"returns": [...], "lengths": [...], "mean", "std"}``.

    Each of the ``num_envs`` envs runs a fixed quota of episodes (``episodes`` split as
    evenly as possible) and the evaluation waits for all of them: taking whichever
    episodes finish first would favour short episodes, which in most games are the bad
    ones. With ``gif_path``, env 0's frames are written as a GIF.
    """
    import jsgym
    from jsgym.cli import save_gif

    num_envs = num_envs or min(episodes, 8)
    quota = np.array([episodes // num_envs + (i < episodes % num_envs) for i in range(num_envs)])
    envs = jsgym.make_vec(game, num_envs, seed=seed, backend=backend, episode_statistics=True,
                          **(env_kwargs or {}))
    try:
        obs, _ = envs.reset(seed=seed)
        frames = [obs[0, ..., -3:].copy()] if gif_path else None  # newest frame of a stack
        counted = np.zeros(num_envs, dtype=int)
        returns, lengths = [], []
        for _ in range(max_steps):
            obs, _, _, _, infos = envs.step(np.asarray(policy(obs), dtype=np.int64))
            if frames is not None and len(frames) < gif_frames and counted[0] == 0:
                frames.append(obs[0, ..., -3:].copy())
            if "_episode" in infos:
                for i in np.flatnonzero(infos["_episode"]):
                    if counted[i] < quota[i]:
                        counted[i] += 1
                        returns.append(float(infos["episode"]["r"][i]))
                        lengths.append(int(infos["episode"]["l"][i]))
            if (counted >= quota).all():
                break
    finally:
        envs.close()
    if gif_path and frames:
        pathlib.Path(gif_path).parent.mkdir(parents=True, exist_ok=True)
        save_gif(frames, gif_path)
    return {"returns": returns, "lengths": lengths,
            "mean": float(np.mean(returns)) if returns else float("nan"),
            "std": float(np.std(returns)) if returns else float("nan")}


def evaluate_live(model: Agent, args, *, algo: str, global_step: int) -> dict:
    """The model being trained, evaluated as the final policy is (sampling, the
    held-out seeds ``args.seed + 10_000``, ``args.eval_episodes`` episodes): what
    ``--eval-every`` logs during training."""
    device = next(model.parameters()).device
    policy = Policy(model, game=args.game, algo=algo, env_kwargs=env_kwargs_from(args),
                    global_step=global_step, greedy=False, device=str(device), seed=0)
    return evaluate(policy, args.game, episodes=args.eval_episodes, seed=args.seed + 10_000,
                    backend=args.backend, env_kwargs=env_kwargs_from(args))


def random_baseline(game: str, *, episodes: int = 20, seed: int = 10_000,
                    env_kwargs: dict | None = None, backend: str = "quickjs") -> dict:
    """The uniform-random policy's returns, evaluated like a trained one."""
    import jsgym

    probe = jsgym.make_vec(game, 1, backend=backend, **(env_kwargs or {}))
    n_actions = probe.single_action_space.n
    probe.close()
    rng = np.random.default_rng(seed)

    def policy(obs):
        return rng.integers(0, n_actions, size=len(obs))

    return evaluate(policy, game, episodes=episodes, seed=seed, backend=backend,
                    env_kwargs=env_kwargs)


class RunLogger:
    """TensorBoard scalars plus the same scalars in ``scalars.csv`` (columns: step,
    wall_time, tag, value), so curves can be redrawn without TensorBoard."""

    def __init__(self, run_dir: str | os.PathLike, args=None, enabled: bool = True):
        self.run_dir = pathlib.Path(run_dir)
        self.enabled = enabled
        if not enabled:
            return
        from torch.utils.tensorboard import SummaryWriter

        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.writer = SummaryWriter(str(self.run_dir))
        if args is not None:
            rows = "\n".join(f"|{k}|{v}|" for k, v in dataclasses.asdict(args).items())
            self.writer.add_text("hyperparameters", f"|param|value|\n|-|-|\n{rows}")
        new = not (self.run_dir / "scalars.csv").exists()
        self.csv_file = open(self.run_dir / "scalars.csv", "a", newline="")
        self.csv = csv.writer(self.csv_file)
        if new:
            self.csv.writerow(["step", "wall_time", "tag", "value"])
        self.start = time.time()

    def scalar(self, tag: str, value: float, step: int) -> None:
        if not self.enabled:
            return
        self.writer.add_scalar(tag, value, step)
        self.csv.writerow([int(step), f"{time.time():.3f}", tag, f"{float(value):.6g}"])

    def flush(self) -> None:
        if self.enabled:
            self.writer.flush()
            self.csv_file.flush()

    def close(self) -> None:
        if self.enabled:
            self.writer.close()
            self.csv_file.close()


def read_scalars(csv_path: str | os.PathLike, tag: str) -> tuple[np.ndarray, np.ndarray]:
    """``(steps, values)`` of one tag from a run's ``scalars.csv``."""
    steps, values = [], []
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            if row["tag"] == tag:
                steps.append(int(row["step"]))
                values.append(float(row["value"]))
    return np.asarray(steps), np.asarray(values)


def smooth(values: np.ndarray, window: int = 20) -> np.ndarray:
    """Trailing mean over ``window`` points (the first points average what exists)."""
    if len(values) == 0:
        return values
    c = np.cumsum(np.insert(values, 0, 0.0))
    idx = np.arange(1, len(values) + 1)
    lo = np.maximum(0, idx - window)
    return (c[idx] - c[lo]) / (idx - lo)


def plot_learning_curve(csv_path: str | os.PathLike, png_path: str | os.PathLike, *,
                        title: str, baseline: float | None = None) -> None:
    """Episodic return against agent steps (raw points and a running mean), with the
    random-policy baseline as a dashed line when given."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps, returns = read_scalars(csv_path, "charts/episodic_return")
    fig, ax = plt.subplots(figsize=(6, 4))
    if len(steps):
        ax.plot(steps, returns, ".", alpha=0.25, ms=3, label="episodes")
        ax.plot(steps, smooth(returns), lw=2, label="running mean (20 episodes)")
    if baseline is not None:
        ax.axhline(baseline, color="k", ls="--", lw=1, label=f"random policy ({baseline:.2f})")
    ax.set_xlabel("agent steps")
    ax.set_ylabel("episodic return")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
    plt.close(fig)


def progress_bar(total: int, initial: int, enabled: bool):
    """A tqdm bar counting agent steps (a no-op object when disabled)."""
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="step", unit_scale=True,
                disable=not enabled, dynamic_ncols=True, smoothing=0.1)
