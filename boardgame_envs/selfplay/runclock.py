"""A training run's CPU budget and its ladder ratings, across resumes: :class:`RunClock`.

A run that is stopped and resumed (another process, another session) counts its own
process CPU time (``time.process_time``, torch's threads included) on top of what its
earlier sessions spent, rates the learner on its game's ladder every so many CPU-seconds
of training, each rating starting near the last estimate, and appends a row a rating to
a ``curve.csv``: ``cpu_hours``, the caller's counters (``steps``, ``updates``, ...),
``elo, low, high, games``, the rating's CPU and the ratings' share of the run so far.

Ratings count in the budget. The gap between two is ``every_s`` of training CPU, or
longer where the last rating's cost would otherwise put ratings above ``max_share``
of the run: the share is kept by stretching the gap, not by skipping a due point.

The state is six numbers (:meth:`RunClock.state`, a flat dict), saved with the run's
checkpoint and given back by :meth:`RunClock.from_state`; the PPO recipes in ``baselines/``
save them beside their own counters. One of them is the number of rows the run has written
to its curve: a run killed after a rating but before its next checkpoint rates that point
again when it resumes, so :meth:`RunClock.sync_curve`, called on resume, first drops the
rows the checkpoint does not know of (one row a point, whatever the kills).

:class:`~boardgame_envs.selfplay.EloTracker` is the same idea for a loop that counts steps
and never stops (it keeps no state to resume).
"""

from __future__ import annotations

import csv
import io
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from boardgame_envs.ladder.rating import Rating, rate
from boardgame_envs.safeio import DiskFullError, FileRefusedError, atomic_write_text, open_append, read_text
from boardgame_envs.safeio.errors import DISK_FULL


@dataclass
class RunClock:
    """The CPU a run has spent over all its sessions, and when it last rated itself; see the module docstring."""

    cpu_s: float = 0.0  # process CPU of the run so far, all sessions, ratings included
    rate_cpu_s: float = 0.0  # of which ratings
    last_rate_cpu_s: float = -math.inf  # training CPU (cpu_s - rate_cpu_s) at the last rating
    last_rate_cost_s: float = 0.0
    last_elo: float | None = None  # where the next rating starts
    ratings: int | None = 0  # rows written to the curve (None: a state saved before this count existed)
    _mark: float = field(default_factory=time.process_time, repr=False, compare=False)

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> RunClock:
        """The clock saved in ``state`` (a checkpoint's counters: keys of other counters are ignored)."""
        names = {f.name for f in fields(cls)} - {"_mark"}
        return cls(**{"ratings": None, **{k: v for k, v in state.items() if k in names}})

    def state(self) -> dict[str, Any]:
        """The six numbers to save with the run (``RunClock.from_state`` reads them back)."""
        data = asdict(self)
        del data["_mark"]
        return data

    def sync_curve(self, csv_path: str | os.PathLike) -> int:
        """Make ``csv_path`` hold the rows this clock wrote (call it when a run resumes); how many rows it dropped.

        Rows past the count are ratings made after the checkpoint was saved (the run was killed
        before the next one): they are dropped, as the resumed run rates those points again. A
        last row cut short by a kill (no line end, or fewer fields than the header) is dropped too,
        with a line on stderr, rather than glued onto the next row. A curve with fewer rows than the
        checkpoint counts (emptied, or cut) is reported on stderr and goes on from the rows it has.
        The file is read bounded and rewritten whole (a temporary file renamed over it); one that is
        not UTF-8 text, or has a damaged row before its last, is
        :class:`~boardgame_envs.safeio.FileRefusedError`, one line naming it. A clock saved before the
        count existed adopts the file's rows as they are."""
        path = Path(csv_path)
        lines = _curve_lines(path)
        dropped = 0
        if lines and _cut(lines[-1], lines[0] if len(lines) > 1 else None):
            print(f"{path}: dropped its last row, cut short ({lines[-1].rstrip()[:60]!r})", file=sys.stderr, flush=True)
            lines, dropped = lines[:-1], 1
        rows = max(len(lines) - 1, 0)  # the header
        if self.ratings is None:
            self.ratings = rows
        elif rows < self.ratings:
            print(f"{path}: {rows} rating row(s) where the checkpoint counts {self.ratings}; the "
                  f"{self.ratings - rows} missing are lost, and the curve goes on from here", file=sys.stderr, flush=True)  # fmt: skip
            self.ratings = rows
        elif rows > self.ratings:
            print(f"{path}: dropped {rows - self.ratings} rating row(s) written after the checkpoint", flush=True)
            dropped += rows - self.ratings
            lines = lines[: self.ratings + 1]
        if dropped:
            if len(lines) > 0:
                atomic_write_text(path, "".join(lines))
            else:
                path.unlink()
        return dropped

    def start(self) -> None:
        """Count this session's CPU from now on: what the process spent since the clock was made (its set-up:
        imports, the network, the first checkpoint, compiling the games' kernels) is not the run's."""
        self._mark = time.process_time()

    def tick(self) -> float:
        """Add the process CPU time since the last tick (or since the clock was made) to the run's; the total."""
        now = time.process_time()
        self.cpu_s += now - self._mark
        self._mark = now
        return self.cpu_s

    @property
    def hours(self) -> float:
        return self.cpu_s / 3600

    @property
    def training_cpu_s(self) -> float:
        return self.cpu_s - self.rate_cpu_s

    def rating_due(self, every_s: float, max_share: float) -> bool:
        """Whether ``every_s`` CPU-seconds of training have passed since the last rating (stretched to keep
        ratings under ``max_share`` of the run, judged by the last rating's cost)."""
        gap = max(every_s, self.last_rate_cost_s * (1 - max_share) / max_share)
        return self.training_cpu_s - self.last_rate_cpu_s >= gap

    def trained_since_rating(self) -> bool:
        """Whether the learner trained after its last rating (so a rating now would be a new point)."""
        return self.last_rate_cpu_s < self.training_cpu_s

    def rate(self, policy: Any, ladder: str, games: int, seed: int, csv_path: str | os.PathLike,
             columns: dict[str, Any], say: Callable[[str], Any] | None = None) -> Rating:  # fmt: skip
        """Rate ``policy`` on ``ladder`` now (``games`` games from ``seed``), count its CPU, append a row to
        ``csv_path`` (``cpu_hours``, then ``columns``, then the rating) and print a line, or hand it to ``say``
        (:meth:`~boardgame_envs.selfplay.progress.RunProgress.write` beside a progress bar); the rating."""
        self.tick()
        rating = rate(policy, ladder, games=games, seed=seed, progress=False, start=self.last_elo)
        cost = time.process_time() - self._mark
        self.tick()
        self.rate_cpu_s += cost
        self.last_rate_cost_s = cost
        self.last_rate_cpu_s = self.training_cpu_s
        if math.isfinite(rating.elo):
            self.last_elo = rating.elo
        if self.ratings is not None:
            self.ratings += 1
        row = {"cpu_hours": round(self.hours, 4), **columns, "elo": round(rating.elo, 1), "low": round(rating.low, 1),
               "high": round(rating.high, 1), "games": rating.games, "rate_cpu_s": round(cost, 1),
               "rate_share": round(self.rate_cpu_s / max(self.cpu_s, 1e-9), 3)}  # fmt: skip
        path = Path(csv_path)
        new = not path.exists() or path.stat().st_size == 0  # (an emptied curve gets its header again)
        try:
            with open_append(path, "curve", newline="") as f:  # a FIFO there is refused, not waited on
                writer = csv.DictWriter(f, fieldnames=list(row))
                if new:
                    writer.writeheader()
                writer.writerow(row)
        except OSError as exc:  # a row cut short by a full disk is dropped by the next sync_curve
            if exc.errno in DISK_FULL:
                raise DiskFullError(path, exc.errno) from None
            raise
        where = ", ".join(f"{v} {k}" for k, v in columns.items())
        line = f"rating at {self.hours:.3f} CPU-h, {where}: {rating.describe()} ({rating.games} games, {cost:.0f} CPU-s)"  # fmt: skip
        if say is None:
            print(line, flush=True)
        else:
            say(line)
        return rating


def _curve_lines(path: Path) -> list[str]:
    """The lines of the curve at ``path`` with their line ends as written ([] when there is none)."""
    try:
        text = read_text(path, what="curve", newline="")  # bounded: a curve linked to /dev/zero is refused
    except FileNotFoundError:
        return []
    except FileRefusedError as exc:
        raise FileRefusedError(exc.path, f"{exc.why}; repair it or move it aside, then run again") from None
    lines = io.StringIO(text, newline="").readlines()
    if len(lines) > 2:
        width = _fields(lines[0])
        for number, line in enumerate(lines[1:-1], start=2):
            if _fields(line) != width:
                raise FileRefusedError(path, f"line {number} has {_fields(line)} fields where the header has {width}; "
                                             "repair it or move it aside, then run again")  # fmt: skip
    return lines


def _fields(line: str) -> int:
    return len(next(csv.reader([line]), []))


def _cut(line: str, header: str | None) -> bool:
    """Whether ``line``, the curve's last, was cut short: no line end, or fewer fields than ``header``."""
    return not line.endswith(("\n", "\r")) or (header is not None and _fields(line) != _fields(header))
