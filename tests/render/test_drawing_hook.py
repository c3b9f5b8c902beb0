"""The drawing hook: every game of the catalog and the test games drawn by render.rgb / render.svg / animations,
a game that draws itself (dots and boxes: lines, dots, owned boxes), and connect four's pixels as they were."""

from __future__ import annotations

import hashlib
import re

import numpy as np
import pytest
from PIL import Image, ImageSequence

from boardgame_envs import render
from boardgame_envs.envs.factory import make_env
from boardgame_envs.envs.game_env import GameAECEnv
from boardgame_envs.games.catalog import GAMES, game_info
from boardgame_envs.games.protocol import draw, draw_cells
from boardgame_envs.render.canvas import CROSS_COLOURS, STONE_COLOURS, Canvas
from boardgame_envs.render.raster import render_cells
from games.dots_and_boxes import DotsAndBoxesGame
from games.misere_game import AvoidThreeGame
from games.pass_game import PassGame

INK = (50, 50, 60)  # the paper look's ink: the dots


def _played(game, moves):
    state = game.new_state()
    for word in moves.split():
        state.play(game.parse_action(word))
    return state


def _digest(image):
    return hashlib.sha256(np.ascontiguousarray(image).tobytes()).hexdigest()[:16]


# The env's rgb_array and the play window's picture of connect four, as drawn before the drawing hook existed
# (render_cells at 48 and 64 pixels a cell): the hook's cell look draws the same pixels.
CONNECT_FOUR_PIXELS = {
    ("", 48): "a3a145eca7831687", ("", 64): "86337146c281ccf0", ("", 13): "08b09b219ef3f140",
    ("d d c", 48): "a1e7443ea09b87b8", ("d d c", 64): "e61d5247327646fc",
    ("d c d c d c d", 48): "3cde02fb4dc85c14", ("d c d c d c d", 64): "871eebca775a8cbb",
}  # fmt: skip


@pytest.mark.parametrize(("moves", "cell"), list(CONNECT_FOUR_PIXELS))
def test_connect_four_keeps_its_pixels(moves, cell):
    picture = render_cells(_played(game_info("connect_four").game(), moves), cell)
    assert _digest(picture) == CONNECT_FOUR_PIXELS[moves, cell]


def test_the_pass_game_keeps_its_pixels():
    assert _digest(render_cells(_played(PassGame(), "b2 pass"), 48)) == "793721487f9697de"
    assert _digest(render_cells(_played(PassGame(), "b2 a1"), 48)) == "bc40bd1179ccf80f"


def _catalog_and_test_games():
    games = [game_info(name).game() for name in GAMES]
    return games + [PassGame(), AvoidThreeGame(), DotsAndBoxesGame()]


@pytest.mark.parametrize("game", _catalog_and_test_games(), ids=lambda g: g.name)
def test_every_game_is_drawn_as_pixels_and_svg(game):
    state = game.new_state()
    for _ in range(3):  # a few moves in, the first legal action each time
        state.play(int(state.legal_actions()[0]))
    picture = render.rgb(state, cell=32)
    document = render.svg(state, cell=32)
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    size = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', document)
    assert (int(size.group(1)), int(size.group(2))) == (picture.shape[1], picture.shape[0])  # the same picture
    assert len(_colours(picture)) > 2


@pytest.mark.parametrize("name", list(GAMES))
def test_every_catalog_env_is_drawn(name):
    env = make_env(name, render_mode="rgb_array")
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    picture, document = render.rgb(env), render.svg(env)  # the wrapped env itself, as a notebook hands it
    assert picture.ndim == 3 and document.startswith("<svg")
    if name == "connect_four":
        assert "Yellow to move" in document and "<circle" in document
        assert picture.shape == (288 + 29, 336, 3)  # the env's picture and a status band under it
        assert (picture[:288] == env.render()).all()


def _colours(image):
    return {tuple(int(v) for v in c) for c in image.reshape(-1, 3)}


def test_dots_and_boxes_draws_lines_dots_and_boxes_not_stones():
    game = DotsAndBoxesGame()
    # Red: b1 (top of the top left box); blue: a2, c2, b3 closes that box and draws d1 again; red e2.
    state = _played(game, "b1 a2 c2 b3 d1 e2")
    assert state.board[game.box_cells[0]] == 2 and state.to_move == 2
    cell = 40
    picture = render_cells(state, cell)
    assert picture.shape == (5 * cell, 5 * cell, 3)

    def at(x, y):  # the pixel at board units (x, y)
        return tuple(int(v) for v in picture[int(y * cell), int(x * cell)])

    red, blue, paper = (tuple(int(v) for v in CROSS_COLOURS[i]) for i in (2, 3, 0))
    assert at(1.5, 0.5) == red and at(0.5, 1.5) == blue  # b1 drawn by red, a2 by blue, each in its colour
    assert at(2.5, 0.5) == INK and at(0.5, 4.5) == INK  # dots at the grid's even cells
    assert at(3.5, 2.5) == paper  # d3 is not drawn: paper
    box = at(1.5, 1.5)  # the top left box, owned by blue: tinted towards blue
    assert box != paper and box[2] > box[0]
    assert at(3.5, 3.5) == paper  # an unowned box stays paper
    assert not _colours(picture) & {tuple(int(v) for v in c) for c in STONE_COLOURS[1:4]}  # no stone, no hole
    env = GameAECEnv(game, ("player_0", "player_1"), render_mode="rgb_array")
    env.reset(seed=0)
    for word in "b1 a2 c2 b3 d1 e2".split():
        env.step(game.parse_action(word))
    assert (env.render() == render_cells(state, 48)).all()  # the env's rgb_array draws through the hook
    document = render.svg(state, cell=cell)
    assert document.count("<line") == 6 and document.count("<circle") == 9  # six lines drawn, nine dots


def test_the_cell_look_draws_the_games_marks():
    class Marked(AvoidThreeGame):  # the misère game, drawn as X and O
        marks = "crosses"

    state = _played(Marked(), "b2 a1")
    canvas = Canvas(state.game, 60)
    draw(state, canvas)
    kinds = [type(item).__name__ for item in canvas.items]
    assert kinds.count("Line") == 4 + 2 and kinds.count("Circle") == 1  # the grid, an X; an O
    picture = render_cells(state, 60)
    x_red, o_blue = (tuple(int(v) for v in CROSS_COLOURS[i]) for i in (2, 3))
    assert picture[90, 90].tolist() == list(x_red) and o_blue in _colours(picture)  # X's crossing at b2's centre


def test_a_game_without_marks_is_drawn_in_stones_and_a_game_with_a_draw_hook_by_it():
    stones = Canvas(PassGame(), 20)
    draw_cells(_played(PassGame(), "b2"), stones)
    assert stones.look == "stones" and sum(type(i).__name__ == "Disc" for i in stones.items) == 9 + 1  # + the ring
    hooked = Canvas(DotsAndBoxesGame(), 20)
    draw(DotsAndBoxesGame().new_state(), hooked)
    assert not any(type(i).__name__ == "Disc" for i in hooked.items)  # its own drawing: dots, no pieces


def test_hint_ghost_and_bad_options():
    game = game_info("connect_four").game()
    state = _played(game, "d")
    plain = render.rgb(state, status=False)
    hinted = render.rgb(state, status=False, hint=2)  # column c: a green ring on its top cell
    changed = np.argwhere((plain != hinted).any(-1))
    assert len(changed) and changed[:, 0].max() < 48 and 96 <= changed[:, 1].min() <= changed[:, 1].max() < 144
    assert (render.rgb(state, status=False, ghost=4) != plain).any()
    with pytest.raises(ValueError, match="hint=9 is no action of connect four"):
        render.rgb(state, hint=9)
    with pytest.raises(TypeError, match="unknown drawing option"):
        render.svg(state, colour="red")
    with pytest.raises(ValueError, match="player must be 0"):
        Canvas(game).line(0, 0, 1, 1, player=3)


def test_animations_of_any_game(tmp_path):
    frames = list(render.frames("d d c", "connect_four", status=False))
    assert len(frames) == 4 and (frames[-1] == render_cells(_played(game_info("connect_four").game(), "d d c"))).all()
    game = DotsAndBoxesGame()
    path = render.animate("b1 a2 c2 b3", game, tmp_path / "dots.gif", cell=24)
    with Image.open(path) as gif:
        assert sum(1 for _ in ImageSequence.Iterator(gif)) == 5
    with pytest.raises(ValueError, match="cannot read 'zz' as a line"):
        render.animate("b1 zz", game, tmp_path / "bad.gif")
    with pytest.raises(TypeError, match="expected a game's name"):
        list(render.frames("b1", object()))
