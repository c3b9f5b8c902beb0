"""The round robin's Elo fit counts a replayed colour pair once, as the match's own interval does."""

from __future__ import annotations

import math

import pytest

from boardgame_envs.arena import MatchResult, round_robin_table, tournament
from boardgame_envs.arena.elo import RatingError, fit
from boardgame_envs.arena.records import GameRecord


def _match(name_a: str, name_b: str, pairs: list[tuple[int, int]]) -> MatchResult:
    """A match from hand-made colour pairs ``(tag, a_points)``: A black then white, ``tag`` naming the pair's
    games (the same tag, the same two games), A scoring 2 (wins both), 1 (wins as black) or 0 (loses both)."""
    r = MatchResult(name_a, name_b, pairs=True)
    for tag, a_points in pairs:
        winners = {2: (1, 2), 1: (1, 1), 0: (2, 1)}[a_points]  # black = 1: A is black in the first game
        for k, winner in enumerate(winners):
            a_black = k == 0
            r.records.append(GameRecord(0, "", "x", "y", [tag, k], winner, game="connect_four"))
            r.a_black.append(a_black)
            column = 0 if (winner == 1) == a_black else 2
            r.by_seat["first" if a_black else "second"][column] += 1
    return r


def _round_robin(monkeypatch, table: dict[tuple[str, str], MatchResult]) -> tuple[dict[str, float], list]:
    monkeypatch.setattr(tournament, "match", lambda env_fn, a, b, *args, **kwargs: table[a, b])
    names = sorted({n for pair in table for n in pair})
    pairs: list[MatchResult] = []
    return tournament.round_robin(None, {n: n for n in names}, progress=False, pairs=pairs), pairs


def test_a_pairing_that_replays_one_pair_counts_as_that_pair(monkeypatch):
    replayed = _match("a", "b", [(0, 2)] * 10)  # 20-0, one colour pair played ten times
    elo, pairs = _round_robin(monkeypatch, {("a", "b"): replayed})
    # One pair won (2 of 2) and the virtual draw: 2.5 of 3. Counted as 20 games it was 20.5 of 21 (+645).
    assert elo["a"] - elo["b"] == pytest.approx(400 * math.log10(2.5 / 0.5), abs=1e-3)
    text = round_robin_table(elo, pairs)
    assert "(1 of 1 pairings replayed colour pairs: the fit counts a replayed pair once)" in text
    assert "(no bound: the same games every time)" in text


def test_replays_weigh_a_pairing_by_its_distinct_pairs(monkeypatch):
    # a beats b in 4 distinct pairs each played 3 times; b and c split 6 distinct pairs; a and c split 2 pairs.
    ab = _match("a", "b", [(t, 2) for t in range(4)] * 3)
    bc = _match("b", "c", [(t, t % 3) for t in range(6)])
    ac = _match("a", "c", [(0, 2), (1, 0)])
    elo, pairs = _round_robin(monkeypatch, {("a", "b"): ab, ("a", "c"): ac, ("b", "c"): bc})
    games = [("a", "b", 1.0)] * 8 + [("a", "c", 1.0)] * 2 + [("a", "c", 0.0)] * 2
    games += [(x, y, s) for t in range(6) for x, y, s in [("b", "c", float(t % 3 >= 1)), ("b", "c", float(t % 3 == 2))]]
    plain = fit(["a", "b", "c"], games, prior=1.0, anchor="mean")  # a-b as its 4 distinct pairs, 8 games
    assert [elo[n] for n in "abc"] == pytest.approx(list(plain.elo), abs=1e-3)
    assert "(1 of 3 pairings replayed colour pairs" in round_robin_table(elo, pairs)


def test_every_pair_distinct_gives_the_plain_fit(monkeypatch):
    ab = _match("a", "b", [(t, t % 3) for t in range(5)])
    ac = _match("a", "c", [(t, 2 * (t % 2)) for t in range(4)])
    bc = _match("b", "c", [(t, 1) for t in range(3)])
    elo, pairs = _round_robin(monkeypatch, {("a", "b"): ab, ("a", "c"): ac, ("b", "c"): bc})
    games = [(r.name_a, r.name_b, 1.0 - c / 2) for r in pairs for c, k in enumerate((r.wins, r.draws, r.losses))
             for _ in range(k)]  # fmt: skip
    plain = fit(["a", "b", "c"], games, prior=1.0, anchor="mean")
    assert [elo[n] for n in "abc"] == pytest.approx(list(plain.elo), abs=1e-9)
    assert "replayed" not in round_robin_table(elo, pairs)


def test_a_weighted_game_counts_as_its_share_of_a_game():
    halves = fit(["a", "b"], [("a", "b", 1.0, 0.5)] * 4 + [("a", "b", 0.0, 0.5)] * 2, prior=0.0)
    whole = fit(["a", "b"], [("a", "b", 1.0)] * 2 + [("a", "b", 0.0)], prior=0.0)
    assert halves.elo == pytest.approx(whole.elo) and halves.cov == pytest.approx(whole.cov)
    for bad in [("a", "b", 1.0, 0.0), ("a", "b", 1.0, 1.5), ("a", "b", 1.0, -1.0), ("a", "b", 1.0, 0.5, 2)]:
        with pytest.raises(RatingError, match=r"\(a, b, score, weight\) with 0 < weight <= 1"):
            fit(["a", "b"], [bad, ("a", "b", 0.0)])
