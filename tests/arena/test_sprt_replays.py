"""The SPRT counts distinct evidence: a replayed game or colour pair adds nothing to the LLR and never decides.

Two deterministic players cycling through a few openings replay the same pairs
once the set is exhausted; the SPRT used to add each replay's LLR again and
accepted a hypothesis from copies of a few games (perfect vs a seeded random
player over three tic-tac-toe openings: H1 after 16 games, 5 of them distinct).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize

from arena.players import Fixed
from boardgame_envs import tictactoe_v0
from boardgame_envs.arena import MatchResult, match, pair_points
from boardgame_envs.arena.matches import _sprt_step
from boardgame_envs.arena.records import GameRecord
from boardgame_envs.arena.sprt import SPRT, Samples, expected_score

TTT_OPENINGS = ["b2", "a1", "a1 b2"]


def test_deterministic_players_over_three_openings_do_not_decide():
    t = SPRT(0, 200)
    r = match(tictactoe_v0.env, Fixed("perfect", 0), Fixed("random", 1), games=200, openings=TTT_OPENINGS, sprt=t,
              progress=False)  # fmt: skip
    # Two cycles through the openings, the second a replay of the first: the test stops there, undecided.
    assert r.decision is None and r.replaying == 3 and r.games == 12
    assert (r.sprt_samples, r.sprt_distinct) == (6, 3)
    assert r.llr < t.bounds[1]
    line = str(r).splitlines()[-1]
    assert "no decision on this evidence: the last 3 colour pair(s) replayed the 3 before them" in line
    assert "(3 distinct colour pairs of 6; vary the openings)" in line
    # Counted as independent (the old LLR), the same pairs played a little longer cross the upper bound.
    scores = [p / 2 for p in pair_points(r.records, r.a_black)]
    assert t.llr(scores[:3] * 3, pairs=True) >= t.bounds[1] > t.llr(scores[:3] * 3, pairs=True, distinct=3)


def test_deterministic_players_from_the_empty_board_do_not_decide():
    r = match(tictactoe_v0.env, Fixed("perfect", 0), Fixed("random", 1), games=200, sprt="0,200", progress=False)
    assert r.losses == 0 and not r.pairs  # perfect wins or draws: the old SPRT accepted H1 after 8 games
    assert r.decision is None and r.replaying == 2 and r.games == 4 and r.sprt_distinct == 2
    assert "the last 2 game(s) replayed the 2 before them move for move" in str(r)


def test_stochastic_players_decide_with_the_plain_gsprt():
    t = SPRT(0, 200)
    r = match(tictactoe_v0.env, "perfect", "random", games=200, seed=2, openings=TTT_OPENINGS, sprt=t, progress=False)
    scores = [p / 2 for p in pair_points(r.records, r.a_black)]
    assert r.decision == "H1" and r.sprt_distinct == r.sprt_samples == len(scores) == r.games // 2
    assert r.llr == t.llr(scores, pairs=True) == pytest.approx(reference_llr(t, scores, pairs=True), abs=1e-6)
    assert "H1 accepted (Elo >= 200)" in str(r) and "adds nothing" not in str(r)


def reference_llr(t: SPRT, samples: list[float], pairs: bool) -> float:
    """fishtest's GSPRT, fitted here by a general optimiser: N sum p log(q1 / q0), q the likeliest law of each mean."""
    outcomes = np.array((0.0, 0.25, 0.5, 0.75, 1.0) if pairs else (0.0, 0.5, 1.0))
    counts = np.array([samples.count(x) for x in outcomes]) + 1e-3
    p = counts / counts.sum()

    def closest(mean: float) -> np.ndarray:
        cons = [{"type": "eq", "fun": lambda q: q.sum() - 1}, {"type": "eq", "fun": lambda q: q @ outcomes - mean}]
        fit = minimize(lambda q: -p @ np.log(q), p, constraints=cons, bounds=[(1e-12, 1)] * len(p), method="SLSQP",
                       options={"ftol": 1e-15, "maxiter": 1000})  # fmt: skip
        return fit.x

    q0, q1 = closest(expected_score(t.elo0)), closest(expected_score(t.elo1))
    return float(len(samples) * p @ np.log(q1 / q0))


def test_every_sample_distinct_is_fishtests_llr():
    rng = np.random.default_rng(7)
    t = SPRT(-10, 40)
    for pairs, outcomes in ((True, [0.0, 0.25, 0.5, 0.75, 1.0]), (False, [0.0, 0.5, 1.0])):
        samples = [float(x) for x in rng.choice(outcomes, size=60, p=None)]
        plain = t.llr(samples, pairs=pairs)
        assert t.llr(samples, pairs=pairs, distinct=60) == plain
        assert plain == pytest.approx(reference_llr(t, samples, pairs), abs=1e-4)
        # n distinct of N: the same frequencies, n / N of the evidence.
        assert t.llr(samples, pairs=pairs, distinct=15) == pytest.approx(plain * 15 / 60)
    for bad in (0, 61, -1):
        with pytest.raises(ValueError, match="distinct must be 1..60"):
            t.llr(samples, distinct=bad)


def test_samples_count_distinct_keys_and_see_a_whole_cycle_replayed():
    s = Samples(cycle=2)
    assert [s.add(x, k) for x, k in [(1.0, "a"), (0.5, "b"), (1.0, "a")]] == [True, True, False]
    assert (s.distinct, len(s.scores), s.replaying) == (2, 3, False)
    assert s.add(0.0, "c") and not s.replaying  # a new sample breaks the run
    assert not s.add(1.0, "a") and not s.replaying  # "a" again, but not the sample one cycle before ("a", "c", "a")
    assert not s.add(0.0, "c") and s.replaying  # "a", "c" replayed "a", "c"
    with pytest.raises(ValueError, match="a cycle is at least one sample"):
        Samples(cycle=0)


def _pair(a_wins: int, tag: int) -> list[GameRecord]:
    """A colour pair from hand-made games, A black in the first: A wins ``a_wins`` of the two (1 or 2)."""
    first = GameRecord(0, "", "a", "b", [tag, 0], 1, game="connect_four")  # black (A) wins
    second = GameRecord(0, "", "b", "a", [tag, 1], 2 if a_wins == 2 else 1, game="connect_four")
    return [first, second]


def test_a_replay_moves_the_frequencies_but_never_decides():
    t = SPRT(0, 200)
    r = MatchResult("a", "b", pairs=True, sprt=t)
    games = [g for i in range(8) for g in _pair(2 if i % 2 else 1, i)]  # 8 distinct pairs: 4 at 1.0, 4 at 0.5
    games += _pair(2, 1) * 5  # then the second pair (A wins both) replayed 5 times (less than a cycle of 8)
    samples = Samples(cycle=8)
    decided = []
    for i, record in enumerate(games):
        r.records.append(record)
        r.a_black.append(i % 2 == 0)
        decided.append(_sprt_step(r, t, samples))
    assert not any(decided) and r.decision is None and r.replaying == 0
    # The replays pushed the frequencies towards wins, past the bound with 8 distinct pairs, yet decide nothing.
    assert r.llr == t.llr([1.0] * 9 + [0.5] * 4, pairs=True, distinct=8) >= t.bounds[1] > t.llr([1.0, 0.5] * 4, pairs=True)
    assert r.sprt_text().endswith("no decision yet (8 distinct colour pairs of 13: a replayed colour pair adds nothing)")
    # A new pair is evidence again, and decides.
    r.records += _pair(2, 99)
    r.a_black += [True, False]
    assert _sprt_step(r, t, samples) and r.decision == "H1" and r.sprt_distinct == 9


def _pentanomial(rng: np.random.Generator, score: float, size: int) -> np.ndarray:
    """Pair means of two independent games with 20% draws and mean ``score``."""
    p = np.array([score - 0.1, 0.2, 0.9 - score])[::-1]  # loss, draw, win
    games = rng.choice([0.0, 0.5, 1.0], size=(size, 2), p=p)
    return games.mean(axis=1)


def _run(t: SPRT, scores: np.ndarray, keys: list, cycle: int, old: bool) -> str | None:
    """An SPRT over these samples as a match feeds it (the old way: every sample new evidence)."""
    samples = Samples(cycle)
    for x, key in zip(scores, keys):
        new = samples.add(float(x), key)
        llr = t.llr(samples.scores, pairs=True, distinct=None if old else samples.distinct)
        if not (new or old):
            if samples.replaying:
                return None
            continue
        if t.decision(llr):
            return t.decision(llr)
    return None


def test_error_rates_hold_by_simulation():
    # Independent pairs (every sample distinct): the old and the new test are one test, errors at most
    # alpha and beta (within the simulation's noise: 120 runs, 0.05 +- 0.02).
    t = SPRT(0, 200)
    rng = np.random.default_rng(1)
    wrong = {"H0": 0, "H1": 0}
    runs = 120
    for truth, elo in (("H0", t.elo0), ("H1", t.elo1)):
        for k in range(runs):
            scores = _pentanomial(rng, expected_score(elo), 60)
            decision = _run(t, scores, list(range(60)), cycle=60, old=False)
            wrong[truth] += decision is not None and decision != truth
    assert wrong["H0"] / runs <= 0.1 and wrong["H1"] / runs <= 0.1
    # Deterministic players over 4 openings drawn from a field where H0 holds: the same 4 pairs again and
    # again. Counted as independent, their mean decides, H1 far more often than alpha; counted once, the
    # test stops undecided at the second cycle.
    old = new = 0
    for k in range(runs):
        cycle = list(_pentanomial(rng, expected_score(t.elo0), 4))
        scores = np.array(cycle * 15)
        keys = [i % 4 for i in range(60)]
        old += _run(t, scores, keys, cycle=4, old=True) == "H1"
        new += _run(t, scores, keys, cycle=4, old=False) == "H1"
    assert old / runs > 0.1 and new == 0
