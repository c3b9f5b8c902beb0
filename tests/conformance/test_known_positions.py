"""The authors' known positions (tests/conformance/known_positions.py), on every catalog game and test game: who
is to move, what is legal, how a finished game came out and what a position is worth, as the author wrote them."""

from __future__ import annotations

import pytest

from conformance.cases import DEFAULTS, TEST_GAMES, case_fixture
from conformance.checks import check_known_positions
from conformance.known_positions import KNOWN

entry_case = pytest.fixture(params=DEFAULTS + TEST_GAMES, ids=lambda case: case.id)(case_fixture)


def test_the_known_positions_hold(entry_case):
    known = KNOWN.get(entry_case.entry)
    assert known, f"{entry_case.entry} has no known positions: write some in tests/conformance/known_positions.py"
    assert any(k.outcome is not None for k in known), f"{entry_case.entry}: give a finished game and its outcome"
    assert any(k.to_move is not None or k.legal is not None for k in known), \
        f"{entry_case.entry}: give a position with its player to move or its legal moves"  # fmt: skip
    check_known_positions(entry_case.game(), known)
