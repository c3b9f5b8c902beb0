"""bench env: both sides draw from the same random.Random, and the 15x15 ratio is the ratio of the rates printed."""

from __future__ import annotations

import argparse
import random
import re

from boardgame_envs import gomoku_v0
from boardgame_envs.bench import env as bench


class CountingGame:
    """A pyspiel-like game of 30 moves over 5 actions, recording the moves drawn."""

    def __init__(self) -> None:
        self.moves: list[int] = []

    def new_initial_state(self) -> CountingGame._State:
        return CountingGame._State(self)

    class _State:
        def __init__(self, game: CountingGame) -> None:
            self.game, self.played = game, 0

        def is_terminal(self) -> bool:
            return self.played == 30

        def legal_actions(self) -> list[int]:
            return [0, 1, 2, 3, 4]

        def apply_action(self, action: int) -> None:
            self.game.moves.append(action)
            self.played += 1


def test_the_openspiel_loop_draws_from_the_standard_random_as_ours_does():
    game = CountingGame()
    games, steps, _ = bench.play_random_pyspiel_games(game, 0.0, seed=5)
    assert (games, steps) == (1, 30)
    rng = random.Random(5)
    assert game.moves == [rng.randrange(5) for _ in range(30)]


def test_the_ratio_line_is_the_ratio_of_the_two_rates(capsys):
    args = argparse.Namespace(seconds=0.2, rounds=2, seed=0)
    freestyle = lambda: gomoku_v0.env(board_size=9, rule="freestyle")  # noqa: E731
    ratio = bench._versus("ours9", freestyle, "counting", CountingGame(), args, bench.play_random_pyspiel_games,
                          "ours 9x9", "counting game")  # fmt: skip
    out = capsys.readouterr().out
    rates = {m.group(1).strip(): float(m.group(2).replace(",", "")) for m in
             re.finditer(r"^(.*?)\s+([\d,]+) games/s", out, re.M)}  # fmt: skip
    assert set(rates) == {"ours 9x9", "counting game"}
    shown = float(re.search(r"ratio ours9 / counting\s+([\d.]+)x", out).group(1))
    assert abs(shown - ratio) < 0.006 and abs(ratio - rates["ours 9x9"] / rates["counting game"]) < 0.01 * ratio + 1e-3
