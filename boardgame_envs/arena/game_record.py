"""The game record: the whole story of one game, what was played, by whom, from which opening, and how it ended.

A :class:`GameRecord` is a plain value (two records of the same game compare equal); how it is
written is the business of its formats, :mod:`~boardgame_envs.arena.sgf` for m,n,k games and
:mod:`~boardgame_envs.arena.move_list_records` for any other, and of
:mod:`~boardgame_envs.arena.records` for files. Its moves replay under the rules
(:meth:`GameRecord.state`), and :func:`piskvork_moves` gives its stones as Gomocup tools hand
them to engines. Every error a record's reader or writer raises is a :class:`RecordError`.

A record read from a file is believed only as far as its moves bear it out: the readers replay
the moves under the rules (:func:`replay_moves`, which refuses a move after the end) and
:func:`check_result` holds the stated result to them. Where the moves reach an end, the stated
winner (or draw) must be the rules'; where they stop before it, a win needs a forfeit
(``forfeit``: a fault, a resignation, a loss on time) to say why the game stopped. A draw is the rules' alone
(a full board, no move left): a game stopped before its end with no winner has no result
(:attr:`GameRecord.finished` False; SGF without ``RE``, ``RE[?]``, ``RE[Void]``; a move list's ``result: *``), which
no score counts (:meth:`GameRecord.points` refuses it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from boardgame_envs.arena import opening_records
from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.notation import point_name
from boardgame_envs.games.opening_game import OpeningRuleGame

__all__ = [
    "TURN_FAULTS", "GameRecord", "RecordError", "check_result", "game_parameters", "piskvork_moves", "replay_moves",
    "winner_by_fault",
]  # fmt: skip


# The faults only the side to act can commit: its move is refused, or its answer is not a move (neither is written
# into ``moves``). A resignation, a loss on time (a move made after the flag fell is recorded) or a crash may come on
# either side's turn in another program's records, so they are not held to the turn.
TURN_FAULTS = ("illegal move", "bad answer")


class RecordError(ValueError):
    """A file that is not a game record the records' readers can read (sgf, move_list_records, records)."""


@dataclass
class GameRecord:
    """One game. ``winner``: 1 black, 2 white, 0 draw or no result; ``moves``: actions, black first.

    ``finished`` tells a draw (True, ``winner`` 0) from a game that stopped with no result (False, ``winner`` 0:
    left unfinished, its result unknown). It defaults to True because everything the arena writes is finished: a
    game played to its end, or lost by a forfeit.

    An m,n,k game is named by ``board_size``, ``rule`` and ``win_length``; any other
    game by its catalog name in ``game`` and the values of the parameters its entry
    declares in ``parameters`` (``board_size`` 0, ``rule`` ""; :func:`game_parameters`),
    and is saved as a list of moves, not SGF (which has no connect four).

    Under an opening rule (``opening_rule``, e.g. ``"swap2"``) ``moves`` are the
    game's actions from the start, decisions and offers included (the opening's
    first ``opening_moves`` of them), ``black`` and ``white`` name whoever held
    each colour once the opening had decided, and ``opening`` is "".
    """

    board_size: int
    rule: str
    black: str
    white: str
    moves: list[int]
    winner: int
    win_length: int = 5
    opening: str = ""  # the opening's name, "" for a game from the empty board
    opening_moves: int = 0  # how many of ``moves`` the opening placed
    forfeit: bool = False  # the loser lost by a fault (its illegal move is not in ``moves``)
    reason: str = ""  # how the game ended, in words
    extra: dict[str, str | list[str]] = field(default_factory=dict)  # other SGF root properties, kept as read
    fault: str = ""  # a forfeit's kind: "illegal move", "timeout", "crash", "bad answer", "forfeit"
    # Protocol glitches each side's engine recovered from (black, white); counted by the
    # arena, not saved in SGF, so it takes no part in comparing records.
    glitches: tuple[int, int] = field(default=(0, 0), compare=False)
    game: str = ""  # the catalog name of a game other than m,n,k ("connect_four")
    opening_rule: str = ""  # the tournament opening rule it was played under ("swap2", "soosorv8"), "" for none
    # the catalog game's parameters ({"rows": 3, "columns": 3}: every one its entry declares), {} for m,n,k
    parameters: dict[str, Any] = field(default_factory=dict)
    finished: bool = True  # False: no result (the game stopped before its end, no winner); winner is then 0

    @property
    def result(self) -> str:
        """``"1-0"`` (black won), ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` for no result (PGN's mark); a RecordError for
        a winner on a record that says it has no result."""
        if not self.finished:
            if self.winner:
                raise RecordError(f"the record names winner {self.winner} but says the game has no result (finished)")
            return "*"
        return {BLACK: "1-0", WHITE: "0-1"}.get(self.winner, "1/2-1/2")

    def points(self, colour: int) -> float:
        """What the game gave whoever held ``colour`` (1 black, 2 white): 1 a win, 1/2 a draw, 0 a loss; a
        RecordError for a game with no result, which no score may count as a draw."""
        if not self.finished:
            raise RecordError(f"the game has no result (stopped after {len(self.moves)} moves): it cannot be scored")
        return 0.5 if self.winner == 0 else float(self.winner == colour)

    def notation(self) -> str:
        """The moves as players write them: renju notation (``"h8 h9 i9 ..."``, with an opening rule's decisions:
        ``"h8 h9 j9 more ..."``), or the game's own."""
        if self.game or self.opening_rule:
            return " ".join(map(self.game_object().action_name, self.moves))
        return " ".join(point_name(a, self.board_size) for a in self.moves)

    def game_object(self) -> Any:
        """The game it was played in: an ``MNKGame``, an ``OpeningRuleGame`` (an opening rule's) or a catalog game."""
        if self.game:
            from boardgame_envs.games.catalog import game_info

            return game_info(self.game).game(**self.parameters)
        if self.opening_rule:
            return opening_records.opening_game(self.board_size, self.win_length, self.rule, self.opening_rule)
        from boardgame_envs.games.mnk import MNKGame

        return MNKGame(self.board_size, self.win_length, self.rule)

    def state(self, moves: int | None = None) -> Any:
        """The game's state after its first ``moves`` moves (all by default), each checked by the rules."""
        count = len(self.moves) if moves is None else moves
        if not 0 <= count <= len(self.moves):
            raise ValueError(f"the game has {len(self.moves)} moves; cannot show the position after {count}")
        return replay_moves(self.game_object(), self.moves[:count])

    @property
    def black_seat(self) -> int:
        """The seat that held black (1 the first player, 2 the second): 1 without an opening rule; under one,
        what its swaps decided, replayed from the opening's actions."""
        if not self.opening_rule:
            return 1
        return self.state(self.opening_moves).black_player

    def stones(self) -> list[int]:
        """The stones in the order they were laid (an opening rule's decisions and unchosen offers left out)."""
        if not self.opening_rule:
            return list(self.moves)
        state = self.state(self.opening_moves)
        return [*state.opening_stones(), *self.moves[len(state.actions):]]

    def opening_stones(self) -> list[int]:
        """The stones of the opening (a set opening's moves, or what an opening rule laid), black first."""
        if self.opening_rule:
            return list(self.state(self.opening_moves).opening_stones())
        return list(self.moves[: self.opening_moves])


def replay_moves(game: Any, moves: Sequence[int]) -> Any:
    """The state of ``game`` after ``moves`` from its start, each checked by the rules; a one-line
    :class:`RecordError` naming the first move the rules refuse, or one played after the game ended."""
    state = game.new_state()
    for number, action in enumerate(moves, start=1):
        if state.terminal:
            raise RecordError(f"move {number} ({game.action_name(action)}) comes after the end of the game: "
                              f"{_outcome(game, _winner(state))} at move {number - 1}")  # fmt: skip
        reason = state.illegal_reason(action)
        if reason is not None:
            raise RecordError(f"move {number}: {reason}")
        state.play(action)
    return state


def check_result(record: GameRecord, state: Any) -> None:
    """Hold ``record``'s stated result to ``state``, the position its moves reach (:func:`replay_moves`); a one-line
    :class:`RecordError` saying what the record says and what the moves give where they disagree.

    At an end of the game the record must state the rules' result (their winner, or a draw), and no forfeit can have
    ended it. Before an end, a stated winner needs ``forfeit`` (the loser's fault, resignation or loss on time) to
    say why the game stopped, a draw is refused (only the rules end a game in a draw), and a record with no result
    (``finished`` False) names no winner and no forfeit."""
    said = _stated(record, state.game)
    count = len(record.moves)
    moves = f"{count} move{'s' * (count != 1)}"
    if state.terminal:
        winner = _winner(state)
        if not record.finished or record.forfeit or record.winner != winner:
            raise RecordError(f"the result says {said}, but the moves end in {_outcome(state.game, winner)} "
                              f"at move {count}")  # fmt: skip
    elif not record.finished:
        if record.winner or record.forfeit:
            raise RecordError(f"the result says {said}, but the record also names a winner or a forfeit")
    elif not record.winner:
        raise RecordError(f"the result says {said}, but the game is not over after {moves}: only the rules end a "
                          f"game in a draw, and a game stopped before its end has no result")  # fmt: skip
    elif not record.forfeit:
        raise RecordError(f"the result says {said}, but the game is not over after {moves} "
                          f"and the record gives no forfeit, resignation or loss on time that ended it")  # fmt: skip
    elif record.fault in TURN_FAULTS and record.winner != winner_by_fault(state):
        loser = _name(state.game, 3 - winner_by_fault(state))
        raise RecordError(f"the result says {said}, but after {moves} it was {loser}'s turn, and only the side to "
                          f"act can lose by a fault of kind {record.fault!r}")  # fmt: skip


def winner_by_fault(state: Any) -> int:
    """The winner a record names when the side to act loses by its own fault (an illegal move, a bad answer): the
    other side, as a colour under an opening rule (whose players are seats)."""
    other = 3 - int(state.to_move)
    return state.color_of(other) if isinstance(state.game, OpeningRuleGame) else other


def _winner(state: Any) -> int:
    """The rules' winner as a record names it: a colour under an opening rule (whose winner is a seat), else the
    state's own."""
    winner = int(state.winner)
    return state.color_of(winner) if winner and isinstance(state.game, OpeningRuleGame) else winner


def _name(game: Any, winner: int) -> str:
    return getattr(game, "color_name", game.player_name)(winner)  # the m,n,k family's colours, else the players


def _outcome(game: Any, winner: int) -> str:
    return f"a win for {_name(game, winner)}" if winner else "a draw"


def _stated(record: GameRecord, game: Any) -> str:
    if not record.finished:
        return "there is no result"
    if not record.winner:
        return "the game was drawn" if not record.forfeit else "the game was drawn by a forfeit"
    how = (f" by forfeit ({record.fault})" if record.fault else " by forfeit") if record.forfeit else ""
    return f"{_name(game, record.winner)} won{how}"


def game_parameters(game: Any) -> dict[str, Any]:
    """What a record keeps of a catalog game beyond its name: the value of every parameter its entry declares
    (``{"rows": 3, "columns": 2}``; defaults included, so a record does not change meaning with a default)."""
    from boardgame_envs.games.catalog import game_info
    from boardgame_envs.games.parameters import read_back

    return read_back(game, game_info(game.name).parameters)


def piskvork_moves(stones: Sequence[int], board_size: int, relative: bool = False) -> str:
    """Stones as Gomocup tools give them to engines: ``"7,7 8,7 9,9"`` (``x`` the column, ``y`` the row from the top,
    from 0, black first), or with ``relative`` as offsets from the centre, ``"0,0, 1,0, 2,2"`` (a line of
    c-gomoku-cli's offset opening files; the centre is ``board_size // 2`` both ways)."""
    n = board_size
    points = []
    for a in stones:
        if not 0 <= a < n * n:
            raise ValueError(f"{a!r} is not a point of the {n}x{n} board (0..{n * n - 1})")
        y, x = divmod(int(a), n)
        points.append(f"{x - n // 2},{y - n // 2}" if relative else f"{x},{y}")
    return (", " if relative else " ").join(points)
