"""bench/train_sps.py: its --quick run (each trainer in its own process) writes a result
whose numbers parse, are positive and whose time splits account for the timed window;
the SB3 policy it trains is jsgym's network, parameter for parameter; its helpers."""

from __future__ import annotations

import csv
import importlib.util
import re
import subprocess
import sys

import pytest

TRAIN_EXTRA = "pip install -e .[train]"
pytest.importorskip("torch", reason=f"bench/train_sps.py trains with torch ({TRAIN_EXTRA})")
pytest.importorskip("stable_baselines3",
                    reason=f"bench/train_sps.py compares with Stable-Baselines3 ({TRAIN_EXTRA})")

from conftest import REPO  # noqa: E402

BENCH = REPO / "bench"
TRAINERS = {"jsgym-ppo", "jsgym-impala", "sb3-ppo"}
# the split groups of each trainer: PPO's iteration (both trainers), IMPALA's learner and
# actor thread
GROUPS = {"jsgym-ppo": ["iteration"], "sb3-ppo": ["iteration"],
          "jsgym-impala": ["learner", "actor"]}


@pytest.fixture(scope="module", autouse=True)
def one_torch_thread():
    """The networks built here need no parallelism, and on a busy machine two OpenMP
    threads wait on each other (docs/training.md, CPU notes): building one took 100 times
    longer with two."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def train_sps():
    """The script as a module (bench/ on sys.path only while it imports bench/common.py)."""
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location("train_sps", BENCH / "train_sps.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("train_sps") / "train_sps.md"
    proc = subprocess.run([sys.executable, str(BENCH / "train_sps.py"), "--quick",
                           "--out", str(out)], cwd=REPO, capture_output=True, text=True,
                          timeout=180)
    assert proc.returncode == 0, f"train_sps.py --quick failed:\n{proc.stdout}\n{proc.stderr}"
    with open(out.with_suffix(".csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    return out.read_text(), rows, proc.stdout


def test_quick_run_writes_positive_rates(quick_run):
    md, rows, stdout = quick_run
    assert stdout.strip() == md.strip()  # printed and written
    assert {r["trainer"] for r in rows} == TRAINERS and len(rows) == 3
    for r in rows:
        rate, steps, seconds = (float(r["agent_steps_per_s"]), int(r["agent_steps"]),
                                float(r["timed_seconds"]))
        assert rate > 0 and steps > 0 and seconds > 0 and int(r["updates"]) >= 1, r
        assert rate == pytest.approx(steps / seconds, rel=0.01)
        assert int(r["torch_threads"]) >= 1
        assert float(r["other_load_cores_max"]) >= 0 and float(r["self_cores"]) > 0
    # the order of a single repeat is the order asked for
    assert [r["trainer"] for r in sorted(rows, key=lambda r: int(r["sequence"]))] == \
        ["jsgym-ppo", "jsgym-impala", "sb3-ppo"]


def test_quick_run_splits_account_for_the_window(quick_run):
    _, rows, _ = quick_run
    for r in rows:
        for group in GROUPS[r["trainer"]]:
            shares = {k: float(v) for k, v in r.items()
                      if k.startswith(group + "_") and k.endswith("_pct") and v != ""}
            assert len(shares) >= 4, (r["trainer"], group, shares)
            assert all(v >= -0.5 for v in shares.values()), (r["trainer"], shares)
            # PPO's and the learner's phases are laps of one clock, SB3's "other" is the
            # rest of the window; the actor's totals are as of their last completed loop
            # step, so they may be one step of the actor loop short of the window
            slack = 10 if group == "actor" else 3
            assert sum(shares.values()) == pytest.approx(100, abs=slack), (r["trainer"], shares)
        # time goes to the env and to the network in every trainer
        env = "actor_env_wait_pct" if r["trainer"] == "jsgym-impala" else "iteration_env_pct"
        learn = "learner_learn_pct" if r["trainer"] == "jsgym-impala" else "iteration_learn_pct"
        assert float(r[env]) > 0 and float(r[learn]) > 0, r


def test_quick_run_report(quick_run):
    md, rows, _ = quick_run
    for text in ("- machine:", "- software:", "- jsgym build:", "- command: `train_sps.py --quick",
                 "other load", "stable-baselines3 ", "## Summary", "## jsgym-ppo",
                 "## jsgym-impala", "## sb3-ppo"):
        assert text in md, text
    counts = re.search(r"jsgym Agent ([\d,]+), SB3 policy ([\d,]+)", md)
    assert counts and counts[1] == counts[2], md
    assert {int(r["parameters"]) for r in rows} == {int(counts[1].replace(",", ""))}
    rate = {r["trainer"]: float(r["agent_steps_per_s"]) for r in rows}
    ratio = re.search(r"jsgym-ppo / sb3-ppo: \*\*([\d.]+)x\*\*", md)
    assert ratio
    assert float(ratio[1]) == pytest.approx(rate["jsgym-ppo"] / rate["sb3-ppo"], abs=0.006)
    for trainer in TRAINERS:  # each trainer's table has its run and the mean
        section = md.split(f"## {trainer}\n", 1)[1].split("\n## ", 1)[0]
        run_row = r"^\| \d \| 1 \| [\d.,k]+ \| [\d.]+ \| \d+ \| \d+ \|"
        assert re.search(run_row, section, re.M), section
        assert "| mean |" in section


@pytest.mark.parametrize("encoder", ["nature", "impala"])
def test_sb3_policy_is_jsgym_network(train_sps, encoder):
    import gymnasium as gym
    import numpy as np
    from stable_baselines3.common.policies import ActorCriticCnnPolicy

    from jsgym.trainers.common import Agent

    agent = Agent((64, 64, 3), 8, encoder)
    policy = ActorCriticCnnPolicy(gym.spaces.Box(0, 255, (3, 64, 64), np.uint8),
                                  gym.spaces.Discrete(8), lambda _: 1e-3,
                                  **train_sps.sb3_policy_kwargs(encoder))
    shapes = sorted(tuple(p.shape) for p in agent.parameters())
    assert sorted(tuple(p.shape) for p in policy.parameters()) == shapes
    count = train_sps.jsgym_parameter_count((64, 64, 3), 8, encoder)
    assert train_sps.sb3_parameter_count((64, 64, 3), 8, encoder) == count
    assert count == sum(p.numel() for p in agent.parameters())
    # one shared encoder, and heads straight on its features
    assert policy.share_features_extractor
    assert policy.mlp_extractor.latent_dim_pi == agent.encoder.out_dim


def test_encoders_differ(train_sps):
    # the equality above is not vacuous: the counts follow the encoder
    assert train_sps.jsgym_parameter_count((64, 64, 3), 8, "nature") != \
        train_sps.jsgym_parameter_count((64, 64, 3), 8, "impala")


def test_run_order_alternates(train_sps):
    assert train_sps.run_order(["a", "b", "c"], 3) == [
        (1, "a"), (1, "b"), (1, "c"), (2, "c"), (2, "b"), (2, "a"), (3, "a"), (3, "b"), (3, "c")]
    assert train_sps.run_order(["a"], 2) == [(1, "a"), (2, "a")]


def test_update_rows_time_from_the_first_row(train_sps):
    rows = train_sps.UpdateRows()
    with pytest.raises(RuntimeError, match="too short"):
        rows.window()
    for step, env in ((100, 9.0), (200, 1.0), (300, 2.0)):  # the first row is the warm-up
        rows.note("env", env, step)
        rows.note("learn", 0.5, step)
    w = rows.window()
    assert w["steps"] == 200 and w["rows"] == 2 and w["seconds"] >= 0
    assert w["phases"] == {"env": 3.0, "learn": 1.0}
    assert len(w["load"]) == 3


def test_parse_result_takes_the_last_line(train_sps):
    out = (f"torch threads: 2\n{train_sps.RESULT_PREFIX}" + '{"rate": 1}\n'
           f"{train_sps.RESULT_PREFIX}" + '{"rate": 2}\nsummary x=1\n')
    assert train_sps.parse_result(out) == {"rate": 2}
    with pytest.raises(ValueError):
        train_sps.parse_result("summary x=1\n")


def test_help_documents_the_options(train_sps, capsys):
    with pytest.raises(SystemExit) as exit_:
        train_sps.main(["--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    for option in ("--game", "--seconds", "--updates", "--trainers", "--encoder", "--out",
                   "--quick", "--repeats", "--cores", "--torch-threads", "{impala,nature}",
                   "Time at defaults"):
        assert option in text, option
