"""CpuBudget stops SB3's learn() when the process's CPU time in training reaches the budget, summed over the
learn() calls it is given; a budget that is no positive number is refused when it is made."""

from __future__ import annotations

import math
import time

import gymnasium
import pytest

import boardgame_envs  # noqa: F401
from boardgame_envs.selfplay import CpuBudget


def _model(seed=0):
    from sb3_contrib import MaskablePPO

    from boardgame_envs.vector.sb3 import SB3VecEnv

    venv = SB3VecEnv(gymnasium.make_vec("boardgame_envs/ConnectFour-v0", num_envs=8, opponent="random",
                                        vectorization_mode="vector_entry_point"))  # fmt: skip
    return MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=seed,
                       policy_kwargs={"net_arch": [16]})  # fmt: skip


def test_learn_stops_at_the_budget_not_at_its_timesteps():
    model = _model()
    budget = CpuBudget(1.5)
    before = time.process_time()
    model.learn(10**9, callback=budget)
    spent = time.process_time() - before
    assert budget.exhausted and 1.5 <= budget.spent < 1.5 + 1.0  # at most a step and an update past it
    assert budget.spent <= spent  # counted from the start of training, never more than the process spent
    assert 0 < model.num_timesteps < 10**6


def test_the_budget_is_summed_over_learn_calls():
    model = _model()
    budget = CpuBudget(1.0)
    model.learn(16 * 8, callback=budget)  # one rollout: well inside the budget
    assert not budget.exhausted and 0 < budget.spent < 1.0
    first = budget.spent
    model.learn(10**9, callback=budget, reset_num_timesteps=False)
    assert budget.exhausted and budget.spent >= 1.0 > first


@pytest.mark.parametrize("bad", [0, -1, math.nan, math.inf, True, "60"])
def test_a_budget_that_is_no_positive_number_is_refused(bad):
    with pytest.raises(ValueError, match="cpu_seconds must be a positive number of CPU-seconds"):
        CpuBudget(bad)
