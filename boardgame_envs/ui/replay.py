"""Step through a saved game (an SGF record) in the terminal: ``boardgame-envs replay FILE``.

A game written as a move list (``h8 i9 j10 ...``, or any game's own names: ``d d c`` in
connect four) is read by :func:`read_move_list`, within the same size limit as an SGF record
(:data:`~boardgame_envs.arena.records.MAX_SGF_BYTES`), and a move it cannot read is quoted
as a short excerpt: neither an endless file nor a huge token reaches memory or the terminal
whole; :func:`move_list` shows where it leads.

Enter or ``n`` shows the next move, ``p`` the previous one, a number jumps to
the position after that many moves, ``q`` (or the end of input) quits. The
board is the env's ``ansi`` rendering; :func:`position` gives the game state
after any number of moves, for other viewers. A game under an opening rule
steps through every action of its opening (stones, swaps, the offered fifth
moves, shown as ``+``, and the choice), each line saying who did what. Everything printed from the file
(names, opening, comments) goes through :func:`~boardgame_envs.ui.escape.printable`,
so a record cannot send escape sequences to the terminal, and is cut to :data:`FIELD_CHARS`
characters each (a 999 kB comment shows as its start and how many characters more).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import os

from boardgame_envs.arena.records import MAX_SGF_BYTES, GameRecord, read_record_text
from boardgame_envs.envs.opening_env import render_opening_text
from boardgame_envs.envs.text import render_ansi, render_text
from boardgame_envs.games.mnk import MNKGame
from boardgame_envs.games.notation import point_name
from boardgame_envs.games.protocol import IllegalMoveError, as_family
from boardgame_envs.games.opening_rules import CHOOSE, OFFER
from boardgame_envs.ui.escape import printable

KEYS = "Enter/n: next, p: previous, NUMBER: go to move, q: quit"
EXCERPT_CHARS = 20  # how much of a move that cannot be read an error quotes (no point name is longer than 5)
# How much of a record's free text (player names, opening name, the comment saying how it ended) is shown:
# a record may hold up to MAX_SGF_BYTES of it, and a screen of one comment hides the game.
FIELD_CHARS = 300


def cut(text: str, limit: int = FIELD_CHARS) -> str:
    """``text``, or its first ``limit`` characters and how many more there are."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit:,} more characters)"


def shown(record: GameRecord) -> GameRecord:
    """``record`` with its free text cut to :data:`FIELD_CHARS` for the screen (the moves untouched)."""
    fields = {name: cut(getattr(record, name)) for name in ("black", "white", "opening", "reason")}
    return record if all(getattr(record, k) == v for k, v in fields.items()) else dataclasses.replace(record, **fields)


def read_move_list(path: str | os.PathLike, game: Any, limit: int = MAX_SGF_BYTES) -> list[int]:
    """The actions of the move list at ``path``, the game's names for them (``h8``, ``d``), the first player first.

    ``game`` is any game of the protocol (its ``parse_action`` reads a name), or
    the side of an m,n,k board. Moves are separated by spaces, commas or line
    breaks. At most ``limit`` bytes are read (an endless file such as ``/dev/zero``
    is refused after that many); raises ``ValueError`` in one line naming the
    file: unreadable, over the limit, not UTF-8, or the first move that the game
    cannot read (quoted whole if short, else as an excerpt).
    """
    if not hasattr(game, "parse_action"):
        game = MNKGame(int(game), 3)  # a board side: its names are the board's points
    where = os.fspath(path)
    text = read_record_text(path, limit)  # RecordError, a ValueError
    actions = []
    for i, token in enumerate(text.replace(",", " ").split(), start=1):
        try:
            actions.append(game.parse_action(token))
        except ValueError as exc:
            if len(token) <= EXCERPT_CHARS:
                raise ValueError(f"{where}: move {i}: {printable(str(exc))}") from None
            excerpt = printable(f"{token[:EXCERPT_CHARS]}... ({len(token) - EXCERPT_CHARS} more characters)")
            like = game.action_name(game.num_actions // 2)  # an action of the middle: h8 on 15x15, d in connect four
            raise ValueError(f"{where}: move {i}: cannot read '{excerpt}' as a move: write it like '{like}'") from None
    return actions


def move_list(game: Any, actions: list[int]) -> tuple[str, str]:
    """Where ``actions`` lead in ``game`` (any game of the catalog or the protocol): the board as text with a line
    naming the game and the result, and that result alone (``Red wins · 7 moves``; whose move it is while the game
    goes on). Each move is checked by the rules: an illegal one raises
    :class:`~boardgame_envs.games.protocol.IllegalMoveError` naming it."""
    from boardgame_envs.render import Board
    from boardgame_envs.render.cells import status_text

    state = game.new_state()
    for i, action in enumerate(actions, start=1):
        reason = state.illegal_reason(action)
        if reason is not None:
            raise IllegalMoveError(f"move {i}: {reason}")
        state.play(action)
    status = result_line(game, state.winner, state.num_moves) if state.terminal else None
    if as_family(game, "mnk") is not None:  # the family's own board and status: renju notation, forbidden points
        board = Board.from_state(state, actions)
        status = status or board.status()
        return f"{render_ansi(state)}\n{board.title()}: {status}", status
    status = status or status_text(state)
    return f"{render_text(state)}\n{game.describe()}: {status}", status


def position(record: GameRecord, moves: int) -> Any:
    """The game state after the record's first ``moves`` moves (checked by the rules as they are played);
    an ``OpeningState`` for a game under an opening rule, whose moves are its actions."""
    return record.state(moves)


def seats(record: GameRecord) -> tuple[str, str]:
    """The names of the first and the second player (under an opening rule the swaps decide who was black)."""
    return (record.black, record.white) if record.black_seat == 1 else (record.white, record.black)


def result_line(game: Any, winner: int, moves: int, finished: bool = True) -> str:
    """How a game ended, the one form for a record and a move list: ``Black wins · 11 moves``, ``Draw · 9 moves``,
    or for a record of a game with no result ``Unfinished, no result · 3 moves``."""
    name = getattr(game, "color_name", game.player_name)  # the m,n,k family's colours, else the game's players
    who = "Unfinished, no result" if not finished else "Draw" if winner == 0 else f"{name(winner).capitalize()} wins"
    return f"{who} · {moves} moves"


def summary(record: GameRecord) -> str:
    """The record's result line, with its reason in words when it has one."""
    return _summary(shown(record))


def _summary(record: GameRecord) -> str:
    game = record.game_object() if record.game else MNKGame(record.board_size, record.win_length, record.rule)
    line = result_line(game, record.winner, len(record.moves), record.finished)
    return printable(f"{line}: {record.reason}" if record.reason else line)


def header(record: GameRecord) -> str:
    """Who played, from which opening, and how it ended, in two lines."""
    record = shown(record)
    opening = f", opening {record.opening or 'given'} ({record.opening_moves} moves)" if record.opening_moves else ""
    if record.game:  # a game other than m,n,k: its own players and description
        game = record.game_object()
        players = f"{game.player_name(1)} {record.black} - {game.player_name(2)} {record.white}"
        return printable(f"{players}: {game.describe()}{opening}") + "\n" + _summary(record)
    if record.opening_rule:
        first, _ = seats(record)
        opening = f", under {record.opening_rule} ({record.opening_moves} opening actions; first player {first})"
    game = f"{record.board_size}x{record.board_size} {record.rule}" + (
        f", {record.win_length} in a row" if record.win_length != 5 else "")  # fmt: skip
    return printable(f"black {record.black} - white {record.white}: {game}{opening}") + "\n" + _summary(record)


def frame(record: GameRecord, moves: int) -> str:
    """The board after ``moves`` moves, with a line naming the last one."""
    record = shown(record)
    state = position(record, moves)
    n, total = record.board_size, len(record.moves)
    if record.opening_rule:
        board = render_opening_text(state, tuple(printable(name) for name in seats(record)))
        last = "start" if moves == 0 else ruled_action(record, moves)
    elif record.game:  # a game other than m,n,k: its own text board and notation
        board = render_text(state)
        game, mover = state.game, position(record, moves - 1).to_move if moves else 0
        last = "start" if moves == 0 else f"{game.player_name(mover)} {game.action_name(record.moves[moves - 1])}"
    else:
        board = render_ansi(state)
        if moves == 0:
            last = "start"
        else:
            color = "black" if moves % 2 else "white"
            opened = " (opening)" if moves <= record.opening_moves else ""
            last = f"{color} {point_name(record.moves[moves - 1], n)}{opened}"
    return f"{board}\nmove {moves}/{total}: {last}" + (f"\n{printable(record.reason)}" if moves == total else "")


def ruled_action(record: GameRecord, moves: int) -> str:
    """Action ``moves`` of a game under an opening rule in words: ``second player (mcts): swap``,
    ``black (greedy) offers g10``, ``white (mcts) chooses g10``, ``black h8 (opening)``."""
    before = position(record, moves - 1)
    game = before.game
    action = record.moves[moves - 1]
    name = game.action_name(action)
    who = printable(seats(record)[before.to_move - 1])
    colour = game.color_name(before.color_of(before.to_move))
    if action >= game.points:
        return f"{game.player_name(before.to_move)} ({who}): {name}"
    if before.in_opening and before.phase == OFFER:
        return f"{colour} ({who}) offers {name}"
    if before.in_opening and before.phase == CHOOSE:
        return f"{colour} ({who}) chooses the fifth move {name}"
    stone = game.color_name(before.base.to_move)
    return f"{stone} {name}" + (f" (opening, laid by {who})" if before.in_opening else f" ({who})")


def replay_terminal(
    record: GameRecord, start: int | None = None, input_fn: Callable[[str], str] = input,
    print_fn: Callable[[str], None] = print,
) -> None:  # fmt: skip
    """Show the game from move ``start`` (default: the end of the opening) and follow the keys."""
    total = len(record.moves)
    moves = record.opening_moves if start is None else start
    print_fn(header(record))
    print_fn(KEYS)
    while True:
        print_fn(frame(record, moves))
        try:
            key = input_fn("> ").strip().lower()
        except EOFError:
            return
        if key == "q":
            return
        if key in ("", "n"):
            moves = min(total, moves + 1)
        elif key == "p":
            moves = max(0, moves - 1)
        elif key.isdigit():
            moves = min(total, int(key))
        else:
            print_fn(f"unknown key {key!r}; {KEYS}")
