"""Opening-rule envs tell each agent its colour and the phase in numbers (``color_id``, ``phase_id``: TorchRL's
PettingZooWrapper makes a tensor of every info value); the words are on the env (``color_of``, ``phase``), and
``info_strings = True`` puts them back in the info, as the former default did."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs import gomoku_v0


@pytest.mark.parametrize("kwargs", [{"opening_rule": "soosorv8"}, {"opening_rule": "rif"},
                                    {"board_size": 15, "rule": "freestyle", "opening_rule": "swap2"}])  # fmt: skip
def test_the_numbers_say_what_the_words_say(kwargs):
    numbers, words = gomoku_v0.env(**kwargs), gomoku_v0.env(**kwargs)
    words.unwrapped.info_strings = True
    numbers.reset(seed=0)
    words.reset(seed=0)
    raw = numbers.unwrapped
    game = raw.game
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(40):
        for agent in numbers.agents:
            plain, told = numbers.infos[agent], words.infos[agent]
            assert set(plain) == {"color_id", "phase_id"} and all(type(v) is int for v in plain.values())
            assert told == {"color": raw.color_of(agent), "phase": raw.phase}
            assert game.color_name(plain["color_id"]) == raw.color_of(agent) in ("black", "white")
            assert game.opening.phases[plain["phase_id"]] == raw.phase == raw.game_state.phase
            seen.add((agent, raw.color_of(agent), raw.phase))
        if raw.game_state.terminal:
            break
        action = int(rng.choice(np.flatnonzero(numbers.observe(numbers.agent_selection)["action_mask"])))
        numbers.step(action)
        words.step(action)
    assert {phase for *_, phase in seen} >= {"stone", "play"}  # the opening was played through


def test_color_of_names_the_seats_colours_as_the_swaps_change_them():
    env = gomoku_v0.env(opening_rule="soosorv8")
    env.reset()
    raw = env.unwrapped
    assert (raw.color_of("player_0"), raw.color_of("player_1"), raw.phase) == ("black", "white", "stone")
    for name in "h8 h9 i9".split():
        env.step(raw.game.parse_action(name))
    assert raw.phase == "swap"
    env.step(raw.game.parse_action("swap"))
    assert (raw.color_of("player_0"), raw.color_of("player_1")) == ("white", "black")
    assert env.infos["player_1"]["color_id"] == 1 and env.infos["player_0"]["color_id"] == 2
    with pytest.raises(ValueError, match="unknown agent 'black'; expected one of 'player_0', 'player_1'"):
        raw.color_of("black")
