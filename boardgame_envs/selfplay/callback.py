"""Stable-Baselines3 callbacks: Elo while training (:class:`EloCallback`, over
:class:`~boardgame_envs.selfplay.elo.EloTracker`) and a budget of CPU time (:class:`CpuBudget`).

>>> model.learn(10**9, callback=[EloCallback("tictactoe", every=20_000, csv_path="runs/elo.csv",
...                                          best_path="runs/best.zip", pool=pool), CpuBudget(3600)])

:class:`CpuBudget`'s invariant: ``learn()`` stops at the first step after the process's CPU time in
training (every thread of it, the ratings included) reaches the budget, summed over the ``learn()``
calls it is handed to; the overshoot is at most one step of the vectorised env and one update.
"""

from __future__ import annotations

import math
import os
import time
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
        self.tracker.start(self.model.num_timesteps)  # a curve that would start again is refused now

    def _on_step(self) -> bool:
        self.tracker.update(self.num_timesteps, self.model)
        return True


class CpuBudget(BaseCallback):
    """Stop ``learn()`` once the process has spent ``cpu_seconds`` of CPU time training (``time.process_time``:
    every thread of the process, Elo ratings included): a budget that means the same on a busy machine and an
    idle one, where wall time does not. Give ``learn()`` more timesteps than the budget allows (``10**9``).

    The budget is summed over the ``learn()`` calls this callback is handed to (a run resumed in the same
    process goes on spending it); ``spent`` says how much is gone and ``exhausted`` whether it stopped training.
    ``verbose=1`` prints one line when it stops training.
    """

    def __init__(self, cpu_seconds: float, verbose: int = 0) -> None:
        if isinstance(cpu_seconds, bool) or not isinstance(cpu_seconds, (int, float)) or not (
                math.isfinite(cpu_seconds) and cpu_seconds > 0):  # fmt: skip
            raise ValueError(f"cpu_seconds must be a positive number of CPU-seconds, got {cpu_seconds!r}")
        super().__init__(verbose)
        self.cpu_seconds = float(cpu_seconds)
        self.spent = 0.0
        self.exhausted = False
        self._mark = time.process_time()

    def _on_training_start(self) -> None:
        self._mark = time.process_time()  # what the process spent before learn() (imports, set-up) is not counted

    def _on_step(self) -> bool:
        now = time.process_time()
        self.spent += now - self._mark
        self._mark = now
        if self.spent < self.cpu_seconds:
            return True
        self.exhausted = True
        if self.verbose:
            print(f"CPU budget spent: {self.spent:.1f} of {self.cpu_seconds:g} CPU-s, at {self.num_timesteps:,} steps")
        return False
