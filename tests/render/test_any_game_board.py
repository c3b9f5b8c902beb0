"""render.Board for any game, and the options coordinates= and move_numbers= on any game's picture.

``Board.of`` takes a PettingZoo env of any game (connect four, a test game's env),
the Gymnasium view, a protocol state; ``coordinates=True`` labels the edges from
the game's action names (the text board's reading); ``move_numbers=True`` numbers
each piece on the cell its move left it in (connect four's disc where it landed).
Where an option cannot apply (no coordinates in the names, a game that draws
itself), a ValueError says so. With the options off, the pictures are those of
before, byte for byte (digests taken on the code before this change).
"""

from __future__ import annotations

import hashlib
import re

import gymnasium
import numpy as np
import pytest

from boardgame_envs import connect_four_v0, render
from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.games.catalog import game_info
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.render.cells import layout_cells
from boardgame_envs.render.raster import render_cells
from boardgame_envs.render.scene import Options, Text
from games.dots_and_boxes import DotsAndBoxesGame
from games.misere_game import NumberedAvoidThree as Numbered
from games.pass_game import PassGame

CELL = 48  # the default pixels a cell of these pictures


def _played(game, moves):
    state = game.new_state()
    for word in moves.split():
        state.play(game.parse_action(word))
    return state


def _connect_four_env(columns="d d c e d"):
    env = connect_four_v0.env()
    env.reset(seed=0)
    for word in columns.split():
        env.step(env.unwrapped.game.parse_action(word))
    return env


def _digest(picture):
    data = picture.encode() if isinstance(picture, str) else np.ascontiguousarray(picture).tobytes()
    return hashlib.sha256(data).hexdigest()[:16]


def _texts(items):
    return {item.text: (item.x, item.y) for item in items if isinstance(item, Text)}


# ----------------------------------------------------------------- Board.of any game
def test_board_of_a_connect_four_env_draws_itself():
    env = _connect_four_env()
    board = render.Board.of(env)
    assert isinstance(board, render.Board) and board.drawn_by_hook
    assert board.moves == (3, 3, 2, 4, 3) and board.num_moves == 5
    assert repr(board) == "<Board connect four, 6x7, 5 moves: Move 6 · Yellow to move>"
    assert (board.rgb() == render.rgb(env)).all() and board.svg() == render.svg(env)
    assert board.rgb().shape == (288 + 29, 336, 3) and board.svg().startswith("<svg")
    assert (board.rgb(status=False) == render_cells(env.unwrapped.game_state)).all()  # the env's rgb_array picture
    assert board._repr_svg_() == board.svg()


def test_board_is_a_copy_of_the_position():
    state = _played(game_info("connect_four").game(), "d d")
    board = render.Board.of(state)
    before = board.rgb()
    state.play(2)  # the state goes on; the board keeps the position it was taken of
    assert board.num_moves == 2 and (board.rgb() == before).all()
    assert board.to_state() is not board.state and board.to_state().num_moves == 2


def test_board_of_the_dots_and_boxes_env_and_state():
    game = DotsAndBoxesGame()
    env = GameAECEnv(game, ("player_0", "player_1"))
    env.reset()
    for word in "b1 a2 c2 b3 d1 e2".split():
        env.step(game.parse_action(word))
    board = render.Board.of(env)
    assert board.moves == tuple(game.parse_action(w) for w in "b1 a2 c2 b3 d1 e2".split())
    assert board.status() == "Move 7 · B to move" and board.title() == "dots and boxes, 2x2 boxes"
    assert (board.rgb(cell=40) == render.rgb(env.game_state, cell=40)).all()
    assert (render.Board.of(env.game_state).rgb() == board.rgb()).all()
    assert board.svg().count("<line") >= 6  # its own drawing: lines


def test_board_from_moves_and_the_gymnasium_view():
    game = game_info("connect_four").game()
    board = render.Board.from_moves(game, [3, 3, 2])
    assert board.moves == (3, 3, 2) and board.status() == "Move 4 · Yellow to move"
    env = gymnasium.make("boardgame_envs/ConnectFour-v0")
    env.reset(seed=0)
    env.step(3)
    viewed = render.Board.of(env)
    assert viewed.num_moves == 2 and viewed.moves[0] == 3
    assert (render.rgb(env) == viewed.rgb()).all()


def test_board_of_what_it_cannot_draw_says_what_it_takes():
    env = _connect_four_env()
    with pytest.raises(TypeError, match=r"a board array alone does not say its game.*expected an env of any"):
        render.Board.of(env.unwrapped.state())  # PettingZoo's state(): an array, no game
    with pytest.raises(TypeError, match=r"cannot draw a int: expected an env of any boardgame_envs game"):
        render.Board.of(42)
    with pytest.raises(TypeError, match=r"cannot draw a str"):
        render.svg("connect_four")


def test_moves_of_another_count_are_dropped():
    state = _played(game_info("connect_four").game(), "d d c")
    assert render.Board.of(state, moves=[3]).moves is None
    assert render.Board.of(state, moves=[3, 3, 2]).moves == (3, 3, 2)


# ----------------------------------------------------------------- the options off: pictures as before
BEFORE = {  # render.rgb / render.svg digests, from the code before Board and the options took any game
    ("connect_four", ""): ("a26a7d2d0346f098", "e9d220a28ad3663c"),
    ("connect_four", "off"): ("a26a7d2d0346f098", "e9d220a28ad3663c"),
    ("connect_four", "hint"): ("79aa6c477e1b14d7", "b57655412b81a6c6"),
    ("dots", ""): ("96810d0df5014577", "6624c72fae213855"),
    ("dots", "off"): ("96810d0df5014577", "6624c72fae213855"),
    ("pass", ""): ("644ab6a97d99291f", "e7e1b41da057ad46"),
    ("pass", "hint"): ("77a9f3c093380528", "abb0c649880ea550"),
    ("renju", ""): ("d9d1e5da89d37ba4", "b34f751345ad7518"),
    ("renju", "off"): ("c2c1135bb41779fd", "ff3d157914624b35"),
    ("renju", "hint"): ("f26c49691bd805bf", "370eb24cb061a788"),
    ("tictactoe", ""): ("40b8dd4a9fd3c455", "3c82a0146f93d557"),
    ("tictactoe", "off"): ("40b8dd4a9fd3c455", "3c82a0146f93d557"),
}  # fmt: skip
OPTIONS = {"": {}, "off": {"coordinates": False, "move_numbers": False}, "hint": {"cell": 40, "hint": 2}}


def _source(name):
    if name == "connect_four":
        return _played(game_info("connect_four").game(), "d d c")
    if name == "dots":
        return _played(DotsAndBoxesGame(), "b1 a2 c2 b3 d1 e2")
    if name == "pass":
        return _played(PassGame(), "b2 pass")
    if name == "renju":
        return render.Board.from_moves(MNKGame(15, 5, "renju"), [112, 113, 128])
    return render.Board.from_moves(MNKGame(3, 3), [4, 0, 2])


@pytest.mark.parametrize(("name", "options"), list(BEFORE))
def test_pictures_with_the_options_off_are_as_before(name, options):
    source = _source(name)
    picture, document = render.rgb(source, **OPTIONS[options]), render.svg(source, **OPTIONS[options])
    assert (_digest(picture), _digest(document)) == BEFORE[name, options]


# ----------------------------------------------------------------- coordinates for any game
def test_connect_four_coordinates_label_its_columns_around_the_same_board():
    env = _connect_four_env()
    plain, labelled = render.rgb(env, status=False), render.rgb(env, status=False, coordinates=True)
    pad = (labelled.shape[0] - plain.shape[0]) // 2
    assert pad > 0 and labelled.shape[1] == plain.shape[1]  # columns only: a margin above and below
    assert (labelled[pad:pad + plain.shape[0]] == plain).all()  # the board itself, pixel for pixel
    assert len({tuple(v) for v in labelled[:pad].reshape(-1, 3)}) > 2  # letters in the top margin
    items = layout_cells(env.unwrapped.game_state, Options(coordinates=True, status=False)).items
    labels = [item.text for item in items if isinstance(item, Text)]
    assert sorted(labels) == sorted(list("abcdefg") * 2)
    document = render.svg(env, coordinates=True)
    assert all(f">{letter}</text>" in document for letter in "abcdefg")


def test_dots_and_boxes_coordinates_name_its_lines_on_both_edges():
    state = _played(DotsAndBoxesGame(), "b1 a2")
    plain, labelled = render.rgb(state, cell=40), render.rgb(state, cell=40, coordinates=True)
    assert labelled.shape[0] > plain.shape[0] and labelled.shape[1] > plain.shape[1]
    texts = _texts(layout_cells(state, Options(cell=40, coordinates=True, status=False)).items)
    assert set(texts) == set("abcde12345")
    # "b1" is the line on grid row 0, column 1: its column label above column 1, its row label left of row 0.
    pad = (labelled.shape[1] - plain.shape[1]) // 2
    assert texts["b"][0] == pad + 1.5 * 40 and texts["1"][1] == pad + 0.5 * 40


def test_coordinates_where_the_names_give_none_are_refused():
    state = Numbered().new_state()
    assert render.rgb(state).shape == render.rgb(state, coordinates=False).shape  # off by default: no error
    with pytest.raises(ValueError, match=r"coordinates=True: avoid three, 3x3 .* has no coordinates: its action "
                                         r"names \('1', '2', '3', \.\.\.\) do not split"):  # fmt: skip
        render.rgb(state, coordinates=True)
    with pytest.raises(ValueError, match="coordinates must be True, False or None"):
        render.svg(state, coordinates="yes")


# ----------------------------------------------------------------- move numbers for any game
def test_connect_four_numbers_each_disc_where_it_landed():
    env = _connect_four_env("d d c e d")
    state = env.unwrapped.game_state
    items = layout_cells(state, Options(move_numbers=True, status=False), env.unwrapped.moves).items
    texts = _texts(items)
    # Row 5 is the bottom: d (move 1) lands on d1, d (2) on d2, c (3) on c1, e (4) on e1, d (5) on d3.
    where = {"1": (5, 3), "2": (4, 3), "3": (5, 2), "4": (5, 4), "5": (3, 3)}
    assert texts == {n: ((c + 0.5) * CELL, (r + 0.5) * CELL) for n, (r, c) in where.items()}
    assert render.svg(env, move_numbers=True).count("<text") == 5 + 1  # the numbers and the status line
    assert not (render.rgb(env, move_numbers=True) == render.rgb(env)).all()


def test_a_pass_places_nothing_and_keeps_its_number():
    game = PassGame()
    moves = [game.parse_action(w) for w in "b2 pass a1".split()]
    state = _played(game, "b2 pass a1")
    texts = _texts(layout_cells(state, Options(move_numbers=True), moves).items)
    assert {n: xy for n, xy in texts.items() if n.isdigit()} == {"1": (1.5 * CELL, 1.5 * CELL), "3": (0.5 * CELL, 2.5 * CELL)}


def test_move_numbers_where_they_cannot_apply_are_refused():
    dots = _played(DotsAndBoxesGame(), "b1 a2")
    with pytest.raises(ValueError, match=r"move_numbers=True: dots and boxes, 2x2 boxes draws itself"):
        render.rgb(dots, move_numbers=True)
    state = _played(game_info("connect_four").game(), "d d c")
    with pytest.raises(ValueError, match=r"needs the moves that led to this position \(3 of them"):
        render.svg(state, move_numbers=True)
    with pytest.raises(ValueError, match=r"moves= do not lead to this position: 3 moves give another board"):
        render.rgb(state, moves=[3, 3, 4], move_numbers=True)
    with pytest.raises(ValueError, match=r"moves= do not lead to this position: move 2"):
        render.rgb(_played(PassGame(), "b2 a1"), moves=[4, 4], move_numbers=True)
    with pytest.raises(ValueError, match="move_numbers must be True or False"):
        render.rgb(state, moves=[3, 3, 2], move_numbers=1)


def test_animation_frames_of_any_game_carry_the_options():
    frames = list(render.frames("d d c", "connect_four", move_numbers=True, coordinates=True, cell=20))
    env = _connect_four_env("d d c")
    assert (frames[-1] == render.rgb(env, move_numbers=True, coordinates=True, cell=20)).all()
    assert frames[-1].shape != render.rgb(env, cell=20).shape
    assert re.search(r">3</text>", render.svg(env, move_numbers=True, cell=20))
