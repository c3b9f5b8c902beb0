"""Ladder games: one seeded game between two specs, played in worker processes, logged as JSON lines.

A game is named by ``(a, b, index)``: the two policy specs and the game's number in
their match. Its seed comes from those alone, so replaying a game plays the same
game, and the log can be resumed in any order: :func:`missing` lists the numbers
not yet in the log. Games come in colour-swapped pairs: game ``2m`` has ``a``
first, game ``2m + 1`` has ``b`` first, both with the seeds of pair ``m``.

The log is a JSON-lines file, one game per line, appended (and flushed) as each
game ends, so an interrupted run loses at most the games in flight.
"""

from __future__ import annotations

import json
import multiprocessing
import signal
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from boardgame_envs.arena import play_game
from boardgame_envs.policies.registry import make_policy


@dataclass(frozen=True)
class GameResult:
    """One finished game: ``score`` is a's (1 win, 0.5 draw, 0 loss); ``opening`` names the start ("" empty board)."""

    a: str
    b: str
    index: int
    a_first: bool
    score: float
    moves: int
    opening: str = ""


def game_seed(a: str, b: str, index: int) -> int:
    """The seed of game ``index`` of ``a`` against ``b``, shared by the two games of a colour-swapped pair."""
    key = [zlib.crc32(a.encode()), zlib.crc32(b.encode()), index // 2]
    return int(np.random.SeedSequence(key).generate_state(1)[0])


def play_one(
    env_fn: Callable[[], Any], a: Any, b: Any, a_first: bool, seed: int, names: tuple[str, str],
    opening: Any = None, index: int = 0,
) -> GameResult:  # fmt: skip
    """One game of ``a`` against ``b`` (specs or policy objects), both built with seeds drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    seed_a, seed_b = (int(s) for s in rng.integers(2**31, size=2))
    pa, pb = make_policy(a, seed=seed_a), make_policy(b, seed=seed_b)
    winner, moves = play_game(env_fn, pa, pb) if a_first else play_game(env_fn, pb, pa)
    a_seat = 1 if a_first else 2
    score = 0.5 if winner == 0 else (1.0 if winner == a_seat else 0.0)
    return GameResult(names[0], names[1], index, a_first, score, len(moves), getattr(opening, "name", ""))


def _task(args: tuple) -> GameResult:
    env_fn, a, b, a_first, seed, names, opening, index = args
    return play_one(env_fn, a, b, a_first, seed, names, opening, index)


class Task(NamedTuple):
    """What a worker needs to play one game (besides the env factory)."""

    a: Any
    b: Any
    a_first: bool
    seed: int
    names: tuple[str, str]
    opening: Any
    index: int


def ladder_task(a: str, b: str, index: int, opening: Any = None) -> Task:
    """Game ``index`` between two levels' specs: colours alternate, the two games of a pair share a seed."""
    return Task(a, b, index % 2 == 0, game_seed(a, b, index), (a, b), opening, index)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


class Runner:
    """Plays games on ``jobs`` worker processes (in this process when ``jobs == 1``).

    Use as a context manager; leaving it on an exception (Ctrl-C included) stops the
    workers at once rather than waiting for the games in flight.
    """

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = jobs
        self.pool = multiprocessing.Pool(jobs, initializer=_ignore_sigint) if jobs > 1 else None

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, kind: Any, *_: Any) -> None:
        if self.pool is not None:
            if kind is None:
                self.pool.close()
            else:
                self.pool.terminate()
            self.pool.join()

    def play(self, env_fn: Callable[[], Any], tasks: Iterable[Task]) -> Iterator[GameResult]:
        """Results of the games ``tasks`` describe, in the order they finish."""
        args = [(env_fn, *task) for task in tasks]
        if self.pool is None:
            return map(_task, args)
        return self.pool.imap_unordered(_task, args)


def read_log(path: Path) -> list[GameResult]:
    """Every game in the log at ``path`` (none if it does not exist); a torn last line is skipped."""
    if not path.exists():
        return []
    out = []
    with path.open() as fh:
        for line in fh:
            try:
                out.append(GameResult(**json.loads(line)))
            except (json.JSONDecodeError, TypeError):
                continue  # a line cut short by a kill: that game is played again
    return out


def trim_torn_line(path: Path) -> None:
    """Cut a last line left unfinished by a kill, so that the next game starts a line of its own."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        path.write_bytes(data[: data.rfind(b"\n") + 1])


def append_log(path: Path, result: GameResult) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fh.write(json.dumps(asdict(result)) + "\n")
        fh.flush()


def missing(log: Iterable[GameResult], a: str, b: str, games: int) -> list[int]:
    """Game numbers below ``games`` of ``a`` against ``b`` that the log lacks."""
    done = {r.index for r in log if r.a == a and r.b == b}
    return [i for i in range(games) if i not in done]
