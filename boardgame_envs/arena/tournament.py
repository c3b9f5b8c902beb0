"""The round robin: every pair of policies plays a :func:`~boardgame_envs.arena.matches.match`, one Elo fit rates them all.

Its invariant is the arena's: a replayed colour pair is one observation. Each
pairing's games enter the fit (:func:`boardgame_envs.arena.elo.fit`) weighed by the
match's share of distinct colour pairs (:mod:`boardgame_envs.arena.evidence`), so two
deterministic players replaying a few pairs weigh what those pairs weigh; with every
pair distinct the weights are 1 and the ratings are the plain fit's. The table prints
each pairing's score with the interval from its distinct pairs, or says it has none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardgame_envs.arena.elo import fit
from boardgame_envs.arena.matches import MatchResult, match


def round_robin(
    env_fn: Callable[[], Any], specs: dict[str, Any], games: int = 20, seed: int = 0, jobs: int = 1,
    progress: bool = True, openings: Any = None, pairs: list[MatchResult] | None = None,
) -> dict[str, float]:  # fmt: skip
    """Every pair plays ``games``; returns Elo ratings (mean 0), best first, from :func:`boardgame_envs.arena.elo.fit`.

    The fit counts one virtual draw between every pair (``prior=1``), so a policy
    that won every game still gets a finite rating, and weighs a pairing's games by
    its distinct colour pairs (:func:`pair_results`). ``openings`` as in
    :func:`match`. ``pairs``, when given, receives each pair's :class:`MatchResult`
    (for :func:`round_robin_table`).
    """
    names = list(specs)
    results: list[tuple[str, str, float, float]] = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            r = match(env_fn, specs[names[i]], specs[names[j]], games, seed + 1000 * i + j, jobs, progress,
                      openings=openings)  # fmt: skip
            if r.interrupted:
                raise KeyboardInterrupt  # the table needs every pair: stop here
            if pairs is not None:
                pairs.append(r)
            results += pair_results(names[i], names[j], r)
    ratings = fit(names, results, prior=1.0, anchor="mean")
    return dict(sorted(zip(names, (float(e) for e in ratings.elo)), key=lambda kv: -kv[1]))


def pair_results(a: str, b: str, result: MatchResult) -> list[tuple[str, str, float, float]]:
    """A match as the Elo fit reads it: one ``(a, b, points of a, weight)`` a game, every game weighed by the
    match's share of distinct colour pairs (1 when every pair is distinct), so that replayed pairs count once
    as in the match's own interval (:meth:`MatchResult.evidence`)."""
    ev = result.evidence()
    w = ev.distinct_units / ev.units if ev.units else 1.0
    return [(a, b, 1.0, w)] * result.wins + [(a, b, 0.5, w)] * result.draws + [(a, b, 0.0, w)] * result.losses


def round_robin_table(elo: dict[str, float], pairs: list[MatchResult]) -> str:
    """The round robin as text: Elo per policy, then each pair's wins, draws, losses and score with its
    95% interval, in columns as wide as the longest name (checkpoint paths included)."""
    width = max(len(name) for name in elo)
    games = sorted({r.games for r in pairs})
    lines = [f"Elo (mean 0), {'/'.join(map(str, games))} games per pair"]
    lines += [f"  {name:<{width}}  {rating:+6.0f}" for name, rating in elo.items()]
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
