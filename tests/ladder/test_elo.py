"""One player rated against fixed opponents (fit_against), against cases worked by hand.

The fit of a whole ladder is the arena's: tests/arena/test_elo.py.
"""

from __future__ import annotations

import math

import pytest

from boardgame_envs.ladder.elo import Z95, RatingError, fit_against


def test_fit_against_fixed_opponents_by_hand():
    # 3 wins, 1 loss against a +200 opponent: the MLE solves p = 0.75, R = 200 + 400 log10(3).
    est = fit_against([200.0], [4], [3])
    assert est.elo == pytest.approx(200 + 400 * math.log10(3), abs=1e-4) and est.bounded
    # The profile-likelihood ends: where the log-likelihood is Z95^2 / 2 below its maximum.
    c = math.log(10) / 400

    def loglik(x):
        p = 1 / (1 + math.exp(-c * (x - 200)))
        return 3 * math.log(p) + math.log(1 - p)

    for end in (est.low, est.high):
        assert loglik(est.elo) - loglik(end) == pytest.approx(Z95**2 / 2, abs=1e-6)
    assert est.high - est.elo > est.elo - est.low  # not symmetric: 3 of 4 says less about how much stronger


def test_fit_against_even_score_across_levels_and_draws():
    # One win against -100 and one loss against +100: even, by symmetry exactly 0.
    est = fit_against([-100.0, 100.0], [1, 1], [1, 0])
    assert est.elo == pytest.approx(0, abs=1e-4) and est.low == pytest.approx(-est.high, abs=1e-4)
    # A draw is half a point: bounded on both sides even with no win and no loss.
    drawn = fit_against([300.0], [1], [0.5])
    assert drawn.elo == pytest.approx(300, abs=1e-4) and drawn.bounded


def test_fit_against_a_clean_sweep_is_one_sided_and_exact():
    # 10 wins against +1000: no estimate, no upper bound; the lower bound is where 10 wins had a 5% chance.
    est = fit_against([1000.0], [10], [10])
    assert est.elo == est.high == math.inf and not est.bounded
    p = 0.05 ** (1 / 10)
    assert est.low == pytest.approx(1000 + 400 * math.log10(p / (1 - p)), abs=1e-4)
    lost = fit_against([0.0, 500.0], [2, 2], [0, 0])
    assert lost.elo == lost.low == -math.inf
    # Lost 2 against 0 and 2 against +500: a player at the bound loses all four with probability 5%.
    x = lost.high
    loses = [1 / (1 + 10 ** ((x - level) / 400)) for level in (0.0, 500.0)]
    assert loses[0] ** 2 * loses[1] ** 2 == pytest.approx(0.05, rel=1e-5)


def test_fit_against_refuses_bad_input():
    with pytest.raises(RatingError, match="no games"):
        fit_against([0.0], [0], [0])
    with pytest.raises(RatingError, match="between 0 and its games"):
        fit_against([0.0], [2], [3])
    with pytest.raises(RatingError, match="finite rating"):
        fit_against([math.nan], [2], [1])
    with pytest.raises(RatingError, match="one length"):
        fit_against([0.0, 1.0], [2], [1])
