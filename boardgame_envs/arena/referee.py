"""One game under the arena's rules: the referee asks each policy for a move and plays it on its own state.

:func:`play_record` plays one game through the AEC API from an opening (or the
empty board) and returns its :class:`~boardgame_envs.arena.records.GameRecord`;
:func:`play_task` is the same for one game of a match, in a worker.

The referee's state changes only through the env's ``step``: each policy is
handed a **clone** of the state (``state.clone()``), and the action it returns
is checked and played on the referee's own state. A policy that writes on what
it was handed changes nothing but its copy, so every result is one the rules
produced.

Under a tournament opening rule (an env whose game is an
:class:`~boardgame_envs.games.opening_game.OpeningRuleGame`) the two policies
are the first and the second player; the rule's swaps decide who plays black,
and the record names them by the colours they ended with
(:attr:`GameRecord.black_seat` says which seat that was).

A policy that returns an illegal move, or raises
:class:`~boardgame_envs.policies.base.Forfeit` (an external engine's crash,
timeout or bad answer), loses that game; the record names the fault
(:attr:`GameRecord.fault`: ``"illegal move"``, ``"timeout"``, ``"crash"``,
``"bad answer"``, else ``"forfeit"``). A policy that raises anything else, or
``SystemExit``, stops the match with :class:`PolicyError`, naming the policy
and the position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardgame_envs.arena.backends import ArenaError
from boardgame_envs.arena.game_record import winner_by_fault
from boardgame_envs.arena.records import GameRecord, game_parameters
from boardgame_envs.games import opening_positions as opening_sets
from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.mnk import IllegalMoveError
from boardgame_envs.games.opening_game import OpeningRuleGame
from boardgame_envs.games.protocol import as_family
from boardgame_envs.policies.base import Forfeit
from boardgame_envs.policies.registry import make_policy, spec_name

COLOR_NAMES = {BLACK: "black", WHITE: "white"}


# The fault kinds of the Gomocup engine layer's exceptions, by class name, for exceptions
# that carry no ``kind`` attribute (keyed by name so that this module imports no engine code).
FAULT_KINDS = {
    "EngineTimeout": "timeout",
    "EngineCrashed": "crash",
    "EngineProtocolError": "bad answer",
    "EngineIllegalMove": "illegal move",
    "IllegalMoveError": "illegal move",
}


class PolicyError(ArenaError):
    """A policy raised instead of choosing a move; the message names the policy and the position."""


def fault_kind(exc: BaseException) -> str:
    """What kind of fault a :class:`Forfeit` is: its ``kind`` attribute, else its class's, else ``"forfeit"``."""
    kind = getattr(exc, "kind", None)
    if isinstance(kind, str) and kind:
        return kind
    for cls in type(exc).__mro__:
        if cls.__name__ in FAULT_KINDS:
            return FAULT_KINDS[cls.__name__]
    return "forfeit"


def play_record(
    env_fn: Callable[[], Any], black: Any, white: Any, names: tuple[str, str] = ("black", "white"),
    opening: Any = None,
) -> GameRecord:  # fmt: skip
    """One game through the AEC API from ``opening`` (or the empty board), as a :class:`GameRecord`.

    ``opening``: anything ``reset(options={"opening": ...})`` accepts (moves, a
    list of actions, an :class:`~boardgame_envs.games.opening_positions.Opening`, a built-in name).
    Under an opening rule ``black`` and ``white`` are the first and the second
    player (the rule decides their colours) and ``opening`` is a list of the
    game's actions, if given.

    Each policy acts on a clone of the state. An illegal move ends the game, lost by
    the policy that chose it (a raw env, which raises on illegal moves, raises
    :class:`IllegalMoveError`), and so does a
    :class:`~boardgame_envs.policies.base.Forfeit` (an external engine's fault);
    any other exception from a policy, ``SystemExit`` included, becomes a
    :class:`PolicyError`. A policy's ``glitches`` counter (an engine's recovered
    protocol glitches), where it has one, is read before and after the game into
    :attr:`GameRecord.glitches`.
    """
    env = env_fn()
    raw = env.unwrapped
    ruled = isinstance(raw.game, OpeningRuleGame)
    mnk = as_family(raw.game, "mnk") is not None
    if opening is not None and mnk:
        opening = opening_sets.as_opening(opening, raw.game.size)
    start = list(opening.moves) if isinstance(opening, opening_sets.Opening) and not mnk else opening
    env.reset(options={"opening": start} if start is not None else None)
    strict = env is raw  # a raw env raises on an illegal move; env()'s wrappers make it a loss
    game, state = raw.game, raw.game_state
    players = dict(zip(env.possible_agents, ((black, names[0]), (white, names[1]))))
    if mnk or ruled:
        rules = dict(board_size=game.size, rule=game.rule, win_length=game.win_length)
    else:
        rules = dict(board_size=0, rule="", game=game.name, parameters=game_parameters(game))
    record = GameRecord(
        **rules, black=names[0], white=names[1], moves=list(raw.moves), winner=0,
        opening=getattr(opening, "name", "") if opening is not None and not ruled else "",
        opening_moves=len(raw.moves), opening_rule=game.opening.name if ruled else "",
    )  # fmt: skip
    glitches_before = [_glitches(black), _glitches(white)]
    try:
        _play_out(env, state, players, record, strict)
    finally:
        record.glitches = (_glitches(black) - glitches_before[0], _glitches(white) - glitches_before[1])
        if ruled:
            _name_colours(record, state, names)
    return record


def _name_colours(record: GameRecord, state: Any, names: tuple[str, str]) -> None:
    """Under an opening rule: the record's players and winner by the colours the opening gave them."""
    record.opening_moves = len(state.actions)
    if state.black_player == 2:
        record.black, record.white = names[1], names[0]
        record.glitches = record.glitches[::-1]
    if not record.forfeit:
        record.winner = state.color_of(state.winner) if state.winner else 0


def _side(state: Any, player: int) -> str:
    """``player`` as messages name it: ``black``, or under an opening rule ``first player (black)``."""
    game = state.game
    if isinstance(game, OpeningRuleGame):
        return f"{game.player_name(player)} ({game.color_name(state.color_of(player))})"
    return game.player_name(player)


def _glitches(policy: Any) -> int:
    count = getattr(policy, "glitches", 0)
    return int(count) if isinstance(count, (int, np.integer)) and not isinstance(count, bool) else 0


def _play_out(env: Any, state: Any, players: dict[str, tuple[Any, str]], record: GameRecord, strict: bool) -> None:
    """Play ``env`` to the end from where it is, writing the moves and the result into ``record``."""
    game = state.game
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        policy, name = players[agent]
        color = _side(state, state.to_move)
        try:
            action = policy.act(state.clone())  # a copy: what a policy writes on it changes nothing here
        except Forfeit as exc:  # an engine that crashed, timed out or broke the rules: its loss
            kind = fault_kind(exc)
            record.winner, record.forfeit, record.fault = winner_by_fault(state), True, kind
            record.reason = f"{color} ({name}) forfeits ({kind}): {exc}"
            return
        except (Exception, SystemExit) as exc:  # SystemExit too: a policy does not get to end the match's process
            where = " ".join(game.action_name(a) for a in record.moves) or "the start"
            raise PolicyError(
                f"policy {name!r} ({color}) raised {type(exc).__name__}: {exc}; position after: {where}"
            ) from exc
        reason = state.illegal_reason(action)
        if reason is not None:
            if strict:
                raise IllegalMoveError(f"{color} ({name}) played an illegal move: {reason}")
            record.winner, record.forfeit = winner_by_fault(state), True
            record.fault = "illegal move"
            record.reason = f"{color} ({name}) played an illegal move and loses: {reason}"
            return
        record.moves.append(int(action))
        env.step(int(action))
    record.winner = int(state.winner)
    winner = _side(state, record.winner) if record.winner else ""
    if record.winner and hasattr(game, "win_length"):
        record.reason = f"{winner} makes {game.win_length} in a row"
    elif record.winner:
        record.reason = f"{winner} wins"
    elif not state.board.all():
        record.reason = f"draw: {_side(state, state.to_move)} has no legal move"
    else:
        record.reason = "draw: the board is full"


def play_game(env_fn: Callable[[], Any], first: Any, second: Any, opening: Any = None) -> tuple[int, list[int]]:
    """One game (from ``opening``, else the empty board); returns (winner seat: 1 first, 2 second, 0 draw; moves)."""
    record = play_record(env_fn, first, second, (spec_name(first), spec_name(second)), opening)
    if record.winner and record.black_seat == 2:  # an opening rule gave black to the second player
        return 3 - record.winner, record.moves
    return record.winner, record.moves


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play game ``index`` of a match."""

    index: int
    env_fn: Callable[[], Any]
    spec_a: Any
    spec_b: Any
    names: tuple[str, str]
    seed: int
    a_black: bool  # A is the first player: black, unless an opening rule's swaps decide otherwise
    opening: opening_sets.Opening | None


def play_task(task: GameTask) -> GameRecord:
    """Play one match game (in a worker): both policies built from seeds drawn from the game's seed."""
    rng = np.random.default_rng(task.seed)
    seed_a, seed_b = (int(s) for s in rng.integers(2**31, size=2))
    a, b = make_policy(task.spec_a, seed=seed_a), make_policy(task.spec_b, seed=seed_b)
    name_a, name_b = task.names
    try:
        if task.a_black:
            return play_record(task.env_fn, a, b, (name_a, name_b), task.opening)
        return play_record(task.env_fn, b, a, (name_b, name_a), task.opening)
    finally:
        close_policy(a)
        close_policy(b)


def close_policy(policy: Any) -> None:
    """End what a policy built for one game holds (an engine's process), if it has a ``close``."""
    close = getattr(policy, "close", None)
    if callable(close):
        close()
