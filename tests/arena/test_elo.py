"""The one Bradley-Terry fit: cases worked by hand, the likelihood equations, the anchors, the round robin on it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from boardgame_envs.arena import MatchResult, tournament
from boardgame_envs.arena.elo import Z95, C, RatingError, fit, pair_totals

STEP = 400 * math.log10(2)  # the Elo gap at which the stronger side scores 2/3


def games(a: str, b: str, wins: int, draws: int, losses: int) -> list[tuple[str, str, float]]:
    return [(a, b, 1.0)] * wins + [(a, b, 0.5)] * draws + [(a, b, 0.0)] * losses


# Three players, 14 games a pair. With one virtual draw a pair (prior=1) each pair has
# 15 games: a scores 10 of 15 against b (odds 2), b 10 of 15 against c (odds 2), and a
# 12 of 15 against c (odds 4 = 2 * 2). Every pair's score is then exactly what ratings
# a - b = b - c = 400 log10 2 predict, so those ratings solve the likelihood equations
# and are the maximum (the log-likelihood is concave): mean 0 puts b at 0.
HAND = games("a", "b", 9, 1, 4) + games("b", "c", 9, 1, 4) + games("a", "c", 11, 1, 2)
HAND_ELO = {"a": STEP, "b": 0.0, "c": -STEP}


def expected_points(players, results, elo, prior):
    """Each player's points and the points the ratings predict, virtual draws included."""
    n, s = pair_totals(players, results)
    played = n > 0
    n, s = n + prior * played, s + 0.5 * prior * played
    p = 1 / (1 + np.exp(-C * (elo[:, None] - elo[None, :])))  # p[i, j]: i's expected score against j
    points = s.sum(axis=1) + (n - s).sum(axis=0)
    predicted = (n * p).sum(axis=1) + (n.T * p).sum(axis=1)
    return points, predicted


def test_the_hand_worked_three_players():
    r = fit(["a", "b", "c"], HAND, prior=1.0, anchor="mean")
    for player, elo in HAND_ELO.items():
        assert r.elo[r.index(player)] == pytest.approx(elo, abs=1e-3)
    points, predicted = expected_points(r.players, HAND, r.elo, prior=1.0)
    assert points.tolist() == [22.0, 15.0, 8.0]  # a: 9.5 + 11.5 + two virtual halves
    assert predicted == pytest.approx(points, abs=1e-5)


def test_without_the_prior_the_mle_solves_the_likelihood_equations():
    # a-b 3:1, b-c 3:1, a-c 9:1 (no draws, prior 0): ratings 400 log10 3 apart reproduce every score.
    results = games("a", "b", 3, 0, 1) + games("b", "c", 3, 0, 1) + games("a", "c", 9, 0, 1)
    r = fit(["c", "b", "a"], results, prior=0)
    step = 400 * math.log10(3)
    assert r.elo.tolist() == pytest.approx([0.0, step, 2 * step], abs=1e-3)
    # A field whose scores no ratings reproduce, draws included: the equations still hold at the fit.
    field = games("a", "b", 5, 3, 2) + games("b", "c", 2, 6, 2) + games("a", "c", 1, 1, 4) + games("c", "d", 7, 0, 3)
    for prior in (0.0, 1.0):
        r = fit(["a", "b", "c", "d"], field, prior=prior)
        points, predicted = expected_points(r.players, field, r.elo, prior)
        assert predicted == pytest.approx(points, abs=1e-5)


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


def test_the_anchor_moves_the_scale_not_the_differences():
    field = games("a", "b", 5, 3, 2) + games("b", "c", 2, 6, 2) + games("a", "c", 1, 1, 4)
    first = fit(["a", "b", "c"], field)
    mean = fit(["a", "b", "c"], field, anchor="mean")
    assert first.elo[0] == 0.0 and first.interval("a") == (0.0, 0.0)
    assert mean.elo.sum() == pytest.approx(0.0, abs=1e-9)
    assert mean.elo == pytest.approx(first.elo - first.elo.mean(), abs=1e-9)
    for x, y in (("a", "b"), ("b", "c"), ("a", "c")):
        assert mean.difference(x, y) == pytest.approx(first.difference(x, y), abs=1e-9)
    # Centred ratings sum to 0 whatever the games were: each row of their covariance does too.
    assert mean.cov.sum(axis=1) == pytest.approx([0.0, 0.0, 0.0], abs=1e-9)
    low, high = mean.interval("a")
    assert low < mean.elo[0] < high


def test_anchor_errors():
    with pytest.raises(RatingError, match="anchor must be one of"):
        fit(["a", "b"], games("a", "b", 1, 0, 1), anchor="last")
    with pytest.raises(RatingError, match="leave out fixed"):
        fit(["a", "b"], games("a", "b", 1, 0, 1), fixed={"a": 0.0}, anchor="mean")
    with pytest.raises(RatingError, match="no players"):
        fit([], [], anchor="mean")


def test_the_ladder_rates_with_this_fit():
    from boardgame_envs.ladder import elo as ladder_elo

    assert ladder_elo.fit is fit and ladder_elo.RatingError is RatingError


def test_round_robin_ratings_are_the_fit(monkeypatch):
    # The matches are stood in for by the hand-worked results: the round robin's ratings are
    # the fit's (mean 0, one virtual draw a pair), the hand-worked numbers.
    table = {("a", "b"): [9, 1, 4], ("b", "c"): [9, 1, 4], ("a", "c"): [11, 1, 2]}

    def fake_match(env_fn, spec_a, spec_b, games, *args, **kwargs):
        w, d, l = table[spec_a, spec_b]
        return MatchResult(spec_a, spec_b, {"first": [w, d, l], "second": [0, 0, 0]})

    monkeypatch.setattr(tournament, "match", fake_match)
    pairs: list[MatchResult] = []
    elo = tournament.round_robin(None, {"a": "a", "b": "b", "c": "c"}, games=14, progress=False, pairs=pairs)
    assert list(elo) == ["a", "b", "c"] and len(pairs) == 3
    assert elo == pytest.approx(HAND_ELO, abs=1e-3)
    # Two players: one virtual draw, so a 10-0 sweep is 10.5 of 11 points, not an infinite gap.
    table[("a", "b")] = [10, 0, 0]
    two = tournament.round_robin(None, {"a": "a", "b": "b"}, games=10, progress=False)
    assert two["a"] - two["b"] == pytest.approx(400 * math.log10(10.5 / 0.5), abs=1e-3)
