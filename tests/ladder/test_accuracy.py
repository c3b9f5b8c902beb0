"""Accuracy against perfect play: the interval, the shipped set, and policies measured on solved positions."""

from __future__ import annotations

import json

import numpy as np
import pytest

from games.connect_four_plain import random_line
from boardgame_envs.cli import main
from boardgame_envs.games.connect_four_solver import ConnectFourSolver
from boardgame_envs.ladder.accuracy import PHASES, Position, accuracy, positions, random_expectation, spread, wilson


def test_wilson_interval_matches_known_values():
    low, high = wilson(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    low, high = wilson(100, 100)
    assert high == 1.0 and round(low, 4) == 0.963
    assert wilson(0, 10)[0] == 0.0
    with pytest.raises(ValueError):
        wilson(0, 0)


def test_keeping_the_value_is_the_sign_class_of_the_best_move():
    position = Position("4444443322", {0: 3, 1: 0, 2: -2, 4: 3, 5: 1, 6: -5})
    assert [position.keeps_value(c) for c in (0, 1, 2, 4, 5, 6)] == [True, False, False, True, True, False]
    assert position.keeping_share() == 0.5 and position.informative()
    assert not Position("4444443322", {0: 3, 1: 1, 2: 2, 4: 3, 5: 1, 6: 5}).informative()
    drawn = Position("4444443322", {0: 0, 1: 0, 2: -2, 4: -1, 5: -3, 6: -5})
    assert [drawn.keeps_value(c) for c in (0, 1, 2)] == [True, True, False]
    with pytest.raises(ValueError, match="column 3 is not a legal move"):
        position.keeps_value(3)


@pytest.fixture(scope="module")
def small_set(tmp_path_factory):
    """Late positions of random games, every column solved, in the shipped set's format."""
    rng = np.random.default_rng(0)
    solver = ConnectFourSolver(table_slots=1 << 20)
    rows = []
    while len(rows) < 40:
        line = random_line(rng, int(rng.integers(22, 36)))
        if line is not None:
            rows.append({"moves": line, "scores": {str(c + 1): v for c, v in solver.move_scores(line).items()}})
    path = tmp_path_factory.mktemp("set") / "positions.json"
    path.write_text(json.dumps({"positions": rows}))
    return str(path)


def test_perfect_keeps_the_value_everywhere_and_random_is_near_its_expectation(small_set):
    perfect = accuracy("perfect", path=small_set)
    assert (perfect.kept, perfect.total) == (40, 40)
    assert "perfect: 100.0% of 40 positions keep the game-theoretic value (95% 91.2..100.0)" == perfect.line()
    expected = random_expectation(positions(small_set))
    shares = [accuracy("random", path=small_set, seed=s).share for s in range(10)]
    assert abs(np.mean(shares) - expected) < 0.05  # 400 random moves: about 3 standard errors of 0.024
    assert sum(n for _, n in perfect.phases) == 40 and len(perfect.phases) == len(PHASES)


def test_a_damaged_set_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"positions": [{"moves": "44444433", "scores": {"1": 0}}]}))
    with pytest.raises(ValueError, match="does not list exactly its legal columns"):
        positions(str(bad))
    bad.write_text(json.dumps({"positions": [{"moves": "4x", "scores": {}}]}))
    with pytest.raises(ValueError, match="position 0 is damaged"):
        positions(str(bad))
    with pytest.raises(ValueError, match="accuracy is measured on solved games"):
        accuracy("random", "tictactoe")


def test_the_shipped_set_is_large_spread_over_the_phases_and_its_late_scores_are_right():
    shipped = positions()
    assert len(shipped) >= 1000 and all(p.informative() for p in shipped)
    counts = [sum(p.phase == i for p in shipped) for i in range(len(PHASES))]
    assert min(counts) >= 100, counts
    assert random_expectation() < 0.6  # informative positions: a random move often loses the value
    solver = ConnectFourSolver(table_slots=1 << 20)
    late = [p for p in shipped if len(p.moves) >= 24][::40]
    assert len(late) >= 8
    for p in late:  # late positions cost milliseconds to solve again
        assert solver.move_scores(p.moves) == p.scores, p.moves


def test_the_command_prints_one_line_and_the_phases(capsys):
    assert main(["accuracy", "random", "connect_four", "--limit", "60", "--seed", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("random: ") and "% of 60 positions keep the game-theoretic value (95% " in out[0]
    assert [line.split(":")[0].strip() for line in out[1:5]] == [f"after {lo}-{hi} moves" for lo, hi in PHASES]
    assert "a uniformly random player keeps it on" in out[5]
    assert len(spread(positions(), 60)) == 60


def test_the_command_refuses_another_game_in_one_line(capsys):
    assert main(["accuracy", "random", "renju"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
