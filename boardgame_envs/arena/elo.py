"""Bradley-Terry (Elo) ratings of a set of players by maximum likelihood, draws as half points, with 95% intervals.

This is the package's one fit of several players from their pairwise results: the
arena's round robin (mean 0) and the ladder build (level 0 at 0) both call
:func:`fit`. The model: player ``i`` scores ``p = 1 / (1 + 10 ** ((R_j - R_i) / 400))``
against ``j`` in expectation, a draw counting half a point. :func:`fit` maximises the
likelihood ``sum s log p + (n - s) log (1 - p)`` over the results of every pair with
scipy's optimiser. Elo differences alone do not place the scale, so an *anchor* does:
some players' ratings held fixed (by default the first at 0), or the mean of all the
ratings at 0 (``anchor="mean"``, for a field with no reference player). The
covariance is the inverse of the Hessian of the negative log-likelihood at the
optimum, so the interval of any difference ``R_i - R_j`` comes from
``var_i + var_j - 2 cov_ij``; the anchor moves the ratings and their own intervals,
never a difference or its interval. Counting a draw as half a win and half a loss
makes the intervals conservative when draws are common (tic-tac-toe): the binomial
variance bounds the variance of a score with draws.

``prior`` adds that many virtual games, all drawn, between every pair that played:
a small pull towards equality that keeps a 100% record finite. With ``prior=0`` the
fit is the plain maximum-likelihood estimate (e.g. 3 wins in 4 games: +191 Elo).
At the optimum every player's expected points equal its points, virtual draws
included (the likelihood equations): a test holds the fit to them.

A result may carry a weight, ``(a, b, score, weight)``: the games it stands for.
The round robin weighs each game of a pairing by its share of distinct colour
pairs (:mod:`boardgame_envs.arena.evidence`), so a pairing of deterministic
players replaying one pair counts as that one pair, not as every copy of it;
with every game distinct the weights are 1 and the fit is the plain one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components
from scipy.special import expit, log_expit

Z95 = 1.959963984540054
C = math.log(10.0) / 400.0  # Elo points -> natural-log odds
ANCHORS = ("first", "mean")


class RatingError(ValueError):
    """Results that cannot pin down the ratings (a player with no games, a disconnected set)."""


@dataclass(frozen=True)
class Ratings:
    """Fitted Elo ratings and their covariance (zero rows and columns for fixed players)."""

    players: tuple[str, ...]
    elo: np.ndarray
    cov: np.ndarray

    def index(self, player: str) -> int:
        return self.players.index(player)

    def interval(self, player: str) -> tuple[float, float]:
        """The 95% interval of a player's rating."""
        i = self.index(player)
        half = Z95 * math.sqrt(max(self.cov[i, i], 0.0))
        return float(self.elo[i] - half), float(self.elo[i] + half)

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """``R_a - R_b`` and the half-width of its 95% interval."""
        i, j = self.index(a), self.index(b)
        var = self.cov[i, i] + self.cov[j, j] - 2.0 * self.cov[i, j]
        return float(self.elo[i] - self.elo[j]), Z95 * math.sqrt(max(var, 0.0))


def pair_totals(players: Sequence[str], results: Iterable[tuple]) -> tuple[np.ndarray, np.ndarray]:
    """Games ``n[i, j]`` and points ``s[i, j]`` of ``i`` against ``j`` (``i < j``) from ``(a, b, score_of_a)``
    or ``(a, b, score_of_a, weight)`` (a game counted as ``weight`` games, ``0 < weight <= 1``)."""
    where = {p: i for i, p in enumerate(players)}
    n = np.zeros((len(players), len(players)))
    s = np.zeros_like(n)
    for a, b, score, *rest in results:
        if a == b:
            raise RatingError(f"a game of {a!r} against itself cannot be rated")
        if score not in (0.0, 0.5, 1.0):
            raise RatingError(f"a game's score is 0, 0.5 or 1, got {score!r}")
        weight = rest[0] if rest else 1.0
        if len(rest) > 1 or not 0.0 < weight <= 1.0:
            raise RatingError(f"a result is (a, b, score) or (a, b, score, weight) with 0 < weight <= 1, got "
                              f"{(a, b, score, *rest)!r}")  # fmt: skip
        i, j = where[a], where[b]
        if i > j:
            i, j, score = j, i, 1.0 - score
        n[i, j] += weight
        s[i, j] += weight * score
    return n, s


def fit(
    players: Sequence[str], results: Iterable[tuple], fixed: dict[str, float] | None = None,
    prior: float = 1.0, *, anchor: str = "first",
) -> Ratings:  # fmt: skip
    """Elo ratings of ``players`` from ``(a, b, score_of_a)`` results, one triple a game (or
    ``(a, b, score_of_a, weight)``: a game that counts as ``weight`` games).

    ``anchor="first"`` holds the ``fixed`` ratings (default: the first player at 0);
    ``anchor="mean"`` places the mean of all the ratings at 0 and takes no ``fixed``.
    ``prior``: virtual drawn games added to every pair that played.
    """
    players = tuple(players)
    if len(set(players)) != len(players):
        raise RatingError(f"players must be distinct, got {players}")
    if anchor not in ANCHORS:
        raise RatingError(f"anchor must be one of {ANCHORS}, got {anchor!r}")
    if anchor == "mean" and fixed is not None:
        raise RatingError("anchor='mean' places the scale by the mean rating: leave out fixed")
    if not players:
        raise RatingError("no players to rate")
    if anchor == "mean":
        # The same likelihood with the first player held at 0, then shifted: Elo differences,
        # and so the maximum, do not depend on where the scale sits.
        pinned = fit(players, results, prior=prior)
        centre = np.eye(len(players)) - 1.0 / len(players)  # r -> r - mean(r), a linear map
        return Ratings(players, centre @ pinned.elo, centre @ pinned.cov @ centre.T)
    fixed = {players[0]: 0.0} if fixed is None else dict(fixed)
    if not fixed:
        raise RatingError("fix at least one player's rating: Elo differences alone do not place the scale")
    unknown = set(fixed) - set(players)
    if unknown:
        raise RatingError(f"fixed players {sorted(unknown)} are not among the players")
    if prior < 0:
        raise RatingError(f"prior must be at least 0 virtual games, got {prior}")
    n, s = pair_totals(players, results)
    played = n > 0
    n = n + prior * played
    s = s + 0.5 * prior * played
    iu, ju = np.nonzero(n)
    free = [k for k, p in enumerate(players) if p not in fixed]
    base = np.array([fixed.get(p, 0.0) for p in players])
    _check_identified(players, n, s, fixed)
    if not free:
        return Ratings(players, base, np.zeros((len(players), len(players))))
    nn, ss = n[iu, ju], s[iu, ju]

    def full(x: np.ndarray) -> np.ndarray:
        r = base.copy()
        r[free] = x
        return r

    def objective(x: np.ndarray) -> tuple[float, np.ndarray]:
        r = full(x)
        d = C * (r[iu] - r[ju])
        value = -np.sum(ss * log_expit(d) + (nn - ss) * log_expit(-d))
        g_pair = -(ss - nn * expit(d)) * C  # d(value)/d(r_i); minus that for r_j
        grad = np.zeros(len(players))
        np.add.at(grad, iu, g_pair)
        np.add.at(grad, ju, -g_pair)
        return float(value), grad[free]

    x0 = np.zeros(len(free))
    opt = minimize(objective, x0, jac=True, method="BFGS", options={"gtol": 1e-8, "maxiter": 10_000})
    r = full(opt.x)
    hess = _hessian(r, iu, ju, nn, len(players))[np.ix_(free, free)]
    cov = np.zeros((len(players), len(players)))
    cov[np.ix_(free, free)] = np.linalg.inv(hess)
    return Ratings(players, r, cov)


def games_covariance(ratings: Ratings, results: Iterable[tuple], *, anchor: str = "mean") -> np.ndarray:
    """The covariance of ``ratings`` (a fit of these ``results``, ``anchor`` "first" or "mean" as it was fitted)
    from the games alone: the inverse Hessian of the plain likelihood, weights as game counts, no virtual draws."""
    if anchor not in ANCHORS:
        raise RatingError(f"anchor must be one of {ANCHORS}, got {anchor!r}")
    k = len(ratings.players)
    n, _ = pair_totals(ratings.players, results)
    iu, ju = np.nonzero(n)
    cov = np.zeros((k, k))
    if k > 1:
        hess = _hessian(ratings.elo, iu, ju, n[iu, ju], k)[1:, 1:]  # the first player pinned
        try:
            cov[1:, 1:] = np.linalg.inv(hess)
        except np.linalg.LinAlgError:
            raise RatingError("no games link every player to the rest: the ratings have no covariance") from None
    if anchor == "mean":
        centre = np.eye(k) - 1.0 / k
        cov = centre @ cov @ centre.T
    return cov


def unbounded(players: Sequence[str], results: Iterable[tuple]) -> str | None:
    """Why the games alone (no virtual draws) cannot bound the ratings, or None when they can: the
    plain likelihood has a finite maximum only when the results tie every player to the rest both ways."""
    players = tuple(players)
    n, s = pair_totals(players, results)
    try:
        _check_identified(players, n, s, {players[0]: 0.0} if players else {})
    except RatingError as exc:
        return str(exc)
    return None


def _hessian(r: np.ndarray, iu: np.ndarray, ju: np.ndarray, nn: np.ndarray, size: int) -> np.ndarray:
    """Hessian of the negative log-likelihood in the ratings (it does not depend on the scores)."""
    p = expit(C * (r[iu] - r[ju]))
    w = nn * p * (1 - p) * C * C
    h = np.zeros((size, size))
    np.add.at(h, (iu, iu), w)
    np.add.at(h, (ju, ju), w)
    np.add.at(h, (iu, ju), -w)
    np.add.at(h, (ju, iu), -w)
    return h


def _check_identified(players: tuple[str, ...], n: np.ndarray, s: np.ndarray, fixed: dict[str, float]) -> None:
    """Raise unless the likelihood has a finite maximum.

    With the fixed players merged into one node, the maximum is finite exactly when
    every node can reach every other along "scored points against" edges (Zermelo's
    condition); games alone linking a player to a fixed one is the weaker, first check.
    """
    k = len(players)
    node = np.array([0 if p in fixed else 1 + i for i, p in enumerate(players)])
    size = 1 + k
    scored = np.zeros((size, size), dtype=bool)
    linked = np.zeros((size, size), dtype=bool)
    for i, j in zip(*np.nonzero(n)):
        a, b = node[i], node[j]
        linked[a, b] = linked[b, a] = True
        scored[a, b] |= s[i, j] > 0
        scored[b, a] |= s[i, j] < n[i, j]
    present = sorted({0, *node.tolist()}) if fixed else sorted(set(node.tolist()))
    sub = np.ix_(present, present)
    names = ["<fixed>" if m == 0 else players[m - 1] for m in present]
    count, label = connected_components(csr_matrix(linked[sub]), directed=False)
    if count > 1:
        lost = [nm for nm, lab in zip(names, label) if lab != label[0]]
        raise RatingError(f"no games link {lost} to {names[0]}")
    count, _ = connected_components(csr_matrix(scored[sub]), directed=True, connection="strong")
    if count > 1:
        raise RatingError("the ratings diverge: some players won (or lost) every game against the rest; fit with prior > 0")
