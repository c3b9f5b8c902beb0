"""The arena's evidence: distinct games and colour pairs, an interval from the distinct pairs, and its coverage.

The case behind it (issue 47): ``arena connect_four pretrained:sb3-connect-four greedy --games 20`` (the model
was then named ``ppo-connect-four``) printed 20-0, "score 1.000 (95% 0.839..1.000); Elo at least +287" from the
empty board, with half its games repeats, while the ladder puts the network about 300 Elo below greedy.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from arena.players import Fixed
from boardgame_envs.arena import MatchResult, match, round_robin_table
from boardgame_envs.arena.evidence import from_counts, from_records, interval
from boardgame_envs.arena.records import GameRecord
from boardgame_envs.envs.factory import make_env
from boardgame_envs.games import opening_positions
from boardgame_envs.ladder import levels

CONNECT_FOUR = functools.partial(make_env, "connect_four")


def _game(moves: list[int], winner: int) -> GameRecord:
    return GameRecord(0, "", "x", "y", moves, winner, game="connect_four")


def _result(games: list[tuple[list[int], int]]) -> MatchResult:
    """A match of A (black in even games) from hand-made games: (moves, winner)."""
    r = MatchResult("a", "b")
    for i, (moves, winner) in enumerate(games):
        a_black = i % 2 == 0
        record = _game(moves, winner)
        points = 0.5 if winner == 0 else float((winner == 1) == a_black)
        column = 0 if points == 1.0 else 1 if points == 0.5 else 2
        r.by_seat["first" if a_black else "second"][column] += 1
        r.records.append(record)
        r.a_black.append(a_black)
    return r


def test_one_pair_played_ten_times_cannot_bound_the_score():
    r = _result([([3, 3, 3, 3], 1), ([2, 2, 2, 2], 2)] * 10)  # A wins both games, the same two every time
    ev = r.evidence()
    assert (ev.games, ev.distinct_games, ev.units, ev.distinct_units, ev.bounded) == (20, 2, 10, 1, False)
    assert r.score() == (1.0, 0.0, 1.0)
    text = str(r)
    assert "20 games, 2 distinct: 1 distinct colour pair of 10, which cannot bound the score" in text
    assert "score 1.000: no interval and no Elo, the games cannot bound them" in text
    assert "95%" not in text and "Elo at least" not in text
    assert "(no bound: the same games every time)" in round_robin_table({"a": 0.0, "b": 0.0}, [r])


def test_a_repeated_pair_counts_once():
    p1 = [([3, 3, 3, 3], 1), ([2, 2, 2, 2], 2)]  # A wins both
    p2 = [([3, 3, 3, 3], 2), ([2, 2, 2, 2], 2)]  # A loses the first, wins the second
    p3 = [([4, 4, 4, 4], 2), ([5, 5, 5, 5], 1)]  # A loses both
    repeated = _result(p1 * 3 + p2 * 3 + p3 * 3).evidence()
    once = _result(p1 + p2 + p3).evidence()
    # 5 distinct games, not 6: the second games of p1 and p2 are one game (A white, winning the same way).
    assert (repeated.distinct_units, repeated.units, repeated.distinct_games) == (3, 9, 5)
    assert (repeated.score, repeated.low, repeated.high) == pytest.approx((once.score, once.low, once.high))
    described = repeated.describe()
    assert described == ("18 games, 5 distinct: interval from 3 distinct colour pairs of 9 "
                         "(a repeated colour pair counts once)")  # fmt: skip
    # Nine distinct pairs scoring as the three did, three times each: more evidence, a narrower interval.
    nine = _result(p1 + p2 + p3 + _shifted(p1 * 2 + p2 * 2 + p3 * 2)).evidence()
    assert nine.distinct_units == 9 and nine.high - nine.low < repeated.high - repeated.low


def _shifted(pairs: list[tuple[list[int], int]]) -> list[tuple[list[int], int]]:
    """The same results in games with other moves: new evidence that happens to score alike."""
    return [([m + 1 + i // 2 % 2 for m in moves], winner) for i, (moves, winner) in enumerate(pairs)]


def test_an_odd_game_is_a_unit_of_its_own_and_counts_alone_are_games():
    ev = _result([([3, 3, 3, 3], 1), ([2, 2, 2, 2], 2), ([4, 4, 4, 4], 2)]).evidence()
    assert (ev.units, ev.distinct_units, ev.single, ev.score) == (2, 2, True, pytest.approx(2 / 3))
    assert "and an unpaired last game" in ev.describe()
    counts = from_counts(3, 1, 1)
    assert (counts.paired, counts.units, counts.score) == (False, 5, 0.7)


def test_the_deterministic_empty_board_sweep_no_longer_claims_what_the_ladder_contradicts():
    # A deterministic pair (both players seeded the same in every game): greedy with 20% random moves and
    # greedy, which the connect four ladder puts about 145 Elo apart, greedy the stronger.
    a, b = Fixed("greedy:epsilon=0.2", 1), Fixed("greedy", 2)
    ladder = {level.spec: level.elo for level in levels("connect_four")}
    ladder_gap = ladder["greedy:epsilon=0.2"] - ladder["greedy"]
    assert -200 < ladder_gap < -100
    empty = match(CONNECT_FOUR, a, b, games=20, progress=False, openings=None)  # the empty board, asked for
    assert (empty.wins, empty.losses) == (20, 0)  # the same two games, ten times: A wins both
    # What the arena used to print: 20 independent games won, a lower bound that excludes the ladder's score.
    old_low = from_counts(20, 0, 0).low
    assert old_low > 0.8 and old_low > 1 / (1 + 10 ** (-ladder_gap / 400))
    ev = empty.evidence()
    assert not ev.bounded and (ev.distinct_games, ev.distinct_units) == (2, 1)
    assert "cannot bound" in str(empty) and "Elo at least" not in str(empty)
    # The ladder's starts (the arena's default for connect four), colours swapped: a bounded interval that
    # holds the ladder's gap.
    game = CONNECT_FOUR().unwrapped.game
    varied = match(CONNECT_FOUR, a, b, games=98, progress=False, openings=opening_positions.match_default(game))
    ev = varied.evidence()
    assert ev.bounded and (ev.distinct_units, ev.units) == (49, 49)
    elo, elo_low, elo_high = varied.elo()
    assert elo_low < ladder_gap < elo_high < 0


# Pentanomial distributions of a pair's score (0, 1/4, 1/2, 3/4, 1): even, strong, very strong, drawish, weak.
PENTANOMIALS = [(0.2, 0.2, 0.2, 0.2, 0.2), (0.01, 0.02, 0.07, 0.3, 0.6), (0.0, 0.01, 0.02, 0.07, 0.9),
                (0.05, 0.1, 0.7, 0.1, 0.05), (0.5, 0.3, 0.1, 0.07, 0.03)]  # fmt: skip


def _covers(pair_scores: np.ndarray, truth: float, distinct: int) -> bool:
    units = [(2 * y, 2, k) for k, y in enumerate(pair_scores)]
    s = float(pair_scores.mean())
    low, high = interval(units, s, distinct, 2 * len(units))
    return low <= truth <= high


@pytest.mark.parametrize("pairs", [3, 10, 40])
def test_the_interval_covers_about_95_percent(pairs):
    rng = np.random.default_rng(pairs)
    values = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    rates = []
    for p in PENTANOMIALS:
        truth = float(values @ np.array(p))
        hits = sum(_covers(rng.choice(values, size=pairs, p=p), truth, pairs) for _ in range(400))
        rates.append(hits / 400)
    # 400 draws: a true 95% lands below 0.92 with a chance near 0.3%; the interval is conservative, not loose.
    assert min(rates) >= 0.92 and np.mean(rates) >= 0.94, rates


def test_repeated_pairs_counted_once_keep_coverage_and_counting_them_all_loses_it():
    # Deterministic players over 8 starts drawn from a population of pair scores, each start played 5 times:
    # 40 pairs, 8 distinct. Counting every pair as new evidence covers the population's mean far less often.
    rng = np.random.default_rng(7)
    values = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    p = np.array(PENTANOMIALS[0])
    truth = float(values @ p)
    once = every = 0
    for _ in range(400):
        scores = np.repeat(rng.choice(values, size=8, p=p), 5)
        once += _covers(scores, truth, distinct=8)
        every += _covers(scores, truth, distinct=40)
    assert once / 400 >= 0.92 and every / 400 < 0.8
