"""The ``ansi`` rendering of a game state: the board as text.

It marks the last move and, under renju, the points forbidden for black;
once the game is over, a last line says the result. :func:`render_ansi` is
the m,n,k family's board in renju notation; :func:`render_text` draws any
game of the protocol, with the coordinates its cells' names give and a line
naming the last move when it was no cell (a pass).
Pictures (``rgb_array``, ``human``) are drawn by :mod:`boardgame_envs.render`.
"""

from __future__ import annotations

from typing import Any

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


def coordinates(game: Any) -> tuple[list[str], list[str]]:
    """The column and row labels of ``game``'s text board, read from the names of the actions its cells mean.

    Where every cell of a column means one action (connect four's columns), the
    columns carry its name and the rows nothing. Where every cell is its own action
    and each name is one letter (the column's, shared down it) followed by the
    row's label (shared along it), as in ``"b2"``, both are labelled. Otherwise
    (names that do not split so) there are no coordinates: ``([], [])``.
    """
    rows, cols = game.shape
    actions = [[action_at_cell(game, r * cols + c) for c in range(cols)] for r in range(rows)]
    if any(a is None for line in actions for a in line):
        return [], []
    if all(len({actions[r][c] for r in range(rows)}) == 1 for c in range(cols)) and rows > 1:
        return [game.action_name(actions[0][c]) for c in range(cols)], []
    names = [[game.action_name(a) for a in line] for line in actions]
    column_labels = [names[0][c][:1] for c in range(cols)]
    row_labels = [names[r][0][1:] for r in range(rows)]
    if len(set(column_labels)) < cols or len(set(row_labels)) < rows or not all(row_labels):
        return [], []
    if any(names[r][c] != column_labels[c] + row_labels[r] for r in range(rows) for c in range(cols)):
        return [], []
    return column_labels, row_labels


def render_text(state: Any) -> str:
    """Any protocol state as text: the cells, rows top first, with coordinates where the cells' names give them
    (:func:`coordinates`), the last cell in brackets, the last move named when it was no cell, then the result."""
    game = state.game
    rows, cols = game.shape
    column_labels, row_labels = coordinates(game)
    width = max((len(label) for label in row_labels), default=-1) + 1  # a row label and its space
    lines = [" " * (width + 1) + " ".join(column_labels)] if column_labels else []
    for r in range(rows):
        text = ""
        for c in range(cols):
            cell = r * cols + c
            sep = "[" if cell == state.last_move else "]" if c and cell - 1 == state.last_move else " "
            text += sep + CELL_CHARS[int(state.board[cell])]
        text += "]" if state.last_move == r * cols + cols - 1 else ""
        if row_labels:
            text = f"{row_labels[r]:>{width - 1}} {text}{'' if text.endswith(']') else ' '}{row_labels[r]}"
        lines.append(text)
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
