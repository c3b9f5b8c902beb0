"""Ladder games: one seeded game between two specs, played on workers (local or Ray), logged as JSON lines.

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

A game is played by :func:`boardgame_envs.arena.play_record` from its opening,
so it can be saved as an SGF record like any arena game. The log is a JSON-lines
file, one game per line, appended (and flushed) as each game ends, so an
interrupted run loses at most the games in flight.
"""

from __future__ import annotations

import io
import json
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from boardgame_envs.arena import play_record
from boardgame_envs.arena.backends import Workers
from boardgame_envs.arena.records import GameRecord
from boardgame_envs.games.lines import BLACK, WHITE
from boardgame_envs.policies.registry import make_policy
from boardgame_envs.safeio import open_append, open_regular_file


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
    fault: str = ""  # the loser forfeited: its fault ("timeout", "crash", "bad answer", ...); "" for a game played out


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


def random_moves(game: Any, seed: int, count: int) -> tuple[int, ...]:
    """``count`` uniformly random legal moves from the start of ``game``, drawn from ``seed``."""
    rng = np.random.default_rng([seed, 3])
    state, moves = game.new_state(), []
    for _ in range(count):
        legal = state.legal_actions()
        moves.append(int(legal[rng.integers(len(legal))]))
        state.play(moves[-1])
    return tuple(moves)


class Task(NamedTuple):
    """One ladder game: ``a`` against ``b`` (specs or policy objects), logged under ``names``."""

    a: Any
    b: Any
    a_first: bool  # a has the first move's colour (black), whoever moves next after the opening; under an
    # opening rule, a is the first player and the rule's swaps decide its colour
    seed: int
    names: tuple[str, str]
    opening: tuple[int, ...]  # actions, black first; () for the empty board
    index: int


def ladder_task(a: str, b: str, index: int, ladder: Any) -> Task:
    """Game ``index`` between two levels' specs: colours alternate; the two games of a pair share a seed and an opening."""
    seed = game_seed(a, b, index)
    return Task(a, b, index % 2 == 0, seed, (a, b), ladder.opening(seed), index)


def play_one(env_fn: Callable[[], Any], task: Task, players: tuple[str, str] | None = None) -> GameRecord:
    """Play ``task``'s game, both policies built with seeds drawn from its seed; the record calls them ``players``.

    ``players``: the names of ``a`` and ``b`` in the record (default: ``task.names``).
    """
    rng = np.random.default_rng(task.seed)
    seed_a, seed_b = (int(s) for s in rng.integers(2**31, size=2))
    pa, pb = make_policy(task.a, seed=seed_a), make_policy(task.b, seed=seed_b)
    name_a, name_b = players or task.names
    opening = task.opening or None
    if task.a_first:
        return play_record(env_fn, pa, pb, (name_a, name_b), opening)
    return play_record(env_fn, pb, pa, (name_b, name_a), opening)


def result_of(task: Task, record: GameRecord) -> GameResult:
    """The log's line for ``task``'s game, played as ``record``."""
    a_colour = BLACK if task.a_first == (record.black_seat == 1) else WHITE  # an opening rule may swap colours
    score = record.points(a_colour)  # a game with no result is refused, never counted as a draw
    moves = len(record.moves) - record.opening_moves
    fault = (record.fault or "forfeit") if record.forfeit else ""
    return GameResult(task.names[0], task.names[1], task.index, task.a_first, score, moves, list(task.opening), fault)


def _play(job: tuple[Callable[[], Any], Task, tuple[str, str] | None]) -> GameRecord:
    return play_one(*job)


def play(
    workers: Workers, env_fn: Callable[[], Any], tasks: Sequence[Task],
    players: Callable[[Task], tuple[str, str]] | None = None,
) -> Iterator[tuple[GameResult, GameRecord]]:  # fmt: skip
    """Play ``tasks`` on ``workers``; yields each game's log line and record, in task order.

    ``players(task)``: the names the record gives ``a`` and ``b`` (default: the task's names).
    """
    jobs = [(env_fn, task, players(task) if players else None) for task in tasks]
    named = lambda i, job: f"game {job[1].index} of {job[1].names[0]} against {job[1].names[1]}"  # noqa: E731
    for task, record in zip(tasks, workers.run(_play, jobs, named)):
        yield result_of(task, record), record


def read_log(path: Path) -> list[GameResult]:
    """Every game in the log at ``path`` (none if it does not exist); a torn last line is skipped."""
    if not path.exists():
        return []
    out = []
    with io.TextIOWrapper(open_regular_file(path, "game log"), encoding="utf-8", errors="replace") as fh:
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
    with open_regular_file(path, "game log") as fh:
        data = fh.read()
    if data and not data.endswith(b"\n"):
        path.write_bytes(data[: data.rfind(b"\n") + 1])


def append_log(path: Path, result: GameResult) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open_append(path, "game log", encoding="utf-8") as fh:  # a FIFO there is refused, not waited on
        line = asdict(result)
        if not line["fault"]:
            del line["fault"]  # most games: the line as it always was
        fh.write(json.dumps(line) + "\n")
        fh.flush()


def missing(log: Iterable[GameResult], a: str, b: str, games: int) -> list[int]:
    """Game numbers below ``games`` of ``a`` against ``b`` that the log lacks."""
    done = {r.index for r in log if r.a == a and r.b == b}
    return [i for i in range(games) if i not in done]
