"""What both ends of the Gomocup ("piskvork", ``pbrain-*``) protocol share: points, rules, move orders.

The protocol names a point ``x,y``: ``x`` the column, ``y`` the row, both from 0, row 0 at
the top. Our action for that point is ``y * N + x`` (:mod:`boardgame_envs.gomoku_v0`), and
its renju-notation name is column letter ``"abc..."[x]`` with rank ``N - y``
(:mod:`boardgame_envs.games.notation`): on 15x15, ``7,7`` is action 112, ``h8``; ``0,0`` is
``a15``, the top-left corner.

``INFO rule`` is a bitmask: 1 exactly five in a row wins, 2 continuous game, 4 renju.
We map it to our rules as :func:`rule_from_bits` says; :data:`RULE_BITS` is the way back.

The ``BOARD`` command sends the stones of a position, which carry no move numbers.
:func:`legal_order` finds an order in which our rules let the two players have played
them (black first, colours alternating, no five before the last stone, under renju no
forbidden point for black), so that either end can rebuild the position move by move.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from boardgame_envs.games.lines import BLACK, WHITE, opponent
from boardgame_envs.games.mnk import GameState, MNKGame

#: ``INFO rule`` values we send for each of our rules.
RULE_BITS = {"freestyle": 0, "standard": 1, "renju": 4}
EXACT_FIVE, CONTINUOUS, RENJU = 1, 2, 4
#: How many placements :func:`legal_order` tries before it gives up.
ORDER_BUDGET = 20_000

_POINT = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


class ProtocolError(ValueError):
    """A protocol line that cannot be read (a malformed point, rule or field)."""


def rule_from_bits(bits: int) -> tuple[str, int]:
    """Our rule for an ``INFO rule`` bitmask, and the bits of it we cannot play (0 if none).

    Renju (4) wins over exactly-five (1), which wins over freestyle (0). Every other bit
    (2, the continuous game, in which play goes on after a five; any bit above 4) is
    unsupported: the caller plays the rule returned and says so.
    """
    if bits < 0:
        raise ProtocolError(f"rule must be a non-negative bitmask, got {bits}")
    rule = "renju" if bits & RENJU else "standard" if bits & EXACT_FIVE else "freestyle"
    return rule, bits & ~(EXACT_FIVE | RENJU)


def format_point(action: int, n: int) -> str:
    """``"x,y"`` of ``action`` on an ``n x n`` board (column first)."""
    y, x = divmod(int(action), n)
    return f"{x},{y}"


def read_point(text: str) -> tuple[int, int]:
    """``(x, y)`` of ``"x,y"``, whatever their range; :class:`ProtocolError` if ``text`` is not two integers."""
    match = _POINT.match(text)
    if match is None:
        raise ProtocolError(f"expected a point 'x,y' (two integers), got {text.strip()!r}")
    return int(match.group(1)), int(match.group(2))


def parse_point(text: str, n: int) -> int:
    """The action of ``"x,y"`` on an ``n x n`` board; :class:`ProtocolError` if malformed or off the board."""
    x, y = read_point(text)
    if not (0 <= x < n and 0 <= y < n):
        raise ProtocolError(f"{x},{y} is off the {n}x{n} board: x and y must be in 0..{n - 1}")
    return y * n + x


def legal_order(
    game: MNKGame, black: Sequence[int], white: Sequence[int], last: int | None = None, budget: int = ORDER_BUDGET
) -> list[int]:
    """The stones ``black`` and ``white`` in an order our rules accept, as actions, black first.

    The order given within each colour is tried first, so a position sent in move order
    comes back unchanged; otherwise a depth-first search looks for another. ``last``, if
    given, is played last. The position reached must not be over (nobody has won, the
    board is not full). Raises ``ValueError`` naming the problem when there is no such
    order, or none is found within ``budget`` placements.
    """
    black, white = [int(a) for a in black], [int(a) for a in white]
    if not (len(black) == len(white) or len(black) == len(white) + 1):
        raise ValueError(f"black must have as many stones as white or one more; got {len(black)} and {len(white)}")
    stones = black + white
    if len(set(stones)) != len(stones):
        raise ValueError("a point holds two stones")
    if any(not 0 <= a < game.num_actions for a in stones):
        raise ValueError(f"a stone lies off the {game.size}x{game.size} board")
    if last is not None and last not in stones:
        raise ValueError("the last move is not one of the stones")
    total = len(stones)
    tries = [0]
    failed: set[frozenset[int]] = set()  # sets of placed stones from which no order finishes

    def extend(state: GameState, left: dict[int, list[int]], placed: frozenset[int]) -> list[int] | None:
        if state.num_moves == total:
            return []
        if placed in failed:
            return None
        color = state.to_move
        pool = left[color]
        for i, action in enumerate(pool):
            if action == last and state.num_moves < total - 1:
                continue
            tries[0] += 1
            if tries[0] > budget:
                raise ValueError(f"no legal move order found within {budget} placements")
            if state.illegal_reason(action) is not None:
                continue
            child = state.clone()
            child._place(action)
            if child.terminal:
                continue  # a five (or a full board) before the position is reached
            other = opponent(color)
            rest = extend(child, {color: pool[:i] + pool[i + 1 :], other: left[other]}, placed | {action})
            if rest is not None:
                return [action, *rest]
        failed.add(placed)
        return None

    order = extend(game.new_state(), {BLACK: black, WHITE: white}, frozenset())
    if order is None:
        raise ValueError("these stones cannot arise in a game under these rules with the game still going")
    return order
