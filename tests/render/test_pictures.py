"""Board pictures: what the pixels and the SVG show, checked at the points where it is drawn."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from ascii_boards import env_from
from boardgame_envs import gomoku_v0, render, tictactoe_v0
from boardgame_envs.games.mnk import IllegalMoveError, MNKGame
from boardgame_envs.games.notation import parse_point
from boardgame_envs.render import Board
from boardgame_envs.render.scene import (
    BAND, GRID, RED, STONE_BLACK, STONE_WHITE, WOOD, Options, geometry, layout, star_points,
)  # fmt: skip

RENJU = MNKGame(15, 5, "renju")
SVG_NS = "{http://www.w3.org/2000/svg}"

# Black to move (four stones each): e5 is a double-three under renju.
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


def _pixel(img: np.ndarray, geo, action: int, dx: float = 0, dy: float = 0) -> tuple[int, int, int]:
    x, y = geo.center(action)
    return tuple(int(v) for v in img[round(y + dy), round(x + dx)])


def _near(color, expected, tol=40) -> bool:
    return max(abs(a - b) for a, b in zip(color, expected)) <= tol


def _board(*names: str, game: MNKGame = RENJU) -> Board:
    return Board.from_moves(game, [parse_point(name, game.size) for name in names])


def test_stones_last_move_and_star_points_on_15x15():
    board = _board("h8", "i9", "d4")
    img = render.rgb(board)
    geo = geometry(board, Options())
    h8, i9, d4, l12 = (parse_point(p, 15) for p in ("h8", "i9", "d4", "l12"))
    assert _near(_pixel(img, geo, h8, 8, 0), STONE_BLACK) and _near(_pixel(img, geo, h8), STONE_BLACK)
    assert _near(_pixel(img, geo, i9, 8, 0), STONE_WHITE)
    assert _near(_pixel(img, geo, d4), RED)  # the last move's dot
    assert _near(_pixel(img, geo, l12, 2, 2), GRID)  # a star point: ink off the lines
    assert _near(_pixel(img, geo, l12 + 1, 2, 2), WOOD)  # an ordinary point: wood there
    assert star_points(15) == tuple(sorted(parse_point(p, 15) for p in ("d4", "d12", "h8", "l4", "l12")))


def test_coordinates_are_drawn_around_the_board_and_can_be_left_out():
    board = _board("h8")
    with_labels = render.rgb(board)
    geo = geometry(board, Options())
    x, y = geo.center(0)  # a15; its letter "a" stands above it, its number "15" to its left
    above = with_labels[round(y - 0.9 * geo.pitch) : round(y - 0.5 * geo.pitch), round(x - 8) : round(x + 8)]
    left = with_labels[round(y - 6) : round(y + 6), : round(x - 0.4 * geo.pitch)]
    assert above.min() < 120 and left.min() < 120  # dark glyph pixels on the wood
    bare = render.rgb(board, coordinates=False)
    assert bare.shape[1] < with_labels.shape[1]
    geo_bare = geometry(board, Options(coordinates=False))
    x, y = geo_bare.center(0)
    assert (bare[: round(y - 0.5 * geo.pitch), :] == WOOD).all()  # nothing but wood above the top line


def test_forbidden_points_marked_for_black_under_renju_only():
    renju_env = env_from(DOUBLE_THREE, rule="renju")
    free_env = env_from(DOUBLE_THREE, rule="freestyle")
    e5 = parse_point("e5", 9)
    board = Board.of(renju_env)
    geo = geometry(board, Options())
    assert _near(_pixel(render.rgb(renju_env), geo, e5), RED)  # the centre of the cross
    assert _near(_pixel(render.rgb(free_env), geo, e5), GRID)  # plain crossing lines
    assert board.status() == "Move 9 · Black to move · forbidden: e5"
    renju_env.step(parse_point("f6", 9))  # white's turn next: the mark stays (black's next move)
    renju_env.step(parse_point("a5", 9))
    assert Board.of(renju_env).forbidden.any()


def test_winning_line_and_result_in_the_status_band():
    # Black makes five on row 8 (h8..l8), white plays row 10 in between.
    moves = ["h8", "h10", "i8", "i10", "j8", "j10", "k8", "k10", "l8"]
    board = _board(*moves)
    assert board.terminal and board.winner == 1
    assert [p for p in board.winning_line()] == [parse_point(p, 15) for p in ("h8", "i8", "j8", "k8", "l8")]
    assert board.status() == "Black wins · 9 moves"
    img = render.rgb(board)
    geo = geometry(board, Options())
    between = _pixel(img, geo, parse_point("i8", 15), geo.pitch / 2, 0)  # between two stones of the five
    assert between[0] > 150 and between[1] < 100  # the red line over the gap
    band = img[-geo.band + 2 :, :]
    assert _near(tuple(int(v) for v in band[2, 2]), BAND, 5)
    assert band.max() > 200  # its light text


def test_move_numbers_and_note():
    board = _board("h8", "i9", "j10")
    geo = geometry(board, Options())
    plain, numbered = render.rgb(board), render.rgb(board, move_numbers=True)
    h8 = parse_point("h8", 15)
    x, y = geo.center(h8)
    r = round(geo.pitch * 0.3)
    assert plain[round(y) - r : round(y) + r, round(x) - r : round(x) + r].max() < 60  # a bare black stone
    assert numbered[round(y) - r : round(y) + r, round(x) - r : round(x) + r].max() > 200  # its light "1"
    noted = render.rgb(board, note="thinking…")
    assert (noted[-geo.band :] != plain[-geo.band :]).any() and (noted[: -geo.band] == plain[: -geo.band]).all()


def test_move_numbers_need_moves_that_add_up_to_the_position():
    env = gomoku_v0.raw_env(rule="renju", render_mode="rgb_array")
    env.reset()
    for a in (112, 113):
        env.step(a)
    assert Board.of(env).moves == (112, 113)
    assert Board.of(env.unwrapped.game_state, moves=[112]).moves is None  # not these stones: no numbers
    assert Board.of(env.unwrapped.game_state, moves=[112, 113]).moves == (112, 113)


def test_tictactoe_is_a_grid_of_x_and_o_at_least_300_px():
    board = Board.from_moves(MNKGame(3, 3), [4, 0, 2, 6, 3, 1, 5])  # X wins on the middle row
    img = render.rgb(board)
    assert img.shape[1] >= 300 and img.shape[0] >= 300
    geo = geometry(board, Options())
    red, green, blue = _pixel(img, geo, 4, geo.pitch * 0.2, geo.pitch * 0.2)
    assert red > 150 and green < 120  # on an arm of the X
    o_edge = _pixel(img, geo, 0, geo.pitch * 0.29, 0)
    assert o_edge[2] > 150 and o_edge[0] < 100  # the ring of an O
    assert _pixel(img, geo, 0)[0] > 200  # the O's hole: paper
    assert board.status() == "X wins" and board.winning_line() == (3, 4, 5)
    between = _pixel(img, geo, 3, geo.pitch / 2, 0)
    assert between[1] > between[0] and between[1] > between[2]  # the green line crosses the grid line


def test_sizes_are_configurable_and_pixels_deterministic():
    board = _board("h8", "i9")
    small, large = render.rgb(board, cell=20), render.rgb(board, cell=48)
    assert small.shape == (2 * 23 + 14 * 20 + 19, 2 * 23 + 14 * 20, 3)
    assert large.shape[1] == 2 * 55 + 14 * 48
    assert (render.rgb(board) == render.rgb(board)).all()
    assert render.rgb(board, status=False).shape[0] == render.rgb(board, status=False).shape[1]
    assert render.rgb(tictactoe_v0.raw_env(), cell=150).shape[1] == 2 * 24 + 450


@pytest.mark.parametrize("bad", [5, 2.5, True, "big"])
def test_bad_cell_size(bad):
    with pytest.raises(ValueError, match="cell must be an integer"):
        render.rgb(_board("h8"), cell=bad)


def test_something_else_than_a_board():
    with pytest.raises(TypeError, match="cannot draw a list"):
        render.svg([1, 2, 3])
    with pytest.raises(IllegalMoveError, match="occupied"):
        _board("h8", "h8")


def test_svg_has_the_same_content_as_the_pixels():
    env = env_from(DOUBLE_THREE, rule="renju")
    doc = render.svg(env, move_numbers=True)
    root = ET.fromstring(doc)
    img = render.rgb(env, move_numbers=True)
    assert (int(root.get("width")), int(root.get("height"))) == (img.shape[1], img.shape[0])
    _, back, front = layout(Board.of(env), Options(move_numbers=True))
    shapes = back + front
    elements = [e for e in root if e.tag != f"{SVG_NS}title"]
    assert len(elements) == len(shapes)
    texts = [e.text for e in root.iter(f"{SVG_NS}text")]
    assert {"a", "i", "1", "9"} <= set(texts) and {"1", "2", "8"} <= set(texts)  # coordinates and move numbers
    assert any(t.startswith("Renju 9x9 · Move 9 · Black to move") for t in texts)
    stones = [c for c in root.iter(f"{SVG_NS}circle") if c.get("fill") in ("#161616", "#f6f6f0")]
    assert len(stones) == 8
    assert doc._repr_svg_() == doc and "Black to move" in root.find(f"{SVG_NS}title").text


def test_boards_from_envs_show_themselves_in_jupyter():
    env = gomoku_v0.env(board_size=9, rule="renju")  # wrapped, no render_mode needed
    env.reset()
    env.step(40)
    board = env.board()
    assert isinstance(board, Board) and board.moves == (40,)
    svg = board._repr_svg_()
    assert svg.startswith("<svg") and "Move 2 · White to move" in svg
    assert repr(board) == "<Board Renju 9x9, 1 moves: Move 2 · White to move>"


def test_save_png_and_svg(tmp_path):
    from PIL import Image

    board = _board("h8")
    board.save(tmp_path / "b.png", cell=20)
    board.save(str(tmp_path / "b.svg"))
    assert Image.open(tmp_path / "b.png").size == (2 * 23 + 14 * 20, 2 * 23 + 14 * 20 + 19)
    assert (tmp_path / "b.svg").read_text().startswith("<svg")


def test_ghost_and_hint_marks():
    board = _board("h8")  # white to move
    geo = geometry(board, Options())
    i9 = parse_point("i9", 15)
    ring = _pixel(render.rgb(board, hint=i9), geo, i9, geo.pitch * 0.47, 0)
    assert ring[1] > ring[0] + 50 and ring[1] > ring[2] + 50  # green
    ghost = _pixel(render.rgb(board, ghost=i9), geo, i9, 6, 6)
    assert WOOD[2] + 40 < ghost[2] < STONE_WHITE[2] - 20  # half-way between wood and a white stone
    with pytest.raises(ValueError, match="hint=225 is not a point of the 15x15 board"):
        render.rgb(board, hint=225)


def test_unknown_drawing_option_names_the_known_ones():
    with pytest.raises(TypeError, match=r"unknown drawing option\(s\) 'colour'; expected: cell, coordinates"):
        render.svg(_board("h8"), colour="red")
    env = tictactoe_v0.raw_env(render_mode="rgb_array")
    env.reset()
    env.render_options["numbers"] = True
    with pytest.raises(TypeError, match="'numbers'"):
        env.render()
