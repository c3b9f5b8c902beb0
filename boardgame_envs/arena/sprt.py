"""Sequential probability ratio test for matches: stop as soon as the games decide between two Elo values.

As engine testers do (cutechess-cli, fishtest): H0 says A is ``elo0`` Elo
stronger than B, H1 says ``elo1``, with error rates ``alpha`` (accepting H1
when H0 holds) and ``beta``. After each sample the log-likelihood ratio
(LLR) is compared with the bounds ``log(beta / (1 - alpha))`` and
``log((1 - beta) / alpha)`` (-2.94 and +2.94 for 0.05 and 0.05).

The LLR is the generalised SPRT (GSPRT) of Michel Van den Bergh, as fishtest
computes it (no draw model needed): the samples' empirical distribution
``p`` over the possible outcomes is compared with the two distributions
closest to it in likelihood whose mean scores are ``s0`` and ``s1``, the
expected scores of ``elo0`` and ``elo1`` on the logistic Elo scale
(``s = 1 / (1 + 10 ** (-elo / 400))``): ``LLR = N sum_i p_i log(q1_i / q0_i)``. A sample is a colour-swapped game
pair (its mean score: 0, 1/4, 1/2, 3/4, 1, the *pentanomial* model) when the
match plays pairs, else one game (0, 1/2, 1: *trinomial*). Pairs are the
right unit there: the two games of a pair share an opening, so they are not
independent, and treating them as such misstates the variance.

A sample played again move for move is not new evidence (two deterministic
players from one start replay one game): as in
:mod:`boardgame_envs.arena.evidence`, the frequencies ``p`` take every sample,
but ``N`` counts the **distinct** ones (:class:`Samples` keys them by
:func:`~boardgame_envs.arena.evidence.unit_keys`), so a replay adds nothing and
cannot decide. When a whole cycle through the match's starts replays the cycle
before it, the players are replaying their games and no new sample will come:
the test stops there, undecided (:attr:`Samples.replaying`). With every sample
distinct the LLR is fishtest's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import brentq

PSEUDO_COUNT = 1e-3

__all__ = ["PSEUDO_COUNT", "SPRT", "Samples", "expected_score"]


def _closest_with_mean(freq: np.ndarray, outcomes: np.ndarray, mean: float) -> np.ndarray:
    """The distribution over ``outcomes`` with this ``mean`` that maximises the likelihood of ``freq``.

    Lagrange: ``q_i = freq_i / (1 + lam (x_i - mean))`` with ``lam`` the root of
    ``sum freq_i (x_i - mean) / (1 + lam (x_i - mean))``, which falls from
    +inf to -inf on the interval where every ``q_i`` is positive.
    """
    d = outcomes - mean
    lo, hi = -1.0 / d.max(), -1.0 / d.min()
    span = (hi - lo) * 1e-12
    lam = brentq(lambda t: float(np.sum(freq * d / (1 + t * d))), lo + span, hi - span)
    q = freq / (1 + lam * d)
    return q / q.sum()


def expected_score(elo: float) -> float:
    """The score that an Elo advantage of ``elo`` predicts (logistic scale)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class SPRT:
    """H0: Elo = ``elo0`` against H1: Elo = ``elo1`` (``elo0 < elo1``), error rates ``alpha``, ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT needs elo0 < elo1, got {self.elo0:g}, {self.elo1:g}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                raise ValueError(f"SPRT {name} must be in (0, 0.5), got {value!r}")

    @classmethod
    def parse(cls, text: str) -> SPRT:
        """``"0,10"`` -> ``SPRT(0, 10)``: the form of ``--sprt ELO0,ELO1``."""
        parts = text.split(",")
        try:
            elo0, elo1 = (float(p) for p in parts)
        except ValueError:
            raise ValueError(f"--sprt takes two Elo values as ELO0,ELO1 (e.g. 0,10), got {text!r}") from None
        return cls(elo0, elo1)

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): accept H0 at or below the lower, H1 at or above the upper."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, samples: Sequence[float], pairs: bool = False, distinct: int | None = None) -> float:
        """The GSPRT log-likelihood ratio of the samples: game scores (0, 1/2, 1), or pair means with ``pairs``.

        ``distinct``: how many of the samples are distinct games or pairs (default: all of them); the
        frequencies take every sample, the evidence ``N`` only the distinct ones. Each outcome gets a
        pseudo-count of 0.001 (as fishtest does), so that a run of identical results still has a
        distribution to fit.
        """
        n = len(samples) if distinct is None else distinct
        if not 0 <= n <= len(samples) or (samples and n == 0):
            raise ValueError(f"distinct must be 1..{len(samples)} for {len(samples)} samples, got {distinct!r}")
        if not samples:
            return 0.0
        outcomes = np.array((0.0, 0.25, 0.5, 0.75, 1.0) if pairs else (0.0, 0.5, 1.0))
        counts = np.full(len(outcomes), PSEUDO_COUNT)
        for x in samples:
            counts[np.flatnonzero(outcomes == x)[0]] += 1
        freq = counts / counts.sum()
        q0 = _closest_with_mean(freq, outcomes, expected_score(self.elo0))
        q1 = _closest_with_mean(freq, outcomes, expected_score(self.elo1))
        return float(n * np.sum(freq * np.log(q1 / q0)))

    def decision(self, llr: float) -> str | None:
        """``"H0"`` or ``"H1"`` once the LLR crosses a bound, else None (play on)."""
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None

    def __str__(self) -> str:
        return f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g}"


@dataclass
class Samples:
    """An SPRT's samples as a match plays them, each with its key (what makes two samples the same game or pair).

    ``cycle``: samples in one cycle through the match's starts (openings and seats), after which deterministic
    players play the same samples again.
    """

    cycle: int
    scores: list[float] = field(default_factory=list)
    keys: list[Any] = field(default_factory=list)
    seen: set = field(default_factory=set)
    run: int = 0  # how many samples in a row were the sample one cycle before them

    def __post_init__(self) -> None:
        if self.cycle < 1:
            raise ValueError(f"a cycle is at least one sample, got {self.cycle!r}")

    def add(self, score: float, key: Any) -> bool:
        """Count a sample; True when it is new evidence (no earlier sample had its key)."""
        new = key not in self.seen
        self.seen.add(key)
        replays = len(self.keys) >= self.cycle and self.keys[-self.cycle] == key
        self.run = self.run + 1 if replays else 0
        self.scores.append(score)
        self.keys.append(key)
        return new

    @property
    def distinct(self) -> int:
        """Distinct samples: the evidence ``N`` of the LLR."""
        return len(self.seen)

    @property
    def replaying(self) -> bool:
        """Whether the last whole cycle replayed the cycle before it, sample for sample: the players play each
        start the same way every time, so more games would repeat these samples."""
        return self.run >= self.cycle
