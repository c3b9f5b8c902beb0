"""Rate a ladder's levels: play neighbours until every adjacent difference is known to ±50 Elo.

    python -m boardgame_envs.ladder.build renju --jobs 2            # hours on 2 cores; resumable
    python -m boardgame_envs.ladder.build renju --fit-only          # refit the table and plot from the log
    python -m boardgame_envs.ladder.build renju --backend ray --jobs 64 --save-games games/

Every game is appended to ``data/LADDER.games.jsonl`` as it ends, and a run starts
by reading that log, so a killed run loses only the games in flight and the next
run plays on from there. Each round gives ``--chunk`` more games (colour-swapped
pairs) to every adjacent pair whose difference's 95% interval is still wider than
``±--target``, and some games to the pairs two levels apart (they tie the chain and
check it is consistent); after each round the ratings are refitted
(:func:`boardgame_envs.ladder.elo.fit`, level 0 pinned at 0) and the table
(``data/LADDER.json``) and the plot (``data/LADDER.png``) are rewritten.

The games are the same whatever ``--jobs`` and ``--backend`` (local processes or
Ray, joined through ``RAY_ADDRESS`` on a cluster): each game's seed and opening
come from its two specs and its number, and results are taken in game order.
A worker that dies on a game (twice: it is played once more first) stops the run
with one line naming the game (:class:`~boardgame_envs.arena.backends.WorkerError`);
the games logged before it stay, so the next run plays on from there.
``--save-games DIR`` also writes each game played, as SGF or, for a game SGF
cannot hold, a move-list record (:func:`record_path`); the games already in the
log are not played again.

One build at a time plays into a log: a build holds ``LADDER.games.jsonl.lock``
(:func:`log_lock`, the trainer's kind of lock) while it runs, and a second one is refused
in one line naming the first one's process; two at once would each play the games the log
lacks, and every such game would be counted twice.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

from boardgame_envs.arena.backends import BACKENDS, ArenaError, Workers, check_backend
from boardgame_envs.arena.lock import PidLock
from boardgame_envs.arena.records import games_dir, save_new
from boardgame_envs.gomocup.engines import configure_from
from boardgame_envs.ladder.elo import Ratings, fit
from boardgame_envs.ladder.games import GameResult, Task, append_log, ladder_task, missing, play, read_log, trim_torn_line
from boardgame_envs.ladder.ladders import LADDERS, Ladder, LadderError, engine_of
from boardgame_envs.ladder.report import RaisingParser, write_plot, write_table
from boardgame_envs.ladder.table import TableError, read_table
from boardgame_envs.arena.progress import progress_bar

TARGET = 50.0  # Elo: the half-width every adjacent difference's 95% interval must reach


def ladder_results(ladder: Ladder, log: list[GameResult]) -> list[tuple[str, str, float]]:
    """``(a, b, score)`` of the logged games between two of the ladder's levels."""
    specs = set(ladder.specs)
    return [(r.a, r.b, r.score) for r in log if r.a in specs and r.b in specs]


def rate_ladder(ladder: Ladder, log: list[GameResult]) -> Ratings:
    return fit(ladder.specs, ladder_results(ladder, log))


def rate_linked(ladder: Ladder, log: list[GameResult]) -> Ratings | None:
    """The fit of the levels linked to level 0 by played neighbour pairs (all of them once the ladder is connected).

    Levels added on top of a built ladder have no games yet; the pairs below them keep
    their known intervals, so a round plays only the pairs that need games.
    """
    linked = 1
    while linked < len(ladder.specs) and played(log, ladder.specs[linked - 1], ladder.specs[linked]):
        linked += 1
    if linked < 2:
        return None
    specs = set(ladder.specs[:linked])
    return fit(ladder.specs[:linked], [(a, b, x) for a, b, x in ladder_results(ladder, log) if a in specs and b in specs])


def played(log: list[GameResult], a: str, b: str) -> int:
    return sum(1 for r in log if r.a == a and r.b == b)


def games_needed(games: int, half: float, target: float) -> int:
    """More games for a pair with half-width ``half`` after ``games`` to reach ``target`` (variance ~ 1/n)."""
    if half <= target:
        return 0
    return max(2, 2 * math.ceil((games * (half / target) ** 2 - games) / 2))


def plan_round(ladder: Ladder, log: list[GameResult], ratings: Ratings | None, chunk: int, target: float) -> list[tuple[str, str, int]]:
    """``(a, b, games)``: the totals each pair should reach by the end of this round."""
    specs = ladder.specs
    plan = []
    counts = []
    for a, b in zip(specs, specs[1:]):
        n = played(log, a, b)
        counts.append(n // chunk * chunk)  # games of whole rounds: the same at a round's start and after a kill in it
        half = _half_width(ratings, a, b) if n else math.inf
        if half > target:
            plan.append((a, b, (n // chunk + 1) * chunk))  # whole rounds: a resumed round ends where it would have
    # Pairs two levels apart get about a quarter of the games of the two neighbour pairs they span (the fewer):
    # a level added on top of a built ladder starts its links with a few games, not a quarter of the old pairs'.
    for k, (a, b) in enumerate(zip(specs, specs[2:])):
        want = 2 * math.ceil((min(counts[k], counts[k + 1]) + chunk) / 8)
        if plan and played(log, a, b) < want:
            plan.append((a, b, want))
    return plan


def _half_width(ratings: Ratings | None, a: str, b: str) -> float:
    """The 95% half-width of ``b - a`` in ``ratings``; infinite where they do not rate both (a level not linked yet)."""
    if ratings is None:
        return math.inf
    try:
        return ratings.difference(b, a)[1]
    except ValueError:  # not rated by this fit
        return math.inf


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def engines_used(ladder: Ladder, about: dict[str, dict[str, str]] | None = None) -> dict[str, dict[str, str]]:
    """What the table says of each external engine: source, commit, build, and the binary's ``ABOUT``.

    ``about`` holds what the engines answered in this run; an engine not asked keeps what
    the table already says (a refit plays nothing and starts no engine).
    """
    from boardgame_envs.gomocup.engines import KNOWN

    try:
        old: dict[str, Any] = read_table(ladder.table_path).get("engines", {})
    except (FileNotFoundError, TableError):  # no table yet, or one this build will write anew
        old = {}
    out = {}
    for name in ladder.engines:
        info = KNOWN.get(name)
        entry = {} if info is None else {"source": info.source, "commit": info.commit, "build": info.build,
                                         "notes": info.notes}  # fmt: skip
        answered = (about or {}).get(name) or old.get(name, {}).get("about")
        if answered:
            entry["about"] = answered
        out[name] = entry
    return out


def prepare_engines(ladder: Ladder, plan: list[tuple[str, str, int]]) -> dict[str, dict[str, str]]:
    """Check the engines the planned games need: configured, honouring a node budget; returns their ``ABOUT``.

    Raises ``EngineNotConfigured`` or ``NodeBudgetError`` (``ValueError``s, one line) before any game.
    """
    from boardgame_envs.gomocup.engines import check_node_budget

    about = {}
    for name in ladder.engines:
        needed = [s for pair in plan for s in pair[:2] if engine_of(s) == name]
        if needed:  # the cheapest level it plays; an engine not configured fails here, in one line
            about[name] = check_node_budget(min(needed, key=ladder.specs.index), ladder.rule or "freestyle").about
    return about


def publish(
    ladder: Ladder, log: list[GameResult], command: str, target: float, plot: bool = True,
    about: dict[str, dict[str, str]] | None = None,
) -> Ratings:  # fmt: skip
    """Refit from the log, write the table (and the plot); returns the ratings."""
    ratings = rate_ladder(ladder, log)
    pair_games = {(a, b): played(log, a, b) for a, b in zip(ladder.specs, ladder.specs[1:])}
    write_table(ladder, ratings, log, pair_games, target, command, machine(), games_needed,
                engines_used(ladder, about))  # fmt: skip
    if plot:
        write_plot(ladder)
    return ratings


def log_lock(log_path: Path) -> PidLock:
    """The lock a build holds on the game log at ``log_path``: ``<log>.lock``, holding the build's pid."""
    return PidLock(log_path.with_name(log_path.name + ".lock"), str(log_path), "ladder build",
                   "wait for it to finish or stop it (its games so far stay in the log)")  # fmt: skip


def build(
    ladder: Ladder, jobs: int = 1, chunk: int = 20, target: float = TARGET, minutes: float | None = None,
    max_rounds: int | None = None, log_path: Path | None = None, command: str = "", plot: bool = True,
    backend: str = "local", save_games: str | os.PathLike | None = None,
) -> Ratings | None:  # fmt: skip
    """Play rounds until every adjacent difference is within ``±target`` (or time runs out); see the module docstring.

    ``backend``: ``"local"`` (``jobs`` processes) or ``"ray"``; the games are the same.
    ``save_games``: a directory that receives each game played as SGF (see :func:`record_path`).
    Raises :class:`~boardgame_envs.arena.lock.InUseError` (a ``ValueError``) naming the process of
    another build of the same log, before anything is played.
    """
    check_backend(backend)
    log_path = log_path or ladder.log_path
    if save_games is not None:
        games_dir(save_games)
    with log_lock(log_path):
        return _build(ladder, jobs, chunk, target, minutes, max_rounds, log_path, command, plot, backend, save_games)


def _build(
    ladder: Ladder, jobs: int, chunk: int, target: float, minutes: float | None, max_rounds: int | None,
    log_path: Path, command: str, plot: bool, backend: str, save_games: str | os.PathLike | None,
) -> Ratings | None:  # fmt: skip
    """:func:`build` once it holds the log."""
    trim_torn_line(log_path)
    log = read_log(log_path)
    deadline = None if minutes is None else time.monotonic() + 60 * minutes
    ratings = rate_linked(ladder, log)
    rounds = 0
    env_fn = ladder.env_fn()
    about = prepare_engines(ladder, plan_round(ladder, log, ratings, chunk, target))
    with Workers(jobs, backend) as workers:
        while max_rounds is None or rounds < max_rounds:
            plan = plan_round(ladder, log, ratings, chunk, target)
            if not plan:
                break
            tasks = [ladder_task(a, b, i, ladder) for a, b, total in plan for i in missing(log, a, b, total)]
            tasks.sort(key=lambda t: t[-1])  # interleave the pairs, so every pair moves on together
            bar = progress_bar(total=len(tasks), desc=f"{ladder.name} round {rounds + 1}", file=sys.stderr)
            for result, record in play(workers, env_fn, tasks, functools.partial(players, ladder)):
                append_log(log_path, result)
                if save_games is not None:
                    save_new(record, Path(save_games) / record_path(ladder, result))
                log.append(result)
                bar.update()
                if deadline is not None and time.monotonic() > deadline:
                    break
            bar.close()
            rounds += 1
            ratings = publish(ladder, log, command, target, plot, about) if _connected(ladder, log) else None
            ratings = ratings or rate_linked(ladder, log)
            if deadline is not None and time.monotonic() > deadline:
                break
    if _connected(ladder, log) and not rounds:
        ratings = publish(ladder, log, command, target, plot, about)
    return ratings if _connected(ladder, log) else None


def players(ladder: Ladder, task: Task) -> tuple[str, str]:
    """How a game's record names its two levels: ``gomoku9/3 (greedy:epsilon=0.6)``."""
    a, b = (f"{ladder.level_name(ladder.specs.index(spec))} ({spec})" for spec in task.names)
    return a, b


def record_path(ladder: Ladder, result: GameResult) -> str:
    """The file name of a game's record: ``gomoku9-03-04-0007.sgf`` is game index 7 of level 3 against level 4."""
    i, j = ladder.specs.index(result.a), ladder.specs.index(result.b)
    return f"{ladder.name}-{i:02d}-{j:02d}-{result.index:04d}.sgf"


def _connected(ladder: Ladder, log: list[GameResult]) -> bool:
    return all(played(log, a, b) > 0 for a, b in zip(ladder.specs, ladder.specs[1:]))


def _check_arguments(args: argparse.Namespace) -> None:
    """Raise ValueError (one line on the command line) for arguments that cannot build a ladder."""
    if args.ladder not in LADDERS:
        raise LadderError(f"unknown ladder {args.ladder!r}; ladders: {', '.join(LADDERS)}")
    check_backend(args.backend)
    cores = os.cpu_count() or 1
    if args.jobs < 1 or (args.backend == "local" and args.jobs > cores):
        limit = f"1..{cores} (the cores here)" if args.backend == "local" else "at least 1"
        raise ValueError(f"--jobs must be {limit}, got {args.jobs}")
    if args.chunk < 2 or args.chunk % 2:
        raise ValueError(f"--chunk must be an even number of games, at least 2, got {args.chunk}")
    if not args.target > 0:
        raise ValueError(f"--target must be a positive number of Elo, got {args.target}")
    if args.minutes is not None and not args.minutes > 0:
        raise ValueError(f"--minutes must be positive, got {args.minutes}")
    if args.rounds is not None and args.rounds < 1:
        raise ValueError(f"--rounds must be at least 1, got {args.rounds}")


def main(argv: list[str] | None = None) -> int:
    parser = RaisingParser(prog="python -m boardgame_envs.ladder.build", description=__doc__.split("\n\n")[0])
    parser.add_argument("ladder", metavar="LADDER", help=", ".join(LADDERS))
    parser.add_argument("--jobs", type=int, default=1, help="games at a time (local: at most the cores)")
    parser.add_argument("--backend", default="local", help=f"where the games run: {' or '.join(BACKENDS)} (default local)")
    parser.add_argument("--chunk", type=int, default=20, help="games per pair and round (even)")
    parser.add_argument("--target", type=float, default=TARGET, help="half-width in Elo of every adjacent difference")
    parser.add_argument("--minutes", type=float, default=None, help="stop after the game in play when this much time has passed")
    parser.add_argument("--rounds", type=int, default=None, help="stop after this many rounds")
    parser.add_argument("--save-games", metavar="DIR", default=None, help="write every game played to DIR, one file a "
                        "game: SGF for an m,n,k game, a move-list record (.txt) for any other")
    parser.add_argument("--engine", metavar="NAME=PATH", action="append", default=[],
                        help="the binary of an external level's engine, e.g. rapfi=/opt/rapfi/pbrain-rapfi "
                        "(or set BOARDGAME_ENVS_RAPFI)")  # fmt: skip
    parser.add_argument("--fit-only", action="store_true", help="play nothing: refit the table and plot from the log")
    parser.add_argument("--no-plot", action="store_true")
    try:
        args = parser.parse_args(argv)
        _check_arguments(args)
        for option in args.engine:
            configure_from(option)
        ladder = LADDERS[args.ladder]
        command = f"python -m boardgame_envs.ladder.build {ladder.name} --jobs 2"  # the games do not depend on --jobs
        command += "".join(f" --engine {name}=PATH" for name in ladder.engines)
        if args.fit_only:
            log = read_log(ladder.log_path)
            if not _connected(ladder, log):
                raise LadderError(f"the log {ladder.log_path} does not link every pair of neighbours yet; play first")
            publish(ladder, log, command, args.target, not args.no_plot)
        else:
            build(ladder, args.jobs, args.chunk, args.target, args.minutes, args.rounds, command=command,
                  plot=not args.no_plot, backend=args.backend, save_games=args.save_games)  # fmt: skip
    except KeyboardInterrupt:
        print("interrupted: the games played so far are in the log; run the same command to go on", file=sys.stderr)
        return 130
    except ValueError as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    except ArenaError as exc:  # a level's policy failed, or its worker died twice: the log keeps the games so far
        print(f"{parser.prog}: {exc}", file=sys.stderr)
        return 1
    from boardgame_envs.ladder.report import format_table

    try:
        print(format_table(ladder))
    except LadderError as exc:
        print(exc, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
