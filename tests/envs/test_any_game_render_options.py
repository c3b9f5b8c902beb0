"""The any-game env's ``render_options``: the keywords of its ``rgb_array`` and ``human`` pictures, as the m,n,k env has them.

Before, ``GameAECEnv.render`` drew the cells alone, with no way to ask for coordinates, move numbers, a status
band or another size. Now its pictures come from ``render.rgb`` with the keywords in ``render_options`` over
``status=False``: with none, the picture of before, byte for byte (digest taken on the code before this change);
a keyword the pictures do not know, or an option the game cannot have, raises when ``render()`` draws.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from boardgame_envs import connect_four_v0, render
from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.render.raster import render_cells
from games.dots_and_boxes import DotsAndBoxesGame
from games.misere_game import NumberedAvoidThree as Numbered

CELL = 48  # the default pixels a cell


def _digest(picture):
    return hashlib.sha256(np.ascontiguousarray(picture).tobytes()).hexdigest()[:16]


def _connect_four(columns="d d c", render_mode="rgb_array"):
    env = connect_four_v0.raw_env(render_mode=render_mode)
    env.reset(seed=0)
    for word in columns.split():
        env.step(env.game.parse_action(word))
    return env


def _played(game, moves):
    env = GameAECEnv(game, ("player_0", "player_1"), render_mode="rgb_array")
    env.reset(seed=0)
    for word in moves.split():
        env.step(game.parse_action(word))
    return env


def test_no_options_draw_the_picture_of_before():
    env = _connect_four("d d c")
    assert env.render_options == {}
    frame = env.render()
    assert frame.shape == (6 * CELL, 7 * CELL, 3)
    assert _digest(frame) == "a1e7443ea09b87b8"  # env.render() on the code before render_options
    assert (frame == render_cells(env.game_state)).all()


def test_coordinates_label_the_columns_of_the_same_board():
    env = _connect_four("d d c")
    plain = env.render()
    env.render_options["coordinates"] = True
    labelled = env.render()
    assert (labelled == render.rgb(env, status=False, coordinates=True)).all()
    pad = (labelled.shape[0] - plain.shape[0]) // 2
    assert pad > 0 and labelled.shape[1] == plain.shape[1]  # a margin above and below: a..g
    assert (labelled[pad:pad + plain.shape[0]] == plain).all()  # the board itself, pixel for pixel
    assert len({tuple(v) for v in labelled[:pad].reshape(-1, 3)}) > 2  # letters in the top margin


def test_move_numbers_go_on_the_discs_and_the_options_combine():
    env = _connect_four("d d c e d")
    plain = env.render()
    env.render_options.update(move_numbers=True)
    numbered = env.render()
    assert numbered.shape == plain.shape and not (numbered == plain).all()
    assert (numbered == render.rgb(env, status=False, move_numbers=True)).all()
    env.render_options.update(coordinates=True, status=True, cell=20)
    both = env.render()
    assert (both == render.rgb(env, coordinates=True, move_numbers=True, cell=20)).all()
    assert both.shape[1] == 7 * 20 and both.shape[0] > 6 * 20  # the margins and the status band
    env.step(env.game.parse_action("d"))  # the options hold for every later picture
    assert (env.render() == render.rgb(env, coordinates=True, move_numbers=True, cell=20)).all()


def test_an_option_the_game_cannot_have_raises_at_render_saying_why():
    env = _played(Numbered(), "")
    env.render_options["coordinates"] = True
    with pytest.raises(ValueError, match=r"coordinates=True: avoid three, 3x3 .* has no coordinates: its action "
                                         r"names \('1', '2', '3', \.\.\.\) do not split"):  # fmt: skip
        env.render()
    env.render_options.clear()
    assert env.render().shape == (3 * CELL, 3 * CELL, 3)  # the env is as it was
    dots = _played(DotsAndBoxesGame(), "b1 a2")
    dots.render_options["move_numbers"] = True
    with pytest.raises(ValueError, match=r"move_numbers=True: dots and boxes, 2x2 boxes draws itself"):
        dots.render()
    dots.render_options = {"coordinates": True}  # its lines' names do give coordinates
    assert dots.render().shape[0] > (5 * CELL)


def test_an_unknown_or_ill_typed_option_raises_at_render_as_on_the_mnk_env():
    env = _connect_four("d")
    env.render_options["numbers"] = True
    with pytest.raises(TypeError, match=r"unknown drawing option\(s\) 'numbers'; expected: cell, coordinates"):
        env.render()
    env.render_options = {"coordinates": "yes"}
    with pytest.raises(ValueError, match="coordinates must be True, False or None"):
        env.render()
    env.render_options = {"cell": 5}
    with pytest.raises(ValueError, match="cell must be an integer number of pixels >= 12"):
        env.render()


def test_the_window_shows_the_options():
    pygame = pytest.importorskip("pygame")
    env = connect_four_v0.raw_env(render_mode="human")
    env.render_options.update(cell=20, coordinates=True)
    env.reset()
    try:
        shown = pygame.surfarray.array3d(env._window.surface).transpose(1, 0, 2)
        assert (shown == render.rgb(env, status=False, cell=20, coordinates=True)).all()
        assert shown.shape[1] == 7 * 20 and shown.shape[0] > 6 * 20
    finally:
        env.close()
