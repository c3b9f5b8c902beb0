"""A training run that shows itself: :class:`RunProgress`, its CPU budget as a progress bar.

A run of the PPO recipes (``baselines/ppo_selfplay.py``, ``baselines/ppo_sb3_pool.py``) is measured
in process CPU-hours, not in steps, so its bar counts CPU-hours: done of the budget, what is left,
the learner steps so far and the last ladder rating with its 95% interval::

    ppo gomoku9:  12%|#2   | 0.240/2.000 CPU-h [03:12<23:30, 98,304 steps, 1.760 CPU-h left, Elo +512 (95% +430 .. +594)]

Where it goes follows :func:`~boardgame_envs.arena.progress.progress_bar`: on a terminal (stderr), tqdm's
bar redrawn in place; when stderr is not a terminal (``> run.log 2>&1``, ``nohup``, a pipe) plain lines
on stdout, beside the run's other lines (its ratings, its updates), at most one every
:data:`~boardgame_envs.arena.progress.LOG_EVERY_S` seconds and its last state at the end, so a log
shows the run going as it goes. Stderr is then left to errors: a refused run says one line there.

The run's own lines (a rating, an update) go through :meth:`RunProgress.write`, which prints them on
stdout without tearing a bar drawn on the terminal.
"""

from __future__ import annotations

import math
import sys
from typing import Any

from tqdm.std import tqdm as std_tqdm

from boardgame_envs.arena.progress import is_terminal, progress_bar

_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n:.3f}/{total:.3f} CPU-h [{elapsed}<{remaining}{postfix}]"
_UNBOUNDED = "{desc}: {n:.3f} CPU-h [{elapsed}{postfix}]"  # no budget (an infinite --cpu-hours): no bar to fill


class RunProgress:
    """A run's CPU-hours against its budget, its steps and its last rating, shown as it goes.

    Args:
        cpu_hours: the run's budget in process CPU-hours (``math.inf``: none, the bar only counts).
        done_hours: CPU-hours the run had spent before this session (a resumed run starts there).
        steps: learner steps so far.
        desc: the bar's label (``"ppo gomoku9"``).
        disable: show nothing (:meth:`write` still prints the run's lines).
    """

    def __init__(self, cpu_hours: float, done_hours: float = 0.0, steps: int = 0, desc: str = "training",
                 disable: bool = False) -> None:  # fmt: skip
        for name, value in (("cpu_hours", cpu_hours), ("done_hours", done_hours)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or value < 0:
                raise ValueError(f"{name} must be a number of CPU-hours, 0 or more, got {value!r}")
        if math.isinf(done_hours):
            raise ValueError(f"done_hours must be finite, got {done_hours!r}")
        self.budget = float(cpu_hours)
        self.hours, self.steps = float(done_hours), int(steps)
        self.rating: Any = None  # the last Rating, once there is one
        # The bar where a person watches (a terminal on stderr), else plain lines with the run's own on stdout.
        file = sys.stderr if is_terminal(sys.stderr) else sys.stdout
        bounded = math.isfinite(self.budget)
        self.bar: std_tqdm = progress_bar(total=self.budget if bounded else None, initial=self._shown(), desc=desc,
                                          bar_format=_FORMAT if bounded else _UNBOUNDED, file=file, disable=disable,
                                          postfix=self._postfix())  # fmt: skip
        self._closed = False

    def _postfix(self) -> str:
        parts = [f"{self.steps:,} steps"]
        if math.isfinite(self.budget):
            parts.append(f"{max(self.budget - self.hours, 0.0):.3f} CPU-h left")
        if self.rating is not None:
            parts.append(self.rating.describe())
        return ", ".join(parts)

    def update(self, steps: int, cpu_hours: float) -> None:
        """The run is at ``steps`` learner steps and ``cpu_hours`` CPU-hours (all sessions: the clock's hours)."""
        self.steps, self.hours = int(steps), max(float(cpu_hours), self.hours)
        self.bar.set_postfix_str(self._postfix(), refresh=False)
        self.bar.update(self._shown() - self.bar.n)  # redrawn as tqdm's intervals allow

    def _shown(self) -> float:
        """The hours the bar fills: the run's, up to the budget (the budget's last rating goes a little past it)."""
        return min(self.hours, self.budget)

    def rated(self, rating: Any) -> None:
        """The learner was just rated (a :class:`~boardgame_envs.ladder.rating.Rating`): the bar shows it."""
        self.rating = rating
        self.bar.set_postfix_str(self._postfix(), refresh=False)

    def write(self, text: str) -> None:
        """Print one of the run's lines on stdout, flushed, above the bar when a terminal shows one."""
        std_tqdm.write(text, file=sys.stdout)
        sys.stdout.flush()

    def close(self) -> None:
        """Leave the bar at its last state (in a log: its last line). Closing twice does nothing."""
        if not self._closed:
            self._closed = True
            self.bar.set_postfix_str(self._postfix(), refresh=False)
            self.bar.close()

    def __enter__(self) -> RunProgress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
