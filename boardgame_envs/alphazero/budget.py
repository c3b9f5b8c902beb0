"""A training call's wall-clock budget (``minutes``), shared between its phases.

``minutes`` is the whole call's budget, warm start included. A warm start still to do gets a share
of it: its games stop at :data:`WARM_GAMES_SHARE` of the budget and its learning steps at
:data:`WARM_SHARE` (fewer games, proportionally fewer steps: :func:`warm_step_target`); the
self-play iterations get the rest. A call that only warm-starts (``iterations=0``) gives the
warm start the whole budget. Every phase watches the clock: a warm-start game, a learning step
and a self-play round each end the phase when the clock has passed its share, and an iteration
starts only when the last one's time still fits.

This module imports no torch (the CLI describes a plan without it).
"""

from __future__ import annotations

import math
import time

WARM_GAMES_SHARE = 0.3  # a budgeted call's warm-start games stop at this share of its minutes...
WARM_SHARE = 0.5  # ... its learning steps at this one; self-play iterations get the rest
ALONE_GAMES_SHARE = 0.6  # with iterations=0 the warm start is the call: its games get this share, the steps the rest
WARM_MIN_STEPS = 50  # the floor: a warm start scaled down still takes this many steps (or all it has, if fewer)


class Clock:
    """This call's budget: ``minutes`` from its start (``time.perf_counter()``), or none."""

    def __init__(self, minutes: float | None) -> None:
        self.start = time.perf_counter()
        self.seconds = None if minutes is None else 60.0 * minutes

    @property
    def deadline(self) -> float | None:
        """When the budget ends, as a ``time.perf_counter()`` value; None without one."""
        return None if self.seconds is None else self.start + self.seconds

    def at(self, share: float) -> float | None:
        """The ``time.perf_counter()`` value when ``share`` of the budget is spent; None without one."""
        return None if self.seconds is None else self.start + share * self.seconds

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def fits(self, seconds: float) -> bool:
        """Whether ``seconds`` of work started now end within the budget."""
        return self.seconds is None or self.elapsed() + seconds <= self.seconds

    def passed(self) -> bool:
        return self.seconds is not None and self.elapsed() >= self.seconds


def warm_step_target(warm_steps: int, games: int, warm_games: int) -> int:
    """The learning steps of a warm start that has ``games`` of its ``warm_games``: all ``warm_steps`` for all
    the games, proportionally fewer for fewer (the same passes over fewer examples), at least
    :data:`WARM_MIN_STEPS` (or ``warm_steps`` when that is fewer)."""
    if games >= warm_games:
        return warm_steps
    return min(warm_steps, max(WARM_MIN_STEPS, round(warm_steps * games / warm_games)))


def warm_floor(target: int) -> int:
    """The fewest learning steps that make a warm start cut by the clock a warm start: self-play waits for them."""
    return min(target, WARM_MIN_STEPS)


def warm_shares(iterations: int | None) -> tuple[float, float]:
    """The shares of the budget at which a warm start's games, then its learning steps, stop."""
    return (ALONE_GAMES_SHARE, 1.0) if iterations == 0 else (WARM_GAMES_SHARE, WARM_SHARE)


def clock_text(seconds: float) -> str:
    """``seconds`` as ``m:ss`` (``h:mm:ss`` from an hour), for plans and accounts."""
    seconds = max(0, math.ceil(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def warm_plan(minutes: float, iterations: int | None, games_left: int, steps: int, spec: str) -> str:
    """One line, said before a budgeted warm start begins: what each phase may use of the budget."""
    games_share, steps_share = warm_shares(iterations)
    seconds = 60.0 * minutes
    games = f"{spec} games (up to {games_left}) until {clock_text(games_share * seconds)}, " if games_left else ""
    after = "" if iterations == 0 else ", then self-play iterations"
    return (f"budget {minutes:g} min, warm start included: {games}learning steps (up to {steps}) "
            f"until {clock_text(steps_share * seconds)}{after}")  # fmt: skip


def needed_minutes(game_s: float | None, step_s: float | None, warm_games: int, warm_steps: int) -> float | None:
    """The budget whose warm-start shares would hold a whole warm start at the measured seconds per game and per
    step; None when a rate is unknown."""
    if game_s is None or (warm_steps and step_s is None):
        return None
    games = game_s * warm_games / WARM_GAMES_SHARE
    whole = (game_s * warm_games + (step_s or 0.0) * warm_steps) / WARM_SHARE
    return max(games, whole) / 60.0
