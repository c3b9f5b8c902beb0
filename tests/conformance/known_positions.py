"""The authors' known positions: what each game's rules say of a few positions, written by hand from the rules.

The kit's generic checks cannot tell a game whose winner is inverted, or whose
extra turn is missing, from the right one: such a game is consistent with
itself. Its author can: a few positions, each reached by moves in the game's own
notation, with what the rules say there (docs/games.md, "Known positions").
``tests/conformance/test_known_positions.py`` plays every one on the catalog
game (its default variant) and checks each stated fact; every catalog game and
test game must have some, among them a finished game and a position with the
player to move or the legal moves, and, for each action that is no cell (a
pass, a swap), a position where it is forced and one where it is illegal: the
slips of a pass (a game that ends where a player should pass, a turn skipped
without one) show only there. A fact left None is not checked.

- ``to_move``: the player to move (1 or 2): after a move that earns another turn, the same player;
- ``legal``: every legal move, by name (any order), or ``illegal``: names that must not be legal;
- ``outcome``: the returns of a finished game (the position must be over);
- ``value``: what the player to move gets with best play (+1, 0, -1, or the margin), which the kit's exact
  minimax (tests/conformance/exact.py) and the package's alpha-beta must both find: small games, or positions
  with few moves left;
- ``parameters``: the variant the position is played on, by the entry's declared parameters
  (``{"size": 4}``: a small board, where a finished game is a few moves long); none: the default game.

:data:`ALWAYS_LEGAL` names the other actions a game allows in every position that goes on (tic-tac-toe with
a pass): the kit checks that claim along random games instead of asking for a position where it is forced.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Known:
    """One position the author knows, and what the rules say of it."""

    moves: str  # from the start, in the game's notation, separated by spaces
    to_move: int | None = None
    legal: str | None = None
    illegal: str = ""
    outcome: tuple[float, float] | None = None
    value: float | None = None
    note: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)


KNOWN: dict[str, list[Known]] = {
    # Row 1 at the bottom; X (player 1) first.
    "tictactoe": [
        Known("a1 a2 b1 b2 c1", outcome=(1.0, -1.0), note="X completes the bottom row"),
        Known("b2 a1 c1 a3 a2 c2 b1 b3 c3", outcome=(0.0, 0.0), note="a full board without a line"),
        Known("b2 a1", to_move=1, legal="a2 a3 b1 b3 c1 c2 c3"),
        Known("a1 b2 c3 a3 c1", to_move=2, value=-1, note="X threatens b1 and c2; O cannot stop both"),
        Known("", value=0, note="tic-tac-toe is a draw"),
    ],
    # Red (player 1) first; column a full after six pieces.
    "connect_four": [
        Known("a b a b a b a", outcome=(1.0, -1.0), note="red's four in column a"),
        Known("a a a a a a", to_move=1, legal="b c d e f g", note="column a is full"),
        Known("d d c c b b", to_move=1, legal="a b c d e f g", note="red to move, three on the bottom row"),
    ],
    # 15x15 under renju (the entries' default): black (player 1) first.
    "gomoku": [
        Known("h8 a1 i8 a2 j8 a3 k8 a4 l8", outcome=(1.0, -1.0), note="black's five h8-l8"),
        Known("g8 a1 h8 a15 i9 o1 i10 o15", to_move=1, illegal="i8", note="i8 makes two open threes: forbidden"),
    ],
    "renju": [
        Known("h8 a1 i8 a2 j8 a3 k8 a4 l8", outcome=(1.0, -1.0), note="black's five h8-l8"),
        Known("g8 a1 h8 a15 i9 o1 i10 o15", to_move=1, illegal="i8", note="i8 makes two open threes: forbidden"),
        Known("g8 a1 h8 a15 i9 o1 i10 o15 j8", to_move=2, note="j8, a single three, is allowed"),
    ],
    # Misère tic-tac-toe: row 1 at the top; whoever makes three in a row LOSES.
    "avoid_three": [
        Known("a1 a2 b1 b2 c1", outcome=(-1.0, 1.0), note="X makes the top row and loses"),
        Known("a1 a2 b1 b2 c3 a3", to_move=1, legal="c1 c2 b3", value=1,
              note="X b3 leaves O only moves that make three (c1: a3-b2-c1, c2: a2-b2-c2)"),  # fmt: skip
        Known("", value=0, note="misère tic-tac-toe is a draw"),
    ],
    # Tic-tac-toe with a pass: row 1 at the bottom; two passes running draw.
    "place_or_pass": [
        Known("pass pass", outcome=(0.0, 0.0), note="two passes running"),
        Known("a1 pass b1 pass c1", outcome=(1.0, -1.0), note="black's bottom row, white passing"),
        Known("b2 pass", to_move=1, legal="a1 a2 a3 b1 b3 c1 c2 c3 pass"),
        Known("a1 b2 c1 pass", to_move=1, value=1, note="black completes the bottom row at b1"),
    ],
    # Keep apart (tests/games/keep_apart.py), on 4x4 unless said: row 1 at the bottom; black (player 1) starts on
    # b2 and c3, white on b3 and c2. A cell beside an opponent's stone is closed to a player; no open cell: pass.
    "keep_apart": [
        Known("", to_move=1, illegal="pass", note="10x10: black has open cells, so no pass"),
        Known("", to_move=1, legal="a4 c4 d4 d3 a2 a1 b1 d1", parameters={"size": 4},
              note="b4 and a3 touch white's b3, c1 and d2 white's c2; no pass"),  # fmt: skip
        Known("b1 d4 a2 a4 a1 d1", to_move=1, legal="pass", parameters={"size": 4},
              note="every empty cell touches a white stone: black must pass"),  # fmt: skip
        Known("b1 d4 a2 a4 a1 d1 pass", to_move=2, legal="b4 d2", value=1, parameters={"size": 4},
              note="one pass does not end the game; white lays both, 7 stones to 5"),  # fmt: skip
        Known("b1 d4 a2 a4 a1 d1 pass d2 pass b4 pass pass", outcome=(-1.0, 1.0), parameters={"size": 4},
              note="white's 7 stones to black's 5"),  # fmt: skip
        Known("b1 b4 d3 a3 a1 d1 d4 a4", to_move=1, legal="pass", parameters={"size": 4},
              note="a2, c1, d2 and c4 each touch both colours: nobody can move, black passes first"),  # fmt: skip
        Known("b1 b4 d3 a3 a1 d1 d4 a4 pass", to_move=2, legal="pass", parameters={"size": 4}),
        Known("b1 b4 d3 a3 a1 d1 d4 a4 pass pass", outcome=(0.0, 0.0), parameters={"size": 4},
              note="6 stones each: a draw"),  # fmt: skip
    ],
    # 2x2 dots and boxes: the grid's cells, row 1 at the top; the top-left box is b2 (sides b1, a2, c2, b3).
    "dots_and_boxes": [
        Known("b1 a2 c2 b3", to_move=2, legal="d1 e2 d3 a4 c4 e4 b5 d5",
              note="B's b3 closes the top-left box, so B draws again"),  # fmt: skip
        Known("b1 d1 b5 d5 a2 e2 a4 e4 c2 b3 d3 c4", outcome=(-1.0, 1.0),
              note="B takes b3 and d3 (a box each) and c4 (the last two): 4-0"),  # fmt: skip
        Known("b1 d1 b5 d5 a2 e2 a4 e4 c2", to_move=2, legal="b3 d3 c4", value=1,
              note="B takes b3 and d3 first, then c4 closes the last two; c4 first would hand A all four"),  # fmt: skip
    ],
}

# Catalog name -> the names of the actions that are no cell which the game allows in every position that goes on.
ALWAYS_LEGAL: dict[str, tuple[str, ...]] = {
    "place_or_pass": ("pass",),  # a player may pass at any time
}
