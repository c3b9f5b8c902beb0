"""Matches between policies: seats swapped, seeded, parallel; score intervals and Elo.

A *spec* names a policy so that worker processes can build it: anything
:func:`boardgame_envs.policies.registry.make_policy` accepts (``"mcts:simulations=200"``,
a pair ``(name, kwargs)``, a ``.pt`` checkpoint path, any picklable factory
``f(seed) -> policy``).
Every game gets its own seed derived from the match seed and its index, and
both policies are rebuilt with seeds from it, so a match's result does not
depend on ``jobs`` or on the order games finish in.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from boardgame_envs.policies.base import Forfeit
from boardgame_envs.policies.registry import make_policy, spec_name

log = logging.getLogger(__name__)

Z95 = 1.959964
ELO_CAP = 800.0  # |Elo| reported at most; a 100% score has no finite estimate


def play_game(env_fn: Callable[[], Any], first: Any, second: Any) -> tuple[int, list[int]]:
    """One game through the AEC API; returns (winner seat: 1 first, 2 second, 0 draw; moves).

    A player whose ``act`` raises :class:`~boardgame_envs.policies.base.Forfeit` (an engine
    that crashed, timed out or broke the rules) loses, and so does one whose illegal move
    the env's wrappers punish (``env()``: the offender gets -1 and the game stops).
    """
    env = env_fn()
    env.reset()
    players = dict(zip(env.possible_agents, (first, second)))
    moves = []
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        try:
            action = players[agent].act(env)
        except Forfeit as exc:
            log.warning("%s (%s) forfeits the game: %s", spec_name(players[agent]), agent, exc)
            return (2 if agent == env.possible_agents[0] else 1), moves
        moves.append(int(action))
        env.step(action)
    state = env.unwrapped.game_state
    if state.terminal:
        return int(state.winner), moves
    first_reward, second_reward = (final.get(a, 0.0) for a in env.possible_agents)
    return (0 if first_reward == second_reward else 1 if first_reward > second_reward else 2), moves


def _game_task(args: tuple) -> tuple[int, int]:
    env_fn, spec_a, spec_b, game_seed, a_first = args
    rng = np.random.default_rng(game_seed)
    seed_a, seed_b = (int(s) for s in rng.integers(2**31, size=2))
    a, b = make_policy(spec_a, seed=seed_a), make_policy(spec_b, seed=seed_b)
    winner, _ = play_game(env_fn, a, b) if a_first else play_game(env_fn, b, a)
    a_seat = 1 if a_first else 2
    outcome = 0 if winner == 0 else (1 if winner == a_seat else -1)
    return (0 if a_first else 1), outcome


@dataclass
class MatchResult:
    """Wins/draws/losses of policy A against B, overall and by A's seat."""

    name_a: str
    name_b: str
    by_seat: dict[str, list[int]] = field(default_factory=lambda: {"first": [0, 0, 0], "second": [0, 0, 0]})

    @property
    def wins(self) -> int:
        return sum(v[0] for v in self.by_seat.values())

    @property
    def draws(self) -> int:
        return sum(v[1] for v in self.by_seat.values())

    @property
    def losses(self) -> int:
        return sum(v[2] for v in self.by_seat.values())

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def score(self) -> tuple[float, float, float]:
        """A's mean score (win 1, draw 1/2) with a 95% normal interval from the per-game variance."""
        n = self.games
        s = (self.wins + 0.5 * self.draws) / n
        var = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s**2) / n
        if var == 0.0:
            # All games alike: the normal interval collapses; use Wilson's.
            z2 = Z95 * Z95
            centre = (s + z2 / (2 * n)) / (1 + z2 / n)
            half = Z95 * math.sqrt(s * (1 - s) / n + z2 / (4 * n * n)) / (1 + z2 / n)
            return s, max(0.0, centre - half), min(1.0, centre + half)
        half = Z95 * math.sqrt(var / n)
        return s, max(0.0, s - half), min(1.0, s + half)

    def elo(self) -> tuple[float, float, float]:
        """Elo difference A - B with the interval mapped from the score's, capped at ±ELO_CAP."""
        return tuple(elo_from_score(x) for x in self.score())  # type: ignore[return-value]

    def __str__(self) -> str:
        s, lo, hi = self.score()
        e, elo_lo, elo_hi = (x + 0.0 for x in self.elo())  # + 0.0 turns -0.0 into 0.0 for printing
        lines = [f"{self.name_a} vs {self.name_b}: {self.games} games, seats alternated"]
        lines.append(f"  {'seat of ' + self.name_a:<22}{'wins':>6}{'draws':>7}{'losses':>8}")
        for seat, (w, d, l) in self.by_seat.items():
            lines.append(f"  {seat:<22}{w:>6}{d:>7}{l:>8}")
        lines.append(f"  {'total':<22}{self.wins:>6}{self.draws:>7}{self.losses:>8}")
        lines.append(f"  score {s:.3f} (95% {lo:.3f}..{hi:.3f}); Elo {e:+.0f} (95% {elo_lo:+.0f}..{elo_hi:+.0f})")
        return "\n".join(lines)


def elo_from_score(score: float) -> float:
    """Elo difference that predicts ``score``; ±ELO_CAP at 0 and 1."""
    if score <= 0.0:
        return -ELO_CAP
    if score >= 1.0:
        return ELO_CAP
    return max(-ELO_CAP, min(ELO_CAP, -400.0 * math.log10(1.0 / score - 1.0)))


def match(
    env_fn: Callable[[], Any], spec_a: Any, spec_b: Any, games: int = 100, seed: int = 0,
    jobs: int = 1, progress: bool = True,
) -> MatchResult:  # fmt: skip
    """Play ``games`` games, A first in the even-numbered ones; parallel over ``jobs`` processes."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    seeds = np.random.SeedSequence(seed).generate_state(games, dtype=np.uint32)
    tasks = [(env_fn, spec_a, spec_b, int(seeds[i]), i % 2 == 0) for i in range(games)]
    result = MatchResult(spec_name(spec_a), spec_name(spec_b))
    bar = tqdm(total=games, desc=f"{result.name_a} vs {result.name_b}", disable=not progress, leave=False)
    if jobs == 1:
        outcomes = map(_game_task, tasks)
    else:
        pool = ProcessPoolExecutor(max_workers=jobs)
        outcomes = pool.map(_game_task, tasks)
    for seat, outcome in outcomes:
        column = 0 if outcome == 1 else 1 if outcome == 0 else 2
        result.by_seat["first" if seat == 0 else "second"][column] += 1
        bar.update()
    bar.close()
    if jobs > 1:
        pool.shutdown()
    return result


def round_robin(
    env_fn: Callable[[], Any], specs: dict[str, Any], games: int = 20, seed: int = 0, jobs: int = 1,
    progress: bool = True, pairs: list[MatchResult] | None = None,
) -> dict[str, float]:  # fmt: skip
    """Every pair plays ``games``; returns Elo ratings (mean 0) fitted by Bradley-Terry maximum likelihood.

    ``pairs``, when given, receives each pair's :class:`MatchResult` (for :func:`round_robin_table`).
    """
    names = list(specs)
    scores = np.zeros((len(names), len(names)))
    counts = np.zeros_like(scores)
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            r = match(env_fn, specs[names[i]], specs[names[j]], games, seed + 1000 * i + j, jobs, progress)
            if pairs is not None:
                pairs.append(r)
            points = r.wins + 0.5 * r.draws
            scores[i, j], scores[j, i] = points, r.games - points
            counts[i, j] = counts[j, i] = r.games
    # Minorisation-maximisation for Bradley-Terry strengths, with half a point of
    # prior against every other player so all-win records stay finite.
    strength = np.ones(len(names))
    won = scores.sum(axis=1) + 0.5
    for _ in range(2000):
        denom = np.array(
            [sum((counts[i, j] + 1) / (strength[i] + strength[j]) for j in range(len(names)) if j != i) for i in range(len(names))]
        )
        strength = won / denom
        strength /= np.exp(np.mean(np.log(strength)))
    elo = 400.0 * np.log10(strength)
    return dict(sorted(zip(names, (float(e) for e in elo)), key=lambda kv: -kv[1]))


def round_robin_table(elo: dict[str, float], pairs: list[MatchResult]) -> str:
    """The round robin as text: Elo per policy, then each pair's wins, draws, losses and score with its
    95% interval, in columns as wide as the longest name (checkpoint paths included)."""
    width = max(len(name) for name in elo)
    games = sorted({r.games for r in pairs})
    lines = [f"Elo (mean 0), {'/'.join(map(str, games))} games per pair"]
    lines += [f"  {name:<{width}}  {rating:+6.0f}" for name, rating in elo.items()]
    pair_width = 2 * width + 4
    lines.append(f"  {'pair':<{pair_width}}{'W':>5}{'D':>5}{'L':>5}  score of the first (95%)")
    for r in pairs:
        s, lo, hi = r.score()
        lines.append(f"  {r.name_a + ' vs ' + r.name_b:<{pair_width}}{r.wins:>5}{r.draws:>5}{r.losses:>5}"
                     f"  {s:.3f} ({lo:.3f}..{hi:.3f})")  # fmt: skip
    return "\n".join(lines)

