"""Accuracy against perfect play on connect four: how often a policy's move keeps the game-theoretic value.

Connect four is solved, so beside a policy's Elo (which only compares it with
other players) it has an absolute measure: on a set of positions drawn from real
games, the share where the policy's move keeps the position's value, a move whose
value is in the same class (win, draw or loss for the mover) as the best move's.
The set ships as package data (``data/connect_four.positions.json``, made by
``baselines/connect_four_positions.py`` from the connect four ladder's games after
8 to 35 moves), with every legal column's exact score, so measuring a policy
needs no solver. It holds only positions where some legal move loses the value:
where every move keeps it, every player does, and the position tells nothing. The share comes with a 95% Wilson score interval and a breakdown
by phase (:data:`PHASES`). A uniformly random player keeps the value on each
position with the share of its legal columns that do, so its expected accuracy is
the mean of those shares (:func:`random_expectation`).

Invariant: every position of the set is live, and its scores name exactly its
legal columns (checked as the set is read).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from boardgame_envs.games.connect_four_solver import state_of_moves
from boardgame_envs.policies.registry import make_policy
from boardgame_envs.safeio.text import read_json

PHASES = ((8, 14), (15, 21), (22, 28), (29, 35))  # plies from the empty board, both ends included
POSITIONS_PATH = "boardgame_envs/ladder/data/connect_four.positions.json"  # from the repository root
DATA = Path(__file__).parent / "data" / "connect_four.positions.json"
GAMES = ("connect_four",)  # the games with a solved set
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


@dataclass(frozen=True)
class Position:
    """A solved position: the columns played (``"4453"``, 1..7) and each legal column's score (0..6 -> score)."""

    moves: str
    scores: dict[int, int]

    @property
    def phase(self) -> int:
        return next(i for i, (lo, hi) in enumerate(PHASES) if lo <= len(self.moves) <= hi)

    def keeps_value(self, column: int) -> bool:
        """Whether ``column`` keeps the position's value: its score has the sign of the best column's."""
        if column not in self.scores:
            raise ValueError(f"column {column} is not a legal move after {self.moves}")
        return _sign(self.scores[column]) == _sign(max(self.scores.values()))

    def informative(self) -> bool:
        """Whether some legal column loses the value (the shipped set holds only such positions)."""
        return len({_sign(v) for v in self.scores.values()}) > 1

    def keeping_share(self) -> float:
        """The share of the legal columns that keep the value: a random player's chance here."""
        return sum(self.keeps_value(c) for c in self.scores) / len(self.scores)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@lru_cache(maxsize=2)
def positions(path: str | None = None) -> tuple[Position, ...]:
    """The solved positions (the shipped set, or the file at ``path`` in its format), checked against the rules."""
    where = Path(path) if path else DATA
    data = read_json(where, what="solved positions")
    rows = data.get("positions") if isinstance(data, dict) else None
    if not isinstance(rows, list) or not rows:
        raise ValueError(f"{where}: expected an object with a list of positions")
    out = []
    for i, row in enumerate(rows):
        try:
            moves, scores = str(row["moves"]), {int(c) - 1: int(v) for c, v in row["scores"].items()}
            state = state_of_moves(moves)
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise ValueError(f"{where}: position {i} is damaged ({exc})") from None
        if state.terminal or sorted(scores) != state.legal_actions().tolist():
            raise ValueError(f"{where}: position {i} ({moves}) does not list exactly its legal columns")
        if not PHASES[0][0] <= len(moves) <= PHASES[-1][1]:
            raise ValueError(f"{where}: position {i} ({moves}) lies outside the phases {PHASES}")
        out.append(Position(moves, scores))
    return tuple(out)


def wilson(kept: int, total: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial share ``kept / total`` (both ends as fractions)."""
    if total <= 0:
        raise ValueError("an interval needs at least one trial")
    p = kept / total
    denom = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denom
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Accuracy:
    """A policy's accuracy on the solved set: overall and per phase (``kept`` of ``total`` positions)."""

    policy: str
    kept: int
    total: int
    phases: list[tuple[int, int]] = field(default_factory=list)  # (kept, total) per phase of PHASES
    expected_random: float = 0.0

    @property
    def share(self) -> float:
        return self.kept / self.total

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.kept, self.total)

    def line(self) -> str:
        low, high = self.interval
        return (f"{self.policy}: {100 * self.share:.1f}% of {self.total:,} positions keep the game-theoretic value "
                f"(95% {100 * low:.1f}..{100 * high:.1f})")  # fmt: skip

    def phase_lines(self) -> list[str]:
        out = []
        for (lo, hi), (kept, total) in zip(PHASES, self.phases):
            if total:
                low, high = wilson(kept, total)
                out.append(f"  after {lo}-{hi} moves: {100 * kept / total:.1f}% of {total} "
                           f"(95% {100 * low:.1f}..{100 * high:.1f})")  # fmt: skip
        return out


def spread(chosen: tuple[Position, ...], limit: int | None) -> tuple[Position, ...]:
    """``limit`` positions spread evenly over ``chosen`` (every phase represented), or all of them."""
    if not limit or limit >= len(chosen):
        return chosen
    return tuple(chosen[i * len(chosen) // limit] for i in range(limit))


def random_expectation(chosen: tuple[Position, ...] | None = None) -> float:
    """A uniformly random player's expected accuracy on the set: the mean share of value-keeping columns."""
    chosen = positions() if chosen is None else chosen
    return sum(p.keeping_share() for p in chosen) / len(chosen)


def accuracy(policy: Any, game: str = "connect_four", seed: int = 0, path: str | None = None,
             limit: int | None = None) -> Accuracy:  # fmt: skip
    """Play ``policy`` (a spec or an object with ``act(state)``, seeded by ``seed`` when a spec) once on each
    solved position of ``game`` (``limit`` of them spread evenly over the set, if given); its :class:`Accuracy`."""
    if game not in GAMES:
        raise ValueError(f"accuracy is measured on solved games: {', '.join(GAMES)}; not {game!r}")
    name = policy if isinstance(policy, str) else getattr(policy, "name", type(policy).__name__)
    player = make_policy(policy, seed=seed) if isinstance(policy, str) else policy
    chosen = spread(positions(path), limit)
    check = getattr(player, "check_game", None)
    if callable(check):
        check(state_of_moves(chosen[0].moves).game)
    phases = [[0, 0] for _ in PHASES]
    for position in chosen:
        column = int(player.act(state_of_moves(position.moves)))
        tally = phases[position.phase]
        tally[0] += position.keeps_value(column)
        tally[1] += 1
    kept = sum(k for k, _ in phases)
    return Accuracy(str(name), kept, len(chosen), [(k, n) for k, n in phases], random_expectation(chosen))
