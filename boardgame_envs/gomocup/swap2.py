"""Gomocup's Swap2 extension, ``SWAP2BOARD``, in terms of the Swap2 game's actions: both ends of the bridge.

The manager sends ``SWAP2BOARD``, the stones laid so far (one ``x,y`` a line,
in the order laid: black, white, black, then white and black) and ``DONE``;
the brain answers one line (the text of the Gomocup 2020 and 2021
experimental tournaments; Rapfi answers the same way):

* **0 stones** (the brain is the first player): its three stones,
  ``x1,y1 x2,y2 x3,y3`` (black, white, black);
* **3 stones** (the brain is the second player): ``SWAP`` (it takes black; the
  other player, now white, plays the 4th stone), one point (it keeps white and
  that is its 4th stone), or two points ``x4,y4 x5,y5`` (one more white and one
  more black stone: the other player chooses the colour);
* **5 stones** (the brain is the first player again): ``SWAP`` (it takes
  black; the other plays the 6th stone as white) or one point (it takes white
  and that is its 6th stone).

So ``SWAP`` always means "I take the colour that has just moved", and a point
"I take the colour to move, and this is my move". In the actions of
:class:`~boardgame_envs.games.opening_game.OpeningRuleGame` under ``swap2``,
``SWAP`` is the decision ``black`` and one point is ``white`` followed by
that stone; two points are ``more`` followed by them.

Rapfi reads the stones as ``BOARD`` lines and drops a line without a field
(``ERROR Color is not a valid value``), so :func:`stone_lines` sends
``x,y,field`` with field 1 for black and 2 for white; :func:`read_stones`
(our brain) takes either form, since the colours follow from the order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.opening_game import OpeningRuleGame, OpeningState
from boardgame_envs.games.opening_rules import COLOUR, STONE, SWAP2
from boardgame_envs.games.protocol import IllegalMoveError
from boardgame_envs.gomocup.protocol import ProtocolError, clip, format_point, parse_point, printable, read_point

COMMAND = "SWAP2BOARD"
SWAP = "SWAP"
RULES = ("freestyle", "standard")  # Swap2 is a rule of gomoku; renju has its own opening rules
STONES_BY_CASE = (0, 3, 5)


def swap2_game(size: int, rule: str) -> OpeningRuleGame:
    """The Swap2 game on a ``size`` board under ``rule``; ValueError for renju."""
    if rule not in RULES:
        raise ValueError(f"{COMMAND} is for freestyle and standard gomoku (INFO rule 0 or 1), not {rule}")
    return OpeningRuleGame(MNKGame(size, 5, rule), "swap2")


def read_stones(lines: Sequence[str], size: int) -> list[int]:
    """The stones of ``SWAP2BOARD``'s lines (``x,y`` or ``x,y,field``), as actions in the order sent."""
    stones = []
    for line in lines:
        parts = line.split(",")
        if len(parts) == 3 and parts[2].strip() in ("1", "2", "3"):
            parts = parts[:2]  # a field, as BOARD lines carry: the order already says each stone's colour
        stones.append(parse_point(",".join(parts), size))
    if len(stones) not in STONES_BY_CASE:
        raise ProtocolError(f"{COMMAND} sends 0, 3 or 5 stones, got {len(stones)}")
    return stones


def opening_of(game: OpeningRuleGame, stones: Sequence[int]) -> OpeningState:
    """The Swap2 state ``SWAP2BOARD``'s stones describe: 3 stones await the second player's choice, 5 the first's.

    Raises ``IllegalMoveError`` (a ``ValueError``) if the stones cannot be laid so (a point twice).
    """
    actions: list[int | str] = list(stones)
    if len(stones) == 5:
        actions.insert(3, "more")
    return game.state_after(actions)


def stone_lines(state: OpeningState) -> list[str]:
    """What an engine is sent: ``SWAP2BOARD``, the opening's stones as ``x,y,field`` (1 black, 2 white), ``DONE``."""
    n = state.game.size
    stones = state.opening_stones()
    return [COMMAND, *(f"{format_point(a, n)},{1 if i % 2 == 0 else 2}" for i, a in enumerate(stones)), "DONE"]


def asks_engine(state: OpeningState) -> bool:
    """Whether ``state`` is where ``SWAP2BOARD`` asks the one to act: the empty board, the second player's choice
    after three stones, the first player's colour after five."""
    step = state.game.opening.steps[state.step] if state.in_opening else None
    if step is None:
        return False
    return (step.kind == STONE and state.base.num_moves == 0) or step.kind in (SWAP2, COLOUR)


def answer(state: OpeningState, decide: Callable[[Any], int]) -> tuple[str, OpeningState]:
    """The brain's answer in ``state`` (where :func:`asks_engine`), from ``decide(state) -> action``, and the state
    its actions lead to. ``decide`` is asked once per action (three stones, or a choice and its stones)."""
    if not asks_engine(state):
        raise ValueError(f"{COMMAND} asks at 0, 3 or 5 stones, not here: {state.describe_phase()}")
    game = state.game
    n = game.size
    state = state.clone()
    points: list[int] = []
    swapped = False

    def take() -> int:
        action = int(decide(state.clone()))
        reason = state.illegal_reason(action)
        if reason is not None:
            raise IllegalMoveError(f"the policy chose {action}: {reason}")
        state.play(action)
        return action

    if state.base.num_moves == 0:
        points = [take() for _ in range(3)]
    else:
        choice = game.action_name(take())
        if choice == "black":
            swapped = True
        elif choice == "white":
            points = [take()]  # our move, as the colour to move
        else:  # "more": one more white stone and one more black
            points = [take(), take()]
    text = SWAP if swapped else " ".join(format_point(a, n) for a in points)
    return text, state


def engine_actions(state: OpeningState, text: str) -> list[int]:
    """The Swap2 actions an engine's ``SWAP2BOARD`` answer ``text`` stands for in ``state`` (where
    :func:`asks_engine`), checked by the rules; ``ProtocolError`` if it is not an answer to this case,
    ``IllegalMoveError`` naming a point the rules refuse (off the board, taken)."""
    game = state.game
    n = game.size
    stones = state.base.num_moves
    words = text.split()
    shown = clip(printable(text.strip()))
    if len(words) == 1 and words[0].upper() == SWAP:
        if stones == 0:
            raise ProtocolError(f"'{SWAP}' answers 3 or 5 stones; on an empty board {COMMAND} wants three stones")
        actions = [game.parse_action("black")]
    else:
        try:
            xy = [read_point(w) for w in words]
        except ProtocolError:
            raise ProtocolError(f"'{shown}' is neither {SWAP} nor points 'x,y' separated by spaces") from None
        wanted = {0: "three points", 3: f"{SWAP}, one point or two", 5: f"{SWAP} or one point"}[stones]
        if len(xy) not in {0: (3,), 3: (1, 2), 5: (1,)}[stones]:
            raise ProtocolError(f"'{shown}' answers {COMMAND} with {stones} stones by {len(xy)} point(s); "
                                f"expected {wanted}")  # fmt: skip
        for x, y in xy:
            if not (0 <= x < n and 0 <= y < n):
                raise IllegalMoveError(f"{x},{y} is off the {n}x{n} board")
        points = [y * n + x for x, y in xy]
        decision = [] if stones == 0 else ["white"] if len(points) == 1 else ["more"]
        actions = [*(game.parse_action(d) for d in decision), *points]
    after = state.clone()
    for action in actions:
        reason = after.illegal_reason(action)
        if reason is not None:
            raise IllegalMoveError(f"{game.action_name(action)}: {reason}")
        after.play(action)
    return actions
