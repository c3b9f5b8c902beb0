"""What a match's games say about A's score: the distinct evidence, and a 95% interval drawn from it alone.

Two deterministic players from one start play one game again and again; twenty
copies of it are one observation, not twenty. So a match's games are counted
in **units**: colour pairs (games ``2p`` and ``2p + 1``: A first, then A
second, from the same start when the match plays openings), and a last game
without its partner as a unit of its own. Two units are the same when their
games are the same (same moves, same result, A on the same side): a repeated
unit is counted once in the number of units, ``n``, while the score and the
spread keep every game (the pairs' frequencies are the best estimate of how
often each happens).

The interval is a Wilson interval over the units with a design effect: the
units' spread (the ratio estimator's variance of the score, with ``n - 1``
degrees of freedom) sets an effective number of games ``n' = s (1 - s) / var``,
and the quantile is Student's t with ``n - 1`` degrees of freedom, so a handful
of distinct pairs gives the wide interval it deserves. When every unit scores
the same, the spread says nothing: a clean sweep (every unit won) takes the
bound that holds for any score in 0..1, ``low = 0.025 ** (1 / n)`` (each unit
is won with a chance of at most the mean score), its mirror for a clean defeat,
and any other common value Wilson's interval over ``n`` units. One distinct unit
cannot bound the score at all, and :class:`Evidence` says so (``bounded``).
A simulation (tests/arena/test_evidence.py) holds the interval to about 95%
coverage on pentanomial draws from 2 to 50 pairs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scipy.stats import t as student_t

from boardgame_envs.arena.elo import Z95

TAIL = 0.025  # each side of a two-sided 95% interval


@dataclass(frozen=True)
class Evidence:
    """A's score over a match and how much the games can tell about it.

    ``games`` and ``distinct_games`` count games (a game is its moves, its result and A's side);
    ``units`` and ``distinct_units`` count colour pairs (and an unpaired last game, ``single``).
    ``low``..``high`` is the 95% interval; when ``bounded`` is False it is 0..1 and means nothing.
    """

    score: float
    low: float
    high: float
    games: int
    distinct_games: int
    units: int
    distinct_units: int
    paired: bool  # the units are colour pairs (else single games: the counts alone were known)
    single: bool = False  # the last game had no partner and is a unit of its own

    @property
    def bounded(self) -> bool:
        """Whether the games bound the score at all (more than one distinct unit)."""
        return self.distinct_units > 1

    @property
    def repeats(self) -> bool:
        """Whether some game was played more than once."""
        return self.distinct_games < self.games

    def describe(self) -> str:
        """The evidence in words: ``20 games, 4 distinct: interval from 2 distinct colour pairs of 10``."""
        what = "colour pair" if self.paired else "game"
        extra = " and an unpaired last game" if self.single else ""
        games = (f"{self.games} games, {self.distinct_games} distinct" if self.repeats
                 else f"{self.games} games, all distinct")  # fmt: skip
        if not self.bounded:
            return (f"{games}: {self.distinct_units} distinct {what} of {self.units}{extra}, which cannot "
                    f"bound the score (the same games every time: vary the openings)")  # fmt: skip
        if self.distinct_units < self.units:
            return (f"{games}: interval from {self.distinct_units} distinct {what}s of {self.units}{extra} "
                    f"(a repeated {what} counts once)")  # fmt: skip
        return f"{games}: interval from {self.units} {what}s{extra}"


def game_key(record: Any, a_black: bool) -> tuple:
    """What makes two games the same game: the moves, the winner (a forfeit included) and A's colour."""
    return (tuple(record.moves), record.winner, record.forfeit, a_black)


def unit_keys(records: Sequence[Any], a_black: Sequence[bool], paired: bool = True) -> list[tuple]:
    """What makes two units the same, unit by unit in order: a colour pair's two game keys (``paired``; a last
    game without its partner is a unit of its own), else one game's key. The SPRT counts its samples by them."""
    keys = [game_key(r, black) for r, black in zip(records, a_black)]
    if not paired:
        return [(key,) for key in keys]
    return [tuple(keys[i : i + 2]) for i in range(0, len(keys), 2)]


def from_records(records: Sequence[Any], a_black: Sequence[bool], points: Sequence[float]) -> Evidence:
    """The evidence of a match's games in order (``points``: A's points in each, 1 / 0.5 / 0)."""
    keys = unit_keys(records, a_black)
    units = [(sum(points[2 * u : 2 * u + 2]), len(key), key) for u, key in enumerate(keys)]
    single = len(records) % 2 == 1
    distinct_games = len({key for pair in keys for key in pair})
    return _evidence(units, len(records), distinct_games, paired=True, single=single)


def from_counts(wins: int, draws: int, losses: int) -> Evidence:
    """The evidence of counts alone (the games themselves unknown): every game a unit, all taken as distinct."""
    units = [(1.0, 1, ("w", i)) for i in range(wins)] + [(0.5, 1, ("d", i)) for i in range(draws)]
    units += [(0.0, 1, ("l", i)) for i in range(losses)]
    return _evidence(units, len(units), len(units), paired=False)


def _evidence(units: list[tuple[float, int, tuple]], games: int, distinct_games: int, *, paired: bool,
              single: bool = False) -> Evidence:  # fmt: skip
    n_units = len(units)
    distinct = len({key for _, _, key in units})
    if games == 0:
        return Evidence(0.5, 0.0, 1.0, 0, 0, 0, 0, paired)
    s = sum(p for p, _, _ in units) / games
    low, high = interval(units, s, distinct, games)
    return Evidence(s, low, high, games, distinct_games, n_units, distinct, paired, single)


def interval(units: list[tuple[float, int, Any]], s: float, n: int, games: int) -> tuple[float, float]:
    """The 95% interval of the score ``s`` from ``units`` (points, games, key) counted as ``n`` independent ones."""
    if n < 2:
        return 0.0, 1.0
    mean_games = games / len(units)
    spread = sum((p - s * g) ** 2 for p, g, _ in units) / len(units)  # per unit, every unit weighed as played
    var = spread / (mean_games**2) / (n - 1)  # the ratio estimator's variance with n - 1 degrees of freedom
    q = float(student_t.ppf(1 - TAIL, n - 1))
    if var <= 0.0:
        if s >= 1.0:
            return TAIL ** (1 / n), 1.0
        if s <= 0.0:
            return 0.0, 1.0 - TAIL ** (1 / n)
        return wilson(s, n, q)
    return wilson(s, s * (1 - s) / var, q)


def wilson(s: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``s`` of ``n`` (possibly effective) trials, quantile ``z``."""
    z2 = z * z
    centre = (s + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(s * (1 - s) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)
