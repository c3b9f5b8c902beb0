"""The five clause of the RIF three, on positions worked out by hand.

RIF (1996, 1998): a three is "a row with three stones to which you, without
at the same time a five in a row is made, can add one more stone to attain a
straight four". So a straight-four point Q of a three counts only if black
may play Q once the move is on the board (it is not forbidden) **and** Q
makes no five in any line; a three whose every straight-four point makes a
five is no three. The clause applies at every level of the recursion.

Each case is checked in its eight rotations and reflections (marks as in
``renju_diagrams.py``). ``HINGES`` names the cases whose answer turns on the
clause: the test below shows, with the slow reference referee, that dropping
the clause changes a marked answer there and changes none in the controls
(where the clause does not apply). Notation: column letter from the left,
row number from the bottom (on 11x11 ``f6`` is the centre, on 15x15 ``h8``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from renju_diagrams import check_in_all_symmetries, parse_case  # noqa: E402
from renju_reference import reference_kind  # noqa: E402

from boardgame_envs.games.notation import point_name  # noqa: E402

CASES: dict[str, tuple[str, bool]] = {}
HINGES: set[str] = set()


def case(name: str, diagram: str, full: bool = True, hinges: bool = True) -> None:
    CASES[name] = (diagram, full)
    if hinges:
        HINGES.add(name)


# ------------------------------------------- one level: the three's own point
case("the RIF example: h8 is legal, h7 is the one forbidden point", """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . + + X X . O . . .
. . . . . . X 3 . . . . . . .
. . . . . . X . . . . . . . .
. . . . . . X . . . . . . . .
. . . . . . X . . . . . . . .
. . . . . . O . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
""")
# h8: the column h8 h9 h10 is an open three. In row 8, white l8 leaves one
# straight four, g8-j8, so g8 is the row's only straight-four point; but g8
# also makes the five g8-g4 (g3 is white). The row is no three: h8 makes one
# three, legal. g8 itself makes a five: legal.
# h7: the split three h7 . h9 h10 (h8 makes h7-h10, h6 and h11 free) and the
# diagonal g6 h7 i8 (f5 or j9 make straight fours; neither makes a five):
# double-three.

case("one straight-four point, a five on the anti-diagonal", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. O . X X + + . . . .
. . . . 3 X . X . . .
. . . . . X 3 . X . .
. . . . . . . . . X .
. . . . . . . . . . X
. . . . . . . . . . .
""")
# f6: row d6 e6 f6; white b6 spoils c6-f6, so g6 (d6-g6, c6 and h6 free) is
# the only straight-four point, and g6 makes the five g6-k2 (f7 is empty, k2
# is at the edge). The row is no three; the column f4 f5 f6 is one (f7: no
# other pattern): legal. g6 makes a five: legal.
# e5: the split three e5 f5 . h5 (g5) and the diagonal d6 e5 f4: double-three.
# g4: the split three f4 g4 . i4 (h4) and the diagonal e6 f5 g4: double-three.

case("both straight-four points make fives: an open three is no three", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . + X X + + . . . .
. . X . . 3 X . . . .
. . X . . . X . . . .
. . X . . . X . . . .
. . X . . . X . . . .
. . . . . . . . . . .
""")
# f6: row d6 e6 f6 with both ends free. c6 makes c6-f6 straight, but also the
# five c6-c2; g6 makes d6-g6 straight, but also the five g6-g2. Every way to
# a straight four makes a five: no three. The column f6 f7 f8 is a three (f9
# is clean): one three, legal. c6 and g6 make fives: legal.
# f5: the split three f5 . f7 f8 (f6) and the diagonal e6 f5 g4: double-three.

case("a split three whose gap makes a five", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . X X + + . . . . .
. . . . X . . . . . .
. . . . X . . . . . .
. . . . X . . . . . .
. . . . X . . . . . .
. . . . . . . . . . .
""")
# f6: row c6 d6 . f6 becomes a straight four only at the gap, e6 (c6-f6, b6
# and g6 free), and e6 makes the five e6-e2. No three in the row; the column
# f6 f7 f8 is one: legal. Nothing else here is forbidden.

case("the single stone of a split three, the gap making a diagonal five", """
. . . . . . . . . . .
. . . . . . . . . . X
. . . . . . . . . X .
. . . . . X . . X . .
. . . . . X . X . . .
. . . . . + + X X . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""", full=False)
# f6: row f6 . h6 i6: only g6 makes the straight four f6-i6 (e6, j6 free),
# and g6 makes the five g6-k10 (f5 is empty). No three in the row; the
# column f6 f7 f8 is one (f9: no other pattern): legal.

case("a diagonal three whose straight-four point makes a row five", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . X . . . . . . .
. . . . X . + X X X X
. . . . . + . . . . .
. . . . X . . . . . .
. . . X . . . . . . .
. . . . . . . . . . .
. O . . . . . . . . .
. . . . . . . . . . .
""")
# f6: diagonal d4 e5 f6; white b2 spoils c3-f6, so g7 (d4-g7, c3 and h8
# free) is the only straight-four point, and g7 makes the five g7-k7 (f7 is
# empty). No three there; the anti-diagonal d8 e7 f6 is one (c9 and g5 are
# clean): legal. Nothing else here is forbidden.

case("a diagonal three whose straight-four point makes a diagonal five", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . + . . . .
. . . . . + . X . . .
. . . . X X . . X . .
. . . X . X . . . X .
. . . . . . . . . . X
. O . . . . . . . . .
. . . . . . . . . . .
""")
# f6: diagonal d4 e5 f6 as above; its only straight-four point g7 makes the
# five g7-k3 on the other diagonal (f8 is empty). The column f4 f5 f6 is a
# three (f7 is clean): one three, legal.

case("the straight-four point makes a five and an overline: the five counts", """
. . . . . . . . . . .
. . . . . . . . . . X
. . . . . . . . . X .
. . . . . . . . X . .
. . . . . . . X . . .
. O . X X + + . . . .
. . . . . X . X . . .
. . . . . X . . X . .
. . . . . . . . . X .
. . . . . . . . . . X
. . . . . . . . . . .
""", full=False)
# As "one straight-four point, a five on the anti-diagonal", plus h7-k10: g6
# now also joins f5-k10, six. A five beats an overline, so g6 is a winning
# move, and a five all the same: the row d6 e6 f6 is no three. f6: legal.

case("a three against the edge whose one straight-four point makes a five", """
. . . . . . . . . . .
. . . . X . . . . . .
. . . . X . . . . . .
. . . 3 + X X . . . .
X X X X + . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
""")
# e8: column e8 e9 e10 reaches row 10 of 11: e11 would make e8-e11 against
# the edge (one five-point), so e7 (e7-e10, e6 and e11 free) is the only
# straight-four point, and e7 makes the five a7-e7. No three; the row e8 f8
# g8 is one: legal. e7 makes a five: legal.
# d8: the split three d8 . f8 g8 (e8) and the diagonal c7 d8 e9: double-three.

case("three threes, two of them false by the clause: legal", """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . X . . . . . . . . . . .
. . . . X . . . X . . . . . .
. . . . . X . . X . . . . . .
. . . . . X X . X . . . . . .
. . . . . . X + X . . . . . .
. . . O . X X + + . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . O . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
""", full=False)
# h8: row f8 g8 h8 (white d8): only i8, which makes the five i8-i12. Column
# h6 h7 h8 (white h4): only h9, which makes the five h9-d13. Anti-diagonal
# f10 g9 h8: i7 makes f10-i7 straight and nothing else (its column would be
# i7 . i9-i12, whose completion i8 makes six: no four): a real three. One
# three: legal. i8 and h9 make fives: legal.

case("a four with a false three and a real three: a four-three, legal", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. O . X X + + . . . .
. . . . X X . X . . .
. . . X 3 X . . X . .
. . X . . . . . . X .
. . . . . . . . . . X
. . . . . . . . . . .
""")
# f6: the diagonal c3 d4 e5 f6 is a straight four (b2 and g7); the row
# d6 e6 f6 is no three (its only straight-four point g6 makes the five
# g6-k2); the column f4 f5 f6 is a three. A four and one three: legal.
# e4: the row d4 e4 f4 (c4 or g4) and the column e4 e5 e6 (e3 or e7), no
# five anywhere: double-three.

# ------------------------------------------------- deeper: nested completions
case("nested: i7 makes a five, so i8 is a four-three, so h8 is double-three", """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . O . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . X . . . . . .
. . . . . . . . X . . . . . .
. . . O . X X 3 . . . . . . .
. . . . . . . X + X . . . . .
. . . . . . . X . . X . . . .
. . . . . . X . . . . . . . .
. . . . . X . . . . . . . . .
. . . . X . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
""", full=False)
# h8: column h6 h7 h8 is a three (h5 makes h5-h8 and nothing else). Row f8
# g8 h8 (white d8): only i8. With h8 on the board, i8 makes the straight
# four f8-i8, the anti-diagonal three i8 j7 k6 (l5 is clean; h9 would be a
# double-four) and the column i8 i9 i10, whose only straight-four point is
# i7 (i12 is white). With h8 and i8 on the board, i7 makes the five i7-e3:
# the column is no three. So i8 is a four and one three, allowed; h8's row
# is a real three; h8 makes two: double-three. (Without the clause i8 would
# be a double-three and h8 legal.) i7 on the board as drawn: a five.

case("nested: the five at the second level runs through the first stone", """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . O . . . . . .
. . . . X . . . . . . . . . .
. . . . . X . . X . . . . . .
. . . . . . X . X . . . . . .
. . . O . X X 3 . . . . . . .
. . . . . . . X . X . . . . .
. . . . . . . X . . X . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
""", full=False)
# As the case above, but i7's five is i7 h8 g9 f10 e11, which needs h8: the
# five exists only once h8 is on the board. h8 itself makes the straight
# four h8-e11 (i7 and d12), the column three and the row three, which is
# real because i8 is then a four-three (its column three is false: i7 makes
# that five). A four and two threes: double-three.

# ---------------------------------------------- controls: the clause is silent
case("control: the straight-four point makes a three, not a five", """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . 3 3 X X . O . . .
. . . . . . X 3 . . . . . . .
. . . . . . X . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . O . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
""", hinges=False)
# The RIF example without g5 and g4: g8 (with h8) makes the straight four
# g8-j8 and the column three g6-g8: a four-three, allowed. The row is a
# three: h8 is a double-three. On the board as drawn g8 is itself a
# double-three (g8 . i8 j8 and g6-g8), and h7 is one as in the example.

case("control: the straight-four point makes a four, not a five", """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . + + X X . O . . .
. . . . . . X 3 . . . . . . .
. . . . . . X . . . . . . . .
. . . . . . X . . . . . . . .
. . . . . . O . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
""", hinges=False)
# White on g4 instead of g3: g8 (with h8) makes the straight four g8-j8 and
# the four g8-g5 (five at g9): a double-four, so the row is no three and h8
# is legal, by the old rule. g8 as drawn: a four and a split three, legal.

case("control: the would-be five is an overline", """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . 6 + X X . O . . .
. . . . . . X 3 . . . . . . .
. . . . . . X . . . . . . . .
. . . . . . X . . . . . . . .
. . . . . . X . . . . . . . .
. . . . . . X . . . . . . . .
. . . . . . 6 . . . . . . . .
. . . . . . . . . . . . . . .
""", hinges=False)
# Black g3 instead of white: g8 joins g7-g3, six: an overline, forbidden,
# so the row is no three and h8 is legal. g2 is an overline too.

case("control: a dead four is no five and no four", """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . O X . . . . . . .
. . . . . . + 3 X X . O . . .
. . . . . . X 3 . . . . . . .
. . . . . . X . . . . . . . .
. . . . . . X . . . . . . . .
. . . . . . O . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
""", hinges=False)
# Column g9 (white) . g7 g6 g5 g4 (white): g8 makes O X X X X O, which has
# no five-point at all. So g8 (with h8) makes one four, the row's straight
# four: allowed, no five. The row is a three: h8 is a double-three.

case("control: one straight-four point makes a five, the other does not", """
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . X . . . . .
. . . . . X . . . . .
. . + X X 3 + . . . .
. . . . . 3 X . . . .
. . . . . . X . . . .
. . . . . . X . . . .
. . . . . . X . . . .
. . . . . . . . . . .
""", hinges=False)
# f6: row d6 e6 f6 with both ends free: g6 makes the five g6-g2, but c6
# makes c6-f6 straight and nothing else: a real three. With the column
# f6 f7 f8: double-three. f5: f5 . f7 f8 and e6 f5 g4: double-three.


# --------------------------------------------------------------------- tests
@pytest.mark.parametrize("name", sorted(CASES))
def test_case_in_all_symmetries(name):
    diagram, full = CASES[name]
    check_in_all_symmetries(name, diagram, full)


@pytest.mark.parametrize("name", sorted(CASES))
def test_which_cases_turn_on_the_clause(name):
    """Dropping the clause from the reference changes a marked answer exactly in the hinging cases."""
    board, marks = parse_case(CASES[name][0])
    n = board.shape[0]
    changed = []
    for action, kind in marks.items():
        r, c = divmod(action, n)
        assert reference_kind(board, r, c) == kind, point_name(action, n)
        if reference_kind(board, r, c, five_clause=False) != kind:
            changed.append(point_name(action, n))
    assert bool(changed) == (name in HINGES), changed


def test_enough_cases_hinge_on_the_clause():
    assert len(HINGES) >= 12 and len(CASES) - len(HINGES) >= 4
