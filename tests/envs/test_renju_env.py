"""Renju through gomoku_v0: the mask, the plane, errors, wins, rendering."""

from __future__ import annotations

import numpy as np
import pytest

from ascii_boards import env_from
from boardgame_envs import IllegalMoveError, gomoku_v0
from boardgame_envs.envs.board_env import PLANE_FORBIDDEN
from boardgame_envs.games.notation import parse_point

# Black to move (four stones each): e5 is a double-three.
DOUBLE_THREE = """
O . . . . . . . O
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. . X X . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
O . . . . . . . O
"""


def _env_at(diagram: str, rule: str = "renju", wrapped: bool = False, render_mode=None):
    """A 9x9 env whose game holds the drawn stones, black to move."""
    return env_from(diagram, wrapped=wrapped, rule=rule, render_mode=render_mode)


def test_mask_and_plane_exclude_the_forbidden_point():
    env = _env_at(DOUBLE_THREE)
    e5 = parse_point("e5", 9)
    obs = env.observe("black_0")
    assert obs["action_mask"][e5] == 0
    assert obs["action_mask"].sum() == 81 - 8 - 1
    assert obs["observation"].shape == (9, 9, 5)
    plane = obs["observation"][:, :, PLANE_FORBIDDEN]
    assert plane.sum() == 1 and plane[4, 4] == 1
    # White sees the same plane (black's restriction is public) and may play e5.
    env.step(parse_point("b2", 9))  # black plays far away
    assert env.agent_selection == "white_0"
    white_obs = env.observe("white_0")
    assert white_obs["action_mask"][e5] == 1
    assert white_obs["observation"][4, 4, PLANE_FORBIDDEN] == 1


def test_raw_env_names_point_and_kind():
    env = _env_at(DOUBLE_THREE)
    before = env.state()
    with pytest.raises(IllegalMoveError, match="^e5 is forbidden for black: double-three$"):
        env.step(parse_point("e5", 9))
    np.testing.assert_array_equal(env.state(), before)
    assert env.agent_selection == "black_0"


def test_wrapped_env_forbidden_point_loses_for_black():
    env = _env_at(DOUBLE_THREE, wrapped=True)
    env.step(parse_point("e5", 9))
    assert env.rewards == {"black_0": -1, "white_0": 0}
    assert all(env.terminations.values())


def test_other_rules_do_not_restrict_black():
    env = _env_at(DOUBLE_THREE, rule="freestyle")
    assert env.observe("black_0")["action_mask"][parse_point("e5", 9)] == 1
    assert env.observe("black_0")["observation"].shape == (9, 9, 4)


def test_black_overline_is_forbidden_and_white_overline_wins():
    # Black: a5 b5 c5 . e5 f5 -> d5 would be six: forbidden, not a win.
    env = gomoku_v0.raw_env(board_size=9, rule="renju")
    env.reset()
    for black, white in zip(["a5", "b5", "c5", "e5", "f5"], ["a1", "b1", "c1", "e1", "i9"]):
        env.step(parse_point(black, 9))
        env.step(parse_point(white, 9))
    with pytest.raises(IllegalMoveError, match="d5 is forbidden for black: overline"):
        env.step(parse_point("d5", 9))
    env.step(parse_point("h8", 9))
    env.step(parse_point("d1", 9))  # white: a1 b1 c1 d1 e1, five
    assert env.game_state.winner == 2 and env.rewards["white_0"] == 1


def test_white_six_wins_under_renju():
    env = gomoku_v0.raw_env(board_size=9, rule="renju")
    env.reset()
    for black, white in zip(["a9", "c9", "e9", "g9", "a7"], ["a1", "b1", "c1", "e1", "f1"]):
        env.step(parse_point(black, 9))
        env.step(parse_point(white, 9))
    env.step(parse_point("i9", 9))
    env.step(parse_point("d1", 9))  # a1-f1: six, a win for white
    assert env.game_state.winner == 2


def test_black_five_wins_even_if_it_also_makes_double_three():
    env = gomoku_v0.raw_env(board_size=9, rule="renju")
    env.reset()
    # Row 5: a5 b5 c5 d5; column e7 e6; diagonal g7 f6: e5 makes five (and two threes).
    for black, white in zip(["a5", "b5", "c5", "d5", "e7", "e6"], ["a1", "c1", "e1", "g1", "i1", "i3"]):
        env.step(parse_point(black, 9))
        env.step(parse_point(white, 9))
    assert env.observe("black_0")["action_mask"][parse_point("e5", 9)] == 1
    env.step(parse_point("e5", 9))
    assert env.game_state.winner == 1


def test_renders_mark_forbidden_points():
    env = _env_at(DOUBLE_THREE, render_mode="ansi")
    text = env.render()
    row5 = next(line for line in text.splitlines() if line.startswith(" 5 "))
    assert row5.split()[1:6] == [".", ".", "X", "X", "*"]  # a5..e5
    assert "forbidden for black" in text
    rgb = _env_at(DOUBLE_THREE, render_mode="rgb_array").render()
    plain = _env_at(DOUBLE_THREE, rule="freestyle", render_mode="rgb_array").render()
    assert (rgb != plain).any()  # the cross on e5 is the only difference
