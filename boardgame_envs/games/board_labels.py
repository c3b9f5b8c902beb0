"""The labels along a board's edges, read from the names of the actions its cells mean.

One reading serves every front that labels a board of any game: the text board
(:func:`boardgame_envs.envs.text.render_text`) and the pictures'
``coordinates=True`` (:mod:`boardgame_envs.render.cells`). A game says nothing
extra: its ``action_name`` and the protocol's cells
(:func:`~boardgame_envs.games.protocol.action_at_cell`) are enough.
"""

from __future__ import annotations

from typing import Any

from boardgame_envs.games.protocol import action_at_cell

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def coordinates(game: Any) -> tuple[list[str], list[str]]:
    """The column and row labels of ``game``'s board, read from the names of the actions its cells mean.

    Where every cell of a column that means an action means one action
    (connect four's columns), the columns carry its name and the rows nothing.
    Where each name is a column part (its leading letters, shared down the
    column) followed by a row part (shared along the row), as in ``"b2"``, both
    are labelled; cells that mean no action (a dot or a box between the lines of
    dots and boxes) are skipped, and a line without any is labelled ``""``.
    Otherwise (names that do not split so) there are no coordinates: ``([], [])``.
    """
    rows, cols = game.shape
    actions = [[action_at_cell(game, r * cols + c) for c in range(cols)] for r in range(rows)]
    placed = [(r, c, a) for r in range(rows) for c in range(cols) if (a := actions[r][c]) is not None]
    if not placed:
        return [], []
    per_column = [{a for r, c_, a in placed if c_ == c} for c in range(cols)]
    if rows > 1 and all(len(column) == 1 for column in per_column):
        return [game.action_name(next(iter(column))) for column in per_column], []
    column_labels, row_labels = [""] * cols, [""] * rows
    for r, c, a in placed:
        name = game.action_name(a)
        letters = len(name) - len(name.lstrip(LETTERS))
        column, row = name[:letters], name[letters:]
        if not column or not row or column_labels[c] not in ("", column) or row_labels[r] not in ("", row):
            return [], []
        column_labels[c], row_labels[r] = column, row
    named_columns, named_rows = [x for x in column_labels if x], [x for x in row_labels if x]
    if len(set(named_columns)) < len(named_columns) or len(set(named_rows)) < len(named_rows):
        return [], []
    return column_labels, row_labels


__all__ = ["coordinates"]
