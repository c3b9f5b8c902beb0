"""Every game's rules keep the protocol's promises (tests/conformance/checks.py): symmetries map legal moves to
legal moves and planes to planes; an illegal move raises and changes no field; a finished game reports its
outcome by its returns; a clone is its own; the searches leave every field of a state they are handed alone."""

from __future__ import annotations

import pytest

from conformance import checks
from conformance.cases import ALL, DEFAULTS, TEST_GAMES, case_fixture

case = pytest.fixture(params=ALL, ids=lambda case: case.id)(case_fixture)
entry_case = pytest.fixture(params=DEFAULTS + TEST_GAMES, ids=lambda case: case.id)(case_fixture)


def test_symmetries_map_legal_masks_and_planes(case):
    checks.check_symmetries(case.game())


def test_an_illegal_move_raises_in_one_line_and_changes_nothing(case):
    checks.check_illegal_moves(case.game())


def test_a_finished_game_reports_its_outcome_by_its_returns(case):
    checks.check_outcomes(case.game())


def test_a_clone_shares_nothing_with_its_state(case):
    checks.check_clones_are_their_own(case.game())


def test_the_searches_leave_every_field_of_the_state_alone(entry_case):
    checks.check_searches_leave_the_state_alone(entry_case.game())
