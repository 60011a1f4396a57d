"""The trainers (jsgym/trainers/ppo.py, jsgym/trainers/impala.py), run as a user runs them: as
scripts in a subprocess with tiny budgets (CleanRL's smoke tests), plus resume,
`load_policy`, the `jsgym train`/`jsgym eval` commands, and learning on catch."""

from __future__ import annotations

import csv
import json
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("torch.utils.tensorboard")

REPO = pathlib.Path(__file__).resolve().parent.parent
PPO = REPO / "jsgym" / "trainers" / "ppo.py"
IMPALA = REPO / "jsgym" / "trainers" / "impala.py"
ENV = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}

TINY_PPO = ["--game", "catch", "--total-timesteps", "256", "--num-envs", "4", "--num-steps", "32",
            "--num-minibatches", "2", "--update-epochs", "1", "--checkpoint-every", "1",
            "--eval-episodes", "2", "--no-progress"]
TINY_IMPALA = ["--game", "catch", "--total-timesteps", "320", "--envs-per-actor", "4",
               "--unroll-length", "8", "--batch-size", "2", "--queue-size", "2",
               "--checkpoint-every", "1", "--eval-episodes", "2", "--no-progress"]


def run(cmd: list[str], timeout: float = 240) -> str:
    proc = subprocess.run(cmd, cwd=REPO, env=ENV, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{cmd} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout + proc.stderr


def summary(output: str) -> dict:
    line = [l for l in output.splitlines() if l.startswith("summary ")][-1]
    return dict(kv.split("=", 1) for kv in line.split()[1:])


def tags(run_dir: pathlib.Path) -> set[str]:
    with open(run_dir / "scalars.csv", newline="") as f:
        return {row["tag"] for row in csv.DictReader(f)}


def only_run(out_dir: pathlib.Path) -> pathlib.Path:
    runs = list(out_dir.iterdir())
    assert len(runs) == 1, runs
    return runs[0]


@pytest.fixture(scope="module")
def ppo_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("ppo")
    text = run([sys.executable, str(PPO), *TINY_PPO, "--out-dir", str(out), "--capture-video"])
    return only_run(out), text


@pytest.fixture(scope="module")
def impala_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("impala")
    text = run([sys.executable, str(IMPALA), *TINY_IMPALA, "--out-dir", str(out)])
    return only_run(out), text


@pytest.mark.parametrize("algo", ["ppo", "impala"])
def test_help_documents_every_argument(algo, capsys):
    import dataclasses
    import importlib

    from jsgym.trainers.common import field_docs

    module = importlib.import_module(f"jsgym.trainers.{algo}")
    with pytest.raises(SystemExit):
        module.main(["--help"])
    text = "".join(capsys.readouterr().out.split())  # argparse re-wraps help lines
    docs = field_docs(module.Args)
    for f in dataclasses.fields(module.Args):
        if f.init:  # every argument has a docstring, and --help prints it
            assert f.name in docs, f"{algo}: {f.name} has no docstring"
            assert "--" + f.name.replace("_", "-") in text and "".join(docs[f.name].split()) in text
    if algo == "ppo":
        assert "--preset{procgen}" in text and "num_envs=192" in text


def test_ppo_smoke_writes_everything(ppo_run):
    run_dir, text = ppo_run
    assert re.fullmatch(r"catch__ppo__1__\d+", run_dir.name)
    assert list(run_dir.glob("events.out.tfevents.*"))
    assert {"charts/SPS", "charts/env_time_fraction", "losses/value_loss", "losses/policy_loss",
            "losses/entropy", "losses/approx_kl", "eval/mean_return", "time/env",
            "time/inference", "time/learn", "time/copy", "time/other"} <= tags(run_dir)
    for name in ("checkpoints/latest.pt", "checkpoints/final.pt", "curve.png"):
        assert (run_dir / name).stat().st_size > 0, name
    gifs = list((run_dir / "videos").glob("*.gif"))
    assert gifs and gifs[0].read_bytes()[:6] == b"GIF89a"
    s = summary(text)
    assert int(s["global_step"]) == 256 and float(s["sps"]) > 0
    shares = [float(s[f"{phase}_time_fraction"])
              for phase in ("inference", "learn", "copy", "other")]
    assert all(0 < x < 1 for x in shares) and 0 < float(s["env_time_fraction"]) < 1


def evaluations_logged(run_dir: pathlib.Path) -> dict[int, dict[str, float]]:
    rows: dict[int, dict[str, float]] = {}
    with open(run_dir / "scalars.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["tag"] in ("eval/mean_return", "eval/train_seconds"):
                rows.setdefault(int(row["step"]), {})[row["tag"]] = float(row["value"])
    return rows


def test_ppo_evaluates_during_training_and_stops_at_the_target(tmp_path):
    # 4 iterations of 4 envs x 32 steps. Catch's returns lie in [-10, 10]: a target of
    # -10 is met by the first evaluation, which ends the run and is its final one; a
    # target of 11 never is, so the run evaluates after every iteration to the end.
    base = [sys.executable, str(PPO), *TINY_PPO, "--total-timesteps", "512", "--eval-every", "1"]
    met = run([*base, "--target-return", "-10", "--out-dir", str(tmp_path / "met")])
    s = summary(met)
    assert int(s["global_step"]) == 128 and int(s["target_step"]) == 128, s
    logged = evaluations_logged(only_run(tmp_path / "met"))
    assert list(logged) == [128], logged
    assert logged[128]["eval/mean_return"] == float(s["eval_mean"])
    assert 0 < float(s["target_seconds"]) == pytest.approx(logged[128]["eval/train_seconds"], abs=0.01)

    unmet = run([*base, "--target-return", "11", "--out-dir", str(tmp_path / "unmet")])
    s = summary(unmet)
    assert int(s["global_step"]) == 512 and "target_step" not in s, s
    logged = evaluations_logged(only_run(tmp_path / "unmet"))
    assert sorted(logged) == [128, 256, 384, 512], logged
    seconds = [logged[k]["eval/train_seconds"] for k in sorted(logged)]
    assert seconds == sorted(seconds) and float(s["eval_seconds"]) > 0, seconds

    proc = subprocess.run([sys.executable, str(PPO), *TINY_PPO, "--target-return", "5",
                           "--out-dir", str(tmp_path / "no_eval")],
                          cwd=REPO, env=ENV, capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "--target-return needs --eval-every" in proc.stderr


def test_ppo_resume_continues_the_run(ppo_run, tmp_path):
    run_dir, _ = ppo_run
    text = run([sys.executable, str(PPO), *TINY_PPO, "--total-timesteps", "384",
                "--out-dir", str(run_dir.parent), "--eval-episodes", "0",
                "--resume", str(run_dir / "checkpoints" / "latest.pt")])
    assert f"resumed {run_dir.name} at step 256" in text
    assert int(summary(text)["global_step"]) == 384
    assert len(list(run_dir.parent.iterdir())) == 1  # same run folder, appended
    with open(run_dir / "scalars.csv", newline="") as f:
        steps = [int(r["step"]) for r in csv.DictReader(f) if r["tag"] == "charts/SPS"]
    assert steps[-1] == 384 and 256 in steps


def test_impala_smoke_writes_everything(impala_run):
    run_dir, text = impala_run
    assert re.fullmatch(r"catch__impala__1__\d+", run_dir.name)
    assert list(run_dir.glob("events.out.tfevents.*"))
    assert {"charts/SPS", "charts/actor_env_wait_fraction", "charts/learner_queue_wait_fraction",
            "losses/value_loss", "losses/policy_loss", "losses/entropy"} <= tags(run_dir)
    assert {f"time/learner_{p}" for p in ("wait", "copy", "learn", "other")} | \
        {f"time/actor_{p}" for p in ("env_wait", "env_send", "infer", "copy", "emit_wait",
                                      "other")} <= tags(run_dir)
    for name in ("checkpoints/latest.pt", "checkpoints/final.pt", "curve.png"):
        assert (run_dir / name).stat().st_size > 0, name
    s = summary(text)
    assert int(s["global_step"]) == 320  # 5 updates x 2 unrolls x 2 envs x 8 steps
    assert 0.0 <= float(s["actor_env_wait_fraction"]) <= 1.0
    for key in ("actor_env_send_fraction", "actor_copy_fraction", "learner_copy_fraction",
                "learner_learn_fraction"):
        assert 0.0 < float(s[key]) < 1.0, key


def test_impala_resume(impala_run):
    run_dir, _ = impala_run
    text = run([sys.executable, str(IMPALA), *TINY_IMPALA, "--total-timesteps", "448",
                "--out-dir", str(run_dir.parent), "--eval-episodes", "0",
                "--resume", str(run_dir / "checkpoints" / "latest.pt")])
    assert f"resumed {run_dir.name} at step 320" in text
    assert int(summary(text)["global_step"]) == 448


def test_impala_two_ddp_learners_under_torchrun(tmp_path):
    text = run([sys.executable, "-m", "torch.distributed.run", "--standalone",
                "--nproc_per_node=2", str(IMPALA), *TINY_IMPALA, "--out-dir", str(tmp_path),
                "--dist-backend", "gloo", "--eval-episodes", "0"])
    s = summary(text)
    # each update takes 2 unrolls x 2 envs x 8 steps per learner, 64 over both:
    # 320 // 64 = 5 updates
    assert int(s["global_step"]) == 320
    assert s["ddp_weights_in_sync"] == "True"
    run_dir = only_run(tmp_path)  # one run folder, written by rank 0
    assert (run_dir / "checkpoints" / "final.pt").exists()


def test_load_policy_returns_actions(ppo_run, impala_run):
    from jsgym.trainers.common import load_policy

    obs = np.random.default_rng(0).integers(0, 256, size=(5, 64, 64, 3), dtype=np.uint8)
    for run_dir, algo in ((ppo_run[0], "ppo"), (impala_run[0], "impala")):
        policy = load_policy(run_dir / "checkpoints" / "final.pt")
        actions = policy(obs)
        assert actions.shape == (5,) and actions.dtype == np.int64
        assert ((actions >= 0) & (actions < 8)).all()
        assert policy.game == "catch" and policy.algo == algo
        assert policy.env_kwargs["frameskip"] == 4
        greedy = load_policy(run_dir / "checkpoints" / "final.pt", greedy=True)
        np.testing.assert_array_equal(greedy(obs), greedy(obs))


def test_cli_train_and_eval(tmp_path):
    jsgym = [sys.executable, "-m", "jsgym"]
    run([*jsgym, "train", "catch", "--algo", "ppo", *TINY_PPO[2:], "--out-dir", str(tmp_path),
         "--eval-episodes", "0"])
    ckpt = only_run(tmp_path) / "checkpoints" / "final.pt"
    gif = tmp_path / "eval.gif"
    text = run([*jsgym, "eval", str(ckpt), "--episodes", "3", "--json", "--gif", str(gif)])
    result = json.loads(text.strip().splitlines()[-2])
    assert result["game"] == "catch" and len(result["returns"]) == 3
    assert gif.read_bytes()[:6] == b"GIF89a"


def test_ppo_learns_catch(tmp_path):
    # catch: +1 per caught ball, -1 per miss, 10 balls, so returns lie in [-10, 10];
    # the random policy scores about -5. The CPU defaults (100k steps: the README's first
    # command without its early stop) reach 9-10 (about 90 s on 2 idle cores).
    text = run([sys.executable, str(PPO), "--game", "catch", "--eval-episodes", "16",
                "--no-progress", "--out-dir", str(tmp_path)], timeout=900)
    s = summary(text)
    assert float(s["eval_mean"]) >= 8.0, s
    assert float(s["random_mean"]) <= 0.0, s


def test_impala_learns_catch(tmp_path):
    # IMPALA uses each sample for one gradient step (PPO: 4 epochs), so it needs more
    # samples. Actor/learner timing makes runs not bit-reproducible, and the sampled
    # policy's return varies from run to run, so the learned policy is judged greedily,
    # with a margin below the optimum (10). The budget was 150k steps until one CI run
    # in four ended at 5.6 greedy; with 250k (about 1.5 minutes on an idle core) four
    # trial runs all reached 10.0.
    text = run([sys.executable, str(IMPALA), "--game", "catch", "--total-timesteps", "250000",
                "--eval-episodes", "16", "--no-progress", "--out-dir", str(tmp_path)], timeout=900)
    s = summary(text)
    assert float(s["random_mean"]) <= 0.0, s
    out = run([sys.executable, "-m", "jsgym", "eval", s["checkpoint"], "--episodes", "16",
               "--greedy", "--json"], timeout=300)
    greedy = json.loads([l for l in out.splitlines() if l.startswith("{")][-1])
    assert greedy["mean"] >= 7.0, greedy


@pytest.mark.skipif(not __import__("torch").cuda.is_available(), reason="no CUDA device here")
def test_trainers_run_on_cuda_with_the_published_preset(tmp_path):
    # The GPU path end to end, cut to one short update: PPO's procgen preset (IMPALA-CNN,
    # rollout storage on the device, observations through a pinned buffer) and IMPALA's
    # learner on the device with its batched actor inference there too.
    ppo = run([sys.executable, str(PPO), "--game", "coinrun", "--preset", "procgen",
               "--device", "cuda", "--num-envs", "8", "--num-steps", "16",
               "--total-timesteps", "256", "--eval-episodes", "2", "--no-progress",
               "--out-dir", str(tmp_path / "ppo")], timeout=600)
    assert int(summary(ppo)["global_step"]) == 256
    impala = run([sys.executable, str(IMPALA), *TINY_IMPALA, "--device", "cuda",
                  "--out-dir", str(tmp_path / "impala")], timeout=600)
    assert int(summary(impala)["global_step"]) >= 320


def test_torch_threads_come_from_the_machine(monkeypatch):
    """--torch-threads 0: the usable cores (split among torchrun's learner processes)
    less the threads beside the learner, at least 1; 1 when other processes keep the
    machine busy; a positive request as given."""
    from jsgym import machine
    from jsgym.trainers import common

    monkeypatch.setattr(machine, "usable_cores", lambda: 8)
    monkeypatch.setattr(machine, "busy_cores", lambda seconds=0.25: 0.0)
    monkeypatch.delenv("LOCAL_WORLD_SIZE", raising=False)
    assert common.torch_threads_for(3)[0] == 3
    assert common.torch_threads_for(0)[0] == 8
    assert common.torch_threads_for(0, beside=2)[0] == 6
    assert common.torch_threads_for(0, beside=20)[0] == 1
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "2")
    assert common.torch_threads_for(0, beside=1)[0] == 3
    monkeypatch.setattr(machine, "busy_cores", lambda seconds=0.25: 1.5)
    threads, why = common.torch_threads_for(0)
    assert threads == 1 and "busy" in why
    monkeypatch.undo()
    assert 0.0 <= machine.busy_cores(0.05) <= (os.cpu_count() or 1) + 1e-9


def test_learner_precision_follows_the_cpu(monkeypatch):
    """--precision auto: bf16 autocast on a CPU with native bf16, fp32 without it and on
    a GPU; fp32 and bf16 as asked; anything else an error naming the choices."""
    import torch

    from jsgym import machine
    from jsgym.trainers import common

    cpu, gpu = torch.device("cpu"), torch.device("cuda")
    assert common.learner_dtype("fp32", cpu)[0] is None
    assert common.learner_dtype("bf16", gpu)[0] is torch.bfloat16
    monkeypatch.setattr(machine, "native_bf16", lambda: True)
    assert common.learner_dtype("auto", cpu)[0] is torch.bfloat16
    assert common.learner_dtype("auto", gpu)[0] is None
    monkeypatch.setattr(machine, "native_bf16", lambda: False)
    assert common.learner_dtype("auto", cpu)[0] is None
    with pytest.raises(ValueError, match="auto, fp32, bf16"):
        common.learner_dtype("fp16", cpu)


def test_learner_precision_auto_takes_the_faster_one(monkeypatch):
    """On a CPU with native bf16, --precision auto times a gradient step both ways and
    takes bf16 only where it is faster; the trial is a real forward and backward pass
    that leaves no gradients and the seeded generator where it was."""
    import time

    import torch

    from jsgym import machine
    from jsgym.trainers import common

    cpu = torch.device("cpu")
    monkeypatch.setattr(machine, "native_bf16", lambda: True)
    for slow, expected in ((torch.bfloat16, None), (None, torch.bfloat16)):
        ran = []

        def trial(dtype, slow=slow, ran=ran):
            ran.append(dtype)
            time.sleep(0.03 if dtype is slow else 0.001)

        dtype, why = common.learner_dtype("auto", cpu, trial)
        assert dtype is expected, why
        assert "ms in bf16" in why and ran.count(None) == ran.count(torch.bfloat16) == 4
    # a measured tie is not worth bf16's rounding
    with monkeypatch.context() as patch:
        patch.setattr(common, "time_precisions", lambda trial: (0.100, 0.097))
        assert common.learner_dtype("auto", cpu, lambda dtype: None)[0] is None
    # fp32 asked for, or no native bf16: nothing is timed
    monkeypatch.setattr(machine, "native_bf16", lambda: False)
    assert common.learner_dtype("auto", cpu, lambda dtype: pytest.fail("timed"))[0] is None
    assert common.learner_dtype("fp32", cpu, lambda dtype: pytest.fail("timed"))[0] is None

    agent = common.Agent((64, 64, 3), 4)
    torch.manual_seed(7)
    expected_draw = torch.rand(3)
    torch.manual_seed(7)
    trial = common.gradient_trial(agent, 4096, cpu)
    seen = []
    agent.actor.weight.register_hook(lambda grad: seen.append(grad.shape))
    trial(None)
    trial(torch.bfloat16)
    assert seen == [agent.actor.weight.shape] * 2  # a backward pass reached the heads
    assert all(p.grad is None for p in agent.parameters())
    assert torch.equal(torch.rand(3), expected_draw)


def test_phase_clock_charges_every_moment_to_one_phase(monkeypatch):
    """The trainers' time split (time/* scalars): each lap goes to one phase, the phases
    add up to the time elapsed, and take() returns what came since the previous one."""
    from jsgym.trainers import common

    now = [10.0]
    monkeypatch.setattr(common.time, "perf_counter", lambda: now[0])
    clock = common.PhaseClock("env", "learn", "other")
    for phase, seconds in (("env", 1.0), ("learn", 2.0), ("env", 0.5)):
        now[0] += seconds
        clock.lap(phase)
    assert clock.take() == {"env": 1.5, "learn": 2.0, "other": 0.0}
    now[0] += 4.0
    clock.lap("other")
    assert clock.take() == {"env": 0.0, "learn": 0.0, "other": 4.0}
    assert clock.total == {"env": 1.5, "learn": 2.0, "other": 4.0}
    assert sum(clock.total.values()) == now[0] - 10.0


@pytest.mark.parametrize("encoder", ["nature", "impala"])
def test_encoders_take_pixels_as_the_network_on_pixels_over_255(encoder):
    """The first convolution scales the weights instead of the pixels: the same
    function of the same parameters as the convolution of ``obs / 255``."""
    import torch
    import torch.nn.functional as F
    from jsgym.trainers import common

    torch.manual_seed(0)
    agent = common.Agent((64, 64, 3), 5, encoder)
    obs = torch.randint(0, 256, (6, 64, 64, 3), dtype=torch.uint8)
    first = next(m for m in agent.modules() if isinstance(m, torch.nn.Conv2d))
    assert isinstance(first, common.PixelConv)
    x = obs.float().permute(0, 3, 1, 2)
    want = F.conv2d(x / 255.0, first.weight, first.bias, first.stride, first.padding)
    torch.testing.assert_close(first(x), want, rtol=1e-5, atol=1e-5)
    with torch.no_grad():
        logits, value = agent(obs)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits16, value16 = agent(obs)
    # under autocast the heads still answer in float32, close to the float32 pass
    assert logits16.dtype == value16.dtype == torch.float32
    torch.testing.assert_close(logits16, logits, rtol=0.05, atol=0.05)
    torch.testing.assert_close(value16, value, rtol=0.05, atol=0.05)


def test_sampled_actions_follow_the_softmax_and_carry_their_log_probability():
    import torch
    from torch.distributions import Categorical
    from jsgym.trainers import common

    torch.manual_seed(0)
    logits = torch.tensor([[2.0, 0.0, -1.0, 0.5]]).repeat(40_000, 1)
    action, log_prob = common.sample_actions(logits)
    want = torch.softmax(logits[0], -1)
    share = torch.bincount(action, minlength=4).float() / len(action)
    torch.testing.assert_close(share, want, atol=0.01, rtol=0)
    torch.testing.assert_close(log_prob, Categorical(logits=logits).log_prob(action))

    logits = torch.randn(64, 6, dtype=torch.bfloat16)
    actions = torch.randint(0, 6, (64,))
    got_lp, got_entropy = common.action_log_probs(logits, actions)
    dist = Categorical(logits=logits.float())
    torch.testing.assert_close(got_lp, dist.log_prob(actions))
    torch.testing.assert_close(got_entropy, dist.entropy())
