"""Read boards drawn as text in tests: ``X`` black, ``O`` white, ``.`` empty.

Rows are written top to bottom (row 0 first); spaces are ignored, so a board
can be drawn with or without separators.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.games.mnk import MNKGame, MNKState

CHARS = {".": 0, "X": 1, "O": 2}


def parse(text: str) -> np.ndarray:
    """``(n, n)`` int8 board from a drawing."""
    rows = [line.replace(" ", "") for line in text.strip().splitlines() if line.strip()]
    n = len(rows)
    if any(len(r) != n for r in rows):
        raise ValueError(f"board drawing is not square: {[len(r) for r in rows]}")
    return np.array([[CHARS[c] for c in r] for r in rows], dtype=np.int8)


def parse_marked(text: str, marks: dict[str, object]) -> tuple[np.ndarray, dict[int, object]]:
    """A drawing whose empty points may carry a mark: ``(board, {action: marks[mark]})``.

    A marked point is empty on the board; ``action`` is ``row * n + col``.
    """
    rows = [line.replace(" ", "") for line in text.strip().splitlines() if line.strip()]
    marked = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in marks:
                marked[r * len(rows) + c] = marks[ch]
    plain = "\n".join("".join("." if ch in marks else ch for ch in row) for row in rows)
    return parse(plain), marked


def state_from(text: str, win_length: int = 5, rule: str = "freestyle", to_move: int | None = None) -> MNKState:
    """An :class:`MNKState` holding the drawn stones; by default black moves if counts are equal."""
    board = parse(text)
    n = board.shape[0]
    state = MNKGame(n, win_length, rule).new_state()
    state.board[:] = board.ravel()
    blacks, whites = int((board == 1).sum()), int((board == 2).sum())
    state.num_moves = blacks + whites
    state.to_move = to_move if to_move is not None else (1 if blacks == whites else 2)
    return state


def env_from(text: str, wrapped: bool = False, **kwargs):
    """A tictactoe_v0 (3x3 drawings) or gomoku_v0 env reached by playing the drawn stones.

    Black's and white's stones are played alternately, in reading order, so
    the drawing needs as many black stones as white ones, or one more.
    """
    from boardgame_envs import gomoku_v0, tictactoe_v0

    board = parse(text)
    n = board.shape[0]
    if n == 3:
        env = tictactoe_v0.env() if wrapped else tictactoe_v0.raw_env()
    else:
        env = (gomoku_v0.env if wrapped else gomoku_v0.raw_env)(board_size=n, **kwargs)
    env.reset()
    blacks = [int(a) for a in np.flatnonzero(board.ravel() == 1)]
    whites = [int(a) for a in np.flatnonzero(board.ravel() == 2)]
    if len(blacks) - len(whites) not in (0, 1):
        raise ValueError(f"{len(blacks)} black and {len(whites)} white stones cannot alternate")
    for i in range(len(blacks) + len(whites)):
        env.step(blacks[i // 2] if i % 2 == 0 else whites[i // 2])
    return env
