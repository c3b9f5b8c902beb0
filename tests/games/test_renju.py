"""Renju forbidden points on positions worked out by hand from the RIF rules.

Diagrams: ``X`` black, ``O`` white, ``.`` empty; an empty point may carry the
answer (the marks are explained in ``renju_diagrams.py``). Every case is
checked in all eight rotations and reflections of the board. The comment
under each case is the working from the rules. The five clause of the
definition of a three has its own file, ``test_renju_five_clause.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from renju_diagrams import check_in_all_symmetries, parse_case  # noqa: E402
from renju_reference import reference_kind, reference_mask  # noqa: E402

from boardgame_envs.games.renju import forbidden_kind, forbidden_mask  # noqa: E402

CASES: dict[str, tuple[str, bool]] = {}


def case(name: str, diagram: str, full: bool = True) -> None:
    CASES[name] = (diagram, full)


# ----------------------------------------------------------------- each kind
case("overline", """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X 6 X X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# d5 joins 3 + 1 + 2 = six. g5 would give X X X . X X X: runs of 3, no four.

case("overline hidden in what looks like a four", """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. X X 6 X X X + .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# d5 looks like it makes a four with the pair, but joins 2 + 1 + 3 = six.
# h5 makes X X X X (e..h) whose only five-point is i5: one four, legal.

case("double-four in two lines", """
. . . . O . . . .
. . . . X . . . .
. . . . X . . . .
. . . . X . . . .
O X X X 4 + . . .
. . . . + . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# e5 makes two closed fours (row and column), each with one five-point.
# f5 and e4 make one four each (X X X . X): legal.

case("double-four in one line: X.XXX.X", """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X + X 4 X + X . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# d5 makes X . X X X . X: b5 and f5 each make a five, from two different
# sets of four stones: two fours in one line. b5 or f5 alone: one four.

case("double-four in one line: XX.XX.XX", """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X + 4 X + X X .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# d5 makes X X . X X . X X: c5 completes a..e, f5 completes d..h. Two fours.
# f5 makes e..h = X X X X with five-points d5 and i5: a straight four, which
# is one four. c5 makes a..c = X X X with one five-point, d5: one four.

case("double-three, open threes crossing", """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. . X X 3 . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# e5 makes the open threes c5-e5 and e7-e5; every point that would turn
# either into a straight four is free of other patterns, so both are real.

case("double-three, split three and open three", """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . . . . . .
. . X X 3 . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# e5: row c5-e5 open; column e7 . e5 e4: the split three X . X X, which e6
# turns into the straight four e7-e4.

case("double-three on the diagonals", """
. . . . . . . . .
. . . . . . . . .
. . X . . . X . .
. . . X . X . . .
. . . . 3 . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# e5 makes two diagonal open threes. d6-f6 with e6 would be one three only.

case("four-three is legal", """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
O X X X + . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""", full=False)
# e5: a closed four in the row and an open three in the column. Not forbidden.

case("three and three blocked by white", """
. . . . . . . . .
. . . . O . . . .
. . . . X . . . .
. . . . X . . . .
. . X X + . . . .
. . . . O . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# e5: the column O X X X O can never be a four at all; only the row three counts.

case("three against the edge is no three", """
. . . . X . . . .
. . . . X . . . .
. . X X + . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# e7: the column e9-e7 touches the edge: its only four (e9-e6) has one
# five-point (e5), so it is not a straight four and the column is no three.

case("the same one row from the edge is a double-three", """
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. . X X 3 . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# e6: now e9 is free, so e5 makes the straight four e8-e5: a real three.

# ------------------------------------------------------ five beats everything
case("five beats an overline in another line", """
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
. . 3 . X . . . .
X X X X + . . . .
. . . . X . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
""")
# e5 makes a5-e5 (exactly five) and e8-e3 (six). A five is never forbidden.
# c6, by the way, is a double-three of the diagonals: c6 d5 e4 (open) and
# e8 . c6 b5, which d7 makes the straight four e8-b5.

case("five beats a double-four", """
O . . . O . . . .
. X . . X . . . .
. . X . X . . . .
. . . X X . . . .
X X X X + . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""", full=False)
# e5: five in the row, plus closed fours in the column and the diagonal.

case("five beats a double-three", """
. . . . . . . . .
. . . . . . . . .
. . . . X . X . .
. . . . X X . . .
X X X X + . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""", full=False)
# e5: five in the row; also threes in the column and on the anti-diagonal.

case("white is never restricted", """
. . . . . . . . .
. . . . . . . . .
. . . . O . . . .
. . . . O . . . .
O O O + O O . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# White stones make no black pattern: no point is forbidden, whatever white has.


# ---------------------------------------------- more shapes, on 7x7 boards
case("overline across a gap, in a column", """
. . . X . . .
. . . X . . .
. . . 6 . . .
. . . X . . .
. . . X . . .
. . . X . . .
. . . . . . .
""")
# d5 joins d7-d6 and d4-d2: six. d1 makes d4-d1, whose only completion d5
# would make seven: no four.

case("overline along the bottom edge", """
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
X 6 X X X X +
""")
# b1 makes a1-f1: six. g1 makes c1-g1: exactly five, a win.

case("overline on a diagonal", """
X . . . . . .
. X . . . . .
. . 6 . . . .
. . . X . . .
. . . . X . .
. . . . . X .
. . . . . . .
""")
# c5 joins a7-b6 and d4-f2: six. g1 makes d4-g1, completed only by c5 into seven.

case("a white stone turns the overline into a five", """
X O X X X X +
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
""")
# g7 makes c7-g7: exactly five (b7 is white).

case("double-four: a straight four and a closed four", """
. . . . . . .
. . . O . . .
. . . X . . .
. . . X . . .
. X X 4 X . .
. . . X . . .
. . . . . . .
""")
# d3 makes the row b3-e3, unbroken with a3 and f3 free (a straight four:
# one four), and the column d5-d2, closed by white d6, five-point d1.

case("a dead four is no four", """
. . . . . . .
. . . . . . .
. . . . . . .
O X X X + O .
. . . . X . .
. . . . X . .
. . . . . . .
""")
# e4: the row O X X X X O has no five-point. The column e4-e2 becomes a
# straight four only at e5 (e1 would leave e4-e1 against the edge): one
# three, and nothing else: legal.

case("a four and a blocked three", """
. . . . . . .
. . . . . . .
. . . . . . .
O X X X + . .
. . . . X . .
. . . . X . .
. . . . O . .
""")
# e4: a four in the row (five at f4); the column e4-e2 has white at e1, so
# e5 gives e5-e2 with one five-point (e6): no three. Legal.

# ------------------------------------------- threes and fours, 9x9 boards
case("double-three of two split threes", """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . . . . . .
. . X . 3 X . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# e5: row c5 . e5 f5 (d5 makes c5-f5 with b5 and g5 free) and column
# e7 . e5 e4 (e6 makes e7-e4 with e8 and e3 free).

case("a three whose straight four would touch a stone beyond is still real on the other side", """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
X . . X 3 X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# Row d5 e5 f5: c5 would make c5-f5 whose five-point b5 joins a5 (six), so
# that is no straight four; but g5 makes d5-g5 with c5 and h5 both good
# five-points. Real three, plus the column: double-three.

case("the same with white on h5: the row is no three", """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
X . . X + X . O .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# Now g5 gives d5-g5 with h5 white: one five-point. c5 still overlines at b5.

case("white stones two points away kill the three", """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
O . X X + . O . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# O . X X X . O: b5 gives b5-e5 next to white a5, f5 gives c5-f5 next to
# white g5: one five-point either way. Only the column three counts.

case("control: one white stone away, the three is real", """
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . . X . . . .
O . X X 3 . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# f5 gives c5-f5 with b5 and g5 free: a straight four. Two threes.

case("double-four of two broken fours", """
. . . . . . . . .
. . . X . . . . .
. . . X . . . . .
. . . . . . . . .
X X . 4 X . . . .
. . . X . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# d5: row a5 b5 . d5 e5 (five at c5) and column d8 d7 . d5 d4 (five at d6).
# c5 itself makes the five a5-e5.

case("a line whose straight four would overline is no three", """
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . . X . . . . .
. X X + . . X . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# d5 makes b5-d5. e5 would give b5-e5, but its five-point f5 joins g5:
# six, so only a5 is a five-point; a5 would give a5-d5 against the edge.
# No straight four, no three: d5 has only the column three. Legal.

case("control: without g5 the row is a three", """
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . . X . . . . .
. X X 3 . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")

case("double-four in one line along the top edge", """
X + X 4 X + X . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# The edge does not bound a line that runs along it: d9 makes two fours.

case("at the top edge a column three is no three", """
. . X X + . . . .
. . . . X . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# e9: row c9-e9 is a three (f9 gives c9-f9, five-points b9 and g9); the
# column e9-e7 can only grow down into e9-e6, closed by the edge: no three.

case("one row lower the column three is real", """
. . . . . . . . .
. . X X 3 . . . .
. . . . X . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
# e8: e5 gives e8-e5 with e9 and e4 free. Two threes.

# ------------------------------------------- false threes (the recursive rule)
# In the next cases h8 would make a row three f8-h8 whose only straight-four
# point is i8 (white on d8 spoils e8), and an open column three h10-h8.
# The row three is real only if black may play i8 once h8 is on the board.
case("false three: its straight-four point is an overline", """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . X . . . . . .
. . . . . . . . X . . . . . .
. . . . . . . X X . . . . . .
. . . . . . . X X . . . . . .
. . . O . X X + 6 . . . . . .
. . . . . . . . X . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
""", full=False)
# i8 joins i12-i9 and i7: six. So f8-h8 is no three and h8 makes one three.

case("the same without i7: i8 makes a five, so the row is still no three", """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . X . . . . . .
. . . . . . . . X . . . . . .
. . . . . . . X X . . . . . .
. . . . . . . X X . . . . . .
. . . O . X X + + . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
""", full=False)
# i8 (with h8) would make the straight four f8-i8 and, at the same time, the
# five i12-i8. RIF: a three becomes a straight four "without at the same time
# making a five"; this one cannot, so h8 makes one three (the column): legal.

case("false three: its straight-four point is a double-four", """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . O . . . . . .
. . . . . . . . X . . . . . .
. . . . . . . X X . . . . . .
. . . . . . . X X . . . . . .
. . . O . X X + + . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
""", full=False)
# With h8 on the board, i8 would make the straight four f8-i8 and the closed
# four i11-i8 (i12 is white): two fours. So h8 makes one real three: legal.
# On the board as drawn, i8 is a four (column) and a split three: legal.

case("false three: its straight-four point is a double-three", """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X X . X . . . .
. . . . . . . X X X . . . . .
. . . O . X X + 3 . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
""", full=False)
# i8 makes threes in its column (i10-i8) and on its anti-diagonal (k10-i8):
# forbidden now, and still forbidden with h8 added (a four and two threes).
# So h8's row three is false and h8 is legal.

case("two levels deep: i7 is a double-four, so i8 is allowed, so h8 is double-three", """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . O . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X X . X . . . .
. . . . . . . X X X . . . . .
. . . O . X X 3 . . . . . . .
. . . . . . . . + . X X X . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
""", full=False)
# With h8 played, i8 makes the straight four f8-i8 (one four), the anti-
# diagonal three k10-i8, and the column three i10-i8, whose only
# straight-four point is i7 (i12 is white). With h8 and i8 played, i7 makes
# the straight four i10-i7 and the four i7 . k7 l7 m7 (five at j7): a
# double-four. So i8's column three is false, i8 is a four-three (legal),
# h8's row three is real, and h8 makes two threes.

case("two levels deep, flipped: without m7, i7 is allowed, i8 is double-three, h8 is legal", """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . O . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X X . X . . . .
. . . . . . . X X X . . . . .
. . . O . X X + . . . . . . .
. . . . . . . . + . X X . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
""", full=False)
# Without m7, i7 (after h8, i8) makes a straight four and i7 . k7 l7, no
# four: allowed. Then i8 makes a four and two real threes: forbidden, so
# h8's row three is false and h8 is legal.


# --------------------------------------------------------------------- tests
@pytest.mark.parametrize("name", sorted(CASES))
def test_hand_drawn_case_in_all_symmetries(name):
    diagram, full = CASES[name]
    check_in_all_symmetries(name, diagram, full)


def test_every_kind_and_the_recursion_are_covered():
    kinds = {kind for diagram, _ in CASES.values() for kind in parse_case(diagram)[1].values()}
    assert kinds == {None, "overline", "double-four", "double-three"}
    assert len(CASES) >= 40


def test_occupied_point_is_not_a_move_and_bad_boards_are_rejected():
    board, _ = parse_case(CASES["overline"][0])
    assert forbidden_kind(board, 4, 0) is None
    with pytest.raises(ValueError, match="off the"):
        forbidden_kind(board, 9, 0)
    with pytest.raises(ValueError, match="square"):
        forbidden_mask(np.zeros((9, 8), dtype=np.int8))
    with pytest.raises(ValueError, match="0 \\(empty\\), 1 \\(black\\) or 2"):
        forbidden_mask(np.full((9, 9), 3, dtype=np.int8))
    with pytest.raises(TypeError, match="integers"):
        forbidden_mask(np.zeros((9, 9), dtype=float))


def test_forbidden_mask_leaves_the_board_unchanged():
    board, _ = parse_case(CASES["two levels deep: i7 is a double-four, so i8 is allowed, so h8 is double-three"][0])
    before = board.copy()
    forbidden_mask(board)
    np.testing.assert_array_equal(board, before)


@pytest.mark.parametrize("seed", range(3))
def test_kernels_agree_with_the_reference_on_dense_random_boards(seed):
    """Random boards dense in black stones, so every kind and the recursion occur often."""
    rng = np.random.default_rng(seed)
    seen = set()
    for _ in range(150):
        n = int(rng.choice([7, 9, 11]))
        board = np.zeros((n, n), dtype=np.int8)
        cells = rng.permutation(n * n)
        blacks = int(rng.integers(6, n * n // 3))
        whites = int(rng.integers(0, n * n // 6))
        board.flat[cells[:blacks]] = 1
        board.flat[cells[blacks : blacks + whites]] = 2
        expected = reference_mask(board)
        np.testing.assert_array_equal(forbidden_mask(board), expected)
        for r, c in zip(*np.nonzero(expected)):
            kind = forbidden_kind(board, int(r), int(c))
            assert kind == reference_kind(board.copy(), int(r), int(c))
            seen.add(kind)
    assert seen == {"overline", "double-four", "double-three"}
