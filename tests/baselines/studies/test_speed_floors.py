"""baselines/studies/speed_floors.py: the floor env is a fair comparator, the same observations and results as env()."""

from __future__ import annotations

import random

import numpy as np
import pytest

from baseline_scripts import load_baseline
from boardgame_envs import gomoku_v0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_conformant_floor_shows_what_env_shows_move_by_move(seed):
    floor = load_baseline("studies/speed_floors").ConformantFloor()
    env = gomoku_v0.env(board_size=15, rule="freestyle")
    floor.reset()
    env.reset()
    rng = random.Random(seed)
    turns = 0
    for agent, other in zip(env.agent_iter(), floor.agent_iter()):
        assert agent == other
        obs, reward, term, trunc, info = env.last()
        f_obs, f_reward, f_term, f_trunc, _ = floor.last()
        np.testing.assert_array_equal(f_obs["observation"], obs["observation"])
        np.testing.assert_array_equal(f_obs["action_mask"], obs["action_mask"])
        assert (f_reward, f_term, f_trunc) == (reward, term, trunc)
        action = None if term else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        floor.step(action)
        turns += 1
    assert floor.agents == [] and turns > 10


def test_the_floor_refuses_an_occupied_point_and_a_step_out_of_turn():
    floor = load_baseline("studies/speed_floors").ConformantFloor()
    floor.reset()
    floor.last()
    floor.step(112)
    obs, *_ = floor.last()
    obs["action_mask"][112] = 1  # a mask the agent tampered with: the board still refuses
    with pytest.raises(ValueError, match="occupied"):
        floor.step(112)
    with pytest.raises(AssertionError):
        floor.step(0)  # no observation since the failed step
