"""rate(): adaptive games against a ladder's levels, an estimate with an interval, bad input refused."""

from __future__ import annotations

import math

import numpy as np
import pytest

from boardgame_envs.ladder import LadderError, levels, rate
from boardgame_envs.ladder import rating as rating_module
from boardgame_envs.ladder.games import GameResult
from boardgame_envs.ladder.rating import Walk, estimate, nearest
from boardgame_envs.policies import RandomPolicy


def test_levels_read_the_table(tiny_table):
    rows = levels("tiny")
    assert [(lv.name, lv.spec, lv.elo) for lv in rows] == [
        ("tiny/0", "random", 0.0), ("tiny/1", "greedy:epsilon=0.5", 200.0), ("tiny/2", "perfect", 400.0)]
    assert nearest(rows, 290).name == "tiny/1" and nearest(rows, 300).name == "tiny/1"  # a tie goes to the weaker
    assert nearest(rows, 301).name == "tiny/2"
    assert nearest(rows, math.inf).name == "tiny/2" and nearest(rows, -math.inf).name == "tiny/0"  # a sweep: the end


def test_estimate_against_fixed_levels_by_hand(tiny_table):
    rows = levels("tiny")
    # 2 wins and 2 losses against the +200 level: exactly +200, with no pull from virtual games.
    est = estimate(rows, {"tiny/1": [2, 0, 2]})
    assert est.elo == pytest.approx(200.0, abs=1e-3) and 100 < est.high - est.elo < 800
    assert est.high - est.elo == pytest.approx(est.elo - est.low, abs=1e-3)  # an even score: a symmetric interval
    # 2 losses against the middle level (the first pair of random on gomoku15, issue 30): no lower bound and an
    # upper one a player would reach by losing both games 5% of the time, where a virtual draw used to say +1303.
    lost = estimate(rows, {"tiny/1": [0, 0, 2]})
    assert lost.elo == lost.low == -math.inf and 200 < lost.high < 500


def test_rate_starts_in_the_middle_and_moves_towards_even_games(tiny_table):
    seen = []
    strong = rate("perfect", "tiny", games=16, seed=1, progress=False, on_batch=lambda r: seen.append(dict(r.per_level)))
    assert list(seen[0]) == ["tiny/1"]  # the first pair is against the middle level
    assert strong.per_level["tiny/2"][0] + strong.per_level["tiny/2"][1] > 0 and sum(strong.per_level["tiny/2"]) >= 8
    weak = rate(RandomPolicy(seed=0), "tiny", games=16, seed=1, progress=False)
    assert sum(weak.per_level.get("tiny/0", [0])) >= 8 and weak.elo < strong.elo
    assert weak.games == strong.games == 16 and weak.low < weak.elo < weak.high


def test_precision_stops_early(tiny_table):
    r = rate("random", "tiny", games=400, precision=2000, progress=False, seed=3)
    assert r.bounded and r.half_width <= 2000 and r.games < 400


def test_ctrl_c_returns_the_games_so_far(tiny_table, monkeypatch):
    real, batches = rating_module.play, []

    def interrupt_after_first_batch(*args):
        if batches:
            raise KeyboardInterrupt
        batches.append(1)
        return real(*args)

    monkeypatch.setattr(rating_module, "play", interrupt_after_first_batch)
    r = rate("random", "tiny", games=40, progress=False)
    assert r.interrupted and r.games == 2 and "interrupted" in str(r)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"games": 0}, "at least 2"), ({"games": -4}, "at least 2"), ({"jobs": 10_000}, "jobs must be"),
     ({"jobs": 0}, "jobs must be"), ({"precision": 0}, "precision")],
)  # fmt: skip
def test_bad_numbers_are_value_errors(tiny_table, kwargs, message):
    with pytest.raises(ValueError, match=message):
        rate("random", "tiny", progress=False, **kwargs)


def test_unknown_game_level_and_policy():
    with pytest.raises(LadderError, match="unknown game 'chess'"):
        rate("random", "chess")
    with pytest.raises(LadderError, match="no ladder for gomoku 11x11"):
        levels("gomoku", board_size=11)
    from boardgame_envs.policies import PolicySpecError, make_policy

    with pytest.raises(LadderError, match="tictactoe/0 .. tictactoe/4, not 'tictactoe/9'"):
        make_policy("level:tictactoe/9")
    with pytest.raises(LadderError, match="unknown ladder 'go'"):
        make_policy("level:go/1")
    with pytest.raises(PolicySpecError):
        rate("nonsense:x=1", "tictactoe")


def _always(score):
    """A stand-in for the games: the agent scores ``score`` in every one."""

    def play(workers, env_fn, tasks, players=None):
        for t in tasks:
            yield GameResult(t.names[0], t.names[1], t.index, t.a_first, score, 0), None

    return play


@pytest.mark.parametrize(("score", "edge", "words"), [(1.0, "tiny/2", "above the top of the ladder: Elo at least"),
                                                      (0.0, "tiny/0", "below the bottom of the ladder: Elo at most")])  # fmt: skip
def test_a_clean_sweep_is_one_sided(tiny_table, monkeypatch, score, edge, words):
    monkeypatch.setattr(rating_module, "play", _always(score))
    r = rate("random", "tiny", games=10, progress=False)
    assert not r.bounded and math.isinf(r.elo) and sum(r.per_level[edge]) == 8  # the first pair, then the end
    head = str(r).splitlines()[0]
    assert words in head and "one-sided 95%" in head and ".." not in head and f"{edge}'s too" in head
    bound = r.low if score else r.high
    assert f"{bound:+.0f}" in head


def test_a_sweep_short_of_the_top_says_so(tiny_table, monkeypatch):
    monkeypatch.setattr(rating_module, "play", _always(1.0))
    r = rate("random", "tiny", games=2, progress=False)
    assert list(r.per_level) == ["tiny/1"] and r.describe().startswith("Elo at least")
    assert "no bound on the other side until it meets stronger levels" in r.describe()


def _simulated_rating(walk_table, truth, games, rng):
    """``rate``'s walk for an agent of Elo ``truth``, each game drawn from the Elo model (no draws)."""
    walk = Walk(walk_table)
    while walk.games < games:
        p = 1 / (1 + 10 ** ((walk.opponent.elo - truth) / 400))
        for _ in range(2):
            walk.record(float(rng.random() < p))
        est = walk.advance()
    return est


def test_a_perfect_player_above_the_ladder_gets_a_bound_not_an_interval():
    table = levels("gomoku15")
    est = _simulated_rating(table, table[-1].elo + 3000, 10, np.random.default_rng(0))
    assert est.elo == est.high == math.inf and table[-2].elo < est.low < table[-1].elo + 400


def test_ten_game_intervals_hold_the_truth():
    """Coverage of the 95% interval on 10 games, on the shipped gomoku15 table (baselines/studies/rate_coverage.py at scale).

    Issue 30: random (level 0) got +849 (+572 .. +1126) from 10 games. 30 simulated ratings at each of 10 true
    ratings from below the bottom to above the top; at 95% coverage, fewer than 88% hits has a chance under 0.01%.
    """
    table = levels("gomoku15")
    rng = np.random.default_rng(2024)
    truths = [-150.0, 0.0, 250.0, table[5].elo, 1500.0, table[8].elo, 2000.0, table[12].elo, 2850.0, 3100.0]
    hits = [est.low <= t <= est.high for t in truths for est in (_simulated_rating(table, t, 10, rng) for _ in range(30))]
    assert len(hits) == 300 and np.mean(hits) >= 0.88
    random_ = [_simulated_rating(table, 0.0, 10, rng) for _ in range(30)]
    assert sum(e.low <= 0 <= e.high for e in random_) >= 26


def test_the_ends_are_found_by_elo_not_by_order(tiny_table):
    """A build's early table may list two levels out of Elo order; a sweep still goes to the highest (lowest) rated."""
    rows = levels("tiny")
    shuffled = [rows[1], rows[2], rows[0]]
    assert nearest(shuffled, math.inf).name == "tiny/2" and nearest(shuffled, -math.inf).name == "tiny/0"
    walk = Walk(shuffled)
    for _ in range(2):
        walk.record(1.0)
    r = walk.rating("x", "tiny", walk.advance())
    assert walk.opponent.name == r.top.name == "tiny/2" and r.bottom.name == "tiny/0"


class _Crashes:
    """A player whose every move is a crash, as an external engine's that dies at once (a Forfeit of kind crash)."""

    name = "crasher"

    def act(self, state):
        from boardgame_envs.policies.base import Forfeit

        error = Forfeit("crasher exited while we waited for its move")
        error.kind = "crash"
        raise error


def test_games_lost_by_a_fault_are_named_as_the_arena_names_them(tiny_table):
    # Elo "at most ..." alone read as a weak player; the games were never played out.
    r = rate(_Crashes(), "tiny", games=4, progress=False)
    assert r.elo == -math.inf and r.faults == {"crash": 4} and r.level_faults == {}
    text = str(r)
    assert "4 game(s) lost by a crash" in text and "crasher" in text.splitlines()[2 + len(r.per_level)]
    from boardgame_envs.arena import match

    arena = str(match(lambda: __import__("boardgame_envs").tictactoe_v0.env(), _Crashes(), "random", games=2))
    assert "2 game(s) lost by a crash" in arena  # the same words


def test_faults_of_either_side_are_counted_apart(tiny_table, monkeypatch):
    def play(workers, env_fn, tasks, players=None):
        for t in tasks:  # the rated policy (a) crashes in a pair's first game; the level times out in its second
            score, fault = (0.0, "crash") if t.a_first else (1.0, "timeout")
            yield GameResult(t.names[0], t.names[1], t.index, t.a_first, score, 0, fault=fault), None

    monkeypatch.setattr(rating_module, "play", play)
    r = rate("random", "tiny", games=4, progress=False)
    assert r.faults == {"crash": 2} and r.level_faults == {"timeout": 2}
    text = str(r)
    assert "random: 2 game(s) lost by a crash" in text and "the levels: 2 game(s) lost by a timeout" in text
