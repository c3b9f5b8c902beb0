"""The ``ansi`` rendering of a game state: the board as text.

It marks the last move and, under renju, the points forbidden for black;
once the game is over, a last line says the result. :func:`render_ansi` is
the m,n,k family's board in renju notation; :func:`render_text` draws any
game of the protocol, with the coordinates its cells' names give (or, where
they give none, each free cell's name written in it) and a line naming the
last move when it was no cell (a pass).
Pictures (``rgb_array``, ``human``) are drawn by :mod:`boardgame_envs.render`.
"""

from __future__ import annotations

from typing import Any

from boardgame_envs.games.board_labels import coordinates  # the labels' one reading, shared with the pictures
from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.mnk import MNKState
from boardgame_envs.games.notation import COLUMNS
from boardgame_envs.games.protocol import FIRST, SECOND, action_at_cell, last_other_action

STONE_CHARS = {0: ".", BLACK: "X", WHITE: "O"}
FORBIDDEN_CHAR = "*"
CELL_CHARS = ".XO"  # any game's text board: empty, first player, second player


def render_ansi(state: MNKState) -> str:
    """The board as text in renju notation, last move in brackets, forbidden points as ``*``."""
    n = state.game.size
    forbidden = state.forbidden() if state.game.is_renju else None
    board = state.board.reshape(n, n)
    header = "    " + " ".join(COLUMNS[:n])
    lines = [header]
    for row in range(n):
        rank = n - row
        cells = []
        for col in range(n):
            a = row * n + col
            ch = STONE_CHARS[int(board[row, col])]
            if forbidden is not None and forbidden[a]:
                ch = FORBIDDEN_CHAR
            cells.append(ch)
        text = ""
        for col, ch in enumerate(cells):
            a = row * n + col
            if a == state.last_move:
                sep = "["
            elif col > 0 and a - 1 == state.last_move:
                sep = "]"
            else:
                sep = " "
            text += sep + ch
        text += "]" if state.last_move == row * n + n - 1 else " "
        lines.append(f"{rank:>2} {text}{rank:<2}".rstrip())
    lines.append(header)
    if (state.game.size, state.game.win_length) == (3, 3):  # tic-tac-toe: no stone colours
        legend = "X first player  O second player  [ ] last move"
    else:
        legend = "X black (first)  O white  [ ] last move"
    if forbidden is not None:
        legend += f"  {FORBIDDEN_CHAR} forbidden for black"
    lines.append(legend)
    if state.terminal:
        result = f"{state.game.color_name(state.winner)} wins" if state.winner else "a draw"
        lines.append(f"result: {result} after {state.num_moves} moves")
    return "\n".join(lines)


def _fields(state: Any, names: bool) -> list[list[str]]:
    """What each cell shows: its stone (``X``/``O``); an empty cell that means an action ``.`` (or, with
    ``names``, that action's name); an empty cell that means none (a dot, a box) a blank."""
    game = state.game
    rows, cols = game.shape
    out = []
    for r in range(rows):
        line = []
        for c in range(cols):
            cell = r * cols + c
            value = int(state.board[cell])
            action = action_at_cell(game, cell)
            if value or action is None:
                line.append(CELL_CHARS[value] if value else " ")
            else:
                line.append(game.action_name(action) if names else CELL_CHARS[0])
        out.append(line)
    return out


def render_text(state: Any) -> str:
    """Any protocol state as text: the cells, rows top first, with coordinates where the cells' names give them
    (:func:`coordinates`), else each free cell showing its move's name, so every board says how to name a move;
    the last cell in brackets, the last move named when it was no cell (a pass), then the result."""
    game = state.game
    rows, cols = game.shape
    column_labels, row_labels = coordinates(game)
    fields = _fields(state, names=not column_labels)
    size = max(len(field) for line in fields for field in line)  # 1, or the longest name written in a cell
    width = max((len(label) for label in row_labels), default=-1) + 1  # a row label and its space
    header = " " * (width + 1) + " ".join(f"{label:<{size}}" for label in column_labels)
    lines = [header.rstrip()] if column_labels else []
    for r in range(rows):
        text, close = "", False  # close: the last move's "]" is due in place of the next separator
        for c in range(cols):
            field, last = fields[r][c], r * cols + c == state.last_move
            text += "[" if last else "]" if close else " "
            close = last and len(field) == size
            text += f"{field}]{'':<{size - len(field) - 1}}" if last and not close else f"{field:<{size}}"
        text += "]" if close else ""
        if row_labels:
            text = f"{row_labels[r]:>{width - 1}} {text}{'' if text.endswith(']') else ' '}{row_labels[r]}"
        lines.append(text.rstrip() if not row_labels else text)
    if row_labels:
        lines.append(lines[0])
    lines.append(f"X {game.player_name(FIRST)} (first)  O {game.player_name(SECOND)}  [ ] last move")
    other = last_other_action(state)
    if other is not None:
        lines.append(f"last move: {game.action_name(other)}")
    if state.terminal:
        result = f"{game.player_name(state.winner)} wins" if state.winner else "a draw"
        lines.append(f"result: {result} after {state.num_moves} moves")
    return "\n".join(lines)
