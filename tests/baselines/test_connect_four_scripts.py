"""The connect-four baseline scripts: how the accuracy set's positions are drawn, the comparison's positions."""

from __future__ import annotations

import numpy as np

from baseline_scripts import load_baseline
from games.connect_four_plain import random_line
from boardgame_envs.games.connect_four_solver import state_of_moves
from boardgame_envs.ladder.accuracy import PHASES


def test_candidates_are_two_early_positions_per_game_and_every_later_one_all_live():
    script = load_baseline("connect_four_positions")
    rng = np.random.default_rng(0)
    short, long = (next(line for line in iter(lambda n=n: random_line(rng, n), 0) if line is not None) for n in (19, 37))
    games = [{"pick": 0, "a": "x", "b": "y", "index": 0, "moves": short},
             {"pick": 1, "a": "x", "b": "y", "index": 1, "moves": long}]  # fmt: skip
    chosen = [c["moves"] for c in script.candidates(games, per_phase=300)]
    assert len(set(chosen)) == len(chosen)
    early = [m for m in chosen if len(m) <= PHASES[0][1]]
    assert 1 <= len(early) <= 4
    later = {g["moves"][:n] for g in games for n in range(PHASES[1][0], min(PHASES[-1][1], len(g["moves"]) - 1) + 1)}
    assert set(chosen) - set(early) == later
    for m in chosen:
        assert not state_of_moves(m).terminal and any(g["moves"].startswith(m) for g in games)
    assert script.informative({"1": 2, "2": 0}) and not script.informative({"1": 2, "2": 5})


def test_the_comparison_draws_live_positions_spread_over_the_phases():
    script = load_baseline("connect_four_solver_check")
    lines = script.random_positions(28, seed=0)
    lengths = [len(m) for m in lines]
    assert len(lines) == 28 and min(lengths) >= 8 and max(lengths) <= 35
    assert np.all(np.diff(lengths) >= 0)
    assert all(not state_of_moves(m).terminal for m in lines)
