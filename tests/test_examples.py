"""Every example runs, with a tiny budget."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
ARGS = {
    "random_play_aec.py": [],
    "maskable_ppo_quickstart.py": ["--steps", "256"],
    "maskable_ppo_vector.py": ["--steps", "512", "--envs", "16", "--games", "50"],
    "self_play_frozen_opponent.py": ["--rounds", "2", "--steps", "256"],
    "tianshou_multiagent.py": ["--epochs", "1", "--epoch-steps", "200", "--test-episodes", "10", "--games", "4"],
    "torchrl_connect_four.py": ["--frames", "2048", "--frames-per-batch", "1024", "--snapshot-every", "1",
                                "--games", "4"],
    "rllib_connect_four.py": ["--iterations", "2", "--batch", "500", "--snapshot-every", "1", "--games", "4"],
}
# Examples for libraries boardgame_envs does not depend on: skipped where the library is not installed.
NEEDS = {"tianshou_multiagent.py": "tianshou", "torchrl_connect_four.py": "torchrl",
         "rllib_connect_four.py": "ray.rllib"}  # fmt: skip


def test_every_example_is_listed():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(ARGS)


@pytest.mark.parametrize("name", sorted(ARGS))
def test_example_runs(name):
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *ARGS[name]], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip()
