"""Ladder games: one seeded game between two specs, played in worker processes, logged as JSON lines.

A game is named by ``(a, b, index)``: the two policy specs and the game's number in
their match. Its seed comes from those alone, so replaying a game plays the same
game, and the log can be resumed in any order: :func:`missing` lists the numbers
not yet in the log. Games come in colour-swapped pairs: game ``2m`` has ``a``
first, game ``2m + 1`` has ``b`` first, both with the seeds of pair ``m``.

On gomoku boards a pair starts from a random opening drawn from the pair's seed,
of the form the RIF's 26 openings take: black on the centre, white on one of its 8
neighbours, black anywhere else in the central 5x5 (every such opening is one of
the 26 up to the board's symmetries). Deterministic searches would otherwise play
the same game again and again from the empty board, and the games would say less
than their number suggests; the colour swap cancels what an opening gives one side.

The log is a JSON-lines file, one game per line, appended (and flushed) as each
game ends, so an interrupted run loses at most the games in flight.
"""

from __future__ import annotations

import functools
import json
import multiprocessing
import signal
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from boardgame_envs.arena import play_game
from boardgame_envs.policies.registry import make_policy


@dataclass(frozen=True)
class GameResult:
    """One finished game: ``score`` is a's (1 win, 0.5 draw, 0 loss); ``moves`` counts those after ``opening`` (actions)."""

    a: str
    b: str
    index: int
    a_first: bool
    score: float
    moves: int
    opening: list[int] = field(default_factory=list)


def game_seed(a: str, b: str, index: int) -> int:
    """The seed of game ``index`` of ``a`` against ``b``, shared by the two games of a colour-swapped pair."""
    key = [zlib.crc32(a.encode()), zlib.crc32(b.encode()), index // 2]
    return int(np.random.SeedSequence(key).generate_state(1)[0])


def random_opening(board_size: int, seed: int) -> tuple[int, ...]:
    """Three stones drawn from ``seed``: black on the centre, white beside it, black in the central 5x5."""
    rng = np.random.default_rng([seed, 3])
    c = board_size // 2
    centre = c * board_size + c
    around = [(c + dr) * board_size + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
    white = int(rng.choice(around))
    box = [(c + dr) * board_size + c + dc for dr in range(-2, 3) for dc in range(-2, 3)]
    black = int(rng.choice([p for p in box if p not in (centre, white)]))
    return centre, white, black


def _env_after(env_fn: Callable[[], Any], moves: tuple[int, ...]) -> Any:
    """An env from ``env_fn`` whose ``reset`` goes on to play ``moves``."""
    env = env_fn()
    reset = env.reset

    def reset_and_open(*args: Any, **kwargs: Any) -> None:
        reset(*args, **kwargs)
        for action in moves:
            env.step(action)

    env.reset = reset_and_open
    return env


def play_one(
    env_fn: Callable[[], Any], a: Any, b: Any, a_first: bool, seed: int, names: tuple[str, str],
    opening: tuple[int, ...] = (), index: int = 0,
) -> GameResult:  # fmt: skip
    """One game of ``a`` against ``b`` (specs or policy objects) from ``opening``, both built with seeds drawn from ``seed``.

    ``a_first``: ``a`` has the first move's colour (black), whoever moves next after the opening.
    """
    rng = np.random.default_rng(seed)
    seed_a, seed_b = (int(s) for s in rng.integers(2**31, size=2))
    pa, pb = make_policy(a, seed=seed_a), make_policy(b, seed=seed_b)
    start = functools.partial(_env_after, env_fn, tuple(opening)) if opening else env_fn
    winner, moves = play_game(start, pa, pb) if a_first else play_game(start, pb, pa)
    a_seat = 1 if a_first else 2
    score = 0.5 if winner == 0 else (1.0 if winner == a_seat else 0.0)
    return GameResult(names[0], names[1], index, a_first, score, len(moves), list(opening))


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


def ladder_task(a: str, b: str, index: int, board_size: int) -> Task:
    """Game ``index`` between two levels' specs: colours alternate; the two games of a pair share a seed and an opening."""
    seed = game_seed(a, b, index)
    opening = random_opening(board_size, seed) if board_size > 3 else ()
    return Task(a, b, index % 2 == 0, seed, (a, b), opening, index)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


class Runner:
    """Plays games on ``jobs`` worker processes (in this process when ``jobs == 1``).

    Use as a context manager; leaving it stops the workers at once, so a caller that
    stops reading results early (a deadline, Ctrl-C, an error) does not wait for the
    games it did not take.
    """

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = jobs
        self.pool = multiprocessing.Pool(jobs, initializer=_ignore_sigint) if jobs > 1 else None

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *_: Any) -> None:
        if self.pool is not None:
            self.pool.terminate()  # games still queued or in flight are not wanted (a deadline, Ctrl-C, an error)
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
