"""Positions drawn for the threat-aware search's tests (tests/policies, tests/alphazero): ``X`` black, ``O``
white, ``.`` empty, row 0 on top; each comment says what the side to move must see."""

from __future__ import annotations


def at(row: int, col: int, n: int = 9) -> int:
    """The action of the point on ``row``, ``col`` of an ``n`` x ``n`` board."""
    return row * n + col


# White's four (c3-f3) stops at g3; black, to move, must take it. The decoy: c8.
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

# Black wins at b4 (or b9) at once, though white's four asks for g3 too. The decoy: g3, the block.
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

# Black wins by three fours: e2 (white must take f2), d5 (white must take e4), d3, an open four on the d file.
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

# Renju, white to move. White h7 makes a four (h7 . f9 e10 d11) whose one point g8 is a double-three for
# black (g6-g7 and e8-f8 with g8): a forbidden block is no block, so h7 wins. The decoy: a1.
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
