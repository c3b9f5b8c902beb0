"""The Gymnasium view refuses a bool action, as the AEC env does (True is not the point 1)."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs import IllegalMoveError
from boardgame_envs.envs.single_agent import SingleAgentEnv


@pytest.mark.parametrize("action", [True, False, np.bool_(True)])
def test_a_bool_action_is_illegal(action):
    env = SingleAgentEnv("tictactoe", opponent="random", illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(IllegalMoveError):
        env.step(action)
    assert env.aec.game_state.num_moves == 0  # nothing was played


def test_a_bool_action_forfeits_under_the_default_rule():
    env = SingleAgentEnv("tictactoe", opponent="random")
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(True)
    assert reward == -1.0 and terminated and info["illegal_action"]
