"""The ``ansi`` rendering of a game state: the board as text.

It marks the last move and, under renju, the points forbidden for black;
once the game is over, a last line says the result.
Pictures (``rgb_array``, ``human``) are drawn by :mod:`boardgame_envs.render`.
"""

from __future__ import annotations

from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.games.mnk import GameState
from boardgame_envs.games.notation import COLUMNS

STONE_CHARS = {0: ".", BLACK: "X", WHITE: "O"}
FORBIDDEN_CHAR = "*"


def render_ansi(state: GameState) -> str:
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
