"""The round robin's Elo intervals: about 95% coverage in simulation, and none where the games cannot bound one."""

from __future__ import annotations

import math

import numpy as np
import pytest

from boardgame_envs.arena import MatchResult, round_robin_table, tournament
from boardgame_envs.arena.elo import C, Z95, fit, games_covariance
from boardgame_envs.arena.records import GameRecord


def _colour_pairs(rng: np.random.Generator, a: str, b: str, gap: float, pairs: int) -> list[tuple]:
    """``pairs`` colour pairs of ``a`` against ``b`` (``gap`` Elo stronger), the first mover +40 Elo, about a
    fifth of the close games drawn: one ``(a, b, points of a, 1.0)`` a game, as the fit reads them."""
    games = []
    for _ in range(pairs):
        for first in (40.0, -40.0):
            p = 1.0 / (1.0 + 10 ** (-(gap + first) / 400))
            draw = 0.4 * min(p, 1.0 - p)
            u = rng.random()
            games.append((a, b, 0.5 if u < draw else 1.0 if u < p + draw / 2 else 0.0, 1.0))
    return games


def test_the_intervals_cover_the_true_ratings_about_95_percent_of_the_time():
    rng = np.random.default_rng(2026)
    covered = rated = unbounded = 0
    for trial in range(300):
        k = 3 + trial % 2
        names = [f"p{i}" for i in range(k)]
        true = rng.normal(0.0, 200.0, k)
        results = [g for i in range(k) for j in range(i + 1, k)
                   for g in _colour_pairs(rng, names[i], names[j], true[i] - true[j], pairs=5)]  # fmt: skip
        standing = tournament.standings_from_results(names, results)
        if all(s.half is None for s in standing.values()):
            unbounded += 1
            continue
        assert all(s.half is not None and s.half > 0 for s in standing.values())
        target = true - true.mean()  # the anchor: the mean of the ratings at 0
        covered += sum(abs(standing[n].elo - t) <= standing[n].half for n, t in zip(names, target))
        rated += k
    assert unbounded < 30  # a sweep now and then, rated as no bound; the rest carry intervals
    assert 0.90 <= covered / rated <= 0.99, (covered, rated)


def test_the_interval_is_the_games_information_around_the_fit():
    # Two policies, 6 wins and 4 losses: the fit (one virtual draw) has a - b = 400 log10(6.5 / 4.5), and the
    # interval of each against the mean is half the difference's, from the ten real games alone.
    ab = MatchResult("a", "b", {"first": [3, 0, 2], "second": [3, 0, 2]})
    standing = tournament.standings(["a", "b"], [ab])
    p = 6.5 / 11
    assert standing["a"].elo - standing["b"].elo == pytest.approx(400 * math.log10(6.5 / 4.5), abs=1e-3)
    half = Z95 / math.sqrt(10 * p * (1 - p) * C * C) / 2
    assert standing["a"].half == pytest.approx(half, rel=1e-4) and standing["b"].half == pytest.approx(half, rel=1e-4)
    games = tournament.pair_results("a", "b", ab)
    first = games_covariance(fit(["a", "b"], games), games, anchor="first")  # b against a held at 0: twice as wide
    assert first[0].tolist() == [0.0, 0.0] and Z95 * math.sqrt(first[1, 1]) == pytest.approx(2 * half, rel=1e-4)


def test_the_table_prints_the_round_robins_ratings_with_their_intervals(monkeypatch):
    table = {("a", "b"): [6, 2, 4], ("a", "c"): [8, 1, 3], ("b", "c"): [5, 3, 4]}
    monkeypatch.setattr(tournament, "match", lambda env_fn, a, b, *args, **kwargs:
                        MatchResult(a, b, {"first": table[a, b], "second": [0, 0, 0]}))  # fmt: skip
    pairs: list[MatchResult] = []
    elo = tournament.round_robin(None, {n: n for n in "abc"}, games=12, progress=False, pairs=pairs)
    standing = tournament.standings("abc", pairs)
    assert {n: s.elo for n, s in standing.items()} == pytest.approx(elo, abs=1e-9)  # the same point estimates
    lines = round_robin_table(elo, pairs).splitlines()
    assert lines[0] == "Elo (mean 0, 95% interval), 12 games per pair"
    for line, (name, rating) in zip(lines[1:4], elo.items()):
        half = standing[name].half
        assert line == f"  {name}  {rating:+6.0f}  ({rating - half:+.0f}..{rating + half:+.0f})"


def test_a_policy_that_won_every_game_has_no_bound_and_neither_has_the_mean():
    pairs = [MatchResult("a", "b", {"first": [5, 0, 0], "second": [5, 0, 0]}),
             MatchResult("a", "c", {"first": [5, 0, 0], "second": [5, 0, 0]}),
             MatchResult("b", "c", {"first": [3, 1, 1], "second": [2, 1, 2]})]  # fmt: skip
    standing = tournament.standings("abc", pairs)
    assert all(s.half is None for s in standing.values())
    assert standing["a"].why == "it won every game"
    assert standing["b"].why == standing["c"].why == "a won every game, so the mean has no bound"
    text = round_robin_table({n: s.elo for n, s in standing.items()}, pairs)
    assert "(no bound: it won every game)" in text and ".." not in text.splitlines()[1]


def test_two_groups_that_never_lose_to_each_other_in_the_same_direction_have_no_bound():
    even = {"first": [2, 1, 2], "second": [2, 1, 2]}
    sweep = {"first": [5, 0, 0], "second": [5, 0, 0]}
    pairs = [MatchResult("a", "b", even), MatchResult("c", "d", even)]
    pairs += [MatchResult(x, y, sweep) for x in "ab" for y in "cd"]  # a and b beat c and d in every game
    standing = tournament.standings("abcd", pairs)
    assert all(s.half is None for s in standing.values())
    assert {s.why for s in standing.values()} == {
        "some policies beat the others in every game, so no finite result ties them together"}
    pairs[2] = MatchResult("a", "c", {"first": [4, 0, 1], "second": [5, 0, 0]})  # one loss ties the groups
    assert all(s.half is not None for s in tournament.standings("abcd", pairs).values())


def _replayed(a: str, b: str, tags: list[int]) -> MatchResult:
    """A match of colour pairs each won by A as black and lost as white, the pair with tag ``t`` the same two
    games every time it comes back."""
    r = MatchResult(a, b, pairs=True)
    for tag in tags:
        for k in range(2):
            r.records.append(GameRecord(0, "", "x", "y", [tag, k], 1, game="connect_four"))  # black wins
            r.a_black.append(k == 0)
            r.by_seat["first" if k == 0 else "second"][0 if k == 0 else 2] += 1
    return r


def test_a_policy_tied_to_the_rest_by_replays_alone_has_no_bound():
    pairs = [_replayed("a", "b", [0, 1, 2]), _replayed("a", "c", [0] * 5), _replayed("b", "c", [0] * 5)]
    standing = tournament.standings("abc", pairs)
    assert all(s.half is None for s in standing.values())
    assert standing["c"].why == "it replayed one colour pair in each pairing, which bounds nothing"
    assert standing["a"].why == standing["b"].why == (
        "c replayed one colour pair in each pairing, which bounds nothing, so the mean has no bound")
    assert "(no bound: it replayed one colour pair" in round_robin_table({n: 0.0 for n in "abc"}, pairs)


def test_a_replayed_pair_narrows_no_interval():
    once = [_replayed("a", "b", [0, 1, 2, 3]), _replayed("a", "c", [0, 1, 2]), _replayed("b", "c", [0, 1, 2])]
    thrice = [_replayed("a", "b", [0, 1, 2, 3] * 3), *once[1:]]
    a, b = tournament.standings("abc", once), tournament.standings("abc", thrice)
    for n in "abc":
        assert a[n].half is not None and b[n].half == pytest.approx(a[n].half) and b[n].elo == pytest.approx(a[n].elo)
