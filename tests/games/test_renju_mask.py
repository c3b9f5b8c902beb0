"""The incremental renju mask equals the full recomputation after every move.

``renju_mask.update`` judges again only the points a move can change; these
tests compare it with ``forbidden_mask_flat`` (which judges every point)
after every move of random and biased games, of the hand-drawn positions
played stone by stone in random orders (their nested threes make the deep
recursions and the links), and of dense random fillings; and the line
values it keeps for every empty point against the table's.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

sys.path.insert(0, str(Path(__file__).parent))
from renju_diagrams import parse_case  # noqa: E402
from test_renju import CASES as RULE_CASES  # noqa: E402
from test_renju_five_clause import CASES as CLAUSE_CASES  # noqa: E402

from boardgame_envs.games import renju_mask  # noqa: E402
from boardgame_envs.games.lines import BLACK, WHITE  # noqa: E402
from boardgame_envs.games.mnk import MNKGame  # noqa: E402
from boardgame_envs.games.notation import parse_point  # noqa: E402
from boardgame_envs.games.renju import LINE_TABLE, forbidden_mask_flat, line_key  # noqa: E402


def _full(board: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(n * n, dtype=np.bool_)
    forbidden_mask_flat(board.copy(), n, out)
    return out


@njit  # not cached: it compiles in renju.py's table, which numba's cache would not see change
def _line_values(board, n):
    """What ``info``'s line values should be: the table's value of every line through every empty point."""
    values = np.zeros(4 * n * n, dtype=np.int32)
    for p in range(n * n):
        if board[p] == 0:
            for d in range(4):
                dr, dc = (0, 1) if d == 0 else (1, 0) if d == 1 else (1, 1) if d == 2 else (1, -1)
                values[4 * p + d] = LINE_TABLE[line_key(board, n, p // n, p % n, dr, dc)]
    return values


def _check(forbidden: np.ndarray, info: np.ndarray, count: int, board: np.ndarray, n: int) -> None:
    expected = _full(board, n)
    np.testing.assert_array_equal(forbidden, expected)
    assert count == expected.sum()
    values = info[renju_mask.VALUES : renju_mask.VALUES + 4 * n * n]
    empty = np.repeat(board == 0, 4)
    np.testing.assert_array_equal(values[empty], _line_values(board, n)[empty])


def _play_game(rng: np.random.Generator, n: int, bias: float) -> int:
    """Play one renju game through MNKState, checking the mask after every move; return the moves."""
    state = MNKGame(n, 5, "renju").new_state()
    while not state.terminal:
        legal = state.legal_actions()
        weight = np.ones(len(legal))
        if bias and state.num_moves:
            # Prefer points next to the mover's own stones: lines grow, threes and fours appear.
            own = (state.board == state.to_move).reshape(n, n)
            padded = np.pad(own, 1)
            near = sum(padded[1 + dr : 1 + dr + n, 1 + dc : 1 + dc + n] for dr in (-1, 0, 1) for dc in (-1, 0, 1))
            weight += bias * near.ravel()[legal]
        state.play(int(rng.choice(legal, p=weight / weight.sum())))
        _check(state.forbidden(), state._mask_info, state.forbidden_count(), state.board, n)
    return state.num_moves


@pytest.mark.parametrize("bias", [0.0, 4.0])
def test_incremental_mask_in_games(bias):
    rng = np.random.default_rng(7)
    moves = sum(_play_game(rng, 15, bias) for _ in range(30))
    moves += sum(_play_game(rng, 9, bias) for _ in range(30))
    assert moves > 2000


def _replay(board: np.ndarray, order: np.ndarray, info: np.ndarray | None = None) -> int:
    """Put ``board``'s stones on an empty board in ``order``, checking after each; return the most links seen."""
    n = board.shape[0]
    flat = np.zeros(n * n, dtype=np.int8)
    forbidden = np.zeros(n * n, dtype=np.bool_)
    info = renju_mask.new_info(n) if info is None else info
    renju_mask.rebuild(flat, n, forbidden, info)
    most_links = 0
    for a in order:
        flat[a] = board.flat[a]
        count = renju_mask.update(flat, n, int(a), forbidden, info)
        _check(forbidden, info, count, flat, n)
        most_links = max(most_links, int(info[renju_mask.LINKS]))
    return most_links


def test_incremental_mask_on_the_hand_drawn_positions_in_any_order():
    rng = np.random.default_rng(3)
    most_links = 0
    for diagram, _ in [*RULE_CASES.values(), *CLAUSE_CASES.values()]:
        board, _ = parse_case(diagram)
        stones = np.flatnonzero(board.ravel())
        for _ in range(8):
            most_links = max(most_links, _replay(board, rng.permutation(stones)))
    assert most_links >= 2  # recursions happened, and their links were kept and used


@pytest.mark.parametrize("seed", range(2))
def test_incremental_mask_on_dense_random_fillings(seed):
    rng = np.random.default_rng(seed)
    for _ in range(60):
        n = int(rng.choice([9, 11, 15]))
        board = rng.choice(np.array([0, BLACK, WHITE], dtype=np.int8), size=(n, n), p=[0.35, 0.4, 0.25])
        _replay(board, rng.permutation(np.flatnonzero(board.ravel())))


def test_links_that_do_not_fit_fall_back_to_rebuilding():
    rng = np.random.default_rng(11)
    board, _ = parse_case(CLAUSE_CASES["nested: the five at the second level runs through the first stone"][0])
    n = board.shape[0]
    cramped = np.zeros(renju_mask.VALUES + 4 * n * n + 2, dtype=np.int32)  # room for one link
    _replay(board, rng.permutation(np.flatnonzero(board.ravel())), cramped)
    assert cramped[renju_mask.OVERFLOW] == 1


def test_a_clone_keeps_its_own_mask():
    state = MNKGame(9, 5, "renju").new_state()
    for point in "e5 a1 f5 a9 e6 i1 f7 i9".split():
        state.play(parse_point(point, 9))
    d5 = parse_point("d5", 9)
    assert np.flatnonzero(state.forbidden()).tolist() == [d5]  # the row d5-f5 and the diagonal d5-f7
    other = state.clone()
    other.play(parse_point("g5", 9))  # d5 would now make a four (d5-g5) and one three: allowed
    assert not other.forbidden().any()
    assert np.flatnonzero(state.forbidden()).tolist() == [d5]


def _after_one_more_stone(diagram: str, point: str) -> tuple[np.ndarray, np.ndarray]:
    """The incremental mask of ``diagram``'s position, then after black plays ``point``; both checked."""
    board, _ = parse_case(diagram)
    n = board.shape[0]
    flat = np.zeros(n * n, dtype=np.int8)
    forbidden = np.zeros(n * n, dtype=np.bool_)
    info = renju_mask.new_info(n)
    renju_mask.rebuild(flat, n, forbidden, info)
    for a in np.flatnonzero(board.ravel()):
        flat[a] = board.flat[a]
        renju_mask.update(flat, n, int(a), forbidden, info)
    before = forbidden.copy()
    move = parse_point(point, n)
    flat[move] = BLACK
    renju_mask.update(flat, n, move, forbidden, info)
    np.testing.assert_array_equal(forbidden, _full(flat, n))
    return before, forbidden


def test_a_stone_three_empty_points_away_is_seen():
    # e5 makes the row c5 d5 e5, a three by f5 alone (white a5 spoils b5), and
    # the column e5 e6 e7: a double-three. Black h5 makes f5's straight four
    # c5-f5 reach six at g5, so the row is no three and e5 is legal. Two
    # empty points lie between h5 and e5: the rules read that far.
    before, after = _after_one_more_stone("""
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
O . X X 3 . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""", "h5")
    e5 = parse_point("e5", 9)
    assert before[e5] and not after[e5]


def test_a_stone_that_changes_only_a_straight_four_point_is_seen():
    # h8: the column h6-h8 is a three, and the row f8-h8 (white d8) is one if
    # i8 may be played with h8 on the board: i8 then makes the straight four
    # f8-i8 and the column three i8-i10, a four-three, allowed: h8 is a
    # double-three. Black i12, on none of h8's lines, makes i8 a double-four
    # (i8 i9 i10 . i12 is a four too): the row is no three and h8 is legal.
    # Only the recursion's link from h8 to i8 tells the update to look at h8.
    before, after = _after_one_more_stone("""
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . X . . . . . .
. . . . . . . . X . . . . . .
. . . O . X X 3 . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
""", "i12")
    h8 = parse_point("h8", 15)
    assert before[h8] and not after[h8]
