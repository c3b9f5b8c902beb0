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
    "self_play_frozen_opponent.py": ["--rounds", "2", "--steps", "256"],
}


def test_every_example_is_listed():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(ARGS)


@pytest.mark.parametrize("name", sorted(ARGS))
def test_example_runs(name):
    done = subprocess.run([sys.executable, str(EXAMPLES / name), *ARGS[name]], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip()
