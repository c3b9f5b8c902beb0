"""Move-list records: a game SGF cannot hold (any catalog game other than m,n,k, such as connect four).

:func:`to_move_list` writes a :class:`~boardgame_envs.arena.game_record.GameRecord`
as ``key: value`` lines, ``game:`` first, then its ``parameters:`` where its catalog
entry declares some (``rows=3 columns=2``, as ``--param`` spells them), and the
moves in the game's own notation last; :func:`from_move_list` reads them back into the same record (the round trip),
replaying every move under the game's rules and holding the stated result to
them (:func:`~boardgame_envs.arena.game_record.check_result`: a ``result:`` the
moves contradict, a draw on an unfinished board, or a win there with no ``fault:``
line, is refused; ``result: *`` is a game with no result), and refuses anything else with a one-line
:class:`~boardgame_envs.arena.game_record.RecordError`.
"""

from __future__ import annotations

from typing import Any

from boardgame_envs.arena.game_record import GameRecord, RecordError, check_result, game_parameters, replay_moves
from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.parameters import assignments
from boardgame_envs.policies.registry import parse_value

__all__ = ["from_move_list", "to_move_list"]

_MOVE_LIST_KEYS = ("game", "parameters", "first", "second", "result", "reason", "fault", "opening", "opening moves", "moves")
_WINNERS = {"1-0": BLACK, "0-1": WHITE, "1/2-1/2": 0, "*": 0}  # "*": no result (PGN's mark), not a draw


def to_move_list(record: GameRecord) -> str:
    """A record of a game other than m,n,k as ``key: value`` lines (``game:`` first, ``moves:`` last)."""
    if not record.game:
        raise RecordError("an m,n,k game is written as SGF (to_sgf), not as a move list")
    lines = {"game": record.game, "parameters": _parameters_line(record.parameters), "first": record.black, "second": record.white, "result": record.result,
             "reason": record.reason, "fault": record.fault if record.forfeit else "", "opening": record.opening,
             "opening moves": str(record.opening_moves) if record.opening_moves else "",
             "moves": record.notation()}  # fmt: skip
    for key in ("first", "second", "reason", "opening"):
        if "\n" in lines[key] or "\r" in lines[key]:
            lines[key] = " ".join(lines[key].split())  # one line a value: a name cannot start a key
    return "".join(f"{key}: {value}\n" for key, value in lines.items() if value or key in ("first", "second", "moves"))


def _parameters_line(parameters: dict[str, Any]) -> str:
    """``rows=3 columns=2``, as ``--param`` spells them; a value that would not read back as itself is refused, so
    that what is written is the game that was played."""
    for key, value in parameters.items():
        text = str(value)
        if not key.isidentifier() or not text or text != " ".join(text.split()) or " " in text or parse_value(text) != value:
            raise RecordError(f"parameter {key}={value!r} cannot be written in a move list as KEY=VALUE")
    return " ".join(f"{key}={value}" for key, value in parameters.items())


def from_move_list(text: str) -> GameRecord:
    """The record :func:`to_move_list` wrote; a RecordError in one line for anything else."""
    values: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        key, colon, value = line.partition(":")
        key = key.strip()
        if not colon or key not in _MOVE_LIST_KEYS:
            raise RecordError(f"line {number}: expected 'key: value' with a key among {', '.join(_MOVE_LIST_KEYS)}")
        if key in values:
            raise RecordError(f"line {number}: {key!r} given twice")
        values[key] = value.strip()
    for key in ("game", "result", "moves"):
        if key not in values:
            raise RecordError(f"a move-list record needs a {key!r} line")
    from boardgame_envs.games.catalog import game_info

    try:
        parameters = {key: parse_value(value) for key, value in assignments(values.get("parameters", "").split(),
                                                                            "parameters:").items()}  # fmt: skip
        game = game_info(values["game"]).game(**parameters)  # an unknown parameter, a value off its choices: refused
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    if values["result"] not in _WINNERS:
        raise RecordError(f"result must be one of {', '.join(_WINNERS)}, got {values['result'][:20]!r}")
    moves = []
    for i, name in enumerate(values["moves"].split(), start=1):
        try:
            moves.append(game.parse_action(name))
        except ValueError as exc:
            raise RecordError(f"move {i}: {exc}") from None
    state = replay_moves(game, moves)  # every move checked by the rules, none after the end
    opening_moves = values.get("opening moves", "0")
    if not opening_moves.isdigit() or int(opening_moves) > len(moves):
        raise RecordError(f"opening moves must be a count of at most {len(moves)} moves, got {opening_moves[:20]!r}")
    fault = values.get("fault", "")
    record = GameRecord(board_size=0, rule="", black=values.get("first", ""), white=values.get("second", ""),
                        moves=moves, winner=_WINNERS[values["result"]], opening=values.get("opening", ""),
                        opening_moves=int(opening_moves), forfeit=bool(fault), reason=values.get("reason", ""),
                        fault=fault, game=game.name, parameters=game_parameters(game),
                        finished=values["result"] != "*")  # fmt: skip
    check_result(record, state)  # the stated result, held to the moves
    return record
