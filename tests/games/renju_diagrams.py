"""Renju test positions as drawings whose empty points carry the expected answer.

Marks: ``6`` overline, ``4`` double-four, ``3`` double-three (forbidden for
black), ``+`` a point of interest where black may play. In a *full* case every
other empty point must be allowed too; in a *partial* case (crowded
positions) only the marked points are asserted. :func:`check_in_all_symmetries`
checks a case in the eight rotations and reflections of the board.
"""

from __future__ import annotations

import numpy as np

from ascii_boards import parse_marked
from boardgame_envs.games.renju import forbidden_kind, forbidden_mask
from boardgame_envs.games.symmetry import NUM_SYMMETRIES, transform, transform_action

KIND_OF_MARK = {"6": "overline", "4": "double-four", "3": "double-three", "+": None}


def parse_case(diagram: str) -> tuple[np.ndarray, dict[int, str | None]]:
    """``(board, {action: expected kind})`` of a drawn case."""
    return parse_marked(diagram, KIND_OF_MARK)


def check_in_all_symmetries(name: str, diagram: str, full: bool) -> None:
    board, marks = parse_case(diagram)
    n = board.shape[0]
    for sym in range(NUM_SYMMETRIES):
        image = transform(board, sym)
        mask = forbidden_mask(image)
        expected = np.zeros(n * n, dtype=bool)
        for action, kind in marks.items():
            moved = transform_action(action, sym, n)
            r, c = divmod(moved, n)
            assert forbidden_kind(image, r, c) == kind, f"{name}, symmetry {sym}: point {(r, c)}"
            assert mask[r, c] == (kind is not None), f"{name}, symmetry {sym}: mask at {(r, c)}"
            expected[moved] = kind is not None
        if full:
            np.testing.assert_array_equal(mask.ravel(), expected, err_msg=f"{name}, symmetry {sym}")
