"""Step through a saved game (an SGF record) in the terminal: ``boardgame-envs replay FILE``.

Enter or ``n`` shows the next move, ``p`` the previous one, a number jumps to
the position after that many moves, ``q`` (or the end of input) quits. The
board is the env's ``ansi`` rendering; :func:`position` gives the game state
after any number of moves, for other viewers. Everything printed from the file
(names, opening, comments) goes through :func:`~boardgame_envs.ui.escape.printable`,
so a record cannot send escape sequences to the terminal.
"""

from __future__ import annotations

from collections.abc import Callable

from boardgame_envs.arena.records import GameRecord
from boardgame_envs.envs.text import render_ansi
from boardgame_envs.games.mnk import GameState, MNKGame
from boardgame_envs.games.notation import point_name
from boardgame_envs.ui.escape import printable

KEYS = "Enter/n: next, p: previous, NUMBER: go to move, q: quit"


def position(record: GameRecord, moves: int) -> GameState:
    """The game state after the record's first ``moves`` moves (checked by the rules as they are played)."""
    if not 0 <= moves <= len(record.moves):
        raise ValueError(f"the game has {len(record.moves)} moves; cannot show the position after {moves}")
    state = MNKGame(record.board_size, record.win_length, record.rule).new_state()
    for action in record.moves[:moves]:
        state.play(action)
    return state


def result_line(game: MNKGame, winner: int, moves: int) -> str:
    """How a game ended, the one form for a record and a move list: ``Black wins · 11 moves``, ``Draw · 9 moves``."""
    who = "Draw" if winner == 0 else f"{game.color_name(winner).capitalize()} wins"
    return f"{who} · {moves} moves"


def summary(record: GameRecord) -> str:
    """The record's result line, with its reason in words when it has one."""
    game = MNKGame(record.board_size, record.win_length, record.rule)
    line = result_line(game, record.winner, len(record.moves))
    return printable(f"{line}: {record.reason}" if record.reason else line)


def header(record: GameRecord) -> str:
    """Who played, from which opening, and how it ended, in two lines."""
    opening = f", opening {record.opening or 'given'} ({record.opening_moves} moves)" if record.opening_moves else ""
    game = f"{record.board_size}x{record.board_size} {record.rule}" + (
        f", {record.win_length} in a row" if record.win_length != 5 else "")  # fmt: skip
    return printable(f"black {record.black} - white {record.white}: {game}{opening}") + "\n" + summary(record)


def frame(record: GameRecord, moves: int) -> str:
    """The board after ``moves`` moves, with a line naming the last one."""
    state = position(record, moves)
    n, total = record.board_size, len(record.moves)
    if moves == 0:
        last = "start"
    else:
        color = "black" if moves % 2 else "white"
        last = f"{color} {point_name(record.moves[moves - 1], n)}" + (" (opening)" if moves <= record.opening_moves else "")
    return f"{render_ansi(state)}\nmove {moves}/{total}: {last}" + (f"\n{printable(record.reason)}" if moves == total else "")


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
