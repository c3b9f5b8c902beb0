"""The Bradley-Terry fit against cases worked by hand."""

from __future__ import annotations

import math

import pytest

from boardgame_envs.ladder.elo import Z95, RatingError, fit


def test_two_players_mle_is_the_log_odds_of_the_score():
    # 3 wins, 1 draw, 1 loss: 3.5 of 5 points; the MLE solves p = 0.7, R = 400 log10(0.7 / 0.3).
    results = [("a", "b", 1.0)] * 3 + [("a", "b", 0.5), ("a", "b", 0.0)]
    r = fit(["b", "a"], results, prior=0)
    assert r.elo[r.index("a")] == pytest.approx(400 * math.log10(0.7 / 0.3), abs=1e-3)
    # Fisher information n p (1 - p) c^2 with c = ln 10 / 400: the interval by hand.
    c = math.log(10) / 400
    half = Z95 / math.sqrt(5 * 0.7 * 0.3 * c * c)
    low, high = r.interval("a")
    assert (high - low) / 2 == pytest.approx(half, rel=1e-6)
    assert r.interval("b") == (0.0, 0.0)  # pinned


def test_chain_of_three_adds_up_and_orders():
    # a beats b 3:1, b beats c 3:1, no a-c games: each step is 400 log10(3), the sum twice that.
    results = [("a", "b", 1.0)] * 3 + [("a", "b", 0.0)] + [("b", "c", 1.0)] * 3 + [("b", "c", 0.0)]
    r = fit(["c", "b", "a"], results, prior=0)
    step = 400 * math.log10(3)
    assert r.elo[r.index("b")] == pytest.approx(step, abs=1e-3)
    assert r.elo[r.index("a")] == pytest.approx(2 * step, abs=1e-3)
    diff, half = r.difference("a", "b")
    assert diff == pytest.approx(step, abs=1e-3)
    # The a-b difference rests on the a-b games alone: its variance is theirs, not the sum along the chain.
    c = math.log(10) / 400
    assert half == pytest.approx(Z95 / math.sqrt(4 * 0.75 * 0.25 * c * c), rel=1e-5)
    assert r.interval("a")[1] - r.interval("a")[0] > 2 * half


def test_prior_keeps_a_sweep_finite_and_without_it_the_fit_refuses():
    sweep = [("a", "b", 1.0)] * 4
    r = fit(["b", "a"], sweep, prior=1.0)
    # One virtual draw: 4.5 of 5 points.
    assert r.elo[r.index("a")] == pytest.approx(400 * math.log10(0.9 / 0.1), abs=1e-2)
    with pytest.raises(RatingError, match="diverge"):
        fit(["b", "a"], sweep, prior=0)


def test_unlinked_player_and_bad_scores_are_errors():
    with pytest.raises(RatingError, match="no games link"):
        fit(["a", "b", "c"], [("a", "b", 1.0), ("a", "b", 0.0)])
    with pytest.raises(RatingError, match="0, 0.5 or 1"):
        fit(["a", "b"], [("a", "b", 0.7)])
    with pytest.raises(RatingError, match="distinct"):
        fit(["a", "a"], [])
