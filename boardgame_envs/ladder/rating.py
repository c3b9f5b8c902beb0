"""Place any policy on a ladder's scale: adaptive games against the levels, an Elo with a 95% interval.

``rate`` starts against the middle level and, after each batch of colour-swapped
pairs, moves to the level whose published Elo is nearest the running estimate, so
most games are played near a 50% score, where each one says the most. The estimate
is the maximum-likelihood Elo of the policy with every level held at its published
rating (:func:`boardgame_envs.ladder.elo.fit`, one virtual draw per level played so
that a clean sweep stays finite); the interval comes from the Hessian and so
measures the policy's games only, on the published scale (each level's own interval
is in the table).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from boardgame_envs.arena.backends import Workers, check_backend
from boardgame_envs.arena.records import games_dir, save
from boardgame_envs.ladder.elo import Z95, fit
from boardgame_envs.ladder.games import Task, play, random_opening
from boardgame_envs.ladder.ladders import Level, ladder_for, levels
from boardgame_envs.policies.registry import make_policy, spec_name

AGENT = "<agent>"


@dataclass
class Rating:
    """A policy's place on a ladder: Elo, its 95% interval, and the games against each level."""

    policy: str
    ladder: str
    elo: float
    low: float
    high: float
    games: int
    per_level: dict[str, list[int]] = field(default_factory=dict)  # level name -> [wins, draws, losses]
    interrupted: bool = False

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def __str__(self) -> str:
        head = f"{self.policy} on the {self.ladder} ladder: Elo {self.elo:+.0f} (95% {self.low:+.0f} .. {self.high:+.0f}), {self.games} games"
        if self.interrupted:
            head += " (interrupted: the estimate so far)"
        lines = [head, f"  {'level':<16}{'wins':>6}{'draws':>7}{'losses':>8}"]
        for name, (w, d, l) in self.per_level.items():
            lines.append(f"  {name:<16}{w:>6}{d:>7}{l:>8}")
        return "\n".join(lines)


def _check(games: int, jobs: int, backend: str) -> None:
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise ValueError(f"games must be an integer of at least 2 (one colour-swapped pair), got {games!r}")
    check_backend(backend)
    cores = os.cpu_count() or 1
    top = cores if backend == "local" else math.inf  # a Ray cluster may have more cores than this machine
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= top:
        limit = f"in 1..{cores} (the cores here)" if backend == "local" else "of at least 1"
        raise ValueError(f"jobs must be an integer {limit}, got {jobs!r}")


def estimate(table: list[Level], results: list[tuple[str, float]]) -> tuple[float, float]:
    """The agent's Elo and 95% half-width from ``(level name, agent's score)`` results against fixed levels."""
    played = sorted({name for name, _ in results})
    fixed = {lv.name: lv.elo for lv in table if lv.name in played}
    ratings = fit([AGENT, *played], [(AGENT, name, score) for name, score in results], fixed=fixed)
    elo = float(ratings.elo[0])
    return elo, Z95 * math.sqrt(ratings.cov[0, 0])


def nearest(table: list[Level], elo: float) -> Level:
    """The level whose published Elo is nearest ``elo`` (the weaker one on a tie)."""
    return min(table, key=lambda lv: (abs(lv.elo - elo), lv.elo))


def rate(
    policy: Any, game: str, rule: str | None = None, board_size: int | None = None, games: int = 400, seed: int = 0,
    jobs: int = 1, precision: float | None = None, progress: bool = True,
    on_batch: Callable[[Rating], None] | None = None, backend: str = "local",
    save_games: str | os.PathLike | None = None,
) -> Rating:  # fmt: skip
    """Rate ``policy`` (a spec, a ``.pt`` checkpoint, an object with ``act(env)``) on ``game``'s ladder.

    Plays up to ``games`` games (rounded up to whole colour-swapped pairs) in batches
    of ``jobs`` pairs, each batch against the level nearest the running estimate;
    stops early once the 95% half-width is at most ``precision`` Elo. Ctrl-C stops
    the games and returns the estimate so far (``interrupted=True``) once a pair has
    been played, else re-raises. ``backend``: ``"local"`` (``jobs`` processes) or
    ``"ray"``; the games and the rating do not depend on it. ``save_games``: a
    directory that receives every game as SGF, ``game-0001.sgf``, ... in the order
    played.
    """
    _check(games, jobs, backend)
    if precision is not None and not precision > 0:
        raise ValueError(f"precision must be a positive number of Elo, got {precision!r}")
    ladder = ladder_for(game, rule, board_size)
    table = levels(game, rule, board_size)
    env_fn = ladder.env_fn()
    _check_policy(policy, env_fn)
    name = spec_name(policy)
    rng = np.random.default_rng(seed)
    pairs = math.ceil(games / 2)
    results: list[tuple[str, float]] = []
    per_level: dict[str, list[int]] = {}
    rating = Rating(name, ladder.name, math.nan, -math.inf, math.inf, 0)
    opponent = table[len(table) // 2]
    if save_games is not None:
        games_dir(save_games)
    bar = tqdm(total=2 * pairs, desc=f"rating {name}", disable=not progress)
    try:
        with Workers(jobs, backend) as workers:
            while len(results) < 2 * pairs:
                batch = min(jobs, pairs - len(results) // 2)
                tasks = []
                for _ in range(batch):
                    pair_seed = int(rng.integers(2**63))
                    opening = random_opening(ladder.board_size, pair_seed) if ladder.board_size > 3 else ()
                    for a_first in (True, False):
                        tasks.append(Task(policy, opponent.spec, a_first, pair_seed, (name, opponent.name), opening, 0))
                players = (name, f"{opponent.name} ({opponent.spec})")
                for result, record in play(workers, env_fn, tasks, lambda _: players):
                    results.append((opponent.name, result.score))
                    if save_games is not None:
                        save(record, Path(save_games) / f"game-{len(results):04d}.sgf")
                    per_level.setdefault(opponent.name, [0, 0, 0])[{1.0: 0, 0.5: 1, 0.0: 2}[result.score]] += 1
                    bar.update()
                elo, half = estimate(table, results)
                rating = Rating(name, ladder.name, elo, elo - half, elo + half, len(results), _ordered(per_level, table))
                bar.set_postfix_str(f"Elo {elo:+.0f} ±{half:.0f}, next vs {nearest(table, elo).name}")
                if on_batch is not None:
                    on_batch(rating)
                if precision is not None and half <= precision:
                    break
                opponent = nearest(table, elo)
    except KeyboardInterrupt:
        bar.close()
        if not results:
            raise
        elo, half = estimate(table, results)  # the games of an unfinished batch count too
        return Rating(name, ladder.name, elo, elo - half, elo + half, len(results), _ordered(per_level, table), True)
    bar.close()
    return rating


def _ordered(per_level: dict[str, list[int]], table: list[Level]) -> dict[str, list[int]]:
    return {lv.name: list(per_level[lv.name]) for lv in table if lv.name in per_level}


def _check_policy(policy: Any, env_fn: Callable[[], Any]) -> None:
    """Build the policy once here, so a bad spec or a network for another game fails before any game."""
    built = make_policy(policy, seed=0)
    if not hasattr(built, "act"):
        raise TypeError(f"{spec_name(policy)!r} does not make a policy: it has no act(env)")
    trained_on = getattr(built, "game", None)
    if callable(getattr(built, "close", None)):
        built.close()  # an external engine's process: each game starts its own
    env = env_fn()
    if trained_on is not None and trained_on != env.unwrapped.game:
        raise ValueError(f"{spec_name(policy)} was trained on {trained_on}, not on {env.unwrapped.game}")
