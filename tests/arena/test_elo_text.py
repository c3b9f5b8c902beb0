"""The match table's Elo line: a score interval reaching 0% or 100% bounds no Elo on that side, and says so."""

from __future__ import annotations

from boardgame_envs.arena.matches import _elo_text, elo_from_score


def _line(s: float, lo: float, hi: float) -> str:
    return _elo_text(s, lo, hi, *(elo_from_score(x) + 0.0 for x in (s, lo, hi)))  # as the table: no -0


def test_a_clean_sweep_is_a_one_sided_bound_not_the_cap():
    assert _line(1.0, 0.929, 1.0) == "Elo at least +447 (95%; every game won: no upper bound)"
    assert _line(0.0, 0.0, 0.071) == "Elo at most -447 (95%; every game lost: no lower bound)"
    assert "800" not in _line(1.0, 0.929, 1.0) + _line(0.0, 0.0, 0.071)


def test_an_interval_touching_one_end_says_so_and_an_inner_one_is_two_numbers():
    assert _line(0.9, 0.6, 1.0) == "Elo +382 (95% +70..no upper bound)"
    assert _line(0.1, 0.0, 0.4) == "Elo -382 (95% no lower bound..-70)"
    assert _line(0.5, 0.4, 0.6) == "Elo +0 (95% -70..+70)"
