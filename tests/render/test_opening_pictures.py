"""Pictures under an opening rule: the offered fifth moves as numbered hollow stones, the step in the status line."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs import gomoku_v0, render
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.opening_game import OpeningRuleGame
from boardgame_envs.render.board import phase_text
from boardgame_envs.render.scene import STONE_BLACK, WOOD, Circle, Text, geometry, layout, options

SOOSORV = OpeningRuleGame(MNKGame(15, 5, "renju"), "soosorv8")
# Kansei, kept, white's 4th at h15, two offers declared, kept; black has offered g10 and is to offer the second.
OFFERING = "h8 h9 h10 keep h15 offers=2 keep g10"


@pytest.mark.parametrize(
    ("rule", "base", "actions", "words"),
    [
        ("soosorv8", "renju", "", "soosorv8 · first player lays black's stone 1 at the centre"),
        ("soosorv8", "renju", "h8", "soosorv8 · first player lays white's stone 2 within 3x3"),
        ("soosorv8", "renju", "h8 h9 h10", "soosorv8 · second player (white): swap or keep"),
        ("soosorv8", "renju", "h8 h9 h10 swap", "soosorv8 · first player lays white's stone 4 anywhere"),  # now white
        ("soosorv8", "renju", "h8 h9 h10 keep h15", "soosorv8 · second player (white) declares 1..8 fifth moves"),
        ("soosorv8", "renju", OFFERING, "soosorv8 · first player (black) offers fifth move 2 of 2"),
        ("soosorv8", "renju", OFFERING + " g11", "soosorv8 · second player (white) chooses one of 2 fifth moves"),
        ("taraguchi10", "renju", "h8 keep h9 keep h10 keep h11",
         "taraguchi10 · first player (black): swap, keep or offers=10"),
        ("swap2", "freestyle", "h8 h9 h10", "swap2 · second player: black, white or more"),
        ("swap2", "freestyle", "h8 h9 h10 more a1 b1", "swap2 · first player chooses black or white"),
    ],
)
def test_the_step_in_words(rule, base, actions, words):
    game = OpeningRuleGame(MNKGame(15, 5, base), rule)
    state = game.state_after(actions.split())
    assert phase_text(state) == words
    assert render.Board.of(state).status() == words


def test_offers_are_numbered_hollow_stones_and_the_status_names_the_step():
    env = gomoku_v0.env(rule="renju", opening_rule="soosorv8", render_mode="rgb_array")
    env.reset()
    for word in (OFFERING + " g11").split():
        env.step(SOOSORV.parse_action(word))
    board = render.Board.of(env)
    g10, g11 = SOOSORV.parse_action("g10"), SOOSORV.parse_action("g11")
    assert board.offers == (g10, g11) and board.num_moves == 4  # the offers are not stones
    geo, _, front = layout(board, options())
    for number, point in enumerate((g10, g11), 1):
        x, y = geo.center(point)
        assert any(isinstance(s, Circle) and s.fill is None and s.outline == STONE_BLACK and (s.cx, s.cy) == (x, y)
                   for s in front)  # fmt: skip
        assert any(isinstance(s, Text) and s.text == str(number) and (s.x, s.y) == (x, y) for s in front)
    picture = env.render()
    x, y = (round(v) for v in geometry(board, options()).center(g10))
    assert not np.array_equal(picture[y, x], np.array(WOOD))  # something is drawn on the offered point
    svg = render.svg(env)
    assert "<title>Renju 15x15: soosorv8 · second player (white) chooses one of 2 fifth moves</title>" in svg
    # The choice ends the opening: no offers, and the usual status line.
    env.step(g10)
    board = render.Board.of(env)
    assert board.offers == () and board.phase == "" and board.status() == "Move 6 · White to move"
    assert board.moves == tuple(SOOSORV.parse_action(w) for w in "h8 h9 h10 h15 g10".split())
