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

Bounds, checked before anything is parsed: a line is at most :data:`MAX_LINE_BYTES`, a
coordinate at most :data:`MAX_DIGITS` digits (Python's ``int`` refuses 4,301 digits with
a ``ValueError`` of its own, and no board needs more than two). Text from the other end
that we print (names, ``MESSAGE`` lines, echoes in errors) goes through :func:`printable`
and :func:`clip`, so it cannot drive a terminal or fill a screen.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from boardgame_envs.games.lines import BLACK, WHITE, opponent
from boardgame_envs.games.mnk import MNKGame, MNKState

#: ``INFO rule`` values we send for each of our rules.
RULE_BITS = {"freestyle": 0, "standard": 1, "renju": 4}
EXACT_FIVE, CONTINUOUS, RENJU = 1, 2, 4
#: How many placements :func:`legal_order` tries before it gives up.
ORDER_BUDGET = 20_000

#: The longest protocol line either end accepts (a BOARD line or a move is a dozen bytes).
MAX_LINE_BYTES = 65_536
#: The most digits a number in a protocol field may have.
MAX_DIGITS = 9
CLIP_CHARS = 80  # how much of a bad field an error message quotes

_NUMBER = rf"-?\d{{1,{MAX_DIGITS}}}"
_POINT = re.compile(rf"^\s*({_NUMBER})\s*,\s*({_NUMBER})\s*$")
_INTEGER = re.compile(rf"^\s*{_NUMBER}\s*$")
_ANY_INTEGER = re.compile(r"^\s*([+-]?)0*(\d+)\s*$")
_EXACT_DIGITS = 18  # a clamped integer with more digits than this is past any bound it is clamped to
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class ProtocolError(ValueError):
    """A protocol line that cannot be read (a malformed point, rule or field)."""


def printable(text: str) -> str:
    """``text`` with control characters (ESC, BEL, C1 codes, NUL, ...) escaped as ``\\xNN``: safe to print."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def clip(text: str, limit: int = CLIP_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def read_int(text: str, what: str) -> int:
    """The integer in ``text`` (at most :data:`MAX_DIGITS` digits); :class:`ProtocolError` naming ``what`` if not."""
    if _INTEGER.match(text) is None:
        shown = clip(printable(text.strip()))
        raise ProtocolError(f"{what} needs an integer of at most {MAX_DIGITS} digits, got '{shown}'")
    return int(text)


def clamped_int(text: str, what: str, low: int, high: int) -> int:
    """The integer in ``text`` (any number of digits) clamped to ``low..high``; :class:`ProtocolError` if not one.

    For values whose size is the sender's business (``INFO`` times and memory), where a
    refusal would be an answer the protocol does not expect; ``high`` has at most 18 digits.
    """
    match = _ANY_INTEGER.match(text)
    if match is None:
        raise ProtocolError(f"{what} needs an integer, got '{clip(printable(text.strip()))}'")
    sign, digits = match.groups()
    if len(digits) > _EXACT_DIGITS:  # never handed to int(): past every bound, and int() refuses 4,301 digits
        return low if sign == "-" else high
    return min(max(int(sign + digits), low), high)


_INFO_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_INFO_VALUE = re.compile(r"^[A-Za-z0-9_.+-]{1,64}$")
#: ``pbrain:`` spec options that become engine INFO lines (the names Rapfi and Yixin-Board read).
OPTION_KEYS = {"nodes": "MAX_NODE", "depth": "MAX_DEPTH", "threads": "THREAD_NUM"}


def info_lines(info: dict[str, Any]) -> list[str]:
    """``INFO KEY VALUE`` lines for ``info``; ValueError for a key or value that is not one plain word."""
    lines = []
    for key, value in info.items():
        text = str(value).lower() if isinstance(value, bool) else str(value)
        if not isinstance(key, str) or _INFO_KEY.match(key) is None:
            raise ValueError(f"INFO key {key!r}: expected letters, digits and _ (at most 64)")
        if _INFO_VALUE.match(text) is None:
            raise ValueError(f"INFO {key} value {value!r}: expected one word of letters, digits, _ . + -")
        lines.append(f"INFO {key} {text}")
    return lines


def echoes(answer: str, line: str) -> bool:
    """Whether ``answer`` quotes an argument of our ``line`` (what an engine says when it lost the command word)."""
    word, _, rest = line.partition(" ")
    fields = rest.split() if rest else ([] if word.isalpha() and word.upper() != "DONE" else [word])
    upper = answer.upper()
    return any(re.search(rf"(?<![\w,]){re.escape(f.upper())}(?![\w,])", upper) for f in fields)


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
        raise ProtocolError(f"expected a point 'x,y' (two integers), got '{clip(printable(text.strip()))}'")
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

    def extend(state: MNKState, left: dict[int, list[int]], placed: frozenset[int]) -> list[int] | None:
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
