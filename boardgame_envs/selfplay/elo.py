"""Elo while training: the learner rated on its game's ladder every so often, at a bounded share of the CPU.

* :func:`rate_during_training`: one rating of a learner (an SB3 model, a batched callable
  ``(observations, action_masks) -> actions`` with its ``layout``, or any policy) at a small
  fixed budget (``games`` games from ``seed``, so successive ratings play the same openings
  and random streams), starting near a given Elo.
* :class:`EloTracker`: the schedule for any training loop: call ``tracker.update(steps, learner)``
  after each update; every ``every`` steps it rates the learner, writes a CSV row, logs,
  keeps the best snapshot (by the *lower* end of the 95% interval, so a short lucky rating
  does not displace a steadier one), adds snapshots to an opponent pool and, with
  ``print_ratings``, prints one line per rating (:meth:`EloTracker.line`).
* :class:`~boardgame_envs.selfplay.callback.EloCallback`: the same for Stable-Baselines3
  (``model.learn(..., callback=EloCallback(...))``), logging ``elo/elo``, ``elo/low``,
  ``elo/high``, ``elo/cpu_share`` to the SB3 logger (TensorBoard).

This module needs no SB3: a plain-torch loop uses :class:`EloTracker` with a batched callable.

Invariant: a rating starts only while the ratings so far have taken at most ``max_share``
of the process CPU time since training began (``time.process_time``, all threads: torch's
too); a due rating is otherwise put off until enough training has run, and each delay is
logged (``skipped`` in the CSV). So the share exceeds ``max_share`` by at most one rating's
cost, just after it, and falls back as training goes on. The share is measured, not
predicted: a first rating that pays one-off costs (imports, kernels loaded from the cache)
delays the next ones instead of being taken for what every rating costs.
"""

from __future__ import annotations

import csv
import math
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from boardgame_envs.ladder import ladder_for
from boardgame_envs.ladder.rating import Rating, check_rating_games, rate
from boardgame_envs.policies.base import game_state_of
from boardgame_envs.safeio import FileRefusedError, open_append, read_text
from boardgame_envs.selfplay.sb3_policy import LAYOUTS, Sb3Policy, encode

FIELDS = ("timesteps", "elo", "low", "high", "games", "rating_cpu_s", "total_cpu_s", "cpu_share", "skipped")


class CallablePolicy:
    """A batched callable ``fn(observations, action_masks) -> actions`` acting on states, given its ``layout``."""

    def __init__(self, fn: Callable[[np.ndarray, np.ndarray], Any], layout: str, name: str = "learner") -> None:
        if layout not in LAYOUTS:
            raise ValueError(f"a callable learner needs layout= one of {', '.join(LAYOUTS)} (how its env laid out "
                             f"observations), got {layout!r}")  # fmt: skip
        self.fn, self.layout, self.name = fn, layout, name

    def act(self, state: Any) -> int:
        state = game_state_of(state)
        planes = state.planes(state.to_move)[None]
        return int(np.asarray(self.fn(encode(planes, self.layout), state.legal_mask()[None])).reshape(-1)[0])


def as_policy(learner: Any, layout: str | None = None, name: str = "learner") -> Any:
    """``learner`` as something :func:`~boardgame_envs.ladder.rate` takes: an SB3 model becomes an
    :class:`Sb3Policy` (greedy), a batched callable a :class:`CallablePolicy`; specs and policies stay."""
    if hasattr(learner, "policy") and hasattr(learner, "observation_space") and hasattr(learner, "predict"):
        return Sb3Policy(learner, name, layout=layout)
    if isinstance(learner, (str, tuple)) or hasattr(learner, "act"):
        return learner
    if callable(learner):
        return CallablePolicy(learner, layout, name)
    raise TypeError(f"cannot rate {learner!r}: give an SB3 model, a batched callable with layout=, or a policy")


def rate_during_training(
    policy: Any, game: str, games: int = 20, seed: int = 0, start: float | None = None, rule: str | None = None,
    board_size: int | None = None, layout: str | None = None,
) -> Rating:  # fmt: skip
    """One rating of a learner on ``game``'s ladder (a game or ladder name: ``"tictactoe"``, ``"gomoku9"``),
    ``games`` games in colour-swapped pairs from ``seed``, the first against the level nearest ``start``.

    ``policy``: an SB3 model (rated greedy), a batched callable ``(observations, action_masks)
    -> actions`` with ``layout`` (``"hwc"``, ``"chw"`` or ``"flat"``), or any policy or spec.
    Played in this process (the learner is not copied anywhere).
    """
    return rate(as_policy(policy, layout), game, rule=rule, board_size=board_size, games=games, seed=seed,
                progress=False, start=start)  # fmt: skip


def _print_now(text: str) -> None:
    print(text, flush=True)  # flushed: a run's output sent to a file shows each rating as it is made


def _start_of(rating: Rating | None) -> float | None:
    """Where the next rating begins: the last estimate, or its finite bound when it was one-sided."""
    if rating is None:
        return None
    return rating.elo if math.isfinite(rating.elo) else rating.low if math.isfinite(rating.low) else rating.high


def last_curve_steps(path: Path) -> int | None:
    """The steps of the last row of the curve at ``path`` (None: no file, or no row yet); read bounded."""
    try:
        text = read_text(path, what="Elo curve")
    except FileNotFoundError:
        return None
    rows = [row for row in csv.reader(text.splitlines()) if row]
    if len(rows) < 2:
        return None
    try:
        return int(rows[-1][0])
    except ValueError:
        raise FileRefusedError(path, f"its last row does not start with a step count: {rows[-1][0][:40]!r}") from None


class EloTracker:
    """Rate a learner every ``every`` steps of any training loop, within ``max_share`` of the CPU; see the module docstring.

    Args:
        game, rule, board_size: the ladder (as :func:`~boardgame_envs.ladder.rate` takes them).
        every: steps (the loop's own count: env steps, updates, ...) between ratings.
        games, seed: each rating's fixed budget. The default 20 games place a learner to about ±165 Elo (95%)
            mid-ladder (measured: docs/selfplay.md, "Its noise"): a curve's trend at a small CPU share.
        max_share: the most of the process CPU time since the tracker began that ratings may take.
        csv_path: a CSV file that gets one row per rating or put-off rating (appended to, so a
            resumed run goes on in the same file). A run whose steps are below the file's last row (a new
            run, or SB3's ``learn()`` with ``reset_num_timesteps=True``) is refused when it starts, rather
            than appending rows whose steps start again: :meth:`check_curve`.
        best_path: where the best snapshot is written (by the rating's lower 95% bound).
        pool: an :class:`~boardgame_envs.selfplay.OpponentPool` that gets a snapshot after each rating.
        layout: the learner's observation layout, for a batched-callable learner (read from an SB3 model);
            checked here, so a wrong one fails when the tracker is built, not at its first rating.
        log: ``log(values: dict)`` after each rating (the SB3 callback sends them to its logger).
        print_ratings: True prints one line per rating (:meth:`line`: steps, Elo and its 95% interval,
            games, the rating's CPU seconds, the ratings' share of the CPU); a callable ``f(text)``
            gets the line instead (``tqdm.write`` beside a progress bar, a logger's ``info``).
    """

    def __init__(
        self, game: str, every: int, games: int = 20, seed: int = 0, max_share: float = 0.2,
        csv_path: str | os.PathLike | None = None, best_path: str | os.PathLike | None = None, pool: Any = None,
        rule: str | None = None, board_size: int | None = None, layout: str | None = None,
        log: Callable[[dict[str, float]], None] | None = None,
        print_ratings: bool | Callable[[str], Any] = False,
    ) -> None:  # fmt: skip
        if isinstance(every, bool) or not isinstance(every, int) or every < 1:
            raise ValueError(f"every must be a positive number of steps, got {every!r}")
        if isinstance(max_share, bool) or not isinstance(max_share, (int, float)) or not 0 < max_share <= 1:
            raise ValueError(f"max_share must be a share of the CPU time in (0, 1], got {max_share!r}")
        check_rating_games(games)  # an odd count is refused now, not at the first rating
        if layout is not None and layout not in LAYOUTS:
            raise ValueError(f"unknown layout {layout!r}; expected one of {', '.join(LAYOUTS)} (how the learner's "
                             f"env laid out observations), or None to read it from an SB3 model")  # fmt: skip
        if not isinstance(print_ratings, bool) and not callable(print_ratings):
            raise TypeError(f"print_ratings must be True, False or a callable f(text), got {print_ratings!r}")
        self.ladder = ladder_for(game, rule, board_size)  # an unknown game fails now, not at the first rating
        self.game, self.rule, self.board_size = game, rule, board_size
        self.every, self.games, self.seed, self.max_share = every, games, seed, float(max_share)
        self.csv_path = Path(csv_path) if csv_path is not None else None
        self.best_path = Path(best_path) if best_path is not None else None
        self.pool, self.layout, self.log = pool, layout, log
        self.print_ratings = _print_now if print_ratings is True else print_ratings or None
        self.ratings: list[tuple[int, Rating]] = []  # (steps, rating) of every rating made
        self.best: tuple[int, Rating] | None = None
        self.skipped = 0  # ratings put off to keep within max_share
        self.rating_cpu = 0.0
        self._last_cost = self._last_share = 0.0
        self._next = every
        self._clock0 = time.process_time()
        self._curve_checked = False

    def start(self, steps: int) -> None:
        """Training starts (or resumes) at ``steps``: the curve is checked (:meth:`check_curve`) and, before the
        first rating, the CPU clock starts now and the first rating comes ``every`` steps on."""
        self.check_curve(steps)
        if not self.ratings:
            self.restart_clock()
            self._next = steps + self.every

    def check_curve(self, steps: int) -> None:
        """Refuse to go on at ``steps`` in ``csv_path`` when the curve there already reached past them: its rows
        would start again (a second run, or a model whose step count was reset), and the curve would no longer
        say what the learner was at a step. A resumed run (its steps at or past the last row) goes on in it."""
        self._curve_checked = True
        if self.csv_path is None:
            return
        last = last_curve_steps(self.csv_path)
        if last is not None and steps < last:
            raise ValueError(f"{self.csv_path} holds a curve up to {last:,} steps, and this run is at {steps:,}: "
                             "its rows would start again below them. Give a new csv_path, or resume the run that "
                             "wrote it (SB3: model.learn(..., reset_num_timesteps=False))")  # fmt: skip

    def restart_clock(self) -> None:
        """Count the CPU time from now (call when training starts, if the tracker was built long before)."""
        self._clock0 = time.process_time() - self.rating_cpu

    def check(self, learner: Any) -> None:
        """Fail now if the learner cannot play the ladder's game (an SB3 model of another game or layout)."""
        policy = as_policy(learner, self.layout)
        check = getattr(policy, "check_game", None)
        if callable(check):
            check(self.ladder.game_object())

    @property
    def cpu_share(self) -> float:
        """The share of the process CPU time since the start that went into ratings."""
        total = time.process_time() - self._clock0
        return self.rating_cpu / total if total > 0 else 0.0

    def update(self, steps: int, learner: Any, save: Callable[[Path], None] | None = None) -> Rating | None:
        """After ``steps`` steps of training: rate ``learner`` if one is due and the CPU budget allows.

        ``save(path)`` writes the learner to a file (default: ``learner.save``, as SB3 models have),
        for the best snapshot and the pool's. Returns the rating, or None.
        """
        if steps < self._next:
            return None
        if not self._curve_checked:  # a loop that did not say where it starts: checked at its first row
            self.check_curve(steps)
        total = time.process_time() - self._clock0
        if self.rating_cpu > self.max_share * total:
            self.skipped += 1  # put off: try again when the loop next reports, with more training behind it
            self._write_row(steps, None, total)
            self._next = steps + max(1, self.every // 4)
            return None
        before = time.process_time()
        last = self.ratings[-1][1] if self.ratings else None
        rating = rate_during_training(learner, self.game, self.games, self.seed, _start_of(last), self.rule,
                                      self.board_size, self.layout)  # fmt: skip
        self._last_cost = time.process_time() - before
        self.rating_cpu += self._last_cost
        self.ratings.append((steps, rating))
        self._next = steps + self.every
        self._keep(steps, rating, learner, save)
        self._write_row(steps, rating, time.process_time() - self._clock0)
        self._last_share = self.cpu_share
        if self.log is not None:
            self.log({"elo/elo": rating.elo, "elo/low": rating.low, "elo/high": rating.high,
                      "elo/games": rating.games, "elo/cpu_share": self._last_share, "elo/skipped": self.skipped})  # fmt: skip
        if self.print_ratings is not None:
            self.print_ratings(self.line())
        return rating

    def line(self) -> str:
        """The latest rating in a line: ``elo at 25,000 steps: Elo +512 (95% +430 .. +594), 20 games, 3.1 CPU-s
        (ratings 8.2% of the CPU)`` (the share when it ended), and the ratings put off so far if any; empty before
        the first rating."""
        if not self.ratings:
            return ""
        steps, rating = self.ratings[-1]
        text = (f"elo at {steps:,} steps: {rating.describe()}, {rating.games} games, {self._last_cost:.1f} CPU-s "
                f"(ratings {self._last_share:.1%} of the CPU)")  # fmt: skip
        return text + (f", {self.skipped} put off so far" if self.skipped else "")

    def _keep(self, steps: int, rating: Rating, learner: Any, save: Callable[[Path], None] | None) -> None:
        own = save is None  # the learner's own save: an SB3 model, which the pool takes as it is
        save = save or getattr(learner, "save", None)
        better = self.best is None or rating.low > self.best[1].low
        if better:
            self.best = (steps, rating)
        if save is None:
            if self.best_path is not None or self.pool is not None:
                raise TypeError("the learner has no save(path): pass save= to write it for best_path and the pool")
            return
        if better and self.best_path is not None:
            self.best_path.parent.mkdir(parents=True, exist_ok=True)
            save(self.best_path)
        if self.pool is not None:
            if own:
                self.pool.add_snapshot(learner, name=f"step-{steps}")
            else:
                with tempfile.TemporaryDirectory() as folder:
                    path = Path(folder) / f"step-{steps}"
                    save(path)
                    self.pool.add_snapshot(path, name=f"step-{steps}")

    def _write_row(self, steps: int, rating: Rating | None, total: float) -> None:
        if self.csv_path is None:
            return
        new = not self.csv_path.exists()
        self.csv_path.parent.mkdir(parents=True, exist_ok=True)
        with open_append(self.csv_path, "Elo curve", newline="") as f:  # a FIFO there is one line, not a wait
            writer = csv.writer(f)
            if new:
                writer.writerow(FIELDS)
            share = self.rating_cpu / total if total > 0 else 0.0
            if rating is None:
                writer.writerow([steps, "", "", "", 0, f"{self.rating_cpu:.2f}", f"{total:.2f}", f"{share:.3f}", 1])
            else:
                writer.writerow([steps, f"{rating.elo:.1f}", f"{rating.low:.1f}", f"{rating.high:.1f}", rating.games,
                                 f"{self.rating_cpu:.2f}", f"{total:.2f}", f"{share:.3f}", 0])  # fmt: skip
