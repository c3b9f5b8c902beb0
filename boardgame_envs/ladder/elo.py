"""One player's Elo against opponents of known rating; the ladder's fit of all its levels comes from the arena.

The fit of a set of players from their pairwise results, :func:`fit` (with
:class:`Ratings`, :func:`pair_totals` and :class:`RatingError`), lives in
:mod:`boardgame_envs.arena.elo`, the package's one Bradley-Terry fit; it is named here
too because the ladder build rates its levels with it (level 0 pinned at 0, one
virtual draw a pair: ``prior=1``). Its virtual draws are right for the build, where
every pair plays many games, and wrong for one newcomer rated on a few: they would
pull it towards the levels it met, while the Hessian interval ignores that pull.

:func:`fit_against` answers the other question: it rates one player against
opponents whose ratings are known (a newcomer against published levels) with no
virtual games, under the same model (the Elo logistic, a draw counting half a
point): the plain maximum-likelihood Elo, and a 95% interval by profile likelihood,
every rating whose log-likelihood lies within ``Z95 ** 2 / 2`` of the maximum.
Unlike the Hessian's it is not symmetric and stays honest when the score is near 0%
or 100%. A player who won every game has no finite estimate and no upper bound; its
lower bound is then the rating at which winning all those games had a 5% chance
(exact, not asymptotic: one-sided 95%), and the same below for a player who lost
every game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

from boardgame_envs.arena.elo import Z95, C, RatingError, Ratings, fit, pair_totals

__all__ = ["Z95", "C", "Estimate", "RatingError", "Ratings", "fit", "fit_against", "pair_totals"]


@dataclass(frozen=True)
class Estimate:
    """One player's maximum-likelihood Elo and its 95% interval against opponents of known rating.

    ``elo`` is ``+inf`` (``-inf``) when the player won (lost) every game; ``high``
    (``low``) is then infinite too and ``low`` (``high``) is a one-sided 95% bound.
    """

    elo: float
    low: float
    high: float

    @property
    def bounded(self) -> bool:
        """Whether the games bound the rating on both sides (both ends finite)."""
        return math.isfinite(self.low) and math.isfinite(self.high)


def fit_against(opponents: Sequence[float], games: Sequence[float], points: Sequence[float]) -> Estimate:
    """One player's Elo from ``points`` scored in ``games`` against opponents rated ``opponents`` (held fixed).

    A draw counts half a point. The interval is the profile-likelihood (likelihood
    ratio) one; see the module's docstring for the one-sided cases.
    """
    r, n, s = (np.asarray(v, dtype=float) for v in (opponents, games, points))
    if not r.shape == n.shape == s.shape or r.ndim != 1:
        raise RatingError(f"opponents, games and points must be lists of one length, got {r.shape}, {n.shape}, {s.shape}")
    if not (np.all(np.isfinite(r)) and np.all(n >= 0) and np.all((s >= 0) & (s <= n))):
        raise RatingError("each opponent needs a finite rating, games >= 0 and points between 0 and its games")
    if n.sum() == 0:
        raise RatingError("no games to rate")
    total, count = float(s.sum()), float(n.sum())
    # Plain floats, not arrays: a rating meets a handful of levels, and rate's walk refits after every pair.
    rows = [(float(a), float(b), float(c)) for a, b, c in zip(r, n, s) if b > 0]

    def loglik(x: float) -> float:
        return sum(p * _log_expit(C * (x - q)) + (g - p) * _log_expit(C * (q - x)) for q, g, p in rows)

    def score(x: float) -> float:  # the log-likelihood's slope over C; it falls as x rises
        return sum(p - g / (1.0 + math.exp(C * (q - x))) if C * (q - x) < 700 else p for q, g, p in rows)

    if total == count:  # won all: loglik rises to 0 as x -> inf; bound where winning all had a 5% chance
        return Estimate(math.inf, _crossing(lambda x: loglik(x) - math.log(0.05), float(r.max()), -1.0), math.inf)
    if total == 0:
        return Estimate(-math.inf, -math.inf, _crossing(lambda x: loglik(x) - math.log(0.05), float(r.min()), 1.0))
    best = _crossing(score, float(np.average(r, weights=n)), 1.0)
    cut = loglik(best) - Z95 * Z95 / 2
    low = _crossing(lambda x: loglik(x) - cut, best, -1.0)
    high = _crossing(lambda x: loglik(x) - cut, best, 1.0)
    return Estimate(best, low, high)


def _log_expit(d: float) -> float:
    """``log(1 / (1 + exp(-d)))`` without overflow."""
    return -math.log1p(math.exp(-d)) if d > 0 else d - math.log1p(math.exp(d))


def _crossing(f: Callable[[float], float], start: float, direction: float) -> float:
    """Where ``f``, positive on one side of the crossing and negative beyond it in ``direction``, crosses 0.

    ``f`` must be monotone along ``direction`` near the crossing; ``start`` may lie on
    either side of it. Steps double from 100 Elo until the sign changes.
    """
    a, fa = start, f(start)
    ahead = direction if fa > 0 else -direction  # from a positive value walk into the negative side, else back
    step = 100.0
    while True:
        b = a + ahead * step
        fb = f(b)
        if (fa > 0) != (fb > 0):
            return float(brentq(f, min(a, b), max(a, b), xtol=1e-7))
        if step > 1e7:
            raise RatingError("the likelihood has no crossing within 10 million Elo")
        a, fa, step = b, fb, step * 2
