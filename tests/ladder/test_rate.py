"""rate(): adaptive games against a ladder's levels, an estimate with an interval, bad input refused."""

from __future__ import annotations

import pytest

from boardgame_envs.ladder import LadderError, levels, rate
from boardgame_envs.ladder import rating as rating_module
from boardgame_envs.ladder.rating import estimate, nearest
from boardgame_envs.policies import RandomPolicy


def test_levels_read_the_table(tiny_table):
    rows = levels("tiny")
    assert [(lv.name, lv.spec, lv.elo) for lv in rows] == [
        ("tiny/0", "random", 0.0), ("tiny/1", "greedy:epsilon=0.5", 200.0), ("tiny/2", "perfect", 400.0)]
    assert nearest(rows, 290).name == "tiny/1" and nearest(rows, 300).name == "tiny/1"  # a tie goes to the weaker
    assert nearest(rows, 301).name == "tiny/2"


def test_estimate_against_fixed_levels_by_hand(tiny_table):
    rows = levels("tiny")
    # 2 wins and 2 losses against the +200 level (plus its virtual draw): exactly +200.
    elo, half = estimate(rows, [("tiny/1", 1.0), ("tiny/1", 1.0), ("tiny/1", 0.0), ("tiny/1", 0.0)])
    assert elo == pytest.approx(200.0, abs=1e-3) and 100 < half < 800


def test_rate_starts_in_the_middle_and_moves_towards_even_games(tiny_table):
    seen = []
    strong = rate("perfect", "tiny", games=16, seed=1, progress=False, on_batch=lambda r: seen.append(dict(r.per_level)))
    assert list(seen[0]) == ["tiny/1"]  # the first pair is against the middle level
    assert strong.per_level["tiny/2"][0] + strong.per_level["tiny/2"][1] > 0 and sum(strong.per_level["tiny/2"]) >= 8
    weak = rate(RandomPolicy(seed=0), "tiny", games=16, seed=1, progress=False)
    assert sum(weak.per_level.get("tiny/0", [0])) >= 8 and weak.elo < strong.elo
    assert weak.games == strong.games == 16 and weak.low < weak.elo < weak.high


def test_precision_stops_early(tiny_table):
    r = rate("random", "tiny", games=400, precision=2000, progress=False)
    assert r.games == 2 and r.half_width <= 2000


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
