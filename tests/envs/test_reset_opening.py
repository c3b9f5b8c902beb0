"""reset(options={"opening": ...}) on the AEC env and the single-agent view."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import boardgame_envs  # noqa: F401 (registers the Gymnasium ids)
from boardgame_envs import IllegalMoveError, gomoku_v0, tictactoe_v0
from boardgame_envs.games.notation import parse_point


@pytest.mark.parametrize("opening", ["h8 h9 i9", ["h8", "h9", "i9"], [112, 97, 98], np.array([112, 97, 98]), "Kagetsu"])
def test_every_form_gives_the_same_position(opening):
    env = gomoku_v0.env(rule="renju")
    env.reset(options={"opening": opening})
    board = env.unwrapped.state()
    assert board[7, 7] == 1 and board[6, 7] == 2 and board[6, 8] == 1 and board.sum() == 4
    assert env.agent_selection == "white_0"
    obs, *_ = env.last()
    assert obs["observation"][6, 8, 1] == 1  # white sees black's i9
    assert obs["observation"][6, 8, 2] == 1  # ... as the last move
    assert obs["action_mask"].sum() == 225 - 3
    env.step(parse_point("g7", 15))
    assert env.agent_selection == "black_0"


@pytest.mark.parametrize(
    ("opening", "message"),
    [
        ("h8 h8", "move 2: h8 is occupied"),
        ("e7 a9 e6 i9 c5 a1 d5 i1 e5", "move 9: e5 is forbidden for black: double-three"),
        ("e5 a1 f5 a2 g5 a3 h5 a4 i5", "ends the game at move 9 .i5: black wins"),
        ("e5 j9", "'j9' is off the board"),
        ([0, 81], "81 is off the 9x9 board"),
        ("Kagetsu", "unknown opening 'Kagetsu' for 9x9"),
        ("Nonsense", "unknown opening 'Nonsense'"),
        (3.5, "an opening must be"),
    ],
)
def test_illegal_openings_name_the_move_and_leave_the_env_as_it_was(opening, message):
    env = gomoku_v0.raw_env(board_size=9, rule="renju")
    env.reset(options={"opening": "e5"})
    before = env.state()
    with pytest.raises(ValueError, match=message):
        env.reset(options={"opening": opening})
    assert (env.state() == before).all() and env.agent_selection == "white_0"
    env.reset()  # still reset-able
    assert env.state().sum() == 0


def test_unknown_option_keys_and_empty_options():
    env = tictactoe_v0.env()
    with pytest.raises(ValueError, match="unknown reset option.*'openng'.*accepted: 'opening'"):
        env.reset(options={"openng": "b2"})
    env.reset(options={})
    env.reset(options={"opening": None})
    assert env.unwrapped.state().sum() == 0
    env.reset(options={"opening": "b2 a3"})  # tic-tac-toe too: b2 is the centre
    assert env.unwrapped.state()[1, 1] == 1 and env.agent_selection == "player_1"


def test_an_illegal_opening_is_an_illegal_move_error():
    env = gomoku_v0.raw_env()
    with pytest.raises(IllegalMoveError):
        env.reset(options={"opening": "h8 h8"})


def test_single_agent_view_starts_from_the_opening():
    env = gymnasium.make("boardgame_envs/Renju-v0", opponent="random", seat="first")
    obs, info = env.reset(seed=3, options={"opening": "rif26/Kagetsu"})
    state = env.unwrapped.aec.game_state
    assert state.num_moves == 4 and state.to_move == 1  # the opponent (white) replied; black's turn
    assert info["action_mask"].sum() == 225 - 4
    env2 = gymnasium.make("boardgame_envs/Renju-v0", opponent="random", seat="second")
    env2.reset(seed=3, options={"opening": "h8 h9 i9"})
    assert env2.unwrapped.aec.game_state.num_moves == 3  # white (the learner) to move
    with pytest.raises(ValueError, match="occupied"):
        env2.reset(options={"opening": "h8 h8"})
