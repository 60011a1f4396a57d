"""PPO with GAE on a jsgym VectorEnv (CleanRL's ppo_atari_envpool.py / ppo_procgen.py).

    python -m jsgym.trainers.ppo --game catch                      # CPU defaults, a few minutes
    python -m jsgym.trainers.ppo --game coinrun --preset procgen   # the published setting
    python -m jsgym.trainers.ppo --help                            # every argument, documented

Writes runs/{game}__{exp_name}__{seed}__{time}/: TensorBoard events, scalars.csv,
checkpoints/latest.pt and final.pt, curve.png, and videos/*.gif with --capture-video.
"""

from __future__ import annotations

import collections
import pathlib
import time
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

import jsgym
from jsgym.trainers.common import (Agent, PhaseClock, RunLogger, action_log_probs, check_games,
                                   env_kwargs_from, evaluate, evaluate_live, gradient_trial,
                                   learner_dtype, load_checkpoint, load_policy, make_run_name,
                                   parse_args, plot_learning_curve, progress_bar,
                                   random_baseline, sample_actions, save_checkpoint,
                                   seed_everything, torch_threads_for, updates_for)

#: the phases an iteration's wall time is split into (``time/<phase>`` scalars): envs.step;
#: the rollout's forward passes and sampling (with storing their outputs); GAE and the
#: epochs of gradient steps; copies of observations and step results into the rollout
#: storage, of the flattened batch and of each minibatch; the rest (logging, checkpoints)
PHASES = ("env", "inference", "learn", "copy", "other")


@dataclass
class Args:
    """PPO with GAE on a jsgym game (defaults sized for a 2-core CPU)."""

    exp_name: str = "ppo"
    """the name of this experiment (the algo part of the run name)"""
    game: str = "catch"
    """a bundled game name (`jsgym list`) or a path to a .js game file"""
    seed: int = 1
    """seed of the RNGs and of the envs"""
    torch_deterministic: bool = True
    """sets torch.backends.cudnn.deterministic"""
    torch_threads: int = 0
    """torch CPU threads (0: one per usable core, or 1 when the machine is busy with other
    jobs at start; docs/training.md, CPU notes)"""
    device: str = "cpu"
    """torch device of the network"""
    backend: str = "quickjs"
    """env backend passed to jsgym.make_vec: quickjs or browser"""
    env_threads: int | None = None
    """native worker threads of the env (default: one per core)"""

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
    clip_rewards: bool = False
    """clip rewards to [-1, 1] (the published PPO setting does not)"""

    # algorithm
    total_timesteps: int = 100_000
    """total agent steps (over all envs)"""
    learning_rate: float = 1e-3
    """the Adam learning rate (annealed to 0 over total_timesteps; the procgen preset: 5e-4)"""
    num_envs: int = 16
    """parallel envs"""
    num_steps: int = 128
    """steps per env per rollout"""
    anneal_lr: bool = True
    """anneal the learning rate linearly to 0"""
    gamma: float = 0.99
    """discount factor"""
    gae_lambda: float = 0.95
    """lambda of generalized advantage estimation"""
    num_minibatches: int = 4
    """minibatches per epoch"""
    update_epochs: int = 4
    """epochs over each rollout"""
    norm_adv: bool = True
    """normalize advantages per minibatch"""
    clip_coef: float = 0.2
    """the surrogate clipping coefficient"""
    clip_vloss: bool = True
    """clip the value loss as in the PPO paper's code"""
    ent_coef: float = 0.01
    """entropy bonus coefficient"""
    vf_coef: float = 0.5
    """value loss coefficient"""
    max_grad_norm: float = 0.5
    """gradient clipping norm"""
    target_kl: float | None = None
    """stop the epochs of an update early past this approximate KL (None: never)"""
    encoder: str = "nature"
    """pixel encoder: nature (Nature-CNN) or impala (IMPALA-CNN)"""
    precision: str = "auto"
    """arithmetic of the gradient steps: auto (bf16 autocast on a CPU that computes bf16
    natively where a gradient step timed at start is faster so, else fp32), fp32 or
    bf16; the rollouts' forward passes run in the same"""
    compile: bool = False
    """torch.compile the network for the gradient steps (after a compile of about half a
    minute; faster steps on some CPUs, slower on others: docs/training.md)"""

    # bookkeeping
    out_dir: str = "runs"
    """folder that receives the run folder"""
    time_budget: float = 0.0
    """stop cleanly (final checkpoint, evaluation, curve) after this many seconds of
    training (0: no limit); the learning rate still anneals over total_timesteps"""
    checkpoint_every: int = 25
    """iterations between checkpoints (0: only the final one)"""
    resume: str | None = None
    """checkpoint to resume from (continues its run folder, step count and optimizer)"""
    capture_video: bool = False
    """write GIFs of evaluation episodes to the run folder's videos/"""
    eval_episodes: int = 10
    """episodes of each evaluation (0: skip the final one and the random baseline)"""
    eval_every: int = 0
    """iterations between evaluations during training, logged as eval/mean_return with
    the seconds spent training so far (0: only the final evaluation)"""
    target_return: float | None = None
    """stop once an evaluation during training reaches this mean return (needs
    --eval-every); the summary says when: target_step, target_seconds"""
    progress: bool = True
    """show a progress bar with steps/s and the recent return"""
    track: bool = True
    """write TensorBoard events, scalars.csv and curve.png"""

    # filled in at run time
    batch_size: int = field(default=0, init=False)
    minibatch_size: int = field(default=0, init=False)
    num_iterations: int = field(default=0, init=False)


PRESETS = {
    # The published PPO setting (PlayTrain, Table 8; ProcGen's PPO otherwise): 192 envs
    # x 128 steps = 24,576 steps per update, 3 epochs of 8 minibatches, gamma 0.999,
    # GAE lambda 0.95, no reward clipping, IMPALA-CNN. Sized for a GPU.
    "procgen": dict(num_envs=192, num_steps=128, update_epochs=3, num_minibatches=8,
                    gamma=0.999, gae_lambda=0.95, clip_rewards=False, learning_rate=5e-4,
                    ent_coef=0.01, encoder="impala", total_timesteps=25_000_000),
}


def main(argv: list[str] | None = None, prog: str | None = None) -> dict:
    args = parse_args(Args, argv, PRESETS, prog)
    args.batch_size = args.num_envs * args.num_steps
    args.minibatch_size = args.batch_size // args.num_minibatches
    if args.target_return is not None and not (args.eval_every > 0 and args.eval_episodes > 0):
        raise SystemExit("--target-return needs --eval-every > 0 and --eval-episodes > 0")
    args.num_iterations = updates_for(args.total_timesteps, args.batch_size,
                                      f"--num-envs {args.num_envs} x --num-steps {args.num_steps}")
    check_games([args.game])

    # resuming continues the checkpoint's run folder
    ckpt = load_checkpoint(args.resume, args.device) if args.resume else None
    run_name = ckpt["run_name"] if ckpt else make_run_name(args.game, args.exp_name, args.seed)
    run_dir = pathlib.Path(args.out_dir) / run_name
    logger = RunLogger(run_dir, args, enabled=args.track)

    # seeding
    threads, why = torch_threads_for(args.torch_threads)
    print(f"torch threads: {threads} ({why})", flush=True)
    seed_everything(args.seed, args.torch_deterministic, threads)
    device = torch.device(args.device)

    # env setup
    envs = jsgym.make_vec(args.game, args.num_envs, num_threads=args.env_threads,
                          seed=args.seed, backend=args.backend, episode_statistics=True,
                          **env_kwargs_from(args))
    obs_shape = envs.single_observation_space.shape
    n_actions = envs.single_action_space.n

    agent = Agent(obs_shape, n_actions, args.encoder).to(device)
    # (fused: one kernel over all parameters, 0.8 ms a step on CPU against 1.3 ms)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5,
                           fused=device.type in ("cpu", "cuda"))
    amp_dtype, why = learner_dtype(args.precision, device,
                                   gradient_trial(agent, args.minibatch_size, device))
    print(f"gradient steps in {'fp32' if amp_dtype is None else 'bf16 autocast'} ({why})", flush=True)
    learner = torch.compile(agent) if args.compile else agent

    def autocast():
        return torch.autocast(device.type, dtype=amp_dtype or torch.float32, enabled=amp_dtype is not None)

    global_step, start_iteration = 0, 1
    if ckpt:
        agent.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        global_step, start_iteration = ckpt["global_step"], ckpt["iteration"] + 1
        print(f"resumed {run_name} at step {global_step}", flush=True)

    # rollout storage, on the network's device; valid[t] is False where env t's action
    # was ignored because its previous step ended an episode (NEXT_STEP autoreset: that
    # step only resets)
    shape = (args.num_steps, args.num_envs)
    obs = torch.zeros(shape + obs_shape, dtype=torch.uint8, device=device)
    actions = torch.zeros(shape, dtype=torch.long, device=device)
    logprobs = torch.zeros(shape, device=device)
    rewards = torch.zeros(shape, device=device)
    terminated = torch.zeros(shape, device=device)
    ended = torch.zeros(shape, device=device)  # terminated or truncated
    valid = torch.zeros(shape, dtype=torch.bool, device=device)
    values = torch.zeros(shape, device=device)
    # On a GPU, observations go through one pinned buffer with an asynchronous copy.
    # The buffer is refilled only after the next sampled actions came back to the
    # host, which waits for everything queued before, that copy included.
    staging = (torch.empty((args.num_envs,) + obs_shape, dtype=torch.uint8).pin_memory()
               if device.type == "cuda" else None)

    def to_device(observations: np.ndarray) -> torch.Tensor:
        if staging is None:
            return torch.from_numpy(observations).to(device)
        staging.copy_(torch.from_numpy(observations))
        return staging.to(device, non_blocking=True)

    recent = collections.deque(maxlen=20)
    start_time = time.time()
    start_step = global_step
    next_obs = to_device(envs.reset(seed=args.seed)[0])
    next_valid = torch.ones(args.num_envs, dtype=torch.bool, device=device)
    bar = progress_bar(args.num_iterations * args.batch_size, global_step, args.progress)
    iter_time_total = 0.0
    last_iteration = start_iteration - 1
    clock = PhaseClock(*PHASES, "eval")  # evaluations during training apart from the rest
    reached = None  # (step, training seconds) once --target-return is reached
    latest = None  # (step, result) of the newest evaluation during training

    for iteration in range(start_iteration, args.num_iterations + 1):
        clock.lap("other")  # the previous iteration's logging and checkpoint
        iter_start = time.perf_counter()
        if args.anneal_lr:
            frac = 1.0 - (iteration - 1.0) / args.num_iterations
            optimizer.param_groups[0]["lr"] = frac * args.learning_rate

        # One autocast context for the whole rollout: it casts the weights (unchanged
        # until the update) to bf16 once, not at every step (a sixth of a step's
        # inference on CPU).
        with autocast():
            for step in range(args.num_steps):
                global_step += args.num_envs
                obs[step] = next_obs
                valid[step] = next_valid
                clock.lap("copy")
                with torch.no_grad():
                    logits, value = agent(next_obs)
                action, logprob = sample_actions(logits)
                values[step] = value
                actions[step] = action
                logprobs[step] = logprob
                action_np = action.cpu().numpy()
                clock.lap("inference")

                next_obs_np, reward, term, trunc, infos = envs.step(action_np)
                clock.lap("env")
                if args.clip_rewards:
                    reward = np.clip(reward, -1.0, 1.0)
                rewards[step] = torch.from_numpy(np.asarray(reward, dtype=np.float32))
                terminated[step] = torch.from_numpy(term.astype(np.float32))
                ended[step] = torch.from_numpy((term | trunc).astype(np.float32))
                next_obs = to_device(next_obs_np)
                next_valid = torch.from_numpy(~(term | trunc)).to(device)
                clock.lap("copy")

                if "_episode" in infos:
                    for i in np.flatnonzero(infos["_episode"]):
                        r, l = float(infos["episode"]["r"][i]), int(infos["episode"]["l"][i])
                        recent.append(r)
                        logger.scalar("charts/episodic_return", r, global_step)
                        logger.scalar("charts/episodic_length", l, global_step)
                clock.lap("other")

        # GAE. With NEXT_STEP autoreset the observation after a terminal or truncated
        # step is that episode's final observation, so delta bootstraps from it unless
        # the episode terminated; the trace stops at any episode end.
        with torch.no_grad():
            with autocast():
                _, next_value = agent(next_obs)
            advantages = torch.zeros_like(rewards)
            lastgaelam = torch.zeros(args.num_envs, device=device)
            for t in reversed(range(args.num_steps)):
                nextvalues = next_value if t == args.num_steps - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * nextvalues * (1.0 - terminated[t]) - values[t]
                lastgaelam = delta + args.gamma * args.gae_lambda * (1.0 - ended[t]) * lastgaelam
                advantages[t] = lastgaelam
            returns = advantages + values
        clock.lap("learn")

        # flatten the batch, keeping only steps whose action mattered
        keep = valid.reshape(-1).nonzero().squeeze(-1)
        # (observations are gathered per minibatch straight from the rollout: a copy
        # of the whole batch first would move 2048 x 12 KB once more per update)
        flat_obs = obs.reshape((-1,) + obs_shape)
        b_logprobs = logprobs.reshape(-1)[keep]
        b_actions = actions.reshape(-1)[keep]
        b_advantages = advantages.reshape(-1)[keep]
        b_returns = returns.reshape(-1)[keep]
        b_values = values.reshape(-1)[keep]
        n = len(keep)
        minibatch_size = max(1, n // args.num_minibatches)
        clock.lap("copy")

        # optimize the policy and value network
        clipfracs = []
        for epoch in range(args.update_epochs):
            b_inds = np.random.permutation(n)
            for start in range(0, n - minibatch_size + 1, minibatch_size):
                mb_inds = torch.from_numpy(b_inds[start:start + minibatch_size]).to(device)
                mb_obs = flat_obs[keep[mb_inds]]
                clock.lap("copy")
                with autocast():
                    logits, newvalue = learner(mb_obs)
                newvalue = newvalue.float()
                newlogprob, entropy = action_log_probs(logits, b_actions[mb_inds])
                logratio = newlogprob - b_logprobs[mb_inds]
                ratio = logratio.exp()

                with torch.no_grad():
                    old_approx_kl = (-logratio).mean()
                    approx_kl = ((ratio - 1) - logratio).mean()
                    clipfracs.append(((ratio - 1.0).abs() > args.clip_coef).float().mean().item())

                mb_advantages = b_advantages[mb_inds]
                if args.norm_adv:
                    mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)

                # policy loss
                pg_loss1 = -mb_advantages * ratio
                pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)
                pg_loss = torch.max(pg_loss1, pg_loss2).mean()

                # value loss
                if args.clip_vloss:
                    v_loss_unclipped = (newvalue - b_returns[mb_inds]) ** 2
                    v_clipped = b_values[mb_inds] + torch.clamp(
                        newvalue - b_values[mb_inds], -args.clip_coef, args.clip_coef)
                    v_loss_clipped = (v_clipped - b_returns[mb_inds]) ** 2
                    v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
                else:
                    v_loss = 0.5 * ((newvalue - b_returns[mb_inds]) ** 2).mean()

                entropy_loss = entropy.mean()
                loss = pg_loss - args.ent_coef * entropy_loss + v_loss * args.vf_coef

                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
                clock.lap("learn")

            if args.target_kl is not None and approx_kl > args.target_kl:
                break

        y_pred, y_true = b_values.cpu().numpy(), b_returns.cpu().numpy()
        var_y = np.var(y_true)
        explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y

        iter_time = time.perf_counter() - iter_start
        clock.lap("other")
        seconds = clock.take()
        env_time = seconds["env"]
        iter_time_total += iter_time
        sps = int((global_step - start_step) / (time.time() - start_time))
        logger.scalar("charts/learning_rate", optimizer.param_groups[0]["lr"], global_step)
        logger.scalar("losses/value_loss", v_loss.item(), global_step)
        logger.scalar("losses/policy_loss", pg_loss.item(), global_step)
        logger.scalar("losses/entropy", entropy_loss.item(), global_step)
        logger.scalar("losses/old_approx_kl", old_approx_kl.item(), global_step)
        logger.scalar("losses/approx_kl", approx_kl.item(), global_step)
        logger.scalar("losses/clipfrac", np.mean(clipfracs), global_step)
        logger.scalar("losses/explained_variance", explained_var, global_step)
        logger.scalar("charts/SPS", sps, global_step)
        logger.scalar("charts/env_time_fraction", env_time / iter_time, global_step)
        for phase, spent in seconds.items():  # they add up to the wall time since the last ones
            logger.scalar(f"time/{phase}", spent, global_step)
        bar.update(args.batch_size)
        bar.set_postfix(sps=sps, ret=f"{np.mean(recent):.2f}" if recent else "n/a",
                        env=f"{env_time / iter_time:.0%}")

        if args.track and args.checkpoint_every and iteration % args.checkpoint_every == 0:
            save_checkpoint(run_dir / "checkpoints" / "latest.pt", algo="ppo", args=args,
                            agent=agent, optimizer=optimizer, global_step=global_step,
                            iteration=iteration, run_name=run_name)
            logger.flush()
        last_iteration = iteration
        if args.eval_every and args.eval_episodes and iteration % args.eval_every == 0:
            clock.lap("other")
            live = evaluate_live(agent, args, algo="ppo", global_step=global_step)
            clock.lap("eval")
            train_seconds = time.time() - start_time - clock.total["eval"]
            logger.scalar("eval/mean_return", live["mean"], global_step)
            logger.scalar("eval/train_seconds", train_seconds, global_step)
            bar.write(f"step {global_step}: evaluation {live['mean']:.2f} after "
                      f"{train_seconds:.1f} s of training")
            latest = (global_step, live)
            if args.target_return is not None and live["mean"] >= args.target_return:
                reached = (global_step, train_seconds)
                break
        if args.time_budget and time.time() - start_time > args.time_budget:
            break

    bar.close()
    envs.close()
    wall = time.time() - start_time
    summary = {"run_dir": str(run_dir), "global_step": global_step, "wall_time": wall,
               "sps": (global_step - start_step) / max(wall, 1e-9),
               "env_time_fraction": clock.total["env"] / max(iter_time_total, 1e-9),
               **{f"{phase}_time_fraction": spent / max(sum(clock.total.values()), 1e-9)
                  for phase, spent in clock.total.items() if phase != "env"},
               "eval_seconds": clock.total["eval"],
               "recent_return": float(np.mean(recent)) if recent else float("nan")}
    if reached:
        summary.update(target_step=reached[0], target_seconds=reached[1])
    if args.track:
        final = run_dir / "checkpoints" / "final.pt"
        save_checkpoint(final, algo="ppo", args=args, agent=agent, optimizer=optimizer,
                        global_step=global_step, iteration=last_iteration,
                        run_name=run_name)
        summary["checkpoint"] = str(final)
    if args.track and args.eval_episodes > 0:
        # the final policy and the random policy on held-out seeds
        gif = run_dir / "videos" / f"eval_{global_step}.gif" if args.capture_video else None
        if latest and latest[0] == global_step and gif is None:
            result = latest[1]  # the same weights, seeds and sampling as the final one's
        else:
            result = evaluate(load_policy(final, device=args.device), args.game,
                              episodes=args.eval_episodes, seed=args.seed + 10_000,
                              backend=args.backend, env_kwargs=env_kwargs_from(args),
                              gif_path=gif)
        base = random_baseline(args.game, episodes=args.eval_episodes, seed=args.seed + 10_000,
                               env_kwargs=env_kwargs_from(args), backend=args.backend)
        summary.update(eval_mean=result["mean"], eval_std=result["std"],
                       random_mean=base["mean"])
        logger.scalar("eval/mean_return", result["mean"], global_step)
        logger.scalar("eval/random_mean_return", base["mean"], global_step)
    if args.track:
        logger.flush()
        plot_learning_curve(run_dir / "scalars.csv", run_dir / "curve.png",
                            title=f"{args.game}: PPO ({args.encoder} CNN)",
                            baseline=summary.get("random_mean"))
    logger.close()
    print("summary " + " ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                                for k, v in summary.items()), flush=True)
    return summary


if __name__ == "__main__":
    main()
