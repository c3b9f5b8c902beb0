"""Pictures of games drawn as cells (render/cells.py): colours by the game's marks, a pass drawn, clicks mapped."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.games.catalog import game_info
from boardgame_envs.games.protocol import action_at_cell, cell_of, last_other_action, other_actions
from boardgame_envs.render.cells import CELL_COLOURS, STONE_COLOURS, CellGeometry, palette
from boardgame_envs.render.raster import render_cells
from games.misere_game import AvoidThreeGame
from games.pass_game import PASS, PassGame


def _colours(image):
    return {tuple(int(v) for v in c) for c in image.reshape(-1, 3)}


def _played(game, moves):
    state = game.new_state()
    for word in moves.split():
        state.play(game.parse_action(word))
    return state


def test_each_game_is_drawn_in_its_own_colours():
    connect_four = game_info("connect_four").game()
    assert palette(connect_four) is CELL_COLOURS  # marks = "discs": red and yellow in a blue frame
    assert palette(PassGame()) is STONE_COLOURS and palette(AvoidThreeGame()) is STONE_COLOURS  # stones, or none named
    disc = render_cells(_played(connect_four, "d d"))
    assert _colours(disc) == {tuple(map(int, c)) for c in CELL_COLOURS}
    stones = render_cells(_played(PassGame(), "b2 a1"))
    assert _colours(stones) == {tuple(map(int, c)) for c in STONE_COLOURS}
    assert not _colours(stones) & {(214, 40, 40), (240, 200, 30)}  # no connect four disc on a stone game


def test_a_pass_is_a_bar_along_the_bottom_and_the_picture_keeps_its_size():
    game = PassGame()
    before, after = _played(game, "b2"), _played(game, "b2 pass")
    a, b = render_cells(before, 48), render_cells(after, 48)
    assert a.shape == b.shape == (144, 144, 3)
    assert (b[-4:] == STONE_COLOURS[4]).all() and not (a[-4:] == STONE_COLOURS[4]).all()
    ring = np.all(b[:-4] == STONE_COLOURS[4], axis=-1)
    assert not ring.any()  # after a pass no stone is ringed: the last move was no cell
    assert last_other_action(after) == PASS and last_other_action(before) is None
    after.play(game.parse_action("a1"))
    assert last_other_action(after) is None and not (render_cells(after, 48)[-4:] == STONE_COLOURS[4]).all()


def test_cells_and_other_actions_by_the_protocol():
    game, connect_four = PassGame(), game_info("connect_four").game()
    assert other_actions(game) == (PASS,)
    assert other_actions(connect_four) == () and other_actions(AvoidThreeGame()) == ()
    assert cell_of(game, 4) == 4 and cell_of(game, PASS) is None and action_at_cell(game, 8) == 8
    assert cell_of(connect_four, 3) == 3 and action_at_cell(connect_four, 7 * 5 + 3) == 3  # a column: its cells
    geometry = CellGeometry(game, 40)
    assert geometry.action_at(*geometry.center(5)) == 5
    with pytest.raises(ValueError, match="no cell of the board"):
        geometry.center(PASS)


def test_the_env_draws_the_pass_game():
    env = GameAECEnv(PassGame(), ("player_0", "player_1"), render_mode="rgb_array")
    env.reset(seed=0)
    env.step(4)
    env.step(PASS)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.shape == (144, 144, 3) and (frame[-1] == STONE_COLOURS[4]).all()
