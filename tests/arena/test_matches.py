"""Arena: counting, seats, reproducibility across jobs, interval and Elo math."""

from __future__ import annotations

import math

import pytest
from scipy.stats import t as student_t

from boardgame_envs import tictactoe_v0
from boardgame_envs.arena import MatchResult, elo_from_score, match, round_robin
from boardgame_envs.cli import main


def test_perfect_players_draw_every_game_and_seats_alternate():
    r = match(tictactoe_v0.env, "perfect", "perfect", games=10, seed=0, progress=False)
    assert r.by_seat == {"first": [0, 5, 0], "second": [0, 5, 0]}
    assert r.score()[0] == 0.5 and r.elo()[0] == 0.0


def test_jobs_do_not_change_results():
    one = match(tictactoe_v0.env, "random", "random", games=16, seed=3, progress=False)
    two = match(tictactoe_v0.env, "random", "random", games=16, seed=3, jobs=2, progress=False)
    assert one.by_seat == two.by_seat
    assert one.games == 16


def test_search_beats_random_in_both_seats():
    r = match(tictactoe_v0.env, "alphabeta", "random", games=20, seed=1, progress=False)
    assert r.losses == 0 and r.by_seat["first"][0] >= 8


def test_elo_and_interval_math():
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_from_score(0.5) == 0.0 and elo_from_score(1.0) == 800.0
    r = MatchResult("a", "b", {"first": [30, 0, 20], "second": [30, 0, 20]})
    s, lo, hi = r.score()
    # Counts alone (no records): each game a unit. The spread of 100 win/loss games with 99 degrees of
    # freedom makes an effective 99 games; Wilson's interval over them with Student's t quantile.
    n, q = 99, student_t.ppf(0.975, 99)
    centre = (0.6 + q * q / (2 * n)) / (1 + q * q / n)
    half = q * math.sqrt(0.24 / n + q * q / (4 * n * n)) / (1 + q * q / n)
    assert s == 0.6 and lo == pytest.approx(centre - half) and hi == pytest.approx(centre + half)
    wald = 1.959964 * math.sqrt(0.6 * 0.4 / 100)  # the normal interval it replaced, about as wide at 100 games
    assert abs((hi - lo) / 2 - wald) < 0.003
    sweep = MatchResult("a", "b", {"first": [10, 0, 0], "second": [10, 0, 0]})
    assert sweep.score()[1] == pytest.approx(0.025 ** (1 / 20))  # a clean sweep: the bound for any 0..1 score


def test_round_robin_orders_by_strength():
    table = round_robin(tictactoe_v0.env, {"random": "random", "perfect": "perfect"}, games=10, progress=False)
    assert list(table) == ["perfect", "random"] and abs(sum(table.values())) < 1e-6


def test_cli_arena(capsys):
    assert main(["arena", "tictactoe", "mcts", "random", "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "mcts vs random: 4 games" in out and "Elo" in out
    assert main(["arena", "gomoku", "nope", "random"]) == 2


def test_an_illegal_move_punished_by_the_wrapper_loses():
    from boardgame_envs.arena import play_game

    class Occupier:
        """Plays the point its opponent just took: illegal on its first move as second player."""

        name = "occupier"

        def act(self, state):
            return int(state.last_move)

    first = type("Centre", (), {"name": "centre", "act": lambda self, state: 4})()
    # Under env() an illegal move loses (as PettingZoo's wrapper scores it), not a draw; the
    # moves stay the legal ones, so that they replay (the record's reason names the bad move).
    assert play_game(tictactoe_v0.env, first, Occupier()) == (1, [4])
