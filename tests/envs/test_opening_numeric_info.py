"""Opening-rule envs with ``info_strings = False``: every info value a number (TorchRL's PettingZooWrapper makes
a tensor of each), saying what the strings say."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs import gomoku_v0


@pytest.mark.parametrize("kwargs", [{"opening_rule": "soosorv8"}, {"opening_rule": "rif"},
                                    {"board_size": 15, "rule": "freestyle", "opening_rule": "swap2"}])  # fmt: skip
def test_numeric_info_says_what_the_strings_say(kwargs):
    words, numbers = gomoku_v0.env(**kwargs), gomoku_v0.env(**kwargs)
    numbers.unwrapped.info_strings = False
    words.reset(seed=0)
    numbers.reset(seed=0)
    game = numbers.unwrapped.game
    rng = np.random.default_rng(0)
    for _ in range(12):
        for agent in numbers.agents:
            told, plain = words.infos[agent], numbers.infos[agent]
            assert set(plain) == {"color_id", "phase_id"} and all(type(v) is int for v in plain.values())
            assert game.color_name(plain["color_id"]) == told["color"]
            assert game.opening.phases[plain["phase_id"]] == told["phase"]
        if words.unwrapped.game_state.terminal:
            break
        action = int(rng.choice(np.flatnonzero(words.observe(words.agent_selection)["action_mask"])))
        words.step(action)
        numbers.step(action)
