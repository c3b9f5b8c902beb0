"""SB3's ``model.learn(progress_bar=True)`` works after the set-up: the ``train`` extra brings ``rich``, which SB3's
bar (``tqdm.rich``) needs beside tqdm; without it ``learn`` raised ImportError before the first step."""

from __future__ import annotations

import re
from pathlib import Path

import gymnasium
import pytest

import boardgame_envs  # noqa: F401 (registers the ids)


def test_the_train_extra_brings_what_the_progress_bar_imports():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]
    names = lambda specs: {re.split(r"[<>=!~;\[ ]", spec, maxsplit=1)[0].lower() for spec in specs}  # noqa: E731
    assert "rich" in names(project["optional-dependencies"]["train"])
    assert "tqdm" in names(project["dependencies"])


def test_learn_with_progress_bar_runs_a_few_steps():
    from sb3_contrib import MaskablePPO

    env = gymnasium.make("boardgame_envs/TicTacToe-v0", opponent="random", seat="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, n_epochs=1, seed=0)
    model.learn(32, progress_bar=True)  # ImportError ("You must install tqdm and rich ...") without rich
    assert model.num_timesteps == 32
