"""Positions drawn for the threat-aware search's tests (tests/policies, tests/alphazero): ``X`` black, ``O``
white, ``.`` empty, row 0 on top; each comment says what the side to move must see."""

from __future__ import annotations


def at(row: int, col: int, n: int = 9) -> int:
    """The action of the point on ``row`` (0 on top, as drawn), ``col`` of an ``n`` x ``n`` board; the comments
    name points as the game does (rows counted from the bottom: row 2 of 9 is 7)."""
    return row * n + col


# White's four (c7-f7) is open at g7 alone; black, to move, must take it. The decoy: c2.
FOUR_TO_BLOCK = """
    . . . . . . . . .
    . . . . . . . . .
    . X O O O O . . .
    . . . . . . . . .
    . . . . X . . . .
    . . . . . X . . .
    . . . . . . X . .
    . . . . . . . . .
    . . . . . . . . .
"""

# Black wins at b6 (or b1) at once, though white's four asks for g7 too. The decoy: g7, the block.
WIN_BESIDE_A_BLOCK = """
    . . . . . . . . .
    . . . . . . . . .
    . X O O O O . . .
    . . . . . . . . .
    . X . . . . . . .
    . X . . . . . . .
    . X . . . . . . .
    . X . . . . . . .
    . . . . . . . . .
"""

# Black wins by three fours: e8 (white must take f8), d5 (white must take e6), d7, an open four on the d file.
# No move of black's wins at once and white threatens nothing. The decoy: e5.
VCF_IN_THREE = """
    . . . . . . . X .
    . . . X . . X X .
    . . . . . X . . .
    . . . X . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . O . . . . O .
    . . . . O . . . .
    O . . O . . O . .
"""

# Renju, white to move. White h9 makes a four (h9 . f7 e6 d5) whose one point g8 is a double-three for
# black (g10-g9 and e8-f8 with g8): a forbidden block is no block, so h9 wins. The decoy: a15.
FORBIDDEN_BLOCK = """
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . X . . . . . . . .
    . . . . . . X . . . . . . . .
    . . . . X X . . . . . . . . .
    . . . . . O . . . . . . . . .
    . . . . O . . . . . . . . . .
    . . . O . . . . . . . . . . .
    . . X . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . O .
    . . . . . . . . . . . . . . .
"""
