"""Elo while training, for Stable-Baselines3: :class:`EloCallback` over :class:`~boardgame_envs.selfplay.elo.EloTracker`.

>>> model.learn(200_000, callback=EloCallback("tictactoe", every=20_000, csv_path="runs/elo.csv",
...                                           best_path="runs/best.zip", pool=pool))
"""

from __future__ import annotations

import os
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback

from boardgame_envs.selfplay.elo import EloTracker


class EloCallback(BaseCallback):
    """An SB3 callback that rates the model on ``game``'s ladder every ``every`` timesteps (see :class:`EloTracker`
    for the arguments); the values go to the model's logger (TensorBoard with ``tensorboard_log``) and the CSV.

    The model is checked against the ladder's game when training starts, so a model of another
    game or layout fails at once. ``tracker`` holds the ratings, the best one and the CPU share.
    ``verbose=1`` prints one line per rating (:meth:`EloTracker.line`).
    """

    def __init__(self, game: str, every: int = 10_000, games: int = 20, seed: int = 0, max_share: float = 0.2,
                 csv_path: str | os.PathLike | None = None, best_path: str | os.PathLike | None = None,
                 pool: Any = None, rule: str | None = None, board_size: int | None = None,
                 layout: str | None = None, verbose: int = 0) -> None:  # fmt: skip
        super().__init__(verbose)
        self.tracker = EloTracker(game, every, games, seed, max_share, csv_path, best_path, pool, rule, board_size,
                                  layout, log=self._log, print_ratings=bool(verbose))  # fmt: skip

    def _log(self, values: dict[str, float]) -> None:
        for key, value in values.items():
            self.logger.record(key, value)

    def _on_training_start(self) -> None:
        self.tracker.check(self.model)
        if not self.tracker.ratings:
            self.tracker.restart_clock()

    def _on_step(self) -> bool:
        self.tracker.update(self.num_timesteps, self.model)
        return True
