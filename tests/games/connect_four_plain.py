"""An independent reference for the connect-four solver: plain negamax over the rules, and boards drawn as text.

No table, no move ordering, no bitboards: every legal column in order, played
on :class:`ConnectFourState` (the package's rules), scored as the solver scores
(the convention of :mod:`boardgame_envs.games.connect_four_search`). Only for
late positions: its cost grows as 7 to the number of empty cells.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.connect_four import COLUMNS, ROWS, ConnectFourGame, ConnectFourState

CHARS = {".": 0, "X": 1, "O": 2}


def plain_score(state: ConnectFourState) -> int:
    """The exact score of a live position for its player to move, by trying every line of play."""
    best = -100
    for column in state.legal_actions():
        child = state.clone()
        child.play(int(column))
        if child.winner:
            value = (ROWS * COLUMNS + 1 - state.num_moves) // 2
        elif child.terminal:
            value = 0
        else:
            value = -plain_score(child)
        best = max(best, value)
    return best


def drawn(text: str) -> ConnectFourState:
    """The position drawn in ``text`` (6 rows of 7 cells, top row first; X the first player, O the second).

    The player to move follows from the counts; the drawing must obey gravity
    and hold no four in a row.
    """
    rows = [line.replace(" ", "") for line in text.strip().splitlines() if line.strip()]
    if len(rows) != ROWS or any(len(r) != COLUMNS for r in rows):
        raise ValueError(f"a connect-four drawing has {ROWS} rows of {COLUMNS} cells")
    board = np.array([[CHARS[c] for c in r] for r in rows], dtype=np.int8)
    firsts, seconds = int((board == 1).sum()), int((board == 2).sum())
    if firsts - seconds not in (0, 1):
        raise ValueError(f"{firsts} X and {seconds} O cannot alternate")
    for c in range(COLUMNS):
        column = board[:, c][::-1]  # bottom first
        height = int(np.count_nonzero(column))
        if np.count_nonzero(column[:height]) != height:
            raise ValueError(f"column {c + 1} has a piece above an empty cell")
    return ConnectFourState.from_position(ConnectFourGame(), board.reshape(-1), 1 if firsts == seconds else 2)


def random_line(rng: np.random.Generator, length: int) -> str | None:
    """Columns 1..7 of ``length`` uniformly random moves from the empty board, or None if the game ended first."""
    state = ConnectFourGame().new_state()
    moves = ""
    for _ in range(length):
        column = int(rng.choice(state.legal_actions()))
        state.play(column)
        moves += str(column + 1)
        if state.terminal:
            return None
    return moves
