"""bench/time_to_learn.py with tiny trainer budgets: a threshold every evaluation meets
(catch's returns lie in [-10, 10], so -10), one none can meet (11), and a command timed
as given."""

from __future__ import annotations

import csv
import os
import subprocess
import sys

import pytest

from conftest import REPO

pytest.importorskip("torch")
pytest.importorskip("torch.utils.tensorboard")

TINY = "--total-timesteps 256 --num-envs 4 --num-steps 32 --num-minibatches 2 --update-epochs 1"


def time_to_learn(tmp_path, *args: str) -> tuple[str, list[dict]]:
    out = tmp_path / "ttl.md"
    proc = subprocess.run([sys.executable, str(REPO / "bench" / "time_to_learn.py"),
                           "--seeds", "1", "--eval-every", "1", "--eval-episodes", "2",
                           "--trainer-args", TINY, "--out", str(out), *args],
                          cwd=REPO, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "TMPDIR": str(tmp_path)})  # its runs' work folder
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with open(out.with_suffix(".csv"), newline="") as f:
        return out.read_text(), list(csv.DictReader(f))


def test_a_met_threshold_is_timed_from_the_launch(tmp_path):
    as_is = f"{sys.executable} -m jsgym.trainers.ppo --game catch {TINY} --eval-episodes 2"
    md, rows = time_to_learn(tmp_path, "--threshold", "-10", "--as-is", as_is)
    target, timed = rows
    assert target["kind"] == "target" and timed["kind"] == "as-is"
    # the first evaluation (after one iteration of 4 x 32 steps) meets it and ends the run
    assert int(target["reached_step"]) == 128 and target["evaluations"].startswith("128:")
    launch_to_eval = float(target["seconds_to_threshold"])
    assert 0 < float(target["training_seconds_to_threshold"]) < launch_to_eval
    assert launch_to_eval <= float(target["process_seconds"])
    assert -10 <= float(timed["final_eval"]) <= 10 and int(float(timed["reached_step"])) == 256
    assert "Reached in 1 of 1 runs" in md and "## Commands as given" in md


def test_an_unmet_threshold_is_reported(tmp_path):
    md, rows = time_to_learn(tmp_path, "--threshold", "11")
    (target,) = rows
    assert "reached_step" not in target or target["reached_step"] == ""
    # every iteration was evaluated, to the end of the budget
    assert [e.split(":")[0] for e in target["evaluations"].split()] == ["128", "256"]
    assert "not reached" in md and "Not reached in any of 1 runs" in md
