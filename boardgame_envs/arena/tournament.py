"""The round robin: every pair of policies plays a :func:`~boardgame_envs.arena.matches.match`, one Elo fit rates them all.

Its invariant is the arena's: a replayed colour pair is one observation. Each
pairing's games enter the fit (:func:`boardgame_envs.arena.elo.fit`) weighed by the
match's share of distinct colour pairs (:mod:`boardgame_envs.arena.evidence`), so two
deterministic players replaying a few pairs weigh what those pairs weigh; with every
pair distinct the weights are 1 and the ratings are the plain fit's. The table prints
each pairing's score with the interval from its distinct pairs, or says it has none.

Each policy's Elo (mean 0) comes with a 95% interval (:func:`standings`): the fit's
rating plus or minus 1.96 standard errors from the observed information of the
games alone, weighed as the fit weighs them (:func:`~boardgame_envs.arena.elo.games_covariance`;
the virtual draw that keeps a sweep finite is no evidence). When the games cannot
place the ratings, the pairings with more than one distinct colour pair having no
finite maximum-likelihood fit (a policy won or lost every game, a set of policies
beat the rest in every game, or a policy's only ties to the others are replays),
no rating can be bounded against the mean, and the table says why instead of
printing an interval. A simulation (tests/arena/test_round_robin_intervals.py)
holds the intervals to about 95% coverage.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from boardgame_envs.arena.elo import Z95, Ratings, fit, games_covariance, unbounded
from boardgame_envs.arena.matches import DEFAULT_OPENINGS, MatchResult, match


def round_robin(
    env_fn: Callable[[], Any], specs: dict[str, Any], games: int = 20, seed: int = 0, jobs: int = 1,
    progress: bool = True, openings: Any = DEFAULT_OPENINGS, pairs: list[MatchResult] | None = None,
    save_games: str | os.PathLike | None = None,
) -> dict[str, float]:  # fmt: skip
    """Every pair plays ``games``; returns Elo ratings (mean 0), best first, from :func:`boardgame_envs.arena.elo.fit`.

    The fit counts one virtual draw between every pair (``prior=1``), so a policy
    that won every game still gets a finite rating, and weighs a pairing's games by
    its distinct colour pairs (:func:`pair_results`). ``openings`` as in
    :func:`match` (by default the game's set, as the command line plays it).
    ``pairs``, when given, receives each pair's :class:`MatchResult`
    (for :func:`round_robin_table`). ``save_games``: a directory that receives
    every game, one record each, as :func:`match` writes them, named by the
    pairing (``pair-01-game-0001.sgf``: the first pairing's first game; the
    pairings in the table's order; each record names its two players).
    """
    names = list(specs)
    results: list[tuple[str, str, float, float]] = []
    pairing = 0
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            pairing += 1
            r = match(env_fn, specs[names[i]], specs[names[j]], games, seed + 1000 * i + j, jobs, progress,
                      openings=openings, save_games=save_games, save_name=f"pair-{pairing:02d}-game")  # fmt: skip
            if r.interrupted:
                raise KeyboardInterrupt  # the table needs every pair: stop here
            if pairs is not None:
                pairs.append(r)
            results += pair_results(names[i], names[j], r)
    ratings = fit(names, results, prior=1.0, anchor="mean")
    return dict(sorted(zip(names, (float(e) for e in ratings.elo)), key=lambda kv: -kv[1]))


@dataclass(frozen=True)
class Standing:
    """A policy's Elo (mean 0) and the half-width of its 95% interval; ``half`` is None, and ``why`` says why,
    when the games cannot bound it."""

    name: str
    elo: float
    half: float | None
    why: str = ""

    def describe(self) -> str:
        """``+153 (+80..+226)``, or ``+300 (no bound: it won every game)``."""
        if self.half is None:
            return f"{self.elo:+6.0f}  (no bound: {self.why})"
        return f"{self.elo:+6.0f}  ({self.elo - self.half:+.0f}..{self.elo + self.half:+.0f})"


def standings(names: Sequence[str], pairs: Sequence[MatchResult]) -> dict[str, Standing]:
    """Each policy's Elo as :func:`round_robin` fits it, with its 95% interval from these pairings' games, or
    the reason none can be given (the module's docstring says how)."""
    names = list(names)
    results: list[tuple[str, str, float, float]] = []
    bounding: list[tuple[str, str, float, float]] = []  # the pairings with more than one distinct colour pair
    for r in pairs:
        games = pair_results(r.name_a, r.name_b, r)
        results += games
        if r.evidence().bounded:
            bounding += games
    return standings_from_results(names, results, bounding)


def standings_from_results(
    names: Sequence[str], results: list[tuple], bounding: list[tuple] | None = None,
) -> dict[str, Standing]:  # fmt: skip
    """:func:`standings` from the fit's ``(a, b, score, weight)`` results; ``bounding``: those of the pairings
    that can bound a score (default: all of them)."""
    names = list(names)
    bounding = results if bounding is None else bounding
    ratings: Ratings = fit(names, results, prior=1.0, anchor="mean")
    elo = dict(zip(names, (float(e) for e in ratings.elo)))
    if len(names) < 2 or unbounded(names, bounding) is None:
        cov = games_covariance(ratings, results)
        return {n: Standing(n, elo[n], Z95 * float(cov[i, i]) ** 0.5) for i, n in enumerate(names)}
    why = {n: _why(n, results, bounding) for n in names}
    culprits = "; ".join(f"{n} {why[n]}" for n in names if why[n])
    rest = (f"{culprits}, so the mean has no bound" if culprits
            else "some policies beat the others in every game, so no finite result ties them together")  # fmt: skip
    return {n: Standing(n, elo[n], None, f"it {why[n]}" if why[n] else rest) for n in names}


def _why(name: str, results: list[tuple], bounding: list[tuple]) -> str:
    """Why this policy's own games cannot bound its rating (``won every game``), or "" when they alone do not say."""
    points = [s if a == name else 1.0 - s for a, b, s, *_ in results if name in (a, b)]
    if not any(name in (a, b) for a, b, *_ in bounding):
        return "replayed one colour pair in each pairing, which bounds nothing"
    if points and min(points) == 1.0:
        return "won every game"
    if points and max(points) == 0.0:
        return "lost every game"
    return ""


def pair_results(a: str, b: str, result: MatchResult) -> list[tuple[str, str, float, float]]:
    """A match as the Elo fit reads it: one ``(a, b, points of a, weight)`` a game, every game weighed by the
    match's share of distinct colour pairs (1 when every pair is distinct), so that replayed pairs count once
    as in the match's own interval (:meth:`MatchResult.evidence`)."""
    ev = result.evidence()
    w = ev.distinct_units / ev.units if ev.units else 1.0
    return [(a, b, 1.0, w)] * result.wins + [(a, b, 0.5, w)] * result.draws + [(a, b, 0.0, w)] * result.losses


def round_robin_table(elo: dict[str, float], pairs: list[MatchResult]) -> str:
    """The round robin as text: Elo per policy with its 95% interval (:func:`standings`, around the rating
    given), then each pair's wins, draws, losses and score with its 95% interval, in columns as wide as the
    longest name (checkpoint paths included)."""
    width = max(len(name) for name in elo)
    games = sorted({r.games for r in pairs})
    rated = standings(list(elo), pairs)
    lines = [f"Elo (mean 0, 95% interval), {'/'.join(map(str, games))} games per pair"]
    lines += [f"  {name:<{width}}  {Standing(name, rating, rated[name].half, rated[name].why).describe()}"
              for name, rating in elo.items()]  # fmt: skip
    evidence = [r.evidence() for r in pairs]
    replayed = sum(ev.distinct_units < ev.units for ev in evidence)
    if replayed:
        lines.append(f"  ({replayed} of {len(pairs)} pairings replayed colour pairs: the fit counts a replayed "
                     f"pair once)")  # fmt: skip
    pair_width = 2 * width + 4
    lines.append(f"  {'pair':<{pair_width}}{'W':>5}{'D':>5}{'L':>5}  score of the first (95%)")
    for r, ev in zip(pairs, evidence):
        bound = f"({ev.low:.3f}..{ev.high:.3f})" if ev.bounded else "(no bound: the same games every time)"
        repeats = f", {ev.distinct_units} distinct colour pairs of {ev.units}" if ev.bounded and ev.repeats else ""
        lines.append(f"  {r.name_a + ' vs ' + r.name_b:<{pair_width}}{r.wins:>5}{r.draws:>5}{r.losses:>5}"
                     f"  {ev.score:.3f} {bound}{repeats}")  # fmt: skip
    return "\n".join(lines)
