"""Point names in renju notation: column letter, then rank counted from the bottom.

On an ``n x n`` board, action ``a`` is the cell ``(row, col) = divmod(a, n)``
with row 0 at the top. Its name is ``"abcdefghijklmnopqrs"[col]`` followed by
``n - row``: on 15x15 the centre (row 7, col 7) is ``h8`` and the top-left
corner is ``a15``.
"""

from __future__ import annotations

import re

from boardgame_envs.safeio.errors import excerpt

COLUMNS = "abcdefghijklmnopqrs"
_NAME = re.compile(r"^\s*([a-s])\s*(\d{1,2})\s*$", re.IGNORECASE)
_PAIR = re.compile(r"^\s*(\d{1,2})\s*[, ]\s*(\d{1,2})\s*$")


def point_name(action: int, n: int) -> str:
    """Renju-notation name of ``action`` on an ``n x n`` board (``"h8"``)."""
    if not 0 <= action < n * n:
        raise ValueError(f"action {action} is out of range 0..{n * n - 1} on a {n}x{n} board")
    row, col = divmod(action, n)
    return f"{COLUMNS[col]}{n - row}"


def parse_point(text: str, n: int) -> int:
    """Parse ``"h8"`` (renju notation) or ``"row,col"`` (0-based, row 0 at the top).

    Raises ``ValueError`` with a one-line explanation for anything else.
    """
    match = _NAME.match(text)
    if match:
        col = COLUMNS.index(match.group(1).lower())
        rank = int(match.group(2))
        if col >= n or not 1 <= rank <= n:
            raise ValueError(
                f"{text.strip()!r} is off the board: columns a..{COLUMNS[n - 1]}, rows 1..{n}"
            )
        return (n - rank) * n + col
    match = _PAIR.match(text)
    if match:
        row, col = int(match.group(1)), int(match.group(2))
        if not (0 <= row < n and 0 <= col < n):
            raise ValueError(f"{text.strip()!r} is off the board: row and col must be in 0..{n - 1}")
        return row * n + col
    raise ValueError(
        f"cannot read {excerpt(text.strip())!r} as a point: write it like "
        f"'{COLUMNS[n // 2]}{n - n // 2}' or 'row,col'"
    )
