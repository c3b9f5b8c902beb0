"""The authors' known positions (tests/conformance/known_positions.py), on every catalog game and test game: who
is to move, what is legal, how a finished game came out and what a position is worth, as the author wrote them;
and the kit asks for what catches a broken rule (a finished game, a player to move, and for a pass or any other
action that is no cell, a position where it is forced and one where it is illegal), saying in one line what is
missing."""

from __future__ import annotations

import pytest

from conformance.cases import DEFAULTS, TEST_GAMES, case_fixture
from conformance.checks import check_known_positions, missing_known
from conformance.known_positions import ALWAYS_LEGAL, KNOWN, Known
from games.keep_apart import KeepApartGame
from games.pass_game import PassGame

entry_case = pytest.fixture(params=DEFAULTS + TEST_GAMES, ids=lambda case: case.id)(case_fixture)


def test_the_known_positions_hold(entry_case):
    info = entry_case.info
    check_known_positions(entry_case.game(), KNOWN.get(entry_case.entry, []), ALWAYS_LEGAL.get(entry_case.entry, ()),
                          variant=info.game)  # fmt: skip


def test_the_kit_says_in_one_line_what_a_games_known_positions_lack():
    game = KeepApartGame(4)
    end = Known("b1 d4 a2 a4 a1 d1 pass d2 pass b4 pass pass", outcome=(-1.0, 1.0))
    start = Known("", to_move=1)
    assert missing_known(game, []) == "keep_apart has no known positions: write some in tests/conformance/known_positions.py"
    assert missing_known(game, [start]).startswith("keep_apart: give a finished game and its outcome")
    assert missing_known(game, [end]).startswith("keep_apart: give a position with its player to move or its legal")
    said = missing_known(game, [end, start])
    assert said == ("keep_apart: pass is an action that is no cell: give a known position where it is forced "
                    "(legal='pass') and one where it is illegal (illegal='pass') in tests/conformance/"
                    "known_positions.py (a forgotten or silent pass shows only there)")  # fmt: skip
    forced = Known("b1 d4 a2 a4 a1 d1", to_move=1, legal="pass")
    assert "where it is illegal (illegal='pass')" in missing_known(game, [end, start, forced])
    assert "where it is forced" not in missing_known(game, [end, start, forced])
    assert missing_known(game, [end, forced, Known("", legal="a4 c4 d4 d3 a2 a1 b1 d1")]) is None  # no pass there
    assert missing_known(game, [end, forced, Known("", illegal="pass")]) is None


def test_an_action_declared_always_legal_needs_no_forced_position_and_is_checked():
    game = PassGame()
    known = [Known("pass pass", outcome=(0.0, 0.0)), Known("b2", to_move=2)]
    assert "pass is an action that is no cell" in missing_known(game, known)
    assert missing_known(game, known, always_legal=("pass",)) is None
    check_known_positions(game, known, always_legal=("pass",))
    with pytest.raises(AssertionError, match=r"^keep_apart: pass is declared legal in every position that goes on, "
                                             r"but is not after 0 moves: pass only when no cell is open to you$"):  # fmt: skip
        check_known_positions(KeepApartGame(4), [Known("", to_move=1, outcome=None)] + KNOWN["keep_apart"][4:5],
                              always_legal=("pass",))  # fmt: skip


def test_every_known_game_is_a_catalog_game_or_a_test_game():
    """A key that names no game (a typo, a game renamed) would leave its positions unread."""
    from boardgame_envs.games.catalog import GAMES
    from conformance.temporary import NEW_GAMES, TEST_ENTRIES

    games = set(GAMES) | set(TEST_ENTRIES) | set(NEW_GAMES)
    assert set(KNOWN) <= games and set(ALWAYS_LEGAL) <= games, sorted((set(KNOWN) | set(ALWAYS_LEGAL)) - games)
