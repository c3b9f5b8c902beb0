"""SGF of games played under a tournament opening rule (Soosõrv, Taraguchi, RIF, Swap2): one node per action.

An opening rule's game has actions that are not stones (swaps, the number of
offers, Swap2's colour choices, fifth-move offers), so its record keeps every
action of the game, in order, one node each, and reads back into the same game
(``OpeningRuleGame.state_after`` of its actions). The root names the rule in
``OR[soosorv8]``; the nodes are:

* ``B[hh]`` / ``W[hg]``: a stone of that colour (the opening's stones, the
  chosen fifth move, then normal play), which any gomoku viewer shows;
* ``OD[swap]``: an opening decision (``swap``, ``keep``, ``offers=K``,
  ``black``, ``white``, ``more``), a private property viewers skip;
* ``OF[gf]``: a fifth-move offer; ``MA`` on the same node marks every point
  offered so far, so that a viewer shows the offers as marks.

``PB``/``PW`` name whoever held black and white once the opening had decided,
``RE`` the winning colour, as in any record; which seat (first or second
player) each was follows from the actions. ``ON`` repeats the opening's actions
in words (``swap2: h8 h9 j9 more h10 g9 white``) for viewers that show it.
:func:`nodes_of` writes the nodes, :func:`actions_of` reads them back, checking
every action against the rules (a :class:`~boardgame_envs.arena.game_record.RecordError`
names the first one the rules refuse).
"""

from __future__ import annotations

from typing import Any

from boardgame_envs.games.lines import BLACK
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.opening_game import OpeningRuleGame
from boardgame_envs.games.opening_rules import OFFER

DECISION, OFFERED, MARKS = "OD", "OF", "MA"  # the node properties an opening rule adds


class OpeningRecordError(ValueError):
    """An opening-rule record the rules refuse; :mod:`~boardgame_envs.arena.sgf` turns it into a RecordError."""


def opening_game(board_size: int, win_length: int, rule: str, opening_rule: str) -> OpeningRuleGame:
    """The game a record names; :class:`OpeningRecordError` if the rule cannot be played there."""
    try:
        return OpeningRuleGame(MNKGame(board_size, win_length, rule), opening_rule)
    except (ValueError, TypeError) as exc:
        raise OpeningRecordError(f"OR[{opening_rule}] on {board_size}x{board_size} {rule}: {exc}") from None


def _point(action: int, n: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[action % n] + letters[action // n]


def replay(game: OpeningRuleGame, actions: list[int]) -> Any:
    """The state after ``actions``; :class:`OpeningRecordError` naming the first action the rules refuse."""
    try:
        return game.state_after(actions)
    except ValueError as exc:
        raise OpeningRecordError(str(exc)) from None


def nodes_of(game: OpeningRuleGame, actions: list[int]) -> list[str]:
    """One SGF node (without its ``;``) per action, as the module docstring says."""
    n = game.size
    state = game.new_state()
    nodes = []
    for number, action in enumerate(actions, 1):
        reason = state.illegal_reason(action)
        if reason is not None:
            raise OpeningRecordError(f"action {number} ({action!r}): {reason}")
        if action >= game.points:
            nodes.append(f"{DECISION}[{game.action_name(action)}]")
        elif state.phase == OFFER:
            marks = "".join(f"[{_point(a, n)}]" for a in (*state.offers, action))
            nodes.append(f"{OFFERED}[{_point(action, n)}]{MARKS}{marks}")
        else:
            nodes.append(f"{'B' if state.base.to_move == BLACK else 'W'}[{_point(action, n)}]")
        state.play(action)
    return nodes


def actions_of(game: OpeningRuleGame, nodes: list[dict[str, list[str]]], point: Any) -> list[int]:
    """The actions of ``nodes`` (the root's setup properties aside), checked against the rules as they are played.

    ``point(text)`` reads an SGF point as an action. A node holds one of ``B``,
    ``W``, ``OD``, ``OF``; a stone's colour must be the colour to lay the next
    stone, an offer must come in an offer phase, a decision must be the rule's.
    """
    state = game.new_state()
    actions: list[int] = []
    for number, node in enumerate(nodes, 1):
        kinds = [k for k in ("B", "W", DECISION, OFFERED) if k in node]
        if not kinds:
            continue  # a node with comments or marks only
        if len(kinds) > 1:
            raise OpeningRecordError(f"node {number} holds {' and '.join(kinds)}; one action a node")
        kind = kinds[0]
        values = node[kind]
        if len(values) != 1:
            raise OpeningRecordError(f"{kind} in node {number} has {len(values)} values; it takes one")
        text = values[0]
        if kind == DECISION:
            if text.strip().lower() not in game.decisions:
                raise OpeningRecordError(f"OD[{text[:20]}] in node {number} is not a decision of {game.opening.name} "
                                         f"({', '.join(game.decisions)})")  # fmt: skip
            action = game.parse_action(text)
        else:
            action = point(text)
            offering = state.in_opening and state.phase == OFFER
            if kind == OFFERED and not offering:
                raise OpeningRecordError(f"node {number} offers a fifth move (OF) outside an offer phase: "
                                         f"{state.describe_phase()}")  # fmt: skip
            if kind != OFFERED:
                if offering:
                    raise OpeningRecordError(f"node {number} lays a stone ({kind}) where a fifth move is offered (OF)")
                expected = "B" if state.base.to_move == BLACK else "W"
                if kind != expected:
                    raise OpeningRecordError(f"node {number} lays a {kind} stone, but the next stone is {expected}'s")
        reason = state.illegal_reason(action)
        if reason is not None:
            raise OpeningRecordError(f"action {len(actions) + 1} (node {number}) cannot be played: {reason}")
        state.play(action)
        actions.append(action)
    return actions
