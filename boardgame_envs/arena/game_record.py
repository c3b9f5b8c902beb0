"""The game record: the whole story of one game, what was played, by whom, from which opening, and how it ended.

A :class:`GameRecord` is a plain value (two records of the same game compare equal); how it is
written is the business of its formats, :mod:`~boardgame_envs.arena.sgf` for m,n,k games and
:mod:`~boardgame_envs.arena.move_list_records` for any other, and of
:mod:`~boardgame_envs.arena.records` for files. Its moves replay under the rules
(:meth:`GameRecord.state`), and :func:`piskvork_moves` gives its stones as Gomocup tools hand
them to engines. Every error a record's reader or writer raises is a :class:`RecordError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from boardgame_envs.arena import opening_records
from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.notation import point_name

__all__ = ["GameRecord", "RecordError", "game_parameters", "piskvork_moves"]


class RecordError(ValueError):
    """A file that is not a game record the records' readers can read (sgf, move_list_records, records)."""


@dataclass
class GameRecord:
    """One finished game. ``winner``: 1 black, 2 white, 0 draw; ``moves``: actions, black first.

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

    @property
    def result(self) -> str:
        """``"1-0"`` (black won), ``"0-1"`` or ``"1/2-1/2"``."""
        return {BLACK: "1-0", WHITE: "0-1"}.get(self.winner, "1/2-1/2")

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
        game = self.game_object()
        if self.opening_rule:
            return game.state_after(self.moves[:count])
        state = game.new_state()
        for action in self.moves[:count]:
            state.play(action)
        return state

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
